// Running clamsim's command-line tools as child processes in tests: output captured to files
// in a scratch folder, the tool in its own process group so that a timeout also kills any
// server it spawned. Header-only; shared by the tools' CLI tests.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace clamsim::testing {

namespace fs = std::filesystem;

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The number in the first capture group of `pattern` in `text` (a test failure if absent).
inline double number_after(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) {
    ADD_FAILURE() << "no match for '" << pattern << "' in:\n" << text;
    return -1.0;
  }
  return std::stod(m[1]);
}

// A fresh folder under the system's temp directory, removed with everything in it.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix) {
    std::string tmpl = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (mkdtemp(tmpl.data()) == nullptr) ADD_FAILURE() << "cannot create " << tmpl;
    dir_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  fs::path dir_;
};

struct ToolResult {
  int exit_code = -1;   // 128 + signal when killed
  std::string out;
  std::string err;
};

// Runs `binary args...` (in `cwd` when given, standard input from `stdin_path` when
// given) to completion, or kills its whole process group after `timeout`.
inline ToolResult run_tool(const std::string& binary, const std::vector<std::string>& args,
                           const ScratchDir& scratch, std::chrono::seconds timeout,
                           const std::string& cwd = "", const std::string& stdin_path = "") {
  const std::string out_path = scratch.path("stdout.txt");
  const std::string err_path = scratch.path("stderr.txt");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  if (!stdin_path.empty())
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, stdin_path.c_str(), O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // a timeout kills its server too
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<std::string> all = {binary};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  ToolResult r;
  const int rc = posix_spawn(&pid, binary.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    ADD_FAILURE() << "cannot start " << binary;
    return r;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      ADD_FAILURE() << binary << " did not finish in time; killed it and its children";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

}  // namespace clamsim::testing
