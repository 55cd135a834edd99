// The load generator's figures: per session and over all sessions, and whether each
// session was "held" at its frame rate (enough frames, none lost, p99 lateness within the
// limit). Printed for people, and as CSV one row per session.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "tools/client/arrival_stats.h"
#include "tools/client/subscription.h"
#include "tools/loadgen/fleet.h"

namespace clamsim::loadgen {

struct SessionFigures {
  int index = 0;
  bool subscribed = false;
  std::string failure;
  std::uint64_t frames = 0;  // in the window
  double fps = 0.0;
  std::uint64_t lost = 0;  // sequence gaps in the window (extended only)
  std::uint64_t out_of_order = 0;
  client::RunningStats inter_arrival;
  double late_p50_s = 0.0;
  double late_p99_s = 0.0;
  double late_max_s = 0.0;
  bool held = false;
  std::uint64_t controls_sent = 0;
  std::uint64_t controls_failed = 0;
  std::optional<client::SessionCounters> server;
};

struct CpuFigures {
  double cpu_s = 0.0;  // CPU time used in the window
  double wall_s = 0.0;
  long threads = 0;
  double rss_mib = 0.0;
  long long context_switches = -1;   // in the window, every thread's; -1 = not measured
  double percent_of_core() const { return wall_s > 0.0 ? 100.0 * cpu_s / wall_s : 0.0; }
};

struct LoadReport {
  std::string reference;
  bool legacy = false;
  int requested = 0;
  double window_s = 0.0;
  double nominal_hz = 20.0;
  double late_limit_s = 0.002;
  RampResult ramp;
  int unsubscribe_failures = 0;
  std::vector<SessionFigures> sessions;
  // over all subscribed sessions
  std::uint64_t frames = 0;
  std::uint64_t lost = 0;
  std::uint64_t out_of_order = 0;
  client::RunningStats inter_arrival;  // pooled
  client::RunningStats fps;            // across sessions
  double late_p50_s = 0.0;             // pooled over every frame of every session
  double late_p99_s = 0.0;
  double late_max_s = 0.0;
  int held = 0;
  int silent = 0;  // subscribed sessions that got no frame at all in the window
  int gone = 0;    // extended sessions whose stats() failed at the end (reaped?)
  std::uint64_t controls_sent = 0;
  std::uint64_t controls_failed = 0;
  std::optional<client::SessionCounters> server_totals;  // summed over the sessions' stats()
  std::optional<client::ServerStatusInfo> server_status;  // Admin::status() at the end
  std::optional<CpuFigures> server_cpu;
  std::optional<pid_t> server_pid;
  std::optional<CpuFigures> loadgen_cpu;
  std::optional<double> machine_busy;      // share of all cores busy in the window, 0..1
  // --baseline: one session alone before the others joined
  std::optional<double> baseline_p99_s;
  double baseline_s = 0.0;
};

// Fills the per-session and the overall figures from the fleet after the window.
void summarize(const Fleet& fleet, LoadReport& report);

void print_report(std::FILE* out, const LoadReport& report);
// Throws std::runtime_error when the file cannot be written.
void write_csv(const std::string& path, const LoadReport& report);

}  // namespace clamsim::loadgen
