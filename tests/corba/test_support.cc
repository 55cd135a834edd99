#include "test_support.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <omniORB4/omniORB.h>

#include "corba/tls_context.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

extern char** environ;

namespace clamsim::corba::test {

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int rc = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  fd_ = fds[0];
  reader_ = std::thread([this] {
    char buf[4096];
    for (;;) {
      const ssize_t n = read(fd_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      std::lock_guard<std::mutex> lock(mutex_);
      if (n <= 0) {
        eof_ = true;
        cv_.notify_all();
        return;
      }
      out_.append(buf, static_cast<std::size_t>(n));
      cv_.notify_all();
    }
  });
}

ChildProcess::~ChildProcess() {
  if (!reaped_) {
    kill(pid_, SIGCONT);  // a stopped child must run to die
    kill(pid_, SIGKILL);
    waitpid(pid_, &status_, 0);
  }
  reader_.join();  // EOF once the child (and anything it spawned) is gone
  close(fd_);
}

std::string ChildProcess::wait_for_line(const std::string& prefix, Ms timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  std::string found;
  cv_.wait_for(lock, timeout, [&] {
    std::size_t start = 0;
    for (;;) {
      const std::size_t end = out_.find('\n', start);
      if (end == std::string::npos) break;
      if (out_.compare(start, prefix.size(), prefix) == 0) {
        found = out_.substr(start, end - start);
        return true;
      }
      start = end + 1;
    }
    return eof_;
  });
  return found;
}

std::string ChildProcess::output() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return out_;
}

void ChildProcess::signal(int sig) const { kill(pid_, sig); }

int ChildProcess::wait_exit(Ms timeout) {
  if (reaped_) return status_;
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    int st = 0;
    if (waitpid(pid_, &st, WNOHANG) == pid_) {
      reaped_ = true;
      status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      // let the reader see EOF so output() is complete
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait_for(lock, Ms(2000), [&] { return eof_; });
      return status_;
    }
    if (Clock::now() >= deadline) return -1;
    std::this_thread::sleep_for(Ms(5));
  }
}

int free_port() {
  const int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  if (bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    close(s);
    throw std::runtime_error("cannot find a free port");
  }
  close(s);
  return ntohs(a.sin_port);
}

std::string which(const std::string& program) {
  ChildProcess p({"/bin/sh", "-c", "command -v " + program});
  if (p.wait_exit(Ms(10000)) != 0) return "";
  std::string out = p.output();
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

bool eventually(const std::function<bool()>& pred, Ms timeout, Ms every) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (pred()) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(every);
  }
}

ServerProcess::ServerProcess(const std::vector<std::string>& extra_args) {
  std::vector<std::string> argv = {server_binary(), "--config",
                                   std::string(CLAMSIM_SOURCE_DIR) + "/config/server.json"};
  // loopback and free ports unless the test says otherwise; a test process that dies (a
  // sanitizer abort) takes its server with it
  const std::vector<std::pair<std::string, std::string>> defaults = {
      {"--host", "127.0.0.1"}, {"--corba-port", "0"}, {"--http-port", "0"},
      {"--exit-with-parent", "yes"}};
  for (const auto& [flag, value] : defaults)
    if (std::find(extra_args.begin(), extra_args.end(), flag) == extra_args.end())
      argv.insert(argv.end(), {flag, value});
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  proc_ = std::make_unique<ChildProcess>(argv);
  const std::string line = proc_->wait_for_line("ready ", Ms(15000));
  if (!line.empty()) corbaloc_ = line.substr(6);
}

CLAMX::Admin_ptr ServerProcess::admin() const {
  if (!ready()) return CLAMX::Admin::_nil();
  CORBA::Object_var obj = orb()->string_to_object(corbaloc_.c_str());
  return CLAMX::Admin::_narrow(obj);
}

CLAM::CraneClamAdmin_ptr ServerProcess::legacy_admin() const {
  if (!ready()) return CLAM::CraneClamAdmin::_nil();
  CORBA::Object_var obj = orb()->string_to_object(corbaloc_.c_str());
  return CLAM::CraneClamAdmin::_narrow(obj);
}

