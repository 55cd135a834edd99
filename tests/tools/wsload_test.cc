// clamsim-wsload end to end: it spawns the real clamsim-server (from the repo root, as a user
// runs it), connects N WebSocket clients, measures, closes them and stops the server.
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

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

class WsloadCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "clamsim-wsload-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // The tool, run in the repo root, in its own process group (a timeout kills its server too).
  Result run(const std::vector<std::string>& args, std::chrono::seconds timeout = 20s) const {
    const std::string out_path = path("stdout.txt");
    const std::string err_path = path("stderr.txt");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addchdir_np(&actions, CLAMSIM_SOURCE_DIR);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    std::vector<std::string> all = {CLAMSIM_WSLOAD_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    Result r;
    const int rc = posix_spawn(&pid, CLAMSIM_WSLOAD_BINARY, &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
      ADD_FAILURE() << "cannot start clamsim-wsload";
      return r;
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(-pid, SIGKILL);
        waitpid(pid, &status, 0);
        ADD_FAILURE() << "clamsim-wsload did not finish in time; killed it and its server";
        break;
      }
      std::this_thread::sleep_for(20ms);
    }
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    return r;
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

double number_after(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) {
    ADD_FAILURE() << "no match for '" << pattern << "' in:\n" << text;
    return -1.0;
  }
  return std::stod(m[1]);
}

// A functional test of the tool: it connects, measures and reports. How many browsers the
// server holds at 20 Hz is a measurement (docs/wsload.md), not asserted here: under the
// sanitizers and a parallel test run the figures depend on the machine's load.
TEST_F(WsloadCli, SessionsAreConnectedMeasuredAndReported) {
  const Result r = run({"--spawn-server", CLAMSIM_SERVER_BINARY, "--sessions", "4", "--duration",
                        "2", "--warmup", "0.5", "--csv", path("s.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("connected: 4 of 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(0 refused, 0 failed)"), std::string::npos) << r.out;
  EXPECT_GT(number_after(r.out, "per session min ([0-9.]+)"), 0.0) << r.out;
  EXPECT_GE(number_after(r.out, "lost frames: (\\d+)"), 0.0) << r.out;
  // 20 frames/s means 50 ms between frames; a wide band only checks the arithmetic.
  const double ia_mean = number_after(r.out, "inter-arrival: min [0-9.]+ mean ([0-9.]+)");
  EXPECT_GT(ia_mean, 25.0);
  EXPECT_LT(ia_mean, 200.0);
  EXPECT_NE(r.out.find("lateness vs the 50 ms schedule: p50"), std::string::npos) << r.out;
  // a ping per second per session came back
  EXPECT_GE(number_after(r.out, "ping round trip: .* \\((\\d+) in the window\\)"), 1.0) << r.out;
  EXPECT_GT(number_after(r.out, "sent: (\\d+) control"), 0.0) << r.out;
  EXPECT_EQ(number_after(r.out, "received \\d+ pong, (\\d+) error"), 0.0) << r.out;
  EXPECT_GT(number_after(r.out, "server: pid \\d+, CPU ([0-9.]+) %"), 0.0) << r.out;
  EXPECT_GT(number_after(r.out, "server cost: ([0-9.]+) frames/s per core"), 0.0) << r.out;
  EXPECT_EQ(number_after(r.out, "server exit status: (-?\\d+)"), 0.0) << r.out;

  std::ifstream csv(path("s.csv"));
  std::string line;
  int rows = 0;
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, 1 + 4);
}

TEST_F(WsloadCli, OverCapacityReportsTheCloseCode) {
  const Result r = run({"--spawn-server", CLAMSIM_SERVER_BINARY, "--server-arg", "--max-sessions",
                        "--server-arg", "3", "--sessions", "5", "--duration", "0.5", "--warmup",
                        "0"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("connected: 3 of 5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 refused"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 x 1013 server full"), std::string::npos) << r.out;
}

TEST_F(WsloadCli, UsageErrors) {
  Result r = run({"--url", "ws://127.0.0.1:1/ws"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--sessions is required"), std::string::npos) << r.err;
  r = run({"--sessions", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--url"), std::string::npos) << r.err;
  r = run({"--url", "http://x/ws", "--sessions", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not ws://"), std::string::npos) << r.err;
}

TEST_F(WsloadCli, NoServerIsAConnectFailure) {
  // a port nobody listens on: every session fails to connect, exit 1
  const Result r = run({"--url", "ws://127.0.0.1:1/ws", "--sessions", "2", "--duration", "0.2",
                        "--warmup", "0"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("connected: 0 of 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 failed"), std::string::npos) << r.out;
}

}  // namespace
