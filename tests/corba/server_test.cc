// clamsim-server end to end (server/app): flags and exit codes, ordered shutdown on
// SIGTERM/SIGINT with counters, the thread-pool model, the optional Naming Service.
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <omniORB4/Naming.hh>

#include "cli/exit_codes.h"
#include "test_support.h"
#include "version/version.h"

namespace clamsim::corba::test {
namespace {

namespace fs = std::filesystem;
namespace cli = clamsim::cli;

struct Exit {
  int status = -1;
  std::string out;
};

Exit run_server(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {server_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  ChildProcess p(argv);
  Exit r;
  r.status = p.wait_exit(Ms(10000));
  r.out = p.output();
  return r;
}

std::size_t lines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(ClamsimServer, HelpListsEveryFlag) {
  const Exit r = run_server({"--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* flag :
       {"--config", "--host", "--corba-port", "--endpoint-publish", "--max-sessions",
        "--models-dir", "--scenarios-dir", "--default-model", "--concurrency", "--pool-threads",
        "--send-grace-s", "--naming-service", "--naming-name", "--call-timeout-ms",
        "--connect-timeout-ms", "--http-host", "--http-port", "--http-all-interfaces",
        "--web-root", "--vendor-three-dir", "--vendor-uplot-dir", "--max-replays", "--world", "--report-dir", "--allowed-origins",
        "--exit-with-parent", "--http-allowed-hosts", "--http-server-header",
        "--http-max-connections", "--http-max-connections-per-client", "--http-timeout-s",
        "--corba-max-connections", "--corba-max-connections-per-client",
        "--corba-idle-timeout-s", "--corba-request-timeout-ms",
        "--corba-tls-cert", "--corba-tls-key", "--corba-tls-ca", "--corba-tls-port",
        "--corba-tls-client-cert", "--corba-plain", "--help"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

TEST(ClamsimServer, BadFlagsAndConfigExitTwoWithOneLineNamingThem) {
  const std::string config = std::string(CLAMSIM_SOURCE_DIR) + "/config/server.json";
  struct Case {
    std::vector<std::string> args;
    const char* named;
  };
  const std::vector<Case> cases = {
      {{"--no-such-flag"}, "--no-such-flag"},
      {{"--corba-port", "http"}, "--corba-port"},
      {{"--corba-port", "70000"}, "--corba-port"},
      {{"--max-sessions", "0"}, "--max-sessions"},
      {{"--concurrency", "reactive"}, "--concurrency"},
      {{"--send-grace-s", "-1"}, "--send-grace-s"},
      {{"--call-timeout-ms", "50"}, "--call-timeout-ms"},
      {{"--naming-service", "host:2809"}, "--naming-service"},
      {{"--host"}, "--host"},
      {{"--exit-with-parent", "maybe"}, "--exit-with-parent"},
      {{"--config", "/nonexistent/server.json"}, "/nonexistent/server.json"},
      {{"--config", config, "--models-dir", "/nonexistent"}, "t250"},
  };
  for (const Case& c : cases) {
    const Exit r = run_server(c.args);
    EXPECT_EQ(r.status, 2) << c.named << ": " << r.out;
    EXPECT_EQ(lines(r.out), 1u) << r.out;
    EXPECT_NE(r.out.find(c.named), std::string::npos) << r.out;
  }
}

TEST(ClamsimServer, BadConfigFileValueNamesFileAndKey) {
  const fs::path dir = fs::temp_directory_path() / ("clamsim-corba-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "server.json";
  std::ofstream(file) << R"({"corba_port": 10150, "max_sesions": 3})";
  Exit r = run_server({"--config", file.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("max_sesions"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("server.json"), std::string::npos) << r.out;
  std::ofstream(file) << R"({"pool_threads": "many"})";
  r = run_server({"--config", file.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("pool_threads"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

// The browser's key layout is checked at start: a broken one stops the server naming the
// file and the field, before any trainee's page could fly with it.
TEST(ClamsimServer, ABadKeyboardLayoutStopsTheStartNamingTheField) {
  const fs::path dir = fs::temp_directory_path() / ("clamsim-keys-" + std::to_string(getpid()));
  fs::create_directories(dir);
  nlohmann::json keys;
  std::ifstream(std::string(CLAMSIM_SOURCE_DIR) + "/config/keyboard.json") >> keys;
  keys["actions"]["restart"]["key"] = "Digit1";
  const fs::path file = dir / "keys.json";
  std::ofstream(file) << keys.dump();
  // the data folders named, not found from the working directory (ctest runs in the build tree)
  const std::string src = CLAMSIM_SOURCE_DIR;
  const Exit r = run_server({"--models-dir", src + "/models", "--scenarios-dir",
                             src + "/config/scenarios", "--corba-port", "0", "--http-port", "0",
                             "--keyboard-file", file.string()});
  EXPECT_EQ(r.status, cli::kExitBadModel) << r.out;
  EXPECT_NE(r.out.find(file.string() + ": actions.restart.key: Digit1 is the browser's key for "
                       "a view"),
            std::string::npos)
      << r.out;
  fs::remove_all(dir);
}

// One line naming the port and its setting, not omniORB's own log lines.
TEST(ClamsimServer, PortInUseFailsToStartInOneLineNamingPortAndSetting) {
  ServerProcess first;
  ASSERT_TRUE(first.ready()) << first.process().output();
  const std::string port = first.corbaloc().substr(first.corbaloc().rfind(':') + 1,
                                                   first.corbaloc().find('/', 10) -
                                                       first.corbaloc().rfind(':') - 1);
  const Exit r = run_server({"--config", std::string(CLAMSIM_SOURCE_DIR) + "/config/server.json",
                            "--host", "127.0.0.1", "--corba-port", port, "--http-port", "0"});
  EXPECT_EQ(r.status, cli::kExitFailure) << r.out;
  // one line of its own, and none of omniORB's (the event log's start lines may come first)
  EXPECT_NE(r.out.find("\nclamsim-server: --corba-port " + port + ": port " + port +
                       " on 127.0.0.1 is in use (another server?); choose another, or 0 for "
                       "any free port\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("omniORB"), std::string::npos) << r.out;
}

// The web port likewise: the line names --http-port, so the user knows which setting to change.
TEST(ClamsimServer, WebPortInUseNamesTheHttpPortSetting) {
  const int held = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(held, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(held, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(held, 1), 0);
  socklen_t len = sizeof a;
  ASSERT_EQ(getsockname(held, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const std::string port = std::to_string(ntohs(a.sin_port));
  const Exit r = run_server({"--config", std::string(CLAMSIM_SOURCE_DIR) + "/config/server.json",
                            "--host", "127.0.0.1", "--corba-port", "0", "--http-host",
                            "127.0.0.1", "--http-port", port});
  close(held);
  EXPECT_EQ(r.status, cli::kExitFailure) << r.out;
  EXPECT_NE(r.out.find("\nclamsim-server: --http-port " + port + ": port " + port +
                       " on 127.0.0.1 is in use (another server?); choose another, or 0 for "
                       "any free port\n"),
            std::string::npos)
      << r.out;
}

// The exit statuses of cli/exit_codes.h, as --help lists them, from real runs.
TEST(ClamsimServer, ExitStatusesAreTheDocumentedOnes) {
  const fs::path dir = fs::temp_directory_path() / ("clamsim-exit-" + std::to_string(getpid()));
  fs::create_directories(dir / "models");
  std::ofstream(dir / "models" / "t250.json") << "{ \"schema\": ";
  std::ofstream(dir / "a-file") << "not a directory";
  const std::string config = std::string(CLAMSIM_SOURCE_DIR) + "/config/server.json";
  const std::vector<std::string> free = {"--config", config, "--corba-port", "0", "--http-port",
                                         "0"};
  const auto with = [&free](std::vector<std::string> extra) {
    extra.insert(extra.begin(), free.begin(), free.end());
    return extra;
  };
  struct Case {
    std::vector<std::string> args;
    int status;
    std::string says;
  };
  const std::vector<Case> cases = {
      {with({"--models-dir", (dir / "models").string()}), cli::kExitBadModel,
       (dir / "models" / "t250.json").string() + ": invalid JSON"},
      {with({"--http-host", "999.1.1.1"}), cli::kExitUsage,
       "--http-host: '999.1.1.1' is not an IP address"},
      {with({"--world", "nosuch"}), cli::kExitUsage,
       "default world \"nosuch\" not found (no nosuch.json); worlds: dam_intake, first_lesson, "
       "or none for empty space"},
      {with({"--default-model", "t2500"}), cli::kExitUsage,
       "default model \"t2500\" not found (no t2500.json); models: t250"},
      {with({"--report-dir", (dir / "a-file" / "reports").string()}), cli::kExitUsage,
       "--report-dir: cannot create " + (dir / "a-file" / "reports").string() + ": Not a directory"},
      {{"--no-such-flag"}, cli::kExitUsage, "unknown option '--no-such-flag'"},
  };
  for (const Case& c : cases) {
    const Exit r = run_server(c.args);
    EXPECT_EQ(r.status, c.status) << r.out;
    EXPECT_EQ(lines(r.out), 1u) << r.out;
    EXPECT_NE(r.out.find(c.says), std::string::npos) << r.out;
  }
  const Exit help = run_server({"--help"});
  EXPECT_EQ(help.status, cli::kExitOk);
  EXPECT_NE(help.out.find(cli::exit_codes_help()), std::string::npos) << help.out;
  const Exit version = run_server({"--version"});
  EXPECT_EQ(version.status, cli::kExitOk);
  EXPECT_EQ(version.out, std::string("clamsim-server ") + kVersion + "\n");
  fs::remove_all(dir);
}

// A report directory the server cannot write to is found at start, not at the first report.
TEST(ClamsimServer, AnUnwritableReportDirectoryStopsTheStart) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes to a read-only directory";
  const fs::path dir = fs::temp_directory_path() / ("clamsim-ro-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
  const Exit r = run_server({"--config", std::string(CLAMSIM_SOURCE_DIR) + "/config/server.json",
                             "--corba-port", "0", "--http-port", "0", "--report-dir",
                             dir.string()});
  fs::permissions(dir, fs::perms::owner_all);
  fs::remove_all(dir);
  EXPECT_EQ(r.status, cli::kExitUsage) << r.out;
  EXPECT_NE(r.out.find("--report-dir: cannot write in " + dir.string() + ": Permission denied"),
            std::string::npos)
      << r.out;
}

// Without a config file (none in the working directory, none named) the CORBA
// side listens on loopback and its references carry the loopback address.
TEST(ClamsimServer, WithoutAConfigFileCorbaIsLoopbackOnly) {
  const fs::path dir = fs::temp_directory_path() / ("clamsim-noconf-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string src = CLAMSIM_SOURCE_DIR;
  ChildProcess server({"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", dir.string(),
                       server_binary(), "--models-dir", src + "/models", "--scenarios-dir",
                       src + "/config/scenarios", "--corba-port", "0", "--http-port", "0"});
  const std::string ready = server.wait_for_line("ready corbaloc::", Ms(15000));
  EXPECT_EQ(ready.rfind("ready corbaloc::127.0.0.1:", 0), 0u) << server.output();
  EXPECT_NE(server.output().find("corba: references carry 127.0.0.1:"), std::string::npos)
      << server.output();
  EXPECT_EQ(server.output().find(", config "), std::string::npos) << "no config file read";
  server.signal(SIGINT);
  EXPECT_EQ(server.wait_exit(Ms(5000)), cli::kExitOk) << server.output();
  fs::remove_all(dir);
}

// The frames_sent a counter line printed at shutdown gives ("session 1 (t250): frames_sent=
// 57 ..."); -1 when the line is missing.
long long frames_sent_in(const std::string& out, const std::string& what) {
  const std::size_t line = out.find(what + " frames_sent=");
  if (line == std::string::npos) return -1;
  return std::stoll(out.substr(line + what.size() + std::string(" frames_sent=").size()));
}

TEST(ClamsimServer, SigintStopsEverySessionPrintsCountersAndExitsZero) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> a, b;
  CLAMX::Session_var sa = admin->subscribeWith(a.client(), default_options());
  CLAMX::Session_var sb = admin->subscribeWith(b.client(), default_options());
  ASSERT_TRUE(a->wait_frames(5, Ms(5000)));
  const CLAM::ControlSignal u = {1, 0, 0, 0, 0};
  sa->GetControlInput(u);
  ASSERT_TRUE(eventually([&] { return sa->stats().controls_received == 1; }, Ms(2000)));

  server.process().signal(SIGINT);
  // the bound is "it never exited"; how fast a loaded machine gets there is not the test's
  // business
  const int status = server.process().wait_exit(Ms(30000));
  EXPECT_EQ(status, 0) << server.process().output();
  const std::string out = server.process().output();
  EXPECT_NE(out.find("shutdown: SIGINT"), std::string::npos) << out;
  EXPECT_NE(out.find("session 1 (t250): frames_sent="), std::string::npos) << out;
  EXPECT_NE(out.find("session 2 (t250): frames_sent="), std::string::npos) << out;
  EXPECT_NE(out.find("controls_received=1"), std::string::npos) << out;
  EXPECT_NE(out.find("server: sessions_created=2"), std::string::npos) << out;
  EXPECT_NE(out.find("server: frames_sent="), std::string::npos) << out;
  // the counters are printed once every session has stopped: they are final, so every
  // frame they count arrives and no frame comes after them
  const long long sent = frames_sent_in(out, "session 1 (t250):");
  ASSERT_GT(sent, 0) << out;
  EXPECT_TRUE(a->wait_total(static_cast<std::size_t>(sent), Ms(5000)))
      << a->total() << " received, " << sent << " sent";
  EXPECT_EQ(a->total(), static_cast<std::size_t>(sent)) << "frames after shutdown";
}

// A launcher (here a shell) that starts the server and is then killed outright: with
// --exit-with-parent the server stops in order instead of serving on as an orphan.
TEST(ClamsimServer, ExitWithParentStopsTheServerWhenItsLauncherIsKilled) {
  ChildProcess launcher({"/bin/sh", "-c", "\"$0\" \"$@\" & wait", server_binary(), "--config",
                         std::string(CLAMSIM_SOURCE_DIR) + "/config/server.json", "--host",
                         "127.0.0.1", "--corba-port", "0", "--http-port", "0",
                         "--exit-with-parent", "yes"});
  ASSERT_FALSE(launcher.wait_for_line("ready ", Ms(15000)).empty()) << launcher.output();
  launcher.signal(SIGKILL);
  ASSERT_EQ(launcher.wait_exit(Ms(5000)), 128 + SIGKILL);
  // the server still writes into the pipe the shell handed it
  EXPECT_FALSE(launcher.wait_for_line("shutdown: SIGINT", Ms(10000)).empty())
      << launcher.output();
  EXPECT_FALSE(launcher.wait_for_line("server: sessions_created=0", Ms(5000)).empty())
      << launcher.output();
}

// True when pid has exited (reaped, or a zombie its adopter has not reaped yet).
bool gone_or_zombie(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return true;
  const auto paren = text.rfind(')');
  return paren == std::string::npos || text.compare(paren + 1, 3, " Z ") == 0;
}

// A launcher that ends before the server has even started: the server must not serve on
// as an orphan; it says why and exits.
TEST(ClamsimServer, ExitWithParentHoldsWhenTheParentEndsBeforeTheServerStarts) {
  // the outer shell forks an inner one and exits at once; the inner one waits until it
  // has been orphaned, prints its pid and becomes the server
  ChildProcess launcher({"/bin/sh", "-c",
                         "/bin/sh -c 'sleep 0.5; echo \"server pid $$\"; exec \"$0\" \"$@\"' "
                         "\"$0\" \"$@\" &",
                         server_binary(), "--config",
                         std::string(CLAMSIM_SOURCE_DIR) + "/config/server.json", "--corba-port",
                         "0", "--http-port", "0", "--exit-with-parent", "yes"});
  ASSERT_EQ(launcher.wait_exit(Ms(5000)), 0);
  const std::string pid_line = launcher.wait_for_line("server pid ", Ms(5000));
  ASSERT_FALSE(pid_line.empty()) << launcher.output();
  const pid_t server = static_cast<pid_t>(std::stol(pid_line.substr(11)));
  const bool ended = eventually([&] { return gone_or_zombie(server); }, Ms(15000));
  if (!ended) kill(server, SIGKILL);  // never leave it serving
  EXPECT_TRUE(ended) << launcher.output();
  EXPECT_FALSE(launcher.wait_for_line("clamsim-server: --exit-with-parent: the process that "
                                      "started the server has already ended", Ms(5000))
                   .empty())
      << launcher.output();
  EXPECT_EQ(launcher.output().find("ready corbaloc"), std::string::npos) << launcher.output();
}

bool ipv6_loopback_available() {
  const int s = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return false;
  sockaddr_in6 a{};
  a.sin6_family = AF_INET6;
  a.sin6_addr = in6addr_loopback;
  const bool ok = bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(s);
  return ok;
}

// GET path from [::1]:port; the reply's text ("" when the connection failed).
// A GET to the loopback address of `family` (AF_INET, AF_INET6) with the given Host
// header; the whole reply.
std::string http_get(int family, int port, const std::string& path, const std::string& host) {
  const int s = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a4{};
  sockaddr_in6 a6{};
  a4.sin_family = AF_INET;
  a4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a4.sin_port = htons(static_cast<std::uint16_t>(port));
  a6.sin6_family = AF_INET6;
  a6.sin6_addr = in6addr_loopback;
  a6.sin6_port = a4.sin_port;
  const bool v6 = family == AF_INET6;
  timeval limit{5, 0};
  setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  std::string reply;
  if (connect(s, v6 ? reinterpret_cast<sockaddr*>(&a6) : reinterpret_cast<sockaddr*>(&a4),
              v6 ? sizeof a6 : sizeof a4) == 0) {
    const std::string request =
        "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
    if (send(s, request.data(), request.size(), MSG_NOSIGNAL) ==
        static_cast<ssize_t>(request.size())) {
      char buf[4096];
      for (ssize_t n; (n = recv(s, buf, sizeof buf, 0)) > 0;) reply.append(buf, n);
    }
  }
  close(s);
  return reply;
}

// Both front ends on the IPv6 loopback: the corbaloc carries the address in brackets (as
// RFC 3986 and omniORB want it), a receiver subscribes through it and gets frames, and the
// web front end answers there.
TEST(ClamsimServer, ServesReceiversAndBrowsersOverIPv6) {
  if (!ipv6_loopback_available()) GTEST_SKIP() << "no IPv6 loopback (::1) on this machine";
  ServerProcess server({"--host", "::1", "--http-host", "::1"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  EXPECT_EQ(server.corbaloc().rfind("corbaloc::[::1]:", 0), 0u) << server.corbaloc();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> rec;
  CLAMX::Session_var session = admin->subscribeWith(rec.client(), default_options());
  EXPECT_TRUE(rec->wait_frames(5, Ms(5000)));
  session->unsubscribe();

  const std::string line = server.process().wait_for_line("ready http://", Ms(5000));
  ASSERT_EQ(line.rfind("ready http://[::1]:", 0), 0u) << server.process().output();
  const int port = std::stoi(line.substr(line.rfind(':') + 1));
  const std::string reply = http_get(AF_INET6, port, "/healthz", "[::1]:" + std::to_string(port));
  EXPECT_EQ(reply.rfind("HTTP/1.1 200", 0), 0u) << reply;
  EXPECT_NE(reply.find("\"status\":\"ok\""), std::string::npos) << reply;
}

// The server logs web abuse (it never set WebOptions::log), answers a forged
// Host with 421, names no version beyond loopback, and says what it did with the
// descriptor limit.
TEST(ClamsimServer, LogsWebAbuseAndReportsTheDescriptorLimit) {
  ServerProcess server({"--http-allowed-hosts", "sim.school.example"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  const std::string ready = server.process().wait_for_line("ready http://", Ms(5000));
  ASSERT_FALSE(ready.empty()) << server.process().output();
  const int port = std::stoi(ready.substr(ready.rfind(':') + 1));
  EXPECT_EQ(http_get(AF_INET, port, "/api/sessions", "evil.example").rfind("HTTP/1.1 421", 0), 0u);
  EXPECT_EQ(http_get(AF_INET, port, "/healthz", "sim.school.example").rfind("HTTP/1.1 200", 0), 0u);
  // in the event log (stderr, a time stamp first): the refusal names the host
  EXPECT_TRUE(eventually(
      [&] {
        const std::string out = server.process().output();
        return out.find("refused a request") != std::string::npos &&
               out.find("evil.example") != std::string::npos;
      },
      Ms(5000)))
      << server.process().output();
  EXPECT_FALSE(server.process().wait_for_line("file descriptors: ", Ms(1000)).empty())
      << server.process().output();
}

TEST(ClamsimServer, SigintAlsoStopsCleanly) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  server.process().signal(SIGINT);
  EXPECT_EQ(server.process().wait_exit(Ms(2000)), 0) << server.process().output();
  EXPECT_NE(server.process().output().find("shutdown: SIGINT"), std::string::npos);
}

TEST(ClamsimServer, ThreadPoolModelServesAndTakesControls) {
  ServerProcess server({"--concurrency", "thread-pool", "--pool-threads", "2"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  EXPECT_NE(server.process().output().find("thread-pool (2 threads)"), std::string::npos);
  CLAMX::Admin_var admin = server.admin();
  std::vector<std::unique_ptr<Activated<FrameRecorder>>> recs;
  std::vector<CLAMX::Session_var> sessions;
  for (int i = 0; i < 4; ++i) {
    recs.push_back(std::make_unique<Activated<FrameRecorder>>());
    sessions.emplace_back(admin->subscribeWith(recs.back()->client(), default_options()));
  }
  const CLAM::ControlSignal u = {0, 0, 0, 1, 1};
  for (auto& s : sessions) s->GetControlInput(u);
  for (auto& r : recs) EXPECT_TRUE((*r)->wait_frames(10, Ms(5000)));
  EXPECT_TRUE(eventually([&] { return status_of(admin).controls_received == 4; }, Ms(2000)));
  for (auto& s : sessions) s->unsubscribe();
}

bool omninames_installed() { return access("/usr/bin/omniNames", X_OK) == 0; }

TEST(ClamsimServer, BindsInTheNamingServiceWhenOneIsConfigured) {
  if (!omninames_installed()) GTEST_SKIP() << "omniNames not installed";
  const fs::path dir = fs::temp_directory_path() / ("clamsim-names-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const int port = free_port();
  ChildProcess names({"/usr/bin/omniNames", "-start", std::to_string(port), "-always", "-datadir",
                      dir.string(), "-ORBendPoint",
                      "giop:tcp:127.0.0.1:" + std::to_string(port)});
  const std::string ns = "corbaloc::127.0.0.1:" + std::to_string(port) + "/NameService";
  CORBA::Object_var ns_obj = orb()->string_to_object(ns.c_str());
  CosNaming::NamingContextExt_var root;
  ASSERT_TRUE(eventually(
      [&] {
        try {
          root = CosNaming::NamingContextExt::_narrow(ns_obj);
          return !CORBA::is_nil(root);
        } catch (const CORBA::Exception&) {
          return false;
        }
      },
      Ms(10000), Ms(100)))
      << names.output();

  {
    ServerProcess server({"--naming-service", ns, "--naming-name", "clamsim/admin"});
    ASSERT_TRUE(server.ready()) << server.process().output();
    EXPECT_NE(server.process().output().find("bound \"clamsim/admin\""), std::string::npos)
        << server.process().output();
    CORBA::Object_var obj = root->resolve_str("clamsim/admin");
    CLAMX::Admin_var admin = CLAMX::Admin::_narrow(obj);
    ASSERT_FALSE(CORBA::is_nil(admin));
    CLAMX::ServerStatus_var status = admin->status();
    EXPECT_EQ(status->sessions, 0u);

    server.process().signal(SIGTERM);
    EXPECT_EQ(server.process().wait_exit(Ms(3000)), 0);
  }
  EXPECT_THROW(root->resolve_str("clamsim/admin"), CosNaming::NamingContext::NotFound)
      << "the name outlived the server";
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST(ClamsimServer, ServesWithoutAnUnreachableNamingService) {
  const std::string ns = "corbaloc::127.0.0.1:" + std::to_string(free_port()) + "/NameService";
  ServerProcess server({"--naming-service", ns});
  ASSERT_TRUE(server.ready()) << server.process().output();
  EXPECT_NE(server.process().output().find("naming service: unavailable"), std::string::npos)
      << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> rec;
  CLAMX::Session_var session = admin->subscribeWith(rec.client(), default_options());
  EXPECT_TRUE(rec->wait_frames(3, Ms(5000)));
  session->unsubscribe();
}

}  // namespace
}  // namespace clamsim::corba::test
