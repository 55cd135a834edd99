// clamsim-server's drain on SIGTERM (server/app/server.cc), end to end over both wires: a
// real server process, a real WebSocket client and a real CORBA receiver. /readyz turns
// 503 at once, new sessions are refused on both transports, connected clients are told
// how long they have and keep their frames, and the server exits once they leave, or
// interrupts their tasks when the time is up.
#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "corba/minor_codes.h"
#include "test_client.h"
#include "test_support.h"

namespace clamsim::corba::test {
namespace {

namespace fs = std::filesystem;
using clamsim::testing::http_request;
using clamsim::testing::Seconds;
using clamsim::testing::WsClient;

// The web port from the server's "ready http://127.0.0.1:PORT/" line.
std::uint16_t http_port(ServerProcess& server) {
  const std::string line = server.process().wait_for_line("ready http://", Ms(5000));
  const auto colon = line.rfind(':');
  return static_cast<std::uint16_t>(std::stoi(line.substr(colon + 1)));
}

// A server with one browser connected and receiving frames.
struct ServerWithBrowser {
  explicit ServerWithBrowser(const std::vector<std::string>& args) : server(args) {
    if (!server.ready()) return;
    port = http_port(server);
    connected = browser.connect(port) && browser.read_type("display").has_value();
  }
  ServerProcess server;
  std::uint16_t port = 0;
  WsClient browser;
  bool connected = false;
};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Drain, SigtermRefusesNewSessionsTellsClientsAndExitsWhenTheyLeave) {
  ServerProcess server({"--drain-seconds", "60"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  const std::uint16_t port = http_port(server);
  EXPECT_EQ(http_request(port, "/readyz").status, 200);

  WsClient browser;
  ASSERT_TRUE(browser.connect(port));
  ASSERT_TRUE(browser.read_type("hello"));
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> receiver;
  CLAMX::Session_var session = admin->subscribeWith(receiver.client(), default_options());
  ASSERT_TRUE(receiver->wait_frames(3, Ms(5000)));

  const auto t0 = Clock::now();
  server.process().signal(SIGTERM);
  // the bound only says "it never turned"; how soon is printed, not asserted
  ASSERT_TRUE(eventually([&] { return http_request(port, "/readyz").status == 503; }, Ms(30000)));
  const double to_503 = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("/readyz 503 %.0f ms after SIGTERM\n", to_503 * 1000.0);
  const auto ready = nlohmann::json::parse(http_request(port, "/readyz").body);
  EXPECT_EQ(ready["status"], "draining");
  EXPECT_NE(ready["reason"].get<std::string>().find("draining"), std::string::npos);
  EXPECT_EQ(http_request(port, "/livez").status, 200) << "draining is alive";
  EXPECT_NE(http_request(port, "/metrics").body.find("clamsim_draining 1"), std::string::npos);

  // new sessions: WebSocket closed with 1013 and a reason, CORBA refused on both admins
  WsClient late;
  ASSERT_TRUE(late.connect(port));
  EXPECT_EQ(late.read_until_closed(), 1013);
  EXPECT_NE(late.close_reason().find("draining"), std::string::npos) << late.close_reason();
  Activated<FrameRecorder> late_receiver;
  try {
    CLAMX::Session_var s = admin->subscribeWith(late_receiver.client(), default_options());
    ADD_FAILURE() << "subscribeWith accepted while draining";
  } catch (const CLAMX::Refused& r) {
    EXPECT_NE(std::string(r.reason.in()).find("draining"), std::string::npos) << r.reason.in();
  }
  CLAM::CraneClamAdmin_var legacy = server.legacy_admin();
  try {
    CLAM::CraneClam_var s = legacy->subscribe(late_receiver.client());
    ADD_FAILURE() << "subscribe accepted while draining";
  } catch (const CORBA::NO_RESOURCES& e) {
    EXPECT_EQ(e.minor(), minor::kDraining);
  }

  // the connected ones are told, and keep getting frames
  const auto notice = browser.read_type("drain", Seconds(3));
  ASSERT_TRUE(notice);
  EXPECT_GT((*notice)["seconds_left"].get<int>(), 50);
  EXPECT_LE((*notice)["seconds_left"].get<int>(), 60);
  EXPECT_NE((*notice)["message"].get<std::string>().find("ends in"), std::string::npos);
  EXPECT_TRUE(browser.read_type("display", Seconds(2)));
  ASSERT_TRUE(eventually([&] { return receiver->summary().notices > 0; }, Ms(3000)));
  EXPECT_EQ(receiver->summary().last_notice_kind, "drain");
  EXPECT_GT(receiver->summary().last_notice_seconds, 50.0);
  const std::size_t frames = receiver->total();
  EXPECT_TRUE(receiver->wait_frames(frames + 5, Ms(3000))) << "frames go on while draining";

  // the last client leaves: the server stops at once, not after 60 s
  session->unsubscribe();
  browser.close();
  const auto left = Clock::now();
  // within half of the 60 s drain; ended_by below says it was the last client leaving
  EXPECT_EQ(server.process().wait_exit(Ms(30000)), 0) << server.process().output();
  std::printf("exit %.0f ms after the last client left\n",
              std::chrono::duration<double>(Clock::now() - left).count() * 1000.0);
  const std::string out = server.process().output();
  EXPECT_NE(out.find("drain_start"), std::string::npos) << out;
  EXPECT_NE(out.find("drain_end"), std::string::npos) << out;
  EXPECT_NE(out.find("ended_by=\"last session ended\""), std::string::npos) << out;
  EXPECT_EQ(count(out, "session_start"), 2u) << out;
  EXPECT_EQ(count(out, "outcome=client_left"), 2u) << out;
  EXPECT_NE(out.find("transport=websocket peer=127.0.0.1:"), std::string::npos) << out;
  EXPECT_NE(out.find("transport=corba peer=127.0.0.1:"), std::string::npos) << out;
}

TEST(Drain, TimeUpInterruptsTheTaskAndReportsIt) {
  const fs::path reports =
      fs::temp_directory_path() / ("clamsim-drain-" + std::to_string(getpid()));
  fs::remove_all(reports);
  ServerWithBrowser s({"--drain-seconds", "1", "--report-dir", reports.string(),
                       "--log-format", "json"});
  ASSERT_TRUE(s.connected) << s.server.process().output();
  ServerProcess& server = s.server;
  WsClient& browser = s.browser;
  // a task under way: its clock started at the first moved control
  ASSERT_TRUE(browser.write(R"({"type":"control","volts":[0,0,0.5,0,0]})"));
  ASSERT_TRUE(eventually([&] {
    const auto f = browser.read_type("display");
    return f.has_value() && (*f)["score"]["running"] == true;
  }, Ms(5000)));

  server.process().signal(SIGTERM);
  EXPECT_EQ(browser.read_until_closed(Seconds(10)), 1001) << "going away when time is up";
  EXPECT_EQ(server.process().wait_exit(Ms(10000)), 0) << server.process().output();
  const std::string out = server.process().output();
  EXPECT_NE(out.find(R"("event":"drain_end")"), std::string::npos) << out;
  EXPECT_NE(out.find(R"("ended_by":"time up")"), std::string::npos) << out;
  EXPECT_NE(out.find(R"("outcome":"server_stop")"), std::string::npos) << out;
  EXPECT_NE(out.find(R"("task":"interrupted")"), std::string::npos) << out;

  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(reports)) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);
  std::ifstream in(files[0]);
  const auto report = nlohmann::json::parse(in);
  EXPECT_EQ(report["outcome"], "interrupted");
  EXPECT_FALSE(report["ended_utc"].is_null());
  fs::remove_all(reports);
}

TEST(Drain, ASecondSigtermStopsAtOnce) {
  ServerWithBrowser s({"--drain-seconds", "120"});
  ASSERT_TRUE(s.connected) << s.server.process().output();
  ServerProcess& server = s.server;
  server.process().signal(SIGTERM);
  ASSERT_TRUE(
      eventually([&] { return http_request(s.port, "/readyz").status == 503; }, Ms(3000)));
  server.process().signal(SIGTERM);
  // within half of the 120 s drain: the second signal, not the drain's end, stopped it
  // (the log line below says which)
  EXPECT_EQ(server.process().wait_exit(Ms(60000)), 0) << server.process().output();
  EXPECT_NE(server.process().output().find("second SIGTERM"), std::string::npos)
      << server.process().output();
}

TEST(Drain, SigtermWithoutSessionsStopsAtOnce) {
  ServerProcess server({"--drain-seconds", "120"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  server.process().signal(SIGTERM);
  EXPECT_EQ(server.process().wait_exit(Ms(5000)), 0) << server.process().output();
  EXPECT_EQ(server.process().output().find("drain_start"), std::string::npos);
}

}  // namespace
}  // namespace clamsim::corba::test
