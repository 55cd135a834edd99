#include "web/status_pages.h"

#include <cstdint>
#include <sstream>

#include <nlohmann/json.hpp>

#include "session/report_index.h"

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
    const session::TaskScore t = s->score();
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
    if (t.enabled) {
      j["task"] = {{"running", t.running},       {"finished", t.finished},
                   {"completed", t.completed},   {"elapsed_s", t.elapsed_s},
                   {"optimum_s", t.optimum_s},   {"limit_s", t.limit_s},
                   {"delivered", t.delivered},   {"required", t.required},
                   {"time_points", t.time_points}, {"penalty_points", t.penalty_points},
                   {"total", t.total},           {"rack_gate_hits", t.rack_gate_hits},
                   {"structure_hits", t.structure_hits}, {"slack_cables", t.slack_cables},
                   {"overloads", t.overloads},   {"dropped_loads", t.dropped_loads}};
    } else {
      j["task"] = nullptr;
    }
    list.push_back(std::move(j));
  }
  nlohmann::ordered_json out;
  out["sessions"] = std::move(list);
  out["capacity"] = registry.capacity();
  return out.dump();
}

std::string reports_json(const session::SessionRegistry& registry) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const session::ReportSummary& r :
       session::report_index_for(registry.report_dir()).list(kReportsListed)) {
    list.push_back({{"name", r.name},         {"session", r.session},
                    {"trainee", r.trainee.empty() ? nlohmann::ordered_json(nullptr)
                                                  : nlohmann::ordered_json(r.trainee)},
                    {"task", r.task},         {"ended_utc", r.ended_utc},
                    {"outcome", r.outcome},   {"elapsed_s", r.elapsed_s},
                    {"total", r.total},       {"delivered", r.delivered},
                    {"required", r.required}});
  }
  return nlohmann::ordered_json{{"reports", std::move(list)}}.dump();
}

std::string metrics_text(const session::SessionRegistry& registry, const WebStats& web) {
  std::ostringstream out;
  auto metric = [&out](const char* name, const char* type, const char* help, std::uint64_t v) {
    out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n'
        << name << ' ' << v << '\n';
  };
  const session::CounterSnapshot t = registry.totals();
  metric("clamsim_sessions", "gauge", "Live sessions, every transport.", registry.size());
  metric("clamsim_session_capacity", "gauge", "Session limit.", registry.capacity());
  metric("clamsim_sessions_created_total", "counter", "Sessions started.",
         registry.sessions_created());
  metric("clamsim_sessions_reaped_total", "counter", "Sessions ended because sends failed.",
         registry.sessions_reaped());
  metric("clamsim_frames_sent_total", "counter", "Frames handed to a transport.", t.frames_sent);
  metric("clamsim_send_failures_total", "counter", "Frames a transport could not send.",
         t.send_failures);
  metric("clamsim_controls_received_total", "counter", "Control messages received.",
         t.controls_received);
  metric("clamsim_controls_rejected_total", "counter", "Control messages rejected.",
         t.controls_rejected);
  metric("clamsim_controls_clamped_total", "counter", "Control messages clamped to -5..+5 V.",
         t.controls_clamped);
  metric("clamsim_late_frames_total", "counter", "Frames sent over a period late.",
         t.late_frames);
  metric("clamsim_skipped_frames_total", "counter", "Frames skipped by a session behind.",
         t.skipped_frames);

  metric("clamsim_ws_connections", "gauge", "Open WebSocket connections.", web.ws_open);
  metric("clamsim_ws_connections_total", "counter", "WebSocket upgrades accepted.",
         web.ws_connections);
  metric("clamsim_ws_messages_received_total", "counter", "WebSocket messages received.",
         web.ws_messages_received);
  metric("clamsim_ws_errors_sent_total", "counter", "error messages sent.", web.ws_errors_sent);
  metric("clamsim_ws_dropped_frames_total", "counter",
         "display frames dropped for browsers that read slowly.", web.ws_frames_dropped);
  metric("clamsim_ws_dropped_messages_total", "counter",
         "Other messages dropped (send queue full of them).", web.ws_messages_dropped);
  out << "# HELP clamsim_ws_closed_total WebSocket connections closed by the server.\n"
      << "# TYPE clamsim_ws_closed_total counter\n"
      << "clamsim_ws_closed_total{reason=\"too_big\"} " << web.ws_closed_too_big << '\n'
      << "clamsim_ws_closed_total{reason=\"flood\"} " << web.ws_closed_flood << '\n'
      << "clamsim_ws_closed_total{reason=\"policy\"} " << web.ws_closed_policy << '\n'
      << "clamsim_ws_closed_total{reason=\"binary\"} " << web.ws_closed_binary << '\n'
      << "clamsim_ws_closed_total{reason=\"full\"} " << web.ws_closed_full << '\n'
      << "clamsim_ws_closed_total{reason=\"stalled\"} " << web.ws_closed_stalled << '\n';
  metric("clamsim_http_requests_total", "counter", "HTTP requests.", web.http_requests);
  metric("clamsim_http_not_found_total", "counter", "HTTP 404 answers.", web.http_not_found);
  metric("clamsim_http_bad_requests_total", "counter", "HTTP 400 and 405 answers.",
         web.http_bad_requests);
  metric("clamsim_connections_refused_total", "counter",
         "TCP connections refused over the connection limit.", web.connections_refused);
  return out.str();
}

}  // namespace clamsim::web
