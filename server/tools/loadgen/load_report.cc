#include "tools/loadgen/load_report.h"

#include "corba/idl_fields.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace clamsim::loadgen {
namespace {

unsigned long long ull(std::uint64_t v) { return static_cast<unsigned long long>(v); }

// A session is held at its rate when it got at least this share of the nominal frames.
constexpr double kHeldShare = 0.975;

// Who asked for what, and how many sessions got in (each distinct refusal once).
void print_subscriptions(std::FILE* out, const LoadReport& r) {
  std::fprintf(out, "clamsim-loadgen: %d sessions for %.1f s against %s (%s)\n", r.requested,
               r.window_s, r.reference.c_str(),
               r.legacy ? "CLAM getDisplayData" : "CLAMX getFrame");
  std::fprintf(out, "subscribed: %d of %d in %.2f s (%d refused, %d failed)\n", r.ramp.subscribed,
               r.requested, r.ramp.seconds, r.ramp.refused, r.ramp.failed);
  // the distinct reasons, once each: "server full" for 10 sessions is one line
  std::vector<std::string> reasons;
  for (const auto& s : r.sessions) {
    if (s.subscribed || s.failure.empty()) continue;
    bool seen = false;
    for (const auto& x : reasons) seen = seen || x == s.failure;
    if (!seen) reasons.push_back(s.failure);
  }
  for (const auto& x : reasons) std::fprintf(out, "  not subscribed: %s\n", x.c_str());
}

// The frames the subscribed sessions got: their rate, spacing, lateness, losses, and how
// many sessions were held at the rate.
void print_frames(std::FILE* out, const LoadReport& r) {
  std::fprintf(out,
               "frames/s: total %.1f, per session min %.2f mean %.2f max %.2f (nominal %.1f)\n",
               static_cast<double>(r.frames) / r.window_s, r.fps.min(), r.fps.mean(), r.fps.max(),
               r.nominal_hz);
  std::fprintf(out, "inter-arrival: min %.2f mean %.2f std %.2f max %.2f ms (all sessions)\n",
               r.inter_arrival.min() * 1e3, r.inter_arrival.mean() * 1e3,
               r.inter_arrival.stddev() * 1e3, r.inter_arrival.max() * 1e3);
  std::fprintf(out, "lateness vs the %.0f ms schedule: p50 %.2f p99 %.2f max %.2f ms\n",
               1e3 / r.nominal_hz, r.late_p50_s * 1e3, r.late_p99_s * 1e3, r.late_max_s * 1e3);
  if (r.baseline_p99_s && *r.baseline_p99_s > 0.0) {
    std::fprintf(out, "%s\n",
                 client::baseline_line(r.baseline_s, *r.baseline_p99_s, r.ramp.subscribed,
                                       r.late_p99_s, r.machine_busy)
                     .c_str());
  }
  if (r.legacy) {
    std::fprintf(out, "lost frames: n/a (the 2001 interface has no sequence numbers)\n");
  } else {
    std::fprintf(out, "lost frames: %llu (sequence gaps); out of order %llu\n", ull(r.lost),
                 ull(r.out_of_order));
  }
  std::fprintf(out,
               "held at %.0f Hz (>= %.1f fps, no loss, p99 lateness <= %.1f ms): %d of %d "
               "sessions\n",
               r.nominal_hz, kHeldShare * r.nominal_hz, r.late_limit_s * 1e3, r.held,
               r.ramp.subscribed);
  if (r.silent > 0 || r.gone > 0) {
    // the server reaps a session whose frames cannot be delivered for a while
    std::fprintf(out,
                 "sessions without a frame in the window: %d; gone from the server at the end "
                 "(stats() failed): %d\n",
                 r.silent, r.gone);
  }
}

// The controls sent, and what the server and this machine said and spent.
void print_server_side(std::FILE* out, const LoadReport& r) {
  std::fprintf(out, "controls: %llu GetControlInput sent, %llu raised", ull(r.controls_sent),
               ull(r.controls_failed));
  if (r.server_totals) {
    std::fprintf(out, "; server counted %llu received", ull(r.server_totals->controls_received));
  }
  std::fprintf(out, "\n");
  if (r.server_totals) {
    std::fprintf(out, "server counters (whole run): %s\n",
                 client::counters_text(*r.server_totals).c_str());
  }
  if (r.server_status) {
    const client::ServerStatusInfo& st = *r.server_status;
    std::fprintf(out, "server status: %u sessions (capacity %u), %llu reaped so far, version %s\n",
                 st.sessions, st.capacity, ull(st.sessions_reaped), st.version.c_str());
  }
  if (r.server_cpu) {
    const CpuFigures& c = *r.server_cpu;
    std::fprintf(out,
                 "server: pid %d, CPU %.1f %% of one core (%.2f s in %.2f s), %ld threads, "
                 "RSS %.1f MiB\n",
                 static_cast<int>(r.server_pid.value_or(0)), c.percent_of_core(), c.cpu_s, c.wall_s,
                 c.threads, c.rss_mib);
    if (c.context_switches >= 0 && r.frames > 0)
      std::fprintf(out, "server context switches: %lld in the window, %.2f per frame\n",
                   c.context_switches,
                   static_cast<double>(c.context_switches) / static_cast<double>(r.frames));
  } else {
    std::fprintf(out, "server: CPU not measured (give --server-pid or --spawn-server)\n");
  }
  if (r.loadgen_cpu) {
    std::fprintf(out, "loadgen: CPU %.1f %% of one core, %ld threads\n",
                 r.loadgen_cpu->percent_of_core(), r.loadgen_cpu->threads);
  }
  if (r.machine_busy) {
    std::fprintf(out, "machine: %.0f %% of all cores busy in the window (every process)\n",
                 *r.machine_busy * 100.0);
  }
  if (r.unsubscribe_failures > 0) {
    std::fprintf(out, "unsubscribe failed for %d sessions (the server reaps them)\n",
                 r.unsubscribe_failures);
  }
}

}  // namespace

