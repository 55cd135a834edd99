// clamsim-loadgen end to end: it spawns the real clamsim-server itself (--spawn-server),
// subscribes N receivers, measures and unsubscribes; plus the statistics it reports.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tools/client/arrival_stats.h"
#include "tools/client/client_orb.h"

#include "tool_run.h"

namespace {

using clamsim::testing::number_after;
using clamsim::testing::run_tool;
using clamsim::testing::ScratchDir;
using clamsim::testing::ToolResult;

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string kSource = CLAMSIM_SOURCE_DIR;

class LoadgenCli : public ::testing::Test {
 protected:
  ToolResult run(const std::vector<std::string>& args,
                 std::chrono::seconds timeout = std::chrono::seconds(30)) const {
    return run_tool(CLAMSIM_LOADGEN_BINARY, args, scratch_, timeout);
  }

  std::vector<std::string> spawn_args() const {
    return {"--spawn-server", CLAMSIM_SERVER_BINARY,        "--server-arg", "--models-dir",
            "--server-arg",   kSource + "/models",          "--server-arg", "--scenarios-dir",
            "--server-arg",   kSource + "/config/scenarios"};
  }

  std::string path(const std::string& name) const { return scratch_.path(name); }

  ScratchDir scratch_{"clamsim-loadgen-test"};
};

// A functional test of the tool: it subscribes, measures and reports. How many sessions the
// server holds at 20 Hz is a measurement (docs/loadgen.md), not asserted here: under the
// sanitizers and a parallel test run the figures depend on the machine's load.
TEST_F(LoadgenCli, SessionsAreSubscribedMeasuredAndReported) {
  auto args = spawn_args();
  args.insert(args.end(), {"--sessions", "4", "--duration", "2", "--csv", path("s.csv")});
  const ToolResult r = run(args);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("subscribed: 4 of 4"), std::string::npos) << r.out;
  EXPECT_GT(number_after(r.out, "per session min ([0-9.]+)"), 0.0) << r.out;
  EXPECT_GE(number_after(r.out, "lost frames: (\\d+)"), 0.0) << r.out;
  // 20 frames/s means 50 ms between frames; a wide band only checks the arithmetic.
  EXPECT_GT(number_after(r.out, "inter-arrival: min [0-9.]+ mean ([0-9.]+)"), 25.0);
  EXPECT_LT(number_after(r.out, "inter-arrival: min [0-9.]+ mean ([0-9.]+)"), 200.0);
  EXPECT_NE(r.out.find("lateness vs the 50 ms schedule: p50"), std::string::npos);
  EXPECT_GE(number_after(r.out, "server: pid \\d+, CPU ([0-9.]+) %"), 0.0) << r.out;
  // the session threads sleep between frames: switches were read from every server thread
  EXPECT_GT(number_after(r.out, "server context switches: (\\d+) in the window"), 0.0) << r.out;
  // every session's controls arrived (the server's counters, read before unsubscribing)
  const double sent = number_after(r.out, "controls: (\\d+) GetControlInput sent");
  const double received = number_after(r.out, "server counted (\\d+) received");
  EXPECT_GT(sent, 0.0);
  EXPECT_LE(sent - received, 4.0) << "at most the last control per session still in flight";

  std::ifstream csv(path("s.csv"));
  std::string line;
  int rows = 0;
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, 1 + 4);
}

