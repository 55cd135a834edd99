// CPU time, threads and memory of a process from Linux's /proc/PID/stat, so the load
// generator can say what serving N receivers costs the server.
#pragma once

#include <sys/types.h>

#include <optional>

namespace clamsim::client {

struct ProcSample {
  double cpu_s = 0.0;  // user + system time so far [s]
  long threads = 0;
  double rss_mib = 0.0;  // resident memory [MiB]
};

// nullopt when the process does not exist (or /proc is unavailable).
std::optional<ProcSample> read_proc(pid_t pid);

}  // namespace clamsim::client
