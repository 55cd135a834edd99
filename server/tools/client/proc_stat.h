// CPU time, threads, memory and context switches of a process from Linux's /proc, so the
// load generators can say what serving N receivers costs the server.
#pragma once

#include <sys/types.h>

#include <optional>

namespace clamsim::client {

struct ProcSample {
  double cpu_s = 0.0;  // user + system time so far [s]
  long threads = 0;
  double rss_mib = 0.0;  // resident memory [MiB]
  // Voluntary + involuntary context switches of the threads alive now, summed over
  // /proc/PID/task/*/status (a thread that has ended no longer counts); -1 = not readable.
  long long context_switches = -1;
};

// nullopt when the process does not exist (or /proc is unavailable).
std::optional<ProcSample> read_proc(pid_t pid);

// The whole machine's CPU time from /proc/stat's first line: every core's busy and total
// ticks so far, so two samples give how busy the machine was between them (the load
// generator's "at 80 % CPU load" is the machine's, whoever used it).
struct MachineSample {
  double busy_s = 0.0;
  double total_s = 0.0;
};
std::optional<MachineSample> read_machine();

// Busy share of the machine's cores between two samples, 0..1.
double busy_between(const MachineSample& before, const MachineSample& after);

}  // namespace clamsim::client