namespace {

struct TestOrb {
  CORBA::ORB_var orb;
  PortableServer::POA_var poa;
  TestOrb() {
    const char* options[][2] = {{"endPoint", "giop:tcp:127.0.0.1:"},
                                {"clientCallTimeOutPeriod", "5000"},
                                {"clientConnectTimeOutPeriod", "2000"},
                                {nullptr, nullptr}};
    int argc = 0;
    char* argv[] = {nullptr};
    corba::install_tls_off();  // plain IIOP only, and omniORB's SSL transport kept quiet
    orb = CORBA::ORB_init(argc, argv, "omniORB4", options);
    CORBA::Object_var obj = orb->resolve_initial_references("RootPOA");
    poa = PortableServer::POA::_narrow(obj);
    PortableServer::POAManager_var manager = poa->the_POAManager();
    manager->activate();
  }
};

TestOrb& test_orb() {
  static TestOrb* instance = new TestOrb;  // lives until the process exits
  return *instance;
}

}  // namespace

CORBA::ORB_ptr orb() { return test_orb().orb.in(); }
PortableServer::POA_ptr poa() { return test_orb().poa.in(); }

void FrameRecorder::getFrame(const CLAMX::Frame& f) {
  const auto now = Clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  if (s_.frames == 0) {
    s_.first_seq = f.seq;
  } else {
    if (f.seq <= s_.last_seq) ++s_.out_of_order;
    else if (f.seq > s_.last_seq + 1) ++s_.gaps;
    const double ms = std::chrono::duration<double, std::milli>(now - last_at_).count();
    if (ms > s_.max_interval_ms) s_.max_interval_ms = ms;
  }
  last_at_ = now;
  s_.last_seq = f.seq;
  s_.last = f;
  if (f.task_report_json.in()[0] != '\0') {
    ++s_.reports;
    s_.last_report = f.task_report_json.in();
  }
  ++s_.frames;
  ++total_;
  cv_.notify_all();
}

void FrameRecorder::notify(const CLAMX::ServerNotice& n) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++s_.notices;
  s_.last_notice_kind = n.kind.in();
  s_.last_notice_seconds = n.seconds_left;
  s_.last_notice_message = n.message.in();
  cv_.notify_all();
}

void FrameRecorder::getDisplayData(const CLAM::DisplayData) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++s_.displays;
  cv_.notify_all();
}

FrameRecorder::Summary FrameRecorder::summary() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return s_;
}

void FrameRecorder::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  s_ = Summary{};
}

std::size_t FrameRecorder::total() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return total_;
}

bool FrameRecorder::wait_frames(std::size_t n, Ms timeout) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] { return s_.frames >= n; });
}

bool FrameRecorder::wait_total(std::size_t n, Ms timeout) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] { return total_ >= n; });
}

CLAMX::SubscribeOptions default_options() {
  CLAMX::SubscribeOptions o;
  o.frame_rate_hz = 0.0f;
  o.model = CORBA::string_dup("");
  o.scenario = CORBA::string_dup("");
  return o;
}

CLAMX::ServerStatus status_of(CLAMX::Admin_ptr admin) {
  CLAMX::ServerStatus_var s = admin->status();
  return s.in();
}

std::string server_binary() { return CLAMSIM_SERVER_BINARY; }
std::string receiver_binary() { return CLAMSIM_RECEIVER_BINARY; }
std::string legacy_receiver_binary() { return CLAMSIM_LEGACY_RECEIVER_BINARY; }
std::string clamsim_receiver_binary() { return CLAMSIM_REAL_RECEIVER_BINARY; }
std::string source_dir() { return CLAMSIM_SOURCE_DIR; }

TestPki::TestPki() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "clamsim-pki-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) return;
  dir_ = tmpl;
  ChildProcess script({"/bin/bash", source_dir() + "/tests/tls/make-test-pki.sh", dir_});
  ok_ = script.wait_exit(Ms(30000)) == 0;
}

TestPki::~TestPki() {
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

}  // namespace clamsim::corba::test