void summarize(const Fleet& fleet, LoadReport& r) {
  std::vector<double> pooled_lateness;
  for (const auto& slot : fleet.slots()) {
    SessionFigures s;
    s.index = slot->index;
    s.subscribed = slot->subscribed;
    s.failure = slot->failure;
    s.controls_sent = slot->controls_sent;
    s.controls_failed = slot->controls_failed;
    s.server = slot->server;
    if (s.subscribed) {
      const client::ArrivalStats a = slot->recorder->window_stats();
      s.frames = a.frames();
      s.fps = static_cast<double>(a.frames()) / r.window_s;
      s.lost = a.lost();
      s.out_of_order = a.out_of_order();
      s.inter_arrival = a.inter_arrival();
      const std::vector<double> late = a.lateness_s();
      s.late_p50_s = client::percentile(late, 50);
      s.late_p99_s = client::percentile(late, 99);
      s.late_max_s = client::percentile(late, 100);
      s.held = s.fps >= kHeldShare * r.nominal_hz && s.lost == 0 && s.late_p99_s <= r.late_limit_s;
      pooled_lateness.insert(pooled_lateness.end(), late.begin(), late.end());
      r.frames += s.frames;
      r.lost += s.lost;
      r.out_of_order += s.out_of_order;
      r.inter_arrival.merge(s.inter_arrival);
      r.fps.add(s.fps);
      r.held += s.held ? 1 : 0;
      r.silent += s.frames == 0 ? 1 : 0;
      r.gone += !r.legacy && !s.server ? 1 : 0;
      r.controls_sent += s.controls_sent;
      r.controls_failed += s.controls_failed;
      if (s.server) {
        if (!r.server_totals) r.server_totals.emplace();
        *r.server_totals += *s.server;
      }
    }
    r.sessions.push_back(std::move(s));
  }
  r.late_p50_s = client::percentile(pooled_lateness, 50);
  r.late_p99_s = client::percentile(pooled_lateness, 99);
  r.late_max_s = client::percentile(pooled_lateness, 100);
}

void print_report(std::FILE* out, const LoadReport& r) {
  print_subscriptions(out, r);
  if (r.ramp.subscribed == 0) return;

  print_frames(out, r);
  print_server_side(out, r);
}

void write_csv(const std::string& path, const LoadReport& r) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    throw std::runtime_error("--csv: cannot write '" + path + "': " + std::strerror(errno));
  }
  // one server_<name> column per counter CLAMX::SessionStats carries (corba/idl_fields.h)
  std::string server_columns;
  for (const auto& wire : corba::kIdlStatsFields)
    server_columns += std::string("server_") + wire.name + ",";
  bool ok = std::fprintf(f,
                         "session,subscribed,frames,fps,lost,out_of_order,ia_min_ms,ia_mean_ms,"
                         "ia_std_ms,ia_max_ms,late_p50_ms,late_p99_ms,late_max_ms,held,"
                         "controls_sent,controls_failed,%sfailure\n",
                         server_columns.c_str()) >= 0;
  for (const auto& s : r.sessions) {
    std::string failure = s.failure;
    for (char& c : failure) {
      if (c == '"') c = '\'';
    }
    ok = ok && std::fprintf(f,
                            "%d,%d,%llu,%.3f,%llu,%llu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d,"
                            "%llu,%llu,",
                            s.index, s.subscribed ? 1 : 0, ull(s.frames), s.fps, ull(s.lost),
                            ull(s.out_of_order), s.inter_arrival.min() * 1e3,
                            s.inter_arrival.mean() * 1e3, s.inter_arrival.stddev() * 1e3,
                            s.inter_arrival.max() * 1e3, s.late_p50_s * 1e3, s.late_p99_s * 1e3,
                            s.late_max_s * 1e3, s.held ? 1 : 0, ull(s.controls_sent),
                            ull(s.controls_failed)) >= 0;
    for (const auto& wire : corba::kIdlStatsFields) {
      const auto& field = session::kCounterFields[core::index_of(session::kCounterFields, wire.name)];
      ok = ok && (s.server ? std::fprintf(f, "%llu,", ull((*s.server).*field.member))
                           : std::fprintf(f, ",")) >= 0;
    }
    ok = ok && std::fprintf(f, "\"%s\"\n", failure.c_str()) >= 0;
  }
  if (std::fclose(f) != 0) ok = false;
  if (!ok) throw std::runtime_error("--csv: writing '" + path + "' failed");
}

}  // namespace clamsim::loadgen
