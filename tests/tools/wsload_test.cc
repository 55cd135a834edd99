// clamsim-wsload end to end: it spawns the real clamsim-server (from the repo root, as a user
// runs it), connects N WebSocket clients, measures, closes them and stops the server.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tool_run.h"

namespace {

using clamsim::testing::number_after;
using clamsim::testing::run_tool;
using clamsim::testing::ScratchDir;
using clamsim::testing::ToolResult;

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class WsloadCli : public ::testing::Test {
 protected:
  ToolResult run(const std::vector<std::string>& args,
                 std::chrono::seconds timeout = std::chrono::seconds(20)) const {
    return run_tool(CLAMSIM_WSLOAD_BINARY, args, scratch_, timeout, CLAMSIM_SOURCE_DIR);
  }

  std::string path(const std::string& name) const { return scratch_.path(name); }

  ScratchDir scratch_{"clamsim-wsload-test"};
};

// A functional test of the tool: it connects, measures and reports. How many browsers the
// server holds at 20 Hz is a measurement (docs/wsload.md), not asserted here: under the
// sanitizers and a parallel test run the figures depend on the machine's load.
TEST_F(WsloadCli, SessionsAreConnectedMeasuredAndReported) {
  const ToolResult r = run({"--spawn-server", CLAMSIM_SERVER_BINARY, "--sessions", "4", "--duration",
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
  // the session threads sleep between frames: switches were read from every server thread
  EXPECT_GT(number_after(r.out, "server context switches: (\\d+) in the window"), 0.0) << r.out;
  EXPECT_EQ(number_after(r.out, "server exit status: (-?\\d+)"), 0.0) << r.out;

  std::ifstream csv(path("s.csv"));
  std::string line;
  int rows = 0;
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, 1 + 4);
}

TEST_F(WsloadCli, OverCapacityReportsTheCloseCode) {
  const ToolResult r = run({"--spawn-server", CLAMSIM_SERVER_BINARY, "--server-arg", "--max-sessions",
                        "--server-arg", "3", "--sessions", "5", "--duration", "0.5", "--warmup",
                        "0"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("connected: 3 of 5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 refused"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 x 1013 server full"), std::string::npos) << r.out;
}

TEST_F(WsloadCli, UsageErrors) {
  ToolResult r = run({"--url", "ws://127.0.0.1:1/ws"});
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
  const ToolResult r = run({"--url", "ws://127.0.0.1:1/ws", "--sessions", "2", "--duration", "0.2",
                        "--warmup", "0"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("connected: 0 of 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 failed"), std::string::npos) << r.out;
}

}  // namespace
