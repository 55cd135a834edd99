#include "web/status_pages.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <map>
#include <vector>
#include <sstream>

#include <nlohmann/json.hpp>

#include "training/report_figures.h"
#include "training/report_index.h"
#include "version/version.h"
#include "web/field_json.h"

namespace clamsim::web {

std::string health_json(const session::SessionRegistry& registry) {
  nlohmann::ordered_json j;
  j["status"] = registry.closed() ? "shutting_down" : "ok";
  j["sessions"] = registry.size();
  j["capacity"] = registry.capacity();
  return j.dump();
}

std::string sessions_json(const session::SessionRegistry& registry) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& s : registry.sessions()) {
    const training::TaskScore t = s->score();
    const session::CounterSnapshot c = s->counters();
    nlohmann::ordered_json j;
    j["id"] = s->id();
    j["label"] = s->label();
    const std::string trainee = s->trainee();
    j["trainee"] = trainee.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(trainee);
    j["model"] = s->machine().name;
    const std::string& world = s->machine().world_name;
    j["world"] = world.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(world);
    j["sim_time_s"] = s->sim_time_s();
    j["frames_sent"] = c.frames_sent;
    j["restarts"] = c.restarts;
    j["counters"] = fields_json(session::kCounterFields, c);
    j["task"] = t.enabled ? fields_json(training::kTaskScoreFields, t) : nlohmann::ordered_json(nullptr);
    const training::LessonProgress l = s->lesson();
    j["lesson"] = l.enabled ? nlohmann::ordered_json{{"step", l.step}, {"steps", l.steps},
                                                     {"finished", l.finished}}
                            : nlohmann::ordered_json(nullptr);
    // what instructors are doing to it: who drives, which faults are in force
    const session::ControlState control = s->desk().control().state();
    j["control"] = {{"mode", session::to_string(control.mode)},
                    {"holder", control.holder != 0 ? nlohmann::ordered_json(control.holder_name)
                                                   : nlohmann::ordered_json(nullptr)}};
    j["faults"] = s->desk().active_faults();
    list.push_back(std::move(j));
  }
  nlohmann::ordered_json out;
  out["sessions"] = std::move(list);
  out["capacity"] = registry.capacity();
  return out.dump();
}

std::string reports_json(const std::vector<training::ReportSummary>& reports) {
  using training::round_figure;
  using training::figure_decimals;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const training::ReportSummary& r : reports) {
    list.push_back({{"name", r.name},         {"session", r.session},
                    {"trainee", r.trainee.empty() ? nlohmann::ordered_json(nullptr)
                                                  : nlohmann::ordered_json(r.trainee)},
                    {"task", r.task},         {"kind", r.kind},
                    {"ended_utc", r.ended_utc},
                    {"outcome", r.outcome},
                    {"elapsed_s", round_figure(r.elapsed_s, figure_decimals("elapsed_s"))},
                    {"total", round_figure(r.total, figure_decimals("total"))},
                    {"delivered", r.delivered}, {"required", r.required},
                    {"recording", r.recording.empty() ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(r.recording)},
                    {"recording_from_k", r.recording_from_k}});
  }
  return nlohmann::ordered_json{{"reports", std::move(list)}}.dump();
}

Probe liveness(const session::SessionRegistry& registry, double stall_limit_s) {
  const auto limit = std::chrono::duration_cast<session::Duration>(
      std::chrono::duration<double>(stall_limit_s));
  const std::vector<std::uint64_t> stalled = registry.stalled_sessions(limit);
  nlohmann::ordered_json j;
  if (stalled.empty()) {
    j["status"] = "ok";
    j["sessions"] = registry.size();
    return {200, j.dump()};
  }
  j["status"] = "stalled";
  j["sessions"] = stalled;
  j["reason"] = std::to_string(stalled.size()) + " session thread(s) made no progress for " +
                std::to_string(stall_limit_s) + " s";
  return {503, j.dump()};
}

Probe readiness(const session::SessionRegistry& registry) {
  const session::Readiness r = registry.readiness();
  nlohmann::ordered_json j;
  j["status"] = r.status;
  if (!r.ready) j["reason"] = r.reason;
  j["sessions"] = registry.size();
  j["capacity"] = registry.capacity();
  return {r.ready ? 200 : 503, j.dump()};
}

