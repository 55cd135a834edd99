// deploy/haproxy/haproxy.cfg as shipped, with only its addresses replaced by loopback ones:
// three real clamsim-server replicas behind a real HAProxy, browser-like clients
// (clamsim-wsload) through it. New sessions spread over the replicas; a replica sent
// SIGTERM takes no new session while its own go on; a killed replica's clients reconnect
// through HAProxy and land on the one left. The client count is a parameter
// (CLAMSIM_LB_CLIENTS, default 9: under ASan a frame costs about ten times a Release
// build's, and 30 clients already overran this 2-core machine beside other work); docs/
// scaling.md has the 300-client measurement of a Release build.
#include <gtest/gtest.h>

#include <signal.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "test_client.h"
#include "test_support.h"

namespace clamsim::corba::test {
namespace {

namespace fs = std::filesystem;
using clamsim::testing::http_request;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Replaces the one occurrence of `from` (a test failure when there is none or several:
// the shipped file changed shape and the test must follow).
void replace_once(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << "haproxy.cfg has no '" << from << "'";
  ASSERT_EQ(text.find(from, at + 1), std::string::npos) << "'" << from << "' twice";
  text.replace(at, from.size(), to);
}

int clients_asked() {
  const char* n = std::getenv("CLAMSIM_LB_CLIENTS");
  return n != nullptr ? std::max(3, std::atoi(n)) : 9;
}

struct Replica {
  int http = 0, corba = 0;
  std::unique_ptr<ServerProcess> server;
  std::uint16_t port() const { return static_cast<std::uint16_t>(http); }
};

// A number from the replica's /metrics; -1 when it does not answer.
double metric(const Replica& r, const std::string& sample) {
  const auto reply = http_request(r.port(), "/metrics");
  std::smatch m;
  const std::regex re("\n" + std::regex_replace(sample, std::regex(R"([{}"])"), R"(\$&)") +
                      " ([0-9.e+]+)");
  if (reply.status != 200 || !std::regex_search(reply.body, m, re)) return -1;
  return std::stod(m[1].str());
}

int live(const Replica& r) {
  return static_cast<int>(metric(r, "clamsim_sessions{transport=\"websocket\"}"));
}

int created(const Replica& r) {
  return static_cast<int>(metric(r, "clamsim_sessions_created_total"));
}

class Haproxy : public ::testing::Test {
 protected:
  void SetUp() override {
    if (which("haproxy").empty()) {
      const char* require = std::getenv("CLAMSIM_REQUIRE_CONTAINER");
      if (require != nullptr && std::string(require) == "yes")
        FAIL() << "haproxy is not installed (scripts/setup.sh --tests installs it)";
      GTEST_SKIP() << "haproxy is not installed: the load-balancing test needs it";
    }
    dir_ = fs::temp_directory_path() / ("clamsim-haproxy-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  // Every replica on loopback, with the per-client limits off as haproxy.cfg's header says.
  void start_replicas() {
    for (auto& r : replicas_) {
      r.http = free_port();
      r.corba = free_port();
      r.server = std::make_unique<ServerProcess>(std::vector<std::string>{
          "--corba-port", std::to_string(r.corba), "--http-host", "127.0.0.1", "--http-port",
          std::to_string(r.http), "--endpoint-publish",
          "giop:tcp:127.0.0.1:" + std::to_string(r.corba), "--max-sessions-per-client", "0",
          "--http-max-connections-per-client", "100000", "--http-connection-rate-per-client",
          "0", "--drain-seconds", "120"});
      ASSERT_TRUE(r.server->ready()) << r.server->process().output();
    }
  }

  // The shipped file, its addresses and certificate replaced.
  void write_config() {
    std::string cfg = slurp(source_dir() + "/deploy/haproxy/haproxy.cfg");
    web_ = free_port();
    tls_ = free_port();
    stats_ = free_port();
    const int corba = free_port();
    replace_once(cfg, "bind :80\n", "bind 127.0.0.1:" + std::to_string(web_) + "\n");
    replace_once(cfg, "bind :443 ssl crt /etc/haproxy/certs/clamsim.pem",
                 "bind 127.0.0.1:" + std::to_string(tls_) + " ssl crt " + pem().string());
    replace_once(cfg, "bind :2809\n", "bind 127.0.0.1:" + std::to_string(corba) + "\n");
    replace_once(cfg, "bind 127.0.0.1:8404", "bind 127.0.0.1:" + std::to_string(stats_));
    for (std::size_t i = 0; i < replicas_.size(); ++i) {
      const std::string host = "10.0.0.1" + std::to_string(i + 1);
      const auto& r = replicas_[i];
      replace_once(cfg, host + ":8080", "127.0.0.1:" + std::to_string(r.http));
      replace_once(cfg, host + ":2809 check port 8080",
                   "127.0.0.1:" + std::to_string(r.corba) + " check port " +
                       std::to_string(r.http));
    }
    std::ofstream(dir_ / "haproxy.cfg") << cfg;
  }

  // The test PKI's server certificate and key in one file, as HAProxy's crt wants.
  fs::path pem() {
    const fs::path p = dir_ / "clamsim.pem";
    std::ofstream(p) << slurp(pki_.path("server.pem")) << slurp(pki_.path("server.key"));
    return p;
  }

  // HAProxy's view of one server of the web backend: "UP", "DOWN", "MAINT"... from its
  // stats CSV (pxname,svname,...,status is the 18th column).
  std::string status_of(const std::string& server) {
    const auto reply = http_request(static_cast<std::uint16_t>(stats_), "/stats;csv");
    std::istringstream rows(reply.body);
    for (std::string row; std::getline(rows, row);) {
      std::vector<std::string> cols;
      std::istringstream fields(row);
      for (std::string f; std::getline(fields, f, ',');) cols.push_back(f);
      if (cols.size() > 17 && cols[0] == "replicas" && cols[1] == server)
        return cols[17].substr(0, cols[17].find(' '));
    }
    return "";
  }

  std::vector<std::string> wsload(int sessions, const std::string& url, double duration_s) {
    return {CLAMSIM_WSLOAD_BINARY, "--url", url, "--sessions", std::to_string(sessions),
            "--duration", std::to_string(duration_s), "--warmup", "0"};
  }

  std::string url() const { return "ws://127.0.0.1:" + std::to_string(web_) + "/ws"; }

  fs::path dir_;
  TestPki pki_;
  std::array<Replica, 3> replicas_;
  int web_ = 0, tls_ = 0, stats_ = 0;
};

// The CSV of clamsim-wsload: column name -> values, one per client.
std::map<std::string, std::vector<std::string>> read_csv(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::istringstream head(line);
  for (std::string n; std::getline(head, n, ',');) names.push_back(n);
  std::map<std::string, std::vector<std::string>> cols;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string f;
    for (std::size_t i = 0; i < names.size() && std::getline(row, f, ','); ++i)
      cols[names[i]].push_back(f);
  }
  return cols;
}

TEST_F(Haproxy, SpreadsSessionsDrainsAndFailsOver) {
  ASSERT_TRUE(pki_.ok());
  ASSERT_NO_FATAL_FAILURE(start_replicas());
  ASSERT_NO_FATAL_FAILURE(write_config());
  ChildProcess lb({which("haproxy"), "-db", "-f", (dir_ / "haproxy.cfg").string()});
  ASSERT_TRUE(eventually(
      [&] {
        return status_of("replica1") == "UP" && status_of("replica2") == "UP" &&
               status_of("replica3") == "UP";
      },
      Ms(15000)))
      << lb.output();

  // wss:// through the TLS-ending bind
  ChildProcess tls({CLAMSIM_WSLOAD_BINARY, "--url", "wss://127.0.0.1:" + std::to_string(tls_) + "/ws",
                    "--tls-insecure", "--sessions", "3", "--duration", "1", "--warmup", "0"});
  ASSERT_EQ(tls.wait_exit(Ms(60000)), 0) << tls.output();

  // the fleet, reconnecting as browsers do
  const int n = clients_asked();
  std::vector<std::string> fleet_args = wsload(n, url(), 14.0);
  fleet_args.insert(fleet_args.end(), {"--reconnect", "0.5", "--csv", (dir_ / "fleet.csv").string()});
  ChildProcess fleet(fleet_args);
  auto& [a, b, c] = replicas_;
  ASSERT_TRUE(eventually([&] { return live(a) + live(b) + live(c) == n; }, Ms(30000)))
      << live(a) << " " << live(b) << " " << live(c) << "\n" << fleet.output();
  const int on_a = live(a), on_b = live(b), on_c = live(c);
  std::printf("spread of %d clients: %d %d %d\n", n, on_a, on_b, on_c);
  for (int k : {on_a, on_b, on_c}) EXPECT_GE(k, n / 3 - 2) << on_a << " " << on_b << " " << on_c;

  // SIGTERM: out of HAProxy's rotation at its next check, its sessions go on
  a.server->process().signal(SIGTERM);
  ASSERT_TRUE(eventually([&] { return status_of("replica1") == "DOWN"; }, Ms(30000)));
  const int made_on_a = created(a);
  ChildProcess late(wsload(6, url(), 1.0));
  EXPECT_EQ(late.wait_exit(Ms(60000)), 0) << late.output();
  EXPECT_EQ(created(a), made_on_a) << "the draining replica took a new session";
  EXPECT_EQ(live(a), on_a) << "the draining replica's sessions ended";

  // SIGKILL: its clients come back through HAProxy on the replica left
  b.server->process().signal(SIGKILL);
  EXPECT_TRUE(eventually([&] { return live(c) == on_c + on_b; }, Ms(15000)))
      << live(c) << " of " << on_c + on_b << "\n" << fleet.output();
  EXPECT_EQ(live(a), on_a);

  ASSERT_EQ(fleet.wait_exit(Ms(60000)), 0) << fleet.output();
  const std::string report = fleet.output();
  std::printf("%s", report.c_str());
  EXPECT_EQ(report.find("closed during the run"), std::string::npos) << report;
  const auto cols = read_csv(dir_ / "fleet.csv");
  ASSERT_EQ(cols.at("reconnects").size(), static_cast<std::size_t>(n));
  int reconnected = 0, drained = 0;
  for (int i = 0; i < n; ++i) {
    const bool moved = std::stoi(cols.at("reconnects")[i]) > 0;
    reconnected += moved;
    drained += std::stoi(cols.at("drain_notices")[i]) > 0;
    // the stream went on through the drain: not closed (the report above), no error from
    // the server, in order; its rate (the fps column) is a figure for docs/scaling.md, not
    // a test of a sanitizer build on a shared machine
    if (!moved) {
      EXPECT_EQ(std::stoi(cols.at("errors")[i]), 0) << "client " << i;
      EXPECT_EQ(std::stoi(cols.at("out_of_order")[i]), 0) << "client " << i;
    }
    EXPECT_GT(std::stoi(cols.at("frames")[i]), 0) << "client " << i;
  }
  EXPECT_EQ(reconnected, on_b);
  EXPECT_EQ(drained, on_a);

  // the drained replica exits once its last session left
  EXPECT_EQ(a.server->process().wait_exit(Ms(15000)), 0) << a.server->process().output();
  lb.signal(SIGTERM);
  lb.wait_exit(Ms(5000));
}

// The TLS pass-through variant is checked by HAProxy itself; the test runs haproxy.cfg.
TEST_F(Haproxy, PassThroughVariantIsValid) {
  ChildProcess check(
      {which("haproxy"), "-c", "-f", source_dir() + "/deploy/haproxy/haproxy-passthrough.cfg"});
  EXPECT_EQ(check.wait_exit(Ms(10000)), 0) << check.output();
}

}  // namespace
}  // namespace clamsim::corba::test