TEST_F(LoadgenCli, OverCapacityReportsTheRefusal) {
  auto args = spawn_args();
  args.insert(args.end(), {"--server-arg", "--max-sessions", "--server-arg", "3", "--sessions", "5",
                           "--duration", "0.5", "--warmup", "0"});
  const ToolResult r = run(args);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("subscribed: 3 of 5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 refused"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not subscribed: "), std::string::npos) << r.out;
}

TEST_F(LoadgenCli, UsageErrors) {
  ToolResult r = run({"--server", "corbaloc::127.0.0.1:1/CraneClamAdmin"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--sessions is required"), std::string::npos) << r.err;
  r = run({"--sessions", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--server is required"), std::string::npos) << r.err;
  r = run({"--server", "x", "--sessions", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--sessions: 0 is outside"), std::string::npos) << r.err;
}

// --- the statistics ---

clamsim::client::ReceivedFrame frame(std::uint64_t seq, double arrival_s) {
  clamsim::client::ReceivedFrame f;
  f.extended = true;
  f.seq = seq;
  f.sim_time_s = 0.05 * static_cast<double>(seq + 1);
  f.arrival_s = arrival_s;
  return f;
}

TEST(ClientArrivalStats, GapsInterArrivalAndLateness) {
  clamsim::client::ArrivalStats a(0.05);
  const double t0 = 1000.0;
  a.add(frame(0, t0 + 0.050 + 0.001));
  a.add(frame(1, t0 + 0.100 + 0.001));
  a.add(frame(2, t0 + 0.150 + 0.004));  // 3 ms late
  a.add(frame(4, t0 + 0.250 + 0.001));  // seq 3 lost
  a.add(frame(4, t0 + 0.251 + 0.001));  // duplicate
  EXPECT_EQ(a.frames(), 5u);
  EXPECT_EQ(a.lost(), 1u);
  EXPECT_EQ(a.out_of_order(), 1u);
  EXPECT_NEAR(a.inter_arrival().min(), 0.001, 1e-9);
  EXPECT_NEAR(a.inter_arrival().max(), 0.097, 1e-9);
  const auto late = a.lateness_s();
  ASSERT_EQ(late.size(), 5u);
  EXPECT_NEAR(late[0], 0.0, 1e-9);  // the best frame defines the schedule's origin
  EXPECT_NEAR(late[2], 0.003, 1e-9);
  EXPECT_NEAR(clamsim::client::percentile(late, 100), 0.003, 1e-9);
}

// A new attempt at the task sets the frames' sim time back to one period; the server's
// schedule (seq) goes on, and so does the lateness.
TEST(ClientArrivalStats, ARestartDoesNotMoveTheSchedule) {
  clamsim::client::ArrivalStats a(0.05);
  const double t0 = 1000.0;
  for (std::uint64_t seq = 0; seq < 60; ++seq) {  // 3 s of the first attempt
    a.add(frame(seq, t0 + 0.05 * static_cast<double>(seq + 1) + 0.001));
  }
  for (std::uint64_t k = 0; k < 40; ++k) {  // the second attempt from seq 60, 2 ms late
    clamsim::client::ReceivedFrame f = frame(60 + k, t0 + 0.05 * static_cast<double>(61 + k) + 0.002);
    f.sim_time_s = 0.05 * static_cast<double>(k + 1);
    a.add(f);
  }
  a.add(frame(62, t0 + 0.05 * 63 + 0.010));  // a late duplicate of the second attempt's
  EXPECT_EQ(a.restarts_seen(), 1u);
  EXPECT_EQ(a.lost(), 0u);
  const auto late = a.lateness_s();
  ASSERT_EQ(late.size(), 101u);
  EXPECT_NEAR(clamsim::client::percentile(late, 99), 0.001, 1e-9);
  EXPECT_NEAR(late.back(), 0.009, 1e-9);
  EXPECT_NEAR(clamsim::client::percentile(late, 100), 0.009, 1e-9);
}

// A reconnect (clamsim-wsload --reconnect): the new session's seq starts again at 0 on
// another schedule; no frame counts as lost and each stream is late against its own best.
TEST(ClientArrivalStats, ANewStreamStartsItsOwnSchedule) {
  clamsim::client::ArrivalStats a(0.05);
  for (std::uint64_t seq = 100; seq < 120; ++seq)
    a.add(frame(seq, 50.0 + 0.05 * static_cast<double>(seq) + (seq == 110 ? 0.004 : 0.0)));
  a.new_stream();
  for (std::uint64_t seq = 0; seq < 20; ++seq)  // 1.3 s later, 30 ms further behind
    a.add(frame(seq, 57.3 + 0.05 * static_cast<double>(seq) + (seq == 5 ? 0.002 : 0.0)));
  EXPECT_EQ(a.frames(), 40u);
  EXPECT_EQ(a.lost(), 0u);
  EXPECT_EQ(a.out_of_order(), 0u);
  const auto late = a.lateness_s();
  ASSERT_EQ(late.size(), 40u);
  EXPECT_NEAR(late[10], 0.004, 1e-9);
  EXPECT_NEAR(late[25], 0.002, 1e-9);
  EXPECT_NEAR(clamsim::client::percentile(late, 100), 0.004, 1e-9);
  EXPECT_NEAR(a.inter_arrival().max(), 57.3 - (50.0 + 0.05 * 119), 1e-9);  // the wait is kept
}

TEST(ClientArrivalStats, LegacyFramesAlignToThePeriod) {
  clamsim::client::ArrivalStats a(0.05);
  for (double t : {5.000, 5.050, 5.102, 5.150}) {
    clamsim::client::ReceivedFrame f;
    f.arrival_s = t;
    a.add(f);
  }
  EXPECT_FALSE(a.has_seq());
  EXPECT_EQ(a.expected_by_schedule(), 4u);
  EXPECT_NEAR(clamsim::client::percentile(a.lateness_s(), 100), 0.002, 1e-9);
}

TEST(ClientRunningStats, MergeEqualsOnePass) {
  clamsim::client::RunningStats all, a, b;
  for (int i = 0; i < 10; ++i) {
    const double x = 0.05 + 0.001 * (i % 3) - 0.0005 * (i % 2);
    all.add(x);
    (i < 4 ? a : b).add(x);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_NEAR(a.mean(), all.mean(), 1e-12);
  EXPECT_NEAR(a.stddev(), all.stddev(), 1e-12);
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
}

TEST(ClientPercentile, NearestRank) {
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);
  EXPECT_EQ(clamsim::client::percentile(v, 50), 50);
  EXPECT_EQ(clamsim::client::percentile(v, 99), 99);
  EXPECT_EQ(clamsim::client::percentile(v, 100), 100);
  EXPECT_EQ(clamsim::client::percentile({}, 99), 0);
}

TEST(ClientCorbaloc, BidirNeedsGiop12) {
  using clamsim::client::with_giop_1_2;
  EXPECT_EQ(with_giop_1_2("corbaloc::host:10150/CraneClamAdmin"),
            "corbaloc::1.2@host:10150/CraneClamAdmin");
  EXPECT_EQ(with_giop_1_2("corbaloc:iiop:a:1,:b:2/K"), "corbaloc:iiop:1.2@a:1,:1.2@b:2/K");
  EXPECT_EQ(with_giop_1_2("corbaloc::1.0@h:1/K"), "corbaloc::1.0@h:1/K");
  EXPECT_EQ(with_giop_1_2("IOR:0123"), "IOR:0123");
  EXPECT_EQ(with_giop_1_2("corbaloc:ssliop:h:10151/K"), "corbaloc:ssliop:1.2@h:10151/K");
}

TEST(ClientCorbaloc, TlsHostIsWhatTheCertificateMustName) {
  using clamsim::client::tls_host;
  EXPECT_EQ(tls_host("corbaloc:ssliop:sim.example:10151/CraneClamAdmin"), "sim.example");
  EXPECT_EQ(tls_host("corbaloc:ssliop:1.2@10.0.0.5:10151/K"), "10.0.0.5");
  EXPECT_EQ(tls_host("corbaloc:ssliop:[::1]:10151/K"), "::1");
  EXPECT_EQ(tls_host("corbaloc::h:10150/K"), "") << "plain IIOP: no certificate";
  EXPECT_EQ(tls_host("IOR:0123"), "");
}

}  // namespace
