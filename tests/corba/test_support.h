// Helpers for the CORBA tests: child processes (the real clamsim-server, the test
// receivers, omniNames) killed on every exit path, one ORB per test process listening on
// loopback, and a receiver servant that records what arrives.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <clamx.hh>

namespace clamsim::corba::test {

using Ms = std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// A child process with stdout and stderr captured; SIGKILLed and reaped by the destructor
// if still running.
class ChildProcess {
 public:
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  // The first output line starting with prefix, waiting up to timeout; "" if none came.
  std::string wait_for_line(const std::string& prefix, Ms timeout);
  std::string output() const;
  void signal(int sig) const;
  // Exit status (128 + signal when killed), or -1 if still running after timeout.
  int wait_exit(Ms timeout);

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  bool reaped_ = false;
  int status_ = -1;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::string out_;
  bool eof_ = false;
  std::thread reader_;
};

// A free TCP port on 127.0.0.1 (bound, then released).
int free_port();

// The full path of a program on PATH, "" when there is none (ChildProcess does not search).
std::string which(const std::string& program);

// Bounded polling: true as soon as pred() holds, false after timeout.
bool eventually(const std::function<bool()>& pred, Ms timeout, Ms every = Ms(20));

// The real clamsim-server on 127.0.0.1, any free port, the shipped config and models.
class ServerProcess {
 public:
  explicit ServerProcess(const std::vector<std::string>& extra_args = {});
  bool ready() const { return !corbaloc_.empty(); }
  const std::string& corbaloc() const { return corbaloc_; }
  ChildProcess& process() { return *proc_; }
  CLAMX::Admin_ptr admin() const;     // narrowed; nil if not ready
  CLAM::CraneClamAdmin_ptr legacy_admin() const;

 private:
  std::unique_ptr<ChildProcess> proc_;
  std::string corbaloc_;
};

// The test process's ORB (loopback endpoint, 5 s call timeout) and its active root POA.
CORBA::ORB_ptr orb();
PortableServer::POA_ptr poa();

// A receiver implementing CLAMX::NoticeClient (a FrameClient that also takes the server's
// notices); counts, checks sequence continuity.
class FrameRecorder final : public POA_CLAMX::NoticeClient {
 public:
  void getFrame(const CLAMX::Frame& f) override;
  void getDisplayData(const CLAM::DisplayData d) override;
  void notify(const CLAMX::ServerNotice& n) override;

  struct Summary {
    std::size_t frames = 0;
    std::size_t displays = 0;
    std::uint64_t first_seq = 0;
    std::uint64_t last_seq = 0;
    std::size_t gaps = 0;            // seq jumped forward by more than one
    std::size_t out_of_order = 0;    // seq not greater than the previous
    double max_interval_ms = 0.0;    // longest wait between two frames
    CLAMX::Frame last{};             // zeroed until the first frame (its enums too)
    std::size_t reports = 0;         // frames that carried a task report
    std::string last_report;         // the latest of them
    std::size_t notices = 0;         // notify calls
    std::string last_notice_kind;
    double last_notice_seconds = -1.0;
    std::string last_notice_message;
  };
  Summary summary() const;
  // Forget everything received so far (start a measurement window).
  void reset();
  // Frames received since activation (reset() keeps it).
  std::size_t total() const;
  bool wait_frames(std::size_t n, Ms timeout) const;
  // Waits until total() >= n; false after timeout (a bound on "they never came").
  bool wait_total(std::size_t n, Ms timeout) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  Summary s_;
  std::size_t total_ = 0;
  Clock::time_point last_at_{};
};

// A servant activated in poa() for its lifetime; deactivated and released at the end.
template <typename Servant>
class Activated {
 public:
  Activated() : servant_(new Servant) {
    PortableServer::ObjectId_var id = poa()->activate_object(servant_);
    id_ = id;
    ref_ = poa()->id_to_reference(id_);
  }
  ~Activated() {
    try {
      poa()->deactivate_object(id_);
    } catch (const CORBA::Exception&) {
    }
    servant_->_remove_ref();  // deleted once no call is in progress
  }
  Activated(const Activated&) = delete;
  Activated& operator=(const Activated&) = delete;

  Servant& operator*() const { return *servant_; }
  Servant* operator->() const { return servant_; }
  CLAM::CraneClamClient_ptr client() const { return CLAM::CraneClamClient::_narrow(ref_); }

 private:
  Servant* servant_;
  PortableServer::ObjectId id_;
  CORBA::Object_var ref_;
};

CLAMX::SubscribeOptions default_options();
// admin->status() by value (the call returns an owned pointer).
CLAMX::ServerStatus status_of(CLAMX::Admin_ptr admin);

// Sanitizer builds run the dynamics about 15x slower (measured: 0.15 core per real-time
// session with ASan, 0.008 without), so tests that need many real-time sessions relax there.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// Paths of the binaries under test, from CMake.
std::string server_binary();
std::string receiver_binary();
std::string legacy_receiver_binary();
std::string clamsim_receiver_binary();   // the real classroom receiver (server/tools/receiver)
std::string source_dir();                // the repository root

// A fresh test PKI (tests/tls/make-test-pki.sh) in a temporary directory, removed at the
// end: ca.pem, server.pem/.key (localhost, 127.0.0.1), client.pem/.key (CN=test-instructor),
// other-ca.pem (a CA that signed none of them).
class TestPki {
 public:
  TestPki();
  ~TestPki();
  TestPki(const TestPki&) = delete;
  TestPki& operator=(const TestPki&) = delete;
  bool ok() const { return ok_; }
  std::string path(const std::string& file) const { return dir_ + "/" + file; }

 private:
  std::string dir_;
  bool ok_ = false;
};

}  // namespace clamsim::corba::test
