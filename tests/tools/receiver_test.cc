// clamsim-receiver end to end against the real clamsim-server (both as child processes,
// as a classroom PC runs them), plus the receiver's pure parts: the joystick mapping and
// source (on recorded js_event files), the keyboard keys, the summary's arithmetic.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/joystick.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/json_fields.h"
#include "model/keyboard_file.h"
#include "tools/receiver/joystick_mapping.h"
#include "tools/receiver/joystick_source.h"
#include "tools/receiver/keyboard_source.h"
#include "tools/receiver/status_line.h"
#include "tools/receiver/summary.h"

extern char** environ;

#include "tool_run.h"

namespace {

using clamsim::testing::slurp;

namespace fs = std::filesystem;
namespace receiver = clamsim::receiver;
using namespace std::chrono_literals;

const std::string kSource = CLAMSIM_SOURCE_DIR;

std::vector<std::vector<std::string>> read_csv(const fs::path& p) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(slurp(p));
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream ls(line);
    while (std::getline(ls, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  return rows;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

// Polls waitpid until the child exits or the timeout passes (then SIGKILLs it).
int wait_for(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      ADD_FAILURE() << "child " << pid << " did not exit in time; killed";
      return -1;
    }
    std::this_thread::sleep_for(10ms);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The real server on loopback and a free port; stopped (and if need be killed) at the end.
class ServerChild {
 public:
  explicit ServerChild(const std::vector<std::string>& env_extra = {},
                       const std::vector<std::string>& args_extra = {}) {
    int fds[2];
    if (pipe(fds) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<std::string> args = {CLAMSIM_SERVER_BINARY,
                                     "--host",
                                     "127.0.0.1",
                                     "--corba-port",
                                     "0",
                                     "--http-port",
                                     "0",
                                     "--exit-with-parent",  // never outlives a killed test
                                     "yes",
                                     "--models-dir",
                                     kSource + "/models"};
    if (std::find(args_extra.begin(), args_extra.end(), "--scenarios-dir") == args_extra.end()) {
      args.insert(args.end(), {"--scenarios-dir", kSource + "/config/scenarios"});
    }
    args.insert(args.end(), args_extra.begin(), args_extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
    env.insert(env.end(), env_extra.begin(), env_extra.end());
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    const int rc = posix_spawn(&pid_, args[0].c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (rc != 0) {
      pid_ = -1;
      close(fds[0]);
      return;
    }
    fd_ = fds[0];
    // the server flushes "ready corbaloc::..." once it serves
    std::string out;
    const auto deadline = std::chrono::steady_clock::now() + 15s;
    while (reference_.empty() && std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[1024];
      const ssize_t n = read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      out.append(buf, static_cast<std::size_t>(n));
      std::smatch m;
      if (std::regex_search(out, m, std::regex("ready (corbaloc:[^\\s]+)"))) reference_ = m[1];
    }
    // keep draining so the server never blocks on a full pipe
    drainer_ = std::thread([fd = fd_] {
      char buf[1024];
      while (read(fd, buf, sizeof buf) > 0) {
      }
    });
  }

  ~ServerChild() {
    if (pid_ > 0) {
      kill(pid_, SIGINT);  // at once (SIGTERM would drain)
      if (wait_for(pid_, 10s) < 0) ADD_FAILURE() << "server did not stop on SIGINT";
    }
    if (drainer_.joinable()) drainer_.join();
    if (fd_ >= 0) close(fd_);
  }

  const std::string& reference() const { return reference_; }

  // A crash, not a shutdown: no goodbye to anyone.
  void kill_now() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    wait_for(pid_, 5s);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string reference_;
  std::thread drainer_;
};

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

class ReceiverCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new ServerChild(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  void SetUp() override {
    ASSERT_FALSE(server_->reference().empty()) << "clamsim-server did not become ready";
    std::string tmpl = (fs::temp_directory_path() / "clamsim-receiver-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Starts the receiver with output captured in files.
  pid_t start(const std::vector<std::string>& args,
              const std::string& stdin_path = "/dev/null") const {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, stdin_path.c_str(), O_RDWR, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, path("stdout.txt").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, path("stderr.txt").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> all = {CLAMSIM_RECEIVER_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc =
        posix_spawn(&pid, CLAMSIM_RECEIVER_BINARY, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    EXPECT_EQ(rc, 0);
    return pid;
  }

  Result finish(pid_t pid, std::chrono::milliseconds timeout = 20s) const {
    Result r;
    r.exit_code = wait_for(pid, timeout);
    r.out = slurp(path("stdout.txt"));
    r.err = slurp(path("stderr.txt"));
    return r;
  }

  Result run(const std::vector<std::string>& args) const { return finish(start(args)); }

  // Waits until the file `name` holds `text` (the bound only says "it never did").
  bool wait_for_text(const std::string& name, const std::string& text,
                     std::chrono::milliseconds timeout = 30s) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (slurp(path(name)).find(text) == std::string::npos) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(10ms);
    }
    return true;
  }
  // Waits until the file `name` is not empty. The receiver's CSV is written through a
  // stdio buffer: it has bytes once a buffer's worth of rows has come, so frames arrived.
  bool wait_for_bytes(const std::string& name, std::chrono::milliseconds timeout = 30s) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::error_code ec;
    while (fs::file_size(path(name), ec) == 0 || ec) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(10ms);
    }
    return true;
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
  }

  static ServerChild* server_;
  fs::path dir_;
};

ServerChild* ReceiverCli::server_ = nullptr;

// One event of a recorded /dev/input/js stream; type is JS_EVENT_AXIS or JS_EVENT_BUTTON,
// or'ed with JS_EVENT_INIT for the state the kernel reports when the device is opened.
void write_event(std::ostream& out, std::uint8_t type, std::uint8_t number, std::int16_t value) {
  js_event e{};
  e.type = type;
  e.number = number;
  e.value = value;
  out.write(reinterpret_cast<const char*>(&e), sizeof e);
}

// How far the swing turned from the first to the last CSV row [deg]; the display angle
// wraps at 0/360, so the change is taken the short way round.
double swing_change(const fs::path& csv) {
  const auto rows = read_csv(csv);
  if (rows.size() < 3) return 0.0;
  const std::size_t c = column(rows[0], "swing_deg");
  const double d = std::stod(rows.back()[c]) - std::stod(rows[1][c]);
  return std::remainder(d, 360.0);
}

TEST_F(ReceiverCli, ScriptDrivesTheSwingInTheCommandedDirection) {
  for (const double volts : {+5.0, -5.0}) {
    SCOPED_TRACE(volts);
    write("swing.ctl",
          "duration 2\nstep 0 0 0 0 0 0\nstep 0.2 " + std::to_string(volts) + " 0 0 0 0\n");
    const std::string csv = path("run.csv");
    const Result r =
        run({"--server", server_->reference(), "--controls", path("swing.ctl"), "--csv", csv});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // the Table 5.2 summary: both directions, counts, lost frames
    EXPECT_NE(r.out.find("SP->SR getFrame"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SR->SP GetControlInput"), std::string::npos) << r.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("GetControlInput +(\\d+) +(\\d+)")))
        << r.out;
    EXPECT_GE(std::stoi(m[1]), 30);                   // 20 Hz for 2 s, loosely
    EXPECT_LE(std::stoi(m[1]) - std::stoi(m[2]), 2);  // (almost) all arrived
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("lost frames: (\\d+)"))) << r.out;
    EXPECT_LE(std::stoi(m[1]), 2);

    const auto rows = read_csv(csv);
    ASSERT_GE(rows.size(), 1u + 30u);  // ~40 frames in 2 s
    for (std::size_t i = 1; i < rows.size(); ++i) ASSERT_EQ(rows[i].size(), rows[0].size());
    if (volts > 0) {
      EXPECT_GT(swing_change(csv), 0.5) << "positive volts swing counter-clockwise";
    } else {
      EXPECT_LT(swing_change(csv), -0.5) << "negative volts swing clockwise";
    }
  }
}

TEST_F(ReceiverCli, LegacyReceivesDisplayDataOnly) {
  const std::string csv = path("legacy.csv");
  const Result r =
      run({"--server", server_->reference(), "--legacy", "--duration", "1.5", "--csv", csv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("getDisplayData"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("expected at 20 Hz"), std::string::npos) << r.out;
  const auto rows = read_csv(csv);
  ASSERT_GE(rows.size(), 1u + 20u);
  const std::size_t seq = column(rows[0], "seq");
  const std::size_t boom = column(rows[0], "boom_deg");
  EXPECT_EQ(rows[1][seq], "") << "the 2001 interface carries no sequence number";
  EXPECT_NE(rows[1][boom], "");
}

TEST_F(ReceiverCli, RecordedJoystickEventsDriveTheSwing) {
  // a recorded /dev/input/js stream: axis 0 (stick x) hard left; the default mapping
  // inverts x, so left is +5 V, counter-clockwise
  std::ofstream dev(path("js.events"), std::ios::binary);
  write_event(dev, JS_EVENT_AXIS, 0, -32767);
  dev.close();
  const std::string csv = path("js.csv");
  const Result r = run({"--server", server_->reference(), "--joystick", path("js.events"),
                        "--duration", "1.5", "--csv", csv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = read_csv(csv);
  ASSERT_GE(rows.size(), 1u + 20u);
  EXPECT_EQ(std::stod(rows.back()[column(rows[0], "swing_V")]), 5.0);
  EXPECT_GT(swing_change(csv), 0.2);
}

TEST_F(ReceiverCli, RecordedJoystickButtonRestartsTheTask) {
  // the state at open (buttons 3 and 9 up), then presses of button 3 (not mapped) and
  // button 9 (the default mapping's restart): one restartTask. Which presses count is
  // ReceiverJoystickSource's business; this checks the receiver acts on them.
  std::ofstream dev(path("js.events"), std::ios::binary);
  write_event(dev, JS_EVENT_BUTTON | JS_EVENT_INIT, 3, 0);
  write_event(dev, JS_EVENT_BUTTON | JS_EVENT_INIT, 9, 0);
  write_event(dev, JS_EVENT_BUTTON, 3, 1);
  write_event(dev, JS_EVENT_BUTTON, 9, 1);
  dev.close();
  const Result r = run({"--server", server_->reference(), "--joystick", path("js.events"),
                        "--duration", "1.5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // the summary's task line (the server's default world, dam_intake, has a task)
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("(\\d+) restart\\(s\\)"))) << r.out;
  EXPECT_EQ(m[1].str(), "1") << r.out;
  EXPECT_EQ(r.err.find("restartTask"), std::string::npos) << r.err;
}

TEST_F(ReceiverCli, SigintUnsubscribesAndExitsZero) {
  const pid_t pid = start({"--server", server_->reference(), "--csv", path("run.csv")});
  // interrupted once frames come, not before it subscribed (that is another exit)
  EXPECT_TRUE(wait_for_bytes("run.csv")) << slurp(path("stderr.txt"));
  kill(pid, SIGINT);
  const Result r = finish(pid, 10s);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("lost frames:"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("unsubscribe()"), std::string::npos) << "unsubscribe failed: " << r.err;
}

TEST_F(ReceiverCli, ServerCrashIsExitOneWithTheReason) {
  ServerChild doomed;
  ASSERT_FALSE(doomed.reference().empty());
  const pid_t pid = start({"--server", doomed.reference(), "--csv", path("run.csv")});
  EXPECT_TRUE(wait_for_bytes("run.csv")) << slurp(path("stderr.txt"));  // frames came
  doomed.kill_now();
  const Result r = finish(pid, 15s);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("lost the server"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("server lost"), std::string::npos) << r.out;
}

TEST_F(ReceiverCli, BadMappingIsRejectedNamingTheField) {
  write("map.json", R"({"signals": {"swing": {"axis": 0}, "boom": {"axis": 1, "deadzone": 2},
                       "telescope": {"axis": 2}, "hoist1": {"axis": 3}, "hoist2": null}})");
  write("js.events", "");
  const Result r = run({"--server", server_->reference(), "--joystick", path("js.events"),
                        "--mapping", path("map.json")});
  EXPECT_EQ(r.exit_code, 3);  // a data file that does not load (cli/exit_codes.h)
  EXPECT_NE(r.err.find("signals.boom.deadzone"), std::string::npos) << r.err;
}

TEST_F(ReceiverCli, UnreachableServerFailsWithExitOne) {
  const Result r = run({"--server", "corbaloc::127.0.0.1:1/CraneClamAdmin", "--duration", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("TRANSIENT"), std::string::npos) << r.err;
}

TEST_F(ReceiverCli, TlsFlagsAreCheckedBeforeConnecting) {
  Result r = run({"--server", "corbaloc:ssliop:127.0.0.1:1/CraneClamAdmin", "--tls-ca",
                  path("no-such-ca.pem"), "--duration", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--tls-ca '" + path("no-such-ca.pem") + "': cannot be read"),
            std::string::npos)
      << r.err;
  r = run({"--server", server_->reference(), "--tls-cert", "c.pem", "--tls-key", "k.pem"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--tls-cert and --tls-key need --tls-ca"), std::string::npos) << r.err;
  r = run({"--server", server_->reference(), "--tls-ca", "ca.pem", "--legacy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--legacy cannot be used with --tls-ca"), std::string::npos) << r.err;
}

TEST_F(ReceiverCli, ConflictingInputsAreAUsageError) {
  const Result r = run({"--server", server_->reference(), "--keyboard", "--controls", "x.ctl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("alternatives"), std::string::npos) << r.err;
}

// --observe (docs/receiver.md "Watching a trainee"): checked before connecting; the watch
// itself is tested against the real server in tests/corba/observe_test.cc.
TEST_F(ReceiverCli, ObserveNeedsATicketAndNothingThatDrivesASession) {
  const std::string ref = server_->reference();
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--observe", "3"}, "--observe needs --ticket"},
      {{"--ticket", "abc"}, "--ticket needs --observe SESSION_ID"},
      {{"--observe", "x3", "--ticket", "t"}, "--observe: expected a session number"},
      {{"--observe", "0", "--ticket", "t"}, "--observe: expected a session number"},
      {{"--observe", "3", "--ticket", "t", "--keyboard"},
       "--keyboard drives or shapes a session of its own; it cannot be used with --observe"},
      {{"--observe", "3", "--ticket", "t", "--scenario", "dam_intake"},
       "--scenario drives or shapes a session of its own"},
      {{"--observe", "3", "--ticket", "t", "--legacy"}, "--legacy drives or shapes"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args = {"--server", ref};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = run(args);
    EXPECT_EQ(r.exit_code, 2) << message;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

TEST_F(ReceiverCli, KeyboardNeedsATerminal) {
  const Result r = run({"--server", server_->reference(), "--keyboard", "--keys",
                        kSource + "/config/keyboard.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("terminal"), std::string::npos) << r.err;
}

// A pseudo-terminal whose far end is the receiver's standard input: the test types on it.
class Terminal {
 public:
  Terminal() : master_(posix_openpt(O_RDWR | O_NOCTTY)) {
    if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0)
      throw std::runtime_error("no pseudo-terminal");
  }
  ~Terminal() { close(master_); }
  std::string far_end() const { return ptsname(master_); }
  // Waits (at most `timeout`) until the program on the far end has turned line editing
  // off, so keys typed now reach it one by one.
  bool wait_raw(std::chrono::milliseconds timeout) const {
    const auto end = std::chrono::steady_clock::now() + timeout;
    for (termios t{}; std::chrono::steady_clock::now() < end;
         std::this_thread::sleep_for(20ms)) {
      if (tcgetattr(master_, &t) == 0 && (t.c_lflag & ICANON) == 0) return true;
    }
    return false;
  }
  void type(const std::string& keys) const {
    ASSERT_EQ(::write(master_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
  }

 private:
  int master_;
};

// Keys typed on a terminal: each W steps the telescope's volts up and the receiver holds
// them; R asks, y confirms, the task restarts, and the held volts go back to 0 V so the new
// attempt does not start with the old one's levers.
TEST_F(ReceiverCli, KeysOnATerminalHoldTheirVoltsUntilARestartZeroesThem) {
  Terminal tty;
  const pid_t pid = start({"--server", server_->reference(), "--keyboard", "--keys",
                           kSource + "/config/keyboard.json", "--csv", path("keys.csv"),
                           "--duration", "5"},
                          tty.far_end());
  ASSERT_TRUE(tty.wait_raw(10s)) << slurp(path("stderr.txt"));
  tty.type("www");
  // not a synchronisation: the stretch of the run the held volts should show in the CSV
  std::this_thread::sleep_for(1500ms);
  tty.type("r");
  ASSERT_TRUE(wait_for_text("stderr.txt", "restart the task?")) << slurp(path("stderr.txt"));
  tty.type("y");
  const Result r = finish(pid);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1 restart(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("clamsim-receiver: restart the task? R again or y: yes, a new attempt; any "
                       "other key: no\n"),
            std::string::npos)
      << r.err;
  const auto rows = read_csv(path("keys.csv"));
  ASSERT_GT(rows.size(), 20u);
  const std::size_t v = column(rows[0], "telescope_V");
  std::size_t held = 0, last_held = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (std::stod(rows[i][v]) == 3.0) held++, last_held = i;
  }
  EXPECT_GE(held, 2u) << "three presses of W hold 3 V (1 V a press) from frame to frame";
  ASSERT_LT(last_held + 5, rows.size()) << "the volts were still held at the end";
  for (std::size_t i = last_held + 1; i < rows.size(); ++i)
    EXPECT_EQ(std::stod(rows[i][v]), 0.0) << "row " << i << ": held volts after the restart";
}

TEST_F(ReceiverCli, ABadKeyLayoutIsRefusedNamingTheField) {
  nlohmann::json keys;
  std::ifstream(kSource + "/config/keyboard.json") >> keys;
  keys["signals"]["boom"]["plus"]["key"] = "KeyW";  // telescope's
  write("keys.json", keys.dump());
  Result r = run({"--server", server_->reference(), "--keyboard", "--keys", path("keys.json")});
  EXPECT_EQ(r.exit_code, 3);  // a data file that does not load (cli/exit_codes.h)
  EXPECT_NE(r.err.find(path("keys.json") + ": signals.telescope.plus.key: KeyW is already "
                       "signals.boom.plus's key"),
            std::string::npos)
      << r.err;
  r = run({"--server", server_->reference(), "--keys", path("keys.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--keys needs --keyboard"), std::string::npos) << r.err;
}

// The training task through the receiver: the live score, the report saved with --report
// when the task ends, and --restart-at starting a new attempt.
TEST_F(ReceiverCli, TaskReportIsSavedAndRestartStartsANewAttempt) {
  // the shipped world with a 1 s optimum: the first attempt times out 1.5 s in
  fs::create_directories(dir_ / "scenarios");
  nlohmann::json quick;
  std::ifstream(kSource + "/config/scenarios/dam_intake.json") >> quick;
  quick["task"]["optimum_s"] = 1.0;
  quick["task"].erase("lesson");  // its lesson's scenario is not in this folder
  write("scenarios/quick.json", quick.dump(2));
  // the telescope a little out all along: the task's clock waits for a moved control
  write("nudge.ctl", "step 0 0 0 0.5 0 0\n");
  ServerChild server({}, {"--scenarios-dir", path("scenarios"), "--world", "quick",
                          "--report-dir", path("server-reports")});
  ASSERT_FALSE(server.reference().empty());

  const Result r = run({"--server", server.reference(), "--duration", "3", "--restart-at", "2.2",
                        "--report", path("report.json"), "--trainee", "Ada Lovelace",
                        "--controls", path("nudge.ctl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("task over: timed out, 0 points (saved to " + path("report.json")),
            std::string::npos)
      << r.err;
  const auto report = nlohmann::json::parse(slurp(path("report.json")));
  EXPECT_EQ(report["schema"], "clamsim-report/1");
  EXPECT_EQ(report["outcome"], "timed out");
  EXPECT_EQ(report["required"], 3);
  // over plain IIOP the receiver proved no identity: its copy leaves the name out, the
  // server's keeps it (docs/security.md, "IIOP over TLS")
  EXPECT_TRUE(report["trainee"].is_null()) << report.dump();
  // the summary: the new attempt was still running when the receiver stopped
  EXPECT_NE(r.out.find("task: not finished, 0 of 3 loads delivered"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 restart(s), 1 report(s), saved to"), std::string::npos) << r.out;
  // the server kept its own copy, with the name
  ASSERT_TRUE(fs::is_directory(path("server-reports")));
  EXPECT_EQ(std::distance(fs::directory_iterator(path("server-reports")), {}), 1);
  for (const auto& e : fs::directory_iterator(path("server-reports")))
    EXPECT_EQ(nlohmann::json::parse(slurp(e.path()))["trainee"], "Ada Lovelace");
}

// A restart sets the frames' simulation clock back, not the server's schedule: seq goes
// on through the new attempt, and the receiver's lateness follows seq (it was ~2000 ms
// here, the first attempt's length, when it followed the sim time). How the lateness is
// worked out from seq is checked on made-up arrivals, without a clock, in
// ClientArrivalStats.ARestartDoesNotMoveTheSchedule; here the real frames carry what it
// relies on, and the summary reports it.
TEST_F(ReceiverCli, RestartAtKeepsTheLatenessOnTheServersSchedule) {
  const Result r = run({"--server", server_->reference(), "--duration", "3.5", "--restart-at",
                        "2", "--csv", path("run.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1 restart(s)"), std::string::npos) << r.out;
  const auto rows = read_csv(path("run.csv"));
  ASSERT_GT(rows.size(), 30u);
  const std::size_t sim = column(rows[0], "sim_time_s");
  const std::size_t seq = column(rows[0], "seq");
  std::size_t restarts = 0;
  for (std::size_t i = 2; i < rows.size(); ++i) {
    if (std::stod(rows[i][sim]) < std::stod(rows[i - 1][sim])) {
      ++restarts;
      EXPECT_GT(std::stoull(rows[i][seq]), std::stoull(rows[i - 1][seq]))
          << "the new attempt restarted the schedule too (row " << i << ")";
      EXPECT_LT(std::stod(rows[i][sim]), 0.5) << "a new attempt starts near 0 s";
    }
  }
  EXPECT_EQ(restarts, 1u) << "the frames show one new attempt";
  EXPECT_TRUE(std::regex_search(r.out, std::regex("lateness p50 [0-9.]+ p99 [0-9.]+ max [0-9.]+ ms")))
      << "the summary reports the lateness:\n" << r.out;
}

// The receiver's CSV and clamsim-sim's name the clam's states the same way (core's names):
// the same world, from the same start pose, at rest.
TEST_F(ReceiverCli, ItsCsvNamesTheStatesAsTheOfflineSimulatorDoes) {
  const Result r = run({"--server", server_->reference(), "--duration", "1", "--csv",
                        path("receiver.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  write("rest.ctl", "duration 1\nstep 0 0 0 0 0 0\n");
  const std::string sim_cmd = std::string(CLAMSIM_SIM_BINARY) + " --model " + kSource +
                              "/models/t250.json --world " + kSource +
                              "/config/scenarios/dam_intake.json --controls " + path("rest.ctl") +
                              " --rate 20 --quiet --csv " + path("sim.csv");
  ASSERT_EQ(std::system(sim_cmd.c_str()), 0) << sim_cmd;
  const auto states = [](const fs::path& csv) {
    const auto rows = read_csv(csv);
    std::set<std::string> seen;
    for (std::size_t i = 1; i < rows.size(); ++i) {
      std::string triple;
      for (const char* c : {"working", "geo", "load"}) triple += rows[i][column(rows[0], c)] + " ";
      seen.insert(triple);
    }
    return seen;
  };
  const std::set<std::string> from_receiver = states(path("receiver.csv"));
  const std::set<std::string> from_sim = states(path("sim.csv"));
  EXPECT_EQ(from_receiver, from_sim);
  ASSERT_FALSE(from_sim.empty());
  // the names are the sim's hyphenated ones (core/names.cc), never the IDL's InRange
  for (const std::string& triple : from_receiver)
    EXPECT_TRUE(std::regex_match(triple, std::regex("(Free|Distributed|Full) (In-range|Open|Close) "
                                                    "(Without-load|With-load) ")))
        << triple;
}

TEST_F(ReceiverCli, ANameTheServerRefusesEndsTheRunSayingWhy) {
  const Result r = run({"--server", server_->reference(), "--duration", "1", "--trainee",
                        std::string(41, 'x')});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--trainee: the server refused the name: the trainee's name is longer "
                       "than 40 characters"),
            std::string::npos)
      << r.err;
  const Result empty = run({"--server", server_->reference(), "--trainee", "  "});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("--trainee: the name is empty"), std::string::npos) << empty.err;
  // a scenario or model the server does not have: the flag, and the names it has
  const Result scenario = run({"--server", server_->reference(), "--scenario", "dam_intak"});
  EXPECT_EQ(scenario.exit_code, 2) << scenario.err;
  EXPECT_NE(scenario.err.find("clamsim-receiver: --scenario: the server refused it: unknown "
                              "scenario \"dam_intak\"; the scenarios: dam_intake, demo, "
                              "exp_5_1_1_clam_steps, exp_5_1_2_crane_steps, first_lesson\n"),
            std::string::npos)
      << scenario.err;
  const Result model = run({"--server", server_->reference(), "--model", "t25"});
  EXPECT_EQ(model.exit_code, 2) << model.err;
  EXPECT_NE(model.err.find("--model: the server refused it: unknown model \"t25\"; the models: "
                           "t250"),
            std::string::npos)
      << model.err;
}

// Every program reads its command line with cli::Args: a flag it does not have names the
// nearest it has, and the server's flags tried here say where the server's address goes.
TEST_F(ReceiverCli, AnUnknownOptionNamesTheNearestOrWhereItGoes) {
  Result r = run({"--server", server_->reference(), "--port", "10150"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option '--port': the server's host and CORBA port (its "
                       "--corba-port) go in --server corbaloc::HOST:PORT/CraneClamAdmin"),
            std::string::npos)
      << r.err;
  r = run({"--server", server_->reference(), "--scenarios", "dam_intake"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option '--scenarios'; did you mean --scenario?"), std::string::npos)
      << r.err;
}

TEST_F(ReceiverCli, ReportAndRestartNeedTheExtendedInterface) {
  Result r = run({"--server", server_->reference(), "--legacy", "--restart-at", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--restart-at needs the extended interface"), std::string::npos) << r.err;
  r = run({"--server", server_->reference(), "--legacy", "--trainee", "Ada"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--trainee needs the extended interface"), std::string::npos) << r.err;
  r = run({"--server", server_->reference(), "--report", "/nonexistent/dir/r.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--report: no directory '/nonexistent/dir'"), std::string::npos) << r.err;
}

// --bidir: the receiver publishes an address nobody listens on, so frames can only come
// back over its own connection. Needs a server that accepts bidirectional GIOP:
// clamsim-server --bidir yes (docs/corba.md, docs/receiver.md).
TEST(ReceiverBidir, FramesComeBackOverTheReceiversOwnConnection) {
  ServerChild server({}, {"--bidir", "yes"});
  ASSERT_FALSE(server.reference().empty());
  const fs::path out = fs::temp_directory_path() / ("clamsim-bidir-" + std::to_string(getpid()));
  std::vector<std::string> all = {CLAMSIM_RECEIVER_BINARY,
                                  "--server",
                                  server.reference(),
                                  "--bidir",
                                  "--duration",
                                  "1.5",
                                  "-ORBendPointPublish",
                                  "giop:tcp:127.0.0.1:1"};
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  ASSERT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(wait_for(pid, 20s), 0);
  const std::string text = slurp(out);
  fs::remove(out);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex("getFrame +(\\d+) +(\\d+)"))) << text;
  EXPECT_GE(std::stoi(m[2]), 20);
}

// --- the pure parts ---

TEST(ReceiverJoystickMapping, DefaultFileIsTheBuiltInDefault) {
  const auto file = receiver::load_mapping(kSource + "/config/joystick-default.json");
  const auto builtin = receiver::default_mapping();
  for (std::size_t i = 0; i < 5; ++i) {
    SCOPED_TRACE(receiver::signal_key(i));
    ASSERT_TRUE(file.signals[i] && builtin.signals[i]);
    EXPECT_EQ(file.signals[i]->axis, builtin.signals[i]->axis);
    EXPECT_EQ(file.signals[i]->invert, builtin.signals[i]->invert);
    EXPECT_EQ(file.signals[i]->deadzone, builtin.signals[i]->deadzone);
    EXPECT_EQ(file.signals[i]->volts, builtin.signals[i]->volts);
  }
  // the browser's restart button (docs/web-client.md), in both
  EXPECT_EQ(builtin.restart_button, 9);
  EXPECT_EQ(file.restart_button, builtin.restart_button);
}

TEST(ReceiverJoystickMapping, ThesisLayoutAxesAndScale) {
  const auto m = receiver::default_mapping();
  std::int16_t axes[5] = {32767, -32767, 0, 16384, 1000};
  const auto v = receiver::apply_mapping(m, axes, 5);
  EXPECT_FLOAT_EQ(v[0], -5.0f);  // stick right: clockwise
  EXPECT_FLOAT_EQ(v[1], -5.0f);  // stick forward: boom down
  EXPECT_FLOAT_EQ(v[2], 0.0f);
  EXPECT_NEAR(v[3], (0.5 - 0.05) / 0.95 * 5.0, 1e-3);  // continuous past the deadzone
  EXPECT_FLOAT_EQ(v[4], 0.0f);                         // 1000/32767 = 3 %, inside the 5 % deadzone
}

TEST(ReceiverJoystickMapping, ErrorsNameTheField) {
  auto message = [](const std::string& json) {
    try {
      receiver::parse_mapping_text(json, "m.json");
    } catch (const clamsim::model::ModelError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string ok_rest = R"("telescope": null, "hoist1": null, "hoist2": null)";
  EXPECT_NE(
      message(R"({"signals": {"swing": {"axis": 0}, "boom": {"axis": 1.5}, )" + ok_rest + "}}")
          .find("m.json: signals.boom.axis"),
      std::string::npos);
  EXPECT_NE(
      message(R"({"signals": {"swing": {"axis": 0, "invert": 1}, "boom": null, )" + ok_rest + "}}")
          .find("signals.swing.invert"),
      std::string::npos);
  EXPECT_NE(
      message(R"({"signals": {"swing": {"axis": 0, "volts": 12}, "boom": null, )" + ok_rest + "}}")
          .find("signals.swing.volts"),
      std::string::npos);
  EXPECT_NE(message(R"({"signals": {"swing": {"axis": 0, "dedzone": 0.1}, "boom": null, )" +
                    ok_rest + "}}")
                .find("signals.swing.dedzone: unknown key"),
            std::string::npos);
  EXPECT_NE(
      message(R"({"signals": {"swing": null, )" + ok_rest + "}}").find("signals.boom: missing"),
      std::string::npos);
  EXPECT_NE(message(R"({"signal": {}})").find("signals: missing"), std::string::npos);
  EXPECT_NE(message("{").find("m.json: invalid JSON"), std::string::npos);
}

TEST(ReceiverJoystickMapping, RestartButtonIsOptionalAndChecked) {
  const std::string signals =
      R"("signals": {"swing": {"axis": 0}, "boom": null, "telescope": null, "hoist1": null,
                     "hoist2": null})";
  auto parse = [&](const std::string& buttons) {
    return receiver::parse_mapping_text("{" + signals + buttons + "}", "m.json");
  };
  auto message = [&](const std::string& buttons) {
    try {
      parse(buttons);
    } catch (const clamsim::model::ModelError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // a file from before buttons, and the ways of saying "no button"
  EXPECT_EQ(parse("").restart_button, std::nullopt) << "version 1 files without buttons stay valid";
  EXPECT_EQ(parse(R"(, "buttons": {})").restart_button, std::nullopt);
  EXPECT_EQ(parse(R"(, "buttons": {"restart": null})").restart_button, std::nullopt);
  EXPECT_EQ(parse(R"(, "buttons": {"restart": 0})").restart_button, 0);
  EXPECT_EQ(parse(R"(, "buttons": {"restart": 63})").restart_button, 63);

  const std::string expected = "m.json: buttons.restart: expected a whole button number in [0, 63]";
  EXPECT_EQ(message(R"(, "buttons": {"restart": 2.5})"), expected + ", got 2.5");
  EXPECT_EQ(message(R"(, "buttons": {"restart": 64})"), expected + ", got 64");
  EXPECT_EQ(message(R"(, "buttons": {"restart": -1})"), expected + ", got -1");
  EXPECT_EQ(message(R"(, "buttons": {"restart": "9"})"), expected + R"(, got "9")");
  EXPECT_EQ(message(R"(, "buttons": {"restart": true})"), expected + ", got true");
  EXPECT_EQ(message(R"(, "buttons": {"restart": [9]})"), expected + ", got [9]");
  EXPECT_EQ(message(R"(, "buttons": {"restrat": 9})"), "m.json: buttons.restrat: unknown key (did you mean \"restart\"?)");
  EXPECT_EQ(message(R"(, "buttons": 9)"), "m.json: buttons: expected an object, got 9");
}

// The joystick source on a recorded js_event file that grows between samples, as a device
// delivers events between the receiver's 20 Hz samples.
class ReceiverJoystickSource : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "clamsim-js-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    std::ofstream(device()).close();
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string device() const { return (dir_ / "js.events").string(); }
  void append(std::uint8_t type, std::uint8_t number, std::int16_t value) const {
    std::ofstream dev(device(), std::ios::binary | std::ios::app);
    write_event(dev, type, number, value);
  }

  fs::path dir_;
};

TEST_F(ReceiverJoystickSource, InitEventsReportAHeldButtonButAreNoPress) {
  // the kernel's state report at open: button 9 held, the stick pushed right
  append(JS_EVENT_BUTTON | JS_EVENT_INIT, 9, 1);
  append(JS_EVENT_AXIS | JS_EVENT_INIT, 0, 32767);
  receiver::JoystickSource js(device(), receiver::default_mapping());
  EXPECT_FLOAT_EQ(js.sample(0.0)[0], -5.0f) << "INIT axis events are the stick's position";
  EXPECT_FALSE(js.take_restart_request()) << "a button held at open is not a press";
  // still held: a repeated 1 is no edge
  append(JS_EVENT_BUTTON, 9, 1);
  js.sample(0.05);
  EXPECT_FALSE(js.take_restart_request());
  append(JS_EVENT_BUTTON, 9, 0);
  js.sample(0.10);
  EXPECT_FALSE(js.take_restart_request()) << "a release is not a press";
  append(JS_EVENT_BUTTON, 9, 1);
  js.sample(0.15);
  EXPECT_TRUE(js.take_restart_request());
}

TEST_F(ReceiverJoystickSource, EachPressOfTheRestartButtonRestartsOnce) {
  append(JS_EVENT_BUTTON | JS_EVENT_INIT, 9, 0);
  receiver::JoystickSource js(device(), receiver::default_mapping());
  js.sample(0.0);
  EXPECT_FALSE(js.take_restart_request());
  append(JS_EVENT_BUTTON, 9, 1);
  js.sample(0.05);
  EXPECT_TRUE(js.take_restart_request());
  EXPECT_FALSE(js.take_restart_request()) << "taken once";
  js.sample(0.10);  // held, nothing new
  EXPECT_FALSE(js.take_restart_request());
  append(JS_EVENT_BUTTON, 9, 0);
  append(JS_EVENT_BUTTON, 9, 1);
  js.sample(0.15);
  EXPECT_TRUE(js.take_restart_request()) << "released and pressed again";
  EXPECT_FALSE(js.take_restart_request());
  // other buttons do nothing
  append(JS_EVENT_BUTTON, 9, 0);
  append(JS_EVENT_BUTTON, 1, 1);
  append(JS_EVENT_BUTTON, 8, 1);
  js.sample(0.20);
  EXPECT_FALSE(js.take_restart_request());
}

TEST_F(ReceiverJoystickSource, NoRestartButtonInTheMapping) {
  receiver::JoystickMapping mapping = receiver::default_mapping();
  mapping.restart_button.reset();
  append(JS_EVENT_BUTTON | JS_EVENT_INIT, 9, 0);
  append(JS_EVENT_BUTTON, 9, 1);
  receiver::JoystickSource js(device(), mapping);
  js.sample(0.0);
  EXPECT_FALSE(js.take_restart_request());
}

const clamsim::model::KeyboardLayout& shipped_keys() {
  static const clamsim::model::KeyboardLayout k =
      clamsim::model::load_keyboard_layout(kSource + "/config/keyboard.json");
  return k;
}

TEST(ReceiverKeyboardKeys, TheBrowsersKeysStepLatchClampAndZero) {
  receiver::KeyboardKeys keys(shipped_keys(), 1.0f);
  // ← twice (swing +), ↑ (boom +, in both arrow-key modes), Q seven times (cable 1 +), D
  keys.feed("\x1b[D\x1b[D\x1bOA");
  keys.feed("qqqQqqq");
  keys.feed("d");
  EXPECT_EQ(keys.volts(), (std::array<float, 5>{2.0f, 1.0f, 0.0f, 5.0f, -1.0f}));
  keys.feed(" ");
  EXPECT_EQ(keys.volts(), (std::array<float, 5>{}));
  EXPECT_FALSE(keys.quit());
  EXPECT_FALSE(keys.take_restart());
  keys.feed("rr");
  EXPECT_TRUE(keys.take_restart()) << "R, R to confirm: a new attempt at the task, as in the browser";
  EXPECT_FALSE(keys.take_restart()) << "once per confirmed press";
  keys.feed("?");
  EXPECT_TRUE(keys.take_help());
  keys.feed("x");
  EXPECT_TRUE(keys.quit());
}

TEST(ReceiverKeyboardKeys, EscapeSequencesSplitAcrossReadsAndUnknownOnes) {
  receiver::KeyboardKeys keys(shipped_keys(), 0.5f);
  keys.feed("\x1b");
  keys.feed("[");
  keys.feed("B");  // ↓ arriving byte by byte
  EXPECT_FLOAT_EQ(keys.volts()[1], -0.5f);
  keys.feed("\x1b[H");   // Home: not a key of the layout, dropped...
  keys.feed("\x1bw");    // Alt+W: the escape dropped, W still counts
  keys.feed("n");        // not a key of the layout
  EXPECT_EQ(keys.volts(), (std::array<float, 5>{0.0f, -0.5f, 0.5f, 0.0f, 0.0f}));
  keys.zero();
  EXPECT_EQ(keys.volts(), (std::array<float, 5>{}));
}

TEST(ReceiverKeyboardKeys, TheLegendSaysTheLayoutsKeys) {
  EXPECT_EQ(receiver::keyboard_legend(shipped_keys()),
            "keys: ←/→ swing  ↑/↓ boom  W/S telescope  Q/A cable 1  E/D cable 2\n"
            "      Space all to 0 V  R restart task (R again or y confirms)  ? help  X quit\n");
}

// A stray R must not throw an attempt away: R asks, R again or y restarts, any other key
// keeps the attempt (and does what it does).
TEST(ReceiverKeyboardKeys, RestartAsksAndOnlyRAgainOrYConfirms) {
  receiver::KeyboardKeys keys(shipped_keys(), 1.0f);
  keys.feed("r");
  EXPECT_FALSE(keys.take_restart());
  EXPECT_EQ(keys.take_notice(), "restart the task? R again or y: yes, a new attempt; any other key: no");
  EXPECT_EQ(keys.take_notice(), "");
  keys.feed("R");
  EXPECT_TRUE(keys.take_restart());
  EXPECT_FALSE(keys.take_restart());
  keys.feed("ry");
  EXPECT_TRUE(keys.take_restart());
  keys.feed("rY");
  EXPECT_TRUE(keys.take_restart());
  // no: a key of the layout, which then does its own thing
  keys.feed("rw");
  EXPECT_FALSE(keys.take_restart());
  EXPECT_EQ(keys.take_notice(), "restart not confirmed: the attempt goes on");
  EXPECT_FLOAT_EQ(keys.volts()[2], 1.0f);
  // no: a key of no meaning (n), and an arrow key's escape sequence
  keys.feed("rn");
  EXPECT_FALSE(keys.take_restart());
  EXPECT_EQ(keys.take_notice(), "restart not confirmed: the attempt goes on");
  keys.feed("r\x1b[A");
  EXPECT_FALSE(keys.take_restart());
  EXPECT_FLOAT_EQ(keys.volts()[1], 1.0f);
  // after a no, y is just a key again
  keys.feed("y");
  EXPECT_FALSE(keys.take_restart());
  // the question stays open across reads
  keys.feed("r");
  keys.feed("r");
  EXPECT_TRUE(keys.take_restart());
}

// --help lists the keys of the layout file it would use, not a copy of them.
TEST_F(ReceiverCli, HelpListsTheKeysOfTheLayoutFile) {
  Result r = run({"--help", "--keys", kSource + "/config/keyboard.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Keys of --keyboard (from " + kSource + "/config/keyboard.json; each press "
                       "steps --key-step volts):\n  " + receiver::keyboard_legend(shipped_keys()).substr(0, 10)),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("R restart task (R again or y confirms)  ? help  X quit\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("Ctrl-C or q"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("keyboard's n "), std::string::npos) << r.out;
  // another layout: its keys
  nlohmann::json keys;
  std::ifstream(kSource + "/config/keyboard.json") >> keys;
  keys["actions"]["restart"] = {{"key", "KeyN"}, {"label", "N"}, {"does", "new attempt"}};
  keys["actions"]["quit"] = {{"key", "KeyZ"}, {"label", "Z"}, {"does", "leave"}};
  write("keys.json", keys.dump());
  r = run({"--help", "--keys", path("keys.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("N new attempt (N again or y confirms)  ? help  Z leave\n"), std::string::npos)
      << r.out;
  // none to be read: said, and the rest of the help is still there
  r = run({"--help", "--keys", path("missing.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Keys of --keyboard: no layout to list ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--duration S"), std::string::npos) << r.out;
}

TEST(ReceiverStatusLine, ShowsTheLiveScoreWhenTheWorldHasATask) {
  receiver::MonitorSnapshot snap;
  clamsim::client::ReceivedFrame f;
  f.extended = true;
  snap.latest = f;
  EXPECT_EQ(receiver::format_status(snap, {}, "neutral").find("task"), std::string::npos);
  auto& t = snap.latest->score;
  t.enabled = true;
  t.running = true;
  t.total = 87.0;
  t.penalty_points = 13.0;
  t.delivered = 1;
  t.required = 3;
  t.elapsed_s = 42.0;
  t.limit_s = 450.0;
  const std::string line = receiver::format_status(snap, {}, "neutral");
  EXPECT_NE(line.find("| task 87 pts 1/3 42/450s (-13) |"), std::string::npos) << line;
  t.finished = true;
  t.completed = true;
  EXPECT_NE(receiver::format_status(snap, {}, "neutral").find("| task done 87 pts (-13) |"),
            std::string::npos);
}

// A busy frame at its widest: every value at its longest, a task running with penalties.
receiver::MonitorSnapshot busy_snapshot() {
  receiver::MonitorSnapshot snap;
  clamsim::client::ReceivedFrame f;
  f.extended = true;
  f.display = {-123.4f, 45.6f, 12.34f, 12.34f, 123.4f, 12.34f, 12.34f, 1234.0f};
  f.tension_N = {12300.0f, 45600.0f};
  f.score.enabled = true;
  f.score.running = true;
  f.score.total = 87.0;
  f.score.penalty_points = 13.0;
  f.score.delivered = 1;
  f.score.required = 3;
  f.score.elapsed_s = 142.0;
  f.score.limit_s = 450.0;
  snap.latest = f;
  snap.rate_hz = 20.0;
  snap.gaps = 12;
  return snap;
}

// An 80-column terminal (79 cells: StatusLine leaves the last one so the cursor does not
// wrap) keeps the volts, the score and its clock, and the swing; fields go least useful
// first; a wide terminal shows everything.
TEST(ReceiverStatusLine, FitsTheTerminalDroppingTheLeastUsefulFieldsFirst) {
  const receiver::MonitorSnapshot snap = busy_snapshot();
  const std::array<float, 5> volts{5.0f, -5.0f, 5.0f, -5.0f, 5.0f};
  const std::string full = receiver::format_status(snap, volts, "keyboard");
  EXPECT_EQ(full, "swing -123.4° boom 45.6° tele 12.34m clam 12.34m open 123.4° c1 12.34m "
                  "c2 12.34m load 1234kg | " + std::string(clamsim::core::to_string(snap.latest->working)) +
                  " T 12.3/45.6kN | task 87 pts 1/3 142/450s (-13) | 20 fps 12 gaps | "
                  "V +5.0 -5.0 +5.0 -5.0 +5.0 | keyboard");
  for (std::size_t width : {79u, 80u}) {
    const std::string line = receiver::format_status(snap, volts, "keyboard", width);
    EXPECT_LE(receiver::terminal_cells(line), width) << line;
    EXPECT_NE(line.find("V +5.0 -5.0 +5.0 -5.0 +5.0"), std::string::npos) << line;
    EXPECT_NE(line.find("task 87 pts 1/3 142/450s (-13)"), std::string::npos) << line;
    EXPECT_NE(line.find("swing -123.4°"), std::string::npos) << line;
    EXPECT_EQ(line.find("keyboard"), std::string::npos) << line;
    EXPECT_EQ(line.find("gaps"), std::string::npos) << line;
    EXPECT_EQ(line.find(" | | "), std::string::npos) << "an emptied group leaves no separator: " << line;
  }
  EXPECT_EQ(receiver::format_status(snap, volts, "keyboard", 80),
            "swing -123.4° | task 87 pts 1/3 142/450s (-13) | V +5.0 -5.0 +5.0 -5.0 +5.0");
  // at rest, with shorter numbers, more of the machine fits
  receiver::MonitorSnapshot rest = snap;
  rest.latest->display = {12.3f, 45.6f, 2.1f, 1.0f, 30.0f, 8.2f, 8.2f, 0.0f};
  EXPECT_EQ(receiver::format_status(rest, {}, "keyboard", 79),
            "swing 12.3° | task 87 pts 1/3 142/450s (-13) | V +0.0 +0.0 +0.0 +0.0 +0.0");
  // one cell short of the whole line: only the input's name goes, then the gaps
  const std::size_t cells = receiver::terminal_cells(full);
  EXPECT_EQ(receiver::format_status(snap, volts, "keyboard", cells - 1),
            full.substr(0, full.size() - std::string(" | keyboard").size()));
  EXPECT_EQ(receiver::format_status(snap, volts, "keyboard", cells - 12).find("gaps"), std::string::npos);
  EXPECT_NE(receiver::format_status(snap, volts, "keyboard", cells - 12).find("T 12.3/45.6kN"), std::string::npos);
  for (std::size_t width : {cells, cells + 1, std::size_t{1000}})
    EXPECT_EQ(receiver::format_status(snap, volts, "keyboard", width), full) << width;
  // a 120-column terminal: the five joints the volts move
  EXPECT_EQ(receiver::format_status(snap, volts, "keyboard", 119),
            "swing -123.4° boom 45.6° tele 12.34m c1 12.34m c2 12.34m | task 87 pts 1/3 142/450s "
            "(-13) | V +5.0 -5.0 +5.0 -5.0 +5.0");
  // no frames: the warning stays with the volts and the score
  receiver::MonitorSnapshot late = snap;
  late.since_last_s = 7.0;
  const std::string warned = receiver::format_status(late, volts, "keyboard", 79);
  EXPECT_NE(warned.find("NO FRAMES FOR 7 s"), std::string::npos) << warned;
  EXPECT_NE(warned.find("V +5.0"), std::string::npos) << warned;
  EXPECT_LE(receiver::terminal_cells(warned), 79u) << warned;
}

TEST(ReceiverSummary, LostFramesFromSequenceGapsAndSchedule) {
  receiver::RunReport r;
  r.frames = clamsim::client::ArrivalStats(0.05);
  for (std::uint64_t seq : {0u, 1u, 2u, 5u, 6u}) {
    clamsim::client::ReceivedFrame f;
    f.extended = true;
    f.seq = seq;
    f.sim_time_s = 0.05 * static_cast<double>(seq + 1);
    f.arrival_s = 100.0 + f.sim_time_s;
    r.frames.add(f);
  }
  EXPECT_EQ(receiver::lost_frames(r), 2u);

  receiver::RunReport legacy;
  legacy.legacy = true;
  legacy.frames = clamsim::client::ArrivalStats(0.05);
  for (double t : {0.0, 0.05, 0.10, 0.25}) {  // 0.15 and 0.20 missing
    clamsim::client::ReceivedFrame f;
    f.arrival_s = t;
    legacy.frames.add(f);
  }
  EXPECT_EQ(receiver::lost_frames(legacy), 2u);
}

}  // namespace
