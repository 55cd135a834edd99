// A clamsim-server the load generator starts itself (--spawn-server), so one command
// measures a fresh server and knows its pid for the CPU reading. The server's standard
// output is read until it prints "ready corbaloc::...", which is the reference to use;
// after that a thread keeps draining it so the server never blocks on a full pipe.
#pragma once

#include <sys/types.h>

#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace clamsim::loadgen {

// The server's arguments: the caller's `args`, then each of `defaults` (flag, value) the
// caller did not give, then --exit-with-parent yes (unless given) so the server never
// outlives the tool that started it, even when that tool is killed.
std::vector<std::string> server_args_with_defaults(
    std::vector<std::string> args,
    const std::vector<std::pair<std::string, std::string>>& defaults);

class ServerProcess {
 public:
  // Starts `path` with `args`; waits up to `ready_timeout_s` for the ready line. Throws
  // std::runtime_error (with the server's output so far) when it exits or times out.
  ServerProcess(const std::string& path, const std::vector<std::string>& args,
                double ready_timeout_s);
  // Stops the server if still running (SIGINT, then SIGKILL after 5 s).
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  pid_t pid() const { return pid_; }
  const std::string& reference() const { return reference_; }
  // SIGINT and wait; returns the exit status (128 + signal when killed). Idempotent.
  int stop();
  // Whether the process is still alive (not reaped).
  bool running();
  // Everything it printed so far (bounded).
  std::string output() const;

 private:
  void drain();

  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::string reference_;
  mutable std::mutex mutex_;
  std::string output_;
  std::thread drainer_;
  int status_ = -1;
};

}  // namespace clamsim::loadgen
