#include "tools/loadgen/server_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace clamsim::loadgen {
namespace {

constexpr std::size_t kMaxOutput = 1 << 16;  // keep the first 64 KiB for error messages
const std::string kReady = "ready ";

int wait_status(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::vector<std::string> server_args_with_defaults(
    std::vector<std::string> args,
    const std::vector<std::pair<std::string, std::string>>& defaults) {
  const auto given = [&](const std::string& flag) {
    for (const auto& a : args)
      if (a == flag || a.rfind(flag + "=", 0) == 0) return true;
    return false;
  };
  for (const auto& [flag, value] : defaults)
    if (!given(flag)) args.insert(args.end(), {flag, value});
  if (!given("--exit-with-parent")) args.insert(args.end(), {"--exit-with-parent", "yes"});
  return args;
}

ServerProcess::ServerProcess(const std::string& path, const std::vector<std::string>& args,
                             double ready_timeout_s) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  std::vector<std::string> all = {path};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = posix_spawn(&pid_, path.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    throw std::runtime_error("cannot start '" + path + "': " + std::strerror(rc));
  }
  out_fd_ = fds[0];

  // read lines until "ready corbaloc::..." (the server flushes right after it)
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(ready_timeout_s));
  std::string pending;
  while (reference_.empty()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      stop();
      throw std::runtime_error("'" + path + "' did not print a ready line within " +
                               std::to_string(ready_timeout_s) + " s; it printed:\n" + output_);
    }
    pollfd p{out_fd_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char buf[4096];
    const ssize_t n = read(out_fd_, buf, sizeof buf);
    if (n <= 0) {
      const int status = stop();
      throw std::runtime_error("'" + path + "' exited (status " + std::to_string(status) +
                               ") before it was ready; it printed:\n" + output_);
    }
    output_.append(buf, static_cast<std::size_t>(n));
    pending.append(buf, static_cast<std::size_t>(n));
    std::size_t eol;
    while ((eol = pending.find('\n')) != std::string::npos) {
      const std::string line = pending.substr(0, eol);
      pending.erase(0, eol + 1);
      if (line.rfind(kReady, 0) == 0 && line.find("corbaloc:") != std::string::npos) {
        reference_ = line.substr(kReady.size());
      }
    }
  }
  drainer_ = std::thread([this] { drain(); });
}

ServerProcess::~ServerProcess() {
  stop();
  if (drainer_.joinable()) drainer_.join();
  if (out_fd_ >= 0) close(out_fd_);
}

void ServerProcess::drain() {
  char buf[4096];
  for (;;) {
    const ssize_t n = read(out_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the server closed its output: it has exited
    std::lock_guard<std::mutex> lock(mutex_);
    if (output_.size() < kMaxOutput) output_.append(buf, static_cast<std::size_t>(n));
  }
}

bool ServerProcess::running() {
  if (pid_ <= 0 || status_ >= 0) return false;
  int status = 0;
  const pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    status_ = wait_status(status);
    return false;
  }
  return r == 0;
}

int ServerProcess::stop() {
  if (pid_ <= 0 || status_ >= 0) return status_;
  if (!running()) return status_;
  kill(pid_, SIGINT);  // at once: SIGTERM would drain, waiting for the clients to leave
  // the server stops every session and prints their counters: give it a few seconds
  for (int i = 0; i < 100; ++i) {
    if (!running()) return status_;
    usleep(50 * 1000);
  }
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  status_ = wait_status(status);
  return status_;
}

std::string ServerProcess::output() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return output_;
}

}  // namespace clamsim::loadgen
