// clamsim-server with TLS on the web port, as a process (docs/security.md, "TLS on the web
// port"): SIGHUP reloads the certificate while a WSS session keeps its frames, the
// self-signed certificate is made once and kept across starts, bad files stop the start
// with a message naming them. Real processes, real sockets on 127.0.0.1, bounded waits.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <thread>

#include "tls_client.h"
#include "web/tls_context.h"
#include "tool_run.h"

namespace clamsim::testing {
namespace {

const std::string kSource = CLAMSIM_SOURCE_DIR;

// The server in the background from the repo root, output to files; SIGINT and reaped by
// the destructor (SIGKILL if it does not end within 5 s).
class BackgroundServer {
 public:
  BackgroundServer(const ScratchDir& scratch, const std::string& tag,
                   const std::vector<std::string>& extra)
      : out_(scratch.path(tag + ".out")), err_(scratch.path(tag + ".err")) {
    std::vector<std::string> all = {CLAMSIM_SERVER_BINARY, "--host", "127.0.0.1",
                                    "--corba-port", "0", "--http-port", "0",
                                    "--exit-with-parent", "yes"};
    all.insert(all.end(), extra.begin(), extra.end());
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addchdir_np(&actions, kSource.c_str());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, all[0].c_str(), &actions, nullptr, argv.data(), environ) != 0)
      pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }
  ~BackgroundServer() { stop(); }

  // The port of its "ready https://127.0.0.1:PORT/" line, 0 if none within 20 s.
  std::uint16_t wait_ready() {
    static const std::regex ready(R"(ready https://127\.0\.0\.1:([0-9]+)/)");
    for (int i = 0; i < 400; ++i) {
      std::smatch m;
      const std::string text = out();
      if (std::regex_search(text, m, ready)) return static_cast<std::uint16_t>(std::stoi(m[1]));
      if (pid_ < 0 || waitpid(pid_, &status_, WNOHANG) == pid_) return 0;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return 0;
  }
  void signal(int sig) { ::kill(pid_, sig); }
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGINT);
    for (int i = 0; i < 100 && waitpid(pid_, &status_, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (::kill(pid_, 0) == 0) {
      ::kill(pid_, SIGKILL);
      waitpid(pid_, &status_, 0);
    }
    pid_ = -1;
  }
  std::string out() const { return slurp(out_); }
  std::string err() const { return slurp(err_); }

 private:
  std::string out_, err_;
  pid_t pid_ = -1;
  int status_ = 0;
};

unsigned mode_of(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0xFFFF;
}

TEST(TlsServer, SighupServesANewCertificateWhileAWssSessionKeepsItsFrames) {
  ScratchDir scratch("clamsim-tls-hup");
  TestPki first("hup1"), second("hup2");
  ASSERT_TRUE(first.ok() && second.ok());
  const std::string cert = scratch.path("live.pem"), key = scratch.path("live.key");
  fs::copy_file(first.file("server.pem"), cert);
  fs::copy_file(first.file("server.key"), key);
  BackgroundServer server(scratch, "server", {"--tls-cert", cert, "--tls-key", key});
  const std::uint16_t port = server.wait_ready();
  ASSERT_NE(port, 0) << server.out() << server.err();

  TlsClient open(first.file("ca.pem"));
  ASSERT_EQ(open.connect(port), "");
  ASSERT_TRUE(open.websocket(port));
  ASSERT_TRUE(open.read(Seconds(3)).has_value());   // hello

  fs::copy_file(second.file("server.pem"), cert, fs::copy_options::overwrite_existing);
  fs::copy_file(second.file("server.key"), key, fs::copy_options::overwrite_existing);
  server.signal(SIGHUP);
  const std::string wanted = web::sha256_fingerprint(second.file("server.pem"));
  std::string served;
  for (int i = 0; i < 50 && served != wanted; ++i) {   // the reload is asynchronous
    TlsClient fresh(second.file("ca.pem"));
    if (fresh.connect(port).empty()) served = fresh.peer_fingerprint();
    else std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(served, wanted);
  EXPECT_EQ(open.read_displays(10), 10) << "the open session lost its frames";
  EXPECT_NE(server.err().find("TLS certificate reloaded"), std::string::npos) << server.err();
}

TEST(TlsServer, TheSelfSignedCertificateIsMadeOnceAndKept) {
  ScratchDir scratch("clamsim-tls-self");
  const std::string state = scratch.path("state");
  std::string fingerprints[2];
  for (int run = 0; run < 2; ++run) {
    BackgroundServer server(scratch, "run" + std::to_string(run),
                            {"--tls-self-signed", "yes", "--state-dir", state});
    const std::uint16_t port = server.wait_ready();
    ASSERT_NE(port, 0) << server.out() << server.err();
    std::smatch m;
    const std::string out = server.out();
    ASSERT_TRUE(std::regex_search(out, m, std::regex("SHA-256 ([0-9A-F:]{95})"))) << out;
    fingerprints[run] = m[1];
    // the certificate is its own trust anchor; it names localhost
    TlsClient c(state + "/tls/cert.pem");
    ASSERT_EQ(c.connect(port), "");
    EXPECT_EQ(c.peer_fingerprint(), fingerprints[run]);
    EXPECT_NE(server.err().find(run == 0 ? "created the self-signed" : "using the self-signed"),
              std::string::npos) << server.err();
  }
  EXPECT_EQ(fingerprints[0], fingerprints[1]);
  EXPECT_EQ(mode_of(state + "/tls"), 0700u);
  EXPECT_EQ(mode_of(state + "/tls/key.pem"), 0600u);
}

TEST(TlsServer, BadTlsSettingsStopTheStartWithTheReason) {
  ScratchDir scratch("clamsim-tls-bad");
  const std::string missing = scratch.path("missing.pem");
  const struct {
    std::vector<std::string> args;
    int exit_code;
    std::string message;
  } cases[] = {
      {{"--tls-cert", missing, "--tls-key", missing}, 2,
       "--tls-cert " + missing + ": No such file or directory"},
      {{"--tls-cert", missing}, 2, "--tls-cert needs --tls-key too"},
      {{"--tls-self-signed", "maybe"}, 2, "--tls-self-signed: 'maybe' is not yes or no"},
      {{"--tls-self-signed", "yes", "--tls-cert", missing, "--tls-key", missing}, 2,
       "--tls-self-signed yes and --tls-cert: choose one"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"--host", "127.0.0.1", "--corba-port", "0",
                                     "--http-port", "0"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const ToolResult r = run_tool(CLAMSIM_SERVER_BINARY, args, scratch, std::chrono::seconds(20),
                                  kSource);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace clamsim::testing