namespace {

// Prometheus text exposition format 0.0.4: HELP and TYPE once per metric family.
class MetricsWriter {
 public:
  void family(const std::string& name, const char* type, const char* help) {
    out_ << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
  }
  void sample(const std::string& name, double v, const std::string& labels = "") {
    out_ << name;
    if (!labels.empty()) out_ << '{' << labels << '}';
    char text[32];
    // counts as whole numbers (a stream would print 1.23457e+07), the rest to 9 digits
    if (v == std::floor(v) && std::fabs(v) < 1e15)
      std::snprintf(text, sizeof text, "%lld", static_cast<long long>(v));
    else
      std::snprintf(text, sizeof text, "%.9g", v);
    out_ << ' ' << text << '\n';
  }
  void single(const std::string& name, const char* type, const char* help, double v) {
    family(name, type, help);
    sample(name, v);
  }
  void histogram(const std::string& name, const char* help,
                 const session::Histogram::Snapshot& h) {
    family(name, "histogram", help);
    for (std::size_t i = 0; i < h.upper_bounds.size(); ++i) {
      std::ostringstream le;
      le << "le=\"" << h.upper_bounds[i] << '"';
      sample(name + "_bucket", static_cast<double>(h.cumulative[i]), le.str());
    }
    sample(name + "_bucket", static_cast<double>(h.count), "le=\"+Inf\"");
    sample(name + "_sum", h.sum);
    sample(name + "_count", static_cast<double>(h.count));
  }
  std::string text() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

// Session transports always listed, so a dashboard's series exist from the start.
constexpr const char* kTransports[] = {"corba", "websocket"};

}  // namespace

std::string metrics_text(const session::SessionRegistry& registry, const WebStats& web) {
  MetricsWriter m;
  m.family("clamsim_build_info", "gauge", "The server's version; always 1.");
  m.sample("clamsim_build_info", 1, std::string("version=\"") + kVersion + "\"");

  std::map<std::string, std::size_t> live = registry.sessions_by_transport();
  for (const char* t : kTransports) live.emplace(t, 0);
  m.family("clamsim_sessions", "gauge", "Live sessions by transport.");
  for (const auto& [transport, n] : live)
    m.sample("clamsim_sessions", static_cast<double>(n), "transport=\"" + transport + "\"");
  m.single("clamsim_session_capacity", "gauge", "Session limit.",
           static_cast<double>(registry.capacity()));
  const session::Readiness ready = registry.readiness();
  m.single("clamsim_ready", "gauge", "1 while new sessions are taken (/readyz 200).",
           ready.ready ? 1 : 0);
  m.single("clamsim_draining", "gauge", "1 while the server drains after SIGTERM.",
           registry.draining() ? 1 : 0);
  m.single("clamsim_sessions_created_total", "counter", "Sessions started.",
           static_cast<double>(registry.sessions_created()));
  m.single("clamsim_sessions_reaped_total", "counter", "Sessions ended because sends failed.",
           static_cast<double>(registry.sessions_reaped()));
  m.family("clamsim_sessions_refused_total", "counter", "Sessions refused, by reason.");
  for (std::size_t i = 0; i < session::kRefusalKinds; ++i) {
    const auto why = static_cast<session::Refusal>(i);
    m.sample("clamsim_sessions_refused_total",
             static_cast<double>(registry.sessions_refused(why)),
             std::string("reason=\"") + session::to_string(why) + "\"");
  }
  // every counter of the shutdown printout, from the same list (session/counters.h)
  const session::CounterSnapshot t = registry.totals();
  for (const session::CounterField& f : session::kCounterFields)
    m.single(std::string("clamsim_") + f.name + "_total", "counter", f.help,
             static_cast<double>(t.*f.member));
  m.histogram("clamsim_frame_lateness_seconds",
              "How long after its deadline each frame was handed to its transport.",
              registry.wide().lateness_s.snapshot());
  m.histogram("clamsim_frame_compute_seconds",
              "Session-thread time to integrate, score and package one frame.",
              registry.wide().compute_s.snapshot());

  // the web front end's own counters, from their list (web/web_stats.h); a labelled
  // family's rows are adjacent, so its HELP and TYPE go out once
  const char* family = nullptr;
  for (const WebStatField& f : kWebStatFields) {
    if (f.metric == nullptr) continue;
    if (family == nullptr || std::string(family) != f.metric) m.family(f.metric, f.type, f.help);
    family = f.metric;
    m.sample(f.metric, static_cast<double>(web.*f.member), f.label);
  }
  return m.text();
}

}  // namespace clamsim::web
