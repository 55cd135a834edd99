// Command line of clamsim-loadgen (docs/loadgen.md).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace clamsim::loadgen {

struct LoadgenOptions {
  std::string server;                    // --server REF ("" with --spawn-server: its own)
  int sessions = 1;                      // --sessions N
  double duration_s = 10.0;              // --duration S: the measurement window
  double warmup_s = 1.0;                 // --warmup S: after the last subscription
  double baseline_s = 0.0;               // --baseline S: one session alone first, for S s
  bool legacy = false;                   // --legacy: CLAM::CraneClamAdmin::subscribe
  std::string csv_path;                  // --csv FILE: one row per session
  std::optional<pid_t> server_pid;       // --server-pid PID: whose CPU to read
  std::string spawn_server;              // --spawn-server PATH: start (and stop) the server
  std::vector<std::string> server_args;  // --server-arg ARG (repeatable), for the spawned one
  double subscribe_rate = 0.0;           // --subscribe-rate R: subscriptions per second;
                                         // 0 = spread the frame phases (see fleet.h)
  unsigned subscribe_timeout_ms = 5000;  // --subscribe-timeout-ms
  double control_rate_hz = 20.0;         // --control-rate HZ: GetControlInput per session; 0 none
  std::string controls_path;             // --controls FILE: what every session sends
  double rate_hz = 0.0;                  // --rate HZ: frames/s to ask for (0 = server default)
  std::string model;                     // --model NAME
  bool bidir = false;                    // --bidir
  std::string listen;                    // --listen HOST[:PORT]
  double late_limit_ms = 2.0;            // --late-limit-ms: "held" needs p99 lateness below
  bool help = false;
  std::vector<std::string> orb_args;  // -ORBname value
};

// Throws cli::UsageError naming the offending argument.
LoadgenOptions parse_loadgen_options(int argc, const char* const* argv);

const char* loadgen_usage();

}  // namespace clamsim::loadgen
