#include "tools/receiver/summary.h"

namespace clamsim::receiver {
namespace {

unsigned long long ull(std::uint64_t v) { return static_cast<unsigned long long>(v); }

// Frames the server numbered up to the last one we saw (seq starts at 0 per session).
std::uint64_t numbered(const client::ArrivalStats& f) { return f.has_seq() ? f.last_seq() + 1 : 0; }

}  // namespace

std::uint64_t lost_frames(const RunReport& r) {
  const client::ArrivalStats& f = r.frames;
  if (f.has_seq()) {
    const std::uint64_t distinct = f.frames() - f.out_of_order();
    const std::uint64_t n = numbered(f);
    return n > distinct ? n - distinct : 0;
  }
  const std::uint64_t expected = f.expected_by_schedule();
  return expected > f.frames() ? expected - f.frames() : 0;
}

void print_summary(std::FILE* out, const RunReport& r) {
  const client::ArrivalStats& f = r.frames;
  std::fprintf(out, "clamsim-receiver: %.2f s, %s at %.1f Hz\n", r.duration_s,
               r.legacy ? "CLAM::CraneClamClient (getDisplayData, 2001 interface)"
                        : "CLAMX::NoticeClient (getFrame, notify)",
               1.0 / r.period_s);
  std::fprintf(out, "oneway calls (thesis Table 5.2)        sent  received\n");
  if (r.legacy) {
    std::fprintf(out, "  SP->SR getDisplayData      %10llu %9llu   (sent = expected at %.0f Hz)\n",
                 ull(f.expected_by_schedule()), ull(f.frames()), 1.0 / r.period_s);
    std::fprintf(out,
                 "  SR->SP GetControlInput     %10llu       n/a   (the 2001 interface has no "
                 "counters)\n",
                 ull(r.controls_sent));
  } else {
    std::fprintf(out,
                 "  SP->SR getFrame            %10llu %9llu   (sent = numbered up to the "
                 "last seq)\n",
                 ull(numbered(f)), ull(f.frames()));
    if (r.server) {
      std::fprintf(out, "  SR->SP GetControlInput     %10llu %9llu\n", ull(r.controls_sent),
                   ull(r.server->controls_received));
    } else {
      std::fprintf(out, "  SR->SP GetControlInput     %10llu       n/a   (%s)\n",
                   ull(r.controls_sent), r.server_lost ? "server lost" : "stats() failed");
    }
  }
  std::fprintf(out, "lost frames: %llu%s\n", ull(lost_frames(r)),
               r.legacy ? " (expected - received)" : " (sequence gaps)");
  if (f.out_of_order() > 0) {
    std::fprintf(out, "out-of-order frames: %llu\n", ull(f.out_of_order()));
  }
  if (r.control_failures > 0) {
    std::fprintf(out, "GetControlInput calls that raised: %llu\n", ull(r.control_failures));
  }
  const client::RunningStats& ia = f.inter_arrival();
  const std::vector<double> late = f.lateness_s();
  const double span = f.last_arrival_s() - f.first_arrival_s();
  std::fprintf(out,
               "frames: %.1f/s; inter-arrival min %.2f mean %.2f std %.2f ms; "
               "lateness p50 %.2f p99 %.2f max %.2f ms\n",
               span > 0.0 ? static_cast<double>(f.frames() - 1) / span : 0.0, ia.min() * 1e3,
               ia.mean() * 1e3, ia.stddev() * 1e3, client::percentile(late, 50) * 1e3,
               client::percentile(late, 99) * 1e3, client::percentile(late, 100) * 1e3);
  if (r.task) {
    const client::ReceivedScore& t = *r.task;
    std::fprintf(out,
                 "task: %s, %d of %d loads delivered in %.1f s, %.0f points (%.0f off for "
                 "penalties); %llu restart(s), %llu report(s)%s%s\n",
                 !t.finished ? "not finished" : t.completed ? "completed" : "timed out",
                 t.delivered, t.required, t.elapsed_s, t.total, t.penalty_points,
                 ull(r.restarts), ull(r.task_reports), r.report_saved.empty() ? "" : ", saved to ",
                 r.report_saved.c_str());
  }
  if (r.server) {
    std::fprintf(out, "server counters: %s\n", client::counters_text(*r.server).c_str());
  }
}

}  // namespace clamsim::receiver
