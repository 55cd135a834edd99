// server/web/status_pages.cc: /metrics (checked by Prometheus's own promtool where it is
// installed), /livez and /readyz.
#include "web/status_pages.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "../session/test_setup.h"

namespace clamsim::web {
namespace {

class OkSink : public session::FrameSink {
 public:
  bool deliver(const session::Frame&) override { return true; }
  const char* transport() const override { return "websocket"; }
};

// `promtool check metrics` on text: its exit status and what it said; -1 without promtool.
std::pair<int, std::string> promtool_check(const std::string& text) {
  if (std::system("command -v promtool > /dev/null 2>&1") != 0) return {-1, ""};
  const auto file = std::filesystem::temp_directory_path() /
                    ("clamsim-metrics-" + std::to_string(getpid()) + ".txt");
  std::ofstream(file) << text;
  const std::string cmd = "promtool check metrics < " + file.string() + " 2>&1";
  std::FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  const int status = pclose(p);
  std::filesystem::remove(file);
  return {WEXITSTATUS(status), out};
}

TEST(Metrics, EveryCounterHistogramsAndBuildInfoPassPromtool) {
  session::SteadyClock clock;
  session::SessionRegistry registry(session::RegistryOptions{}, clock);
  std::string why;
  auto s = registry.create(testing::shipped_setup(), std::make_shared<OkSink>(), 0, {}, &why);
  ASSERT_NE(s, nullptr) << why;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (s->counters().frames_sent < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const std::string text = metrics_text(registry, WebStats{});

  for (const session::CounterField& f : session::kCounterFields)
    EXPECT_NE(text.find(std::string("\nclamsim_") + f.name + "_total "), std::string::npos)
        << f.name << " is printed at shutdown, so it must be in /metrics";
  EXPECT_NE(text.find("clamsim_sessions{transport=\"websocket\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("clamsim_sessions{transport=\"corba\"} 0\n"), std::string::npos);
  EXPECT_NE(text.find("clamsim_build_info{version=\""), std::string::npos);
  EXPECT_NE(text.find("# TYPE clamsim_frame_lateness_seconds histogram"), std::string::npos);
  EXPECT_NE(text.find("clamsim_frame_lateness_seconds_bucket{le=\"0.05\"}"), std::string::npos);
  EXPECT_NE(text.find("clamsim_frame_compute_seconds_bucket{le=\"+Inf\"}"), std::string::npos);
  EXPECT_EQ(text.find("e+"), std::string::npos) << "counts are written as whole numbers";
  EXPECT_NE(text.find("clamsim_ready 1\n"), std::string::npos);

  const auto [status, said] = promtool_check(text);
  if (status < 0) GTEST_SKIP() << "promtool is not installed (scripts/setup.sh --tests)";
  EXPECT_EQ(status, 0) << said << "\n" << text;
}

// Every statistic of the lists (session/counters.h, web/web_stats.h) is in /metrics with
// its HELP and TYPE: adding one to a list is the only edit /metrics needs.
TEST(Metrics, EveryListedStatisticHasHelpTypeAndASample) {
  session::SteadyClock clock;
  session::SessionRegistry registry(session::RegistryOptions{}, clock);
  WebStats web;
  std::uint64_t v = 1;
  for (const WebStatField& f : kWebStatFields) web.*f.member = v++;
  const std::string text = metrics_text(registry, web);
  const auto has = [&](const std::string& s) { return text.find(s) != std::string::npos; };
  for (const session::CounterField& f : session::kCounterFields) {
    const std::string name = std::string("clamsim_") + f.name + "_total";
    EXPECT_TRUE(has("# HELP " + name + " " + f.help + "\n")) << name;
    EXPECT_TRUE(has("# TYPE " + name + " counter\n")) << name;
  }
  for (const WebStatField& f : kWebStatFields) {
    if (f.metric == nullptr) continue;
    const std::string name = f.metric;
    EXPECT_TRUE(has("# HELP " + name + " ")) << name;
    EXPECT_TRUE(has("# TYPE " + name + " " + f.type + "\n")) << name;
    const std::string labels = *f.label ? std::string("{") + f.label + "}" : "";
    EXPECT_TRUE(has("\n" + name + labels + " " + std::to_string(web.*f.member) + "\n"))
        << f.name << " as " << name << labels;
  }
  std::size_t families = 0;
  for (std::size_t at = 0; (at = text.find("# TYPE clamsim_ws_closed_total ", at)) != std::string::npos; ++at)
    ++families;
  EXPECT_EQ(families, 1u) << "one HELP and TYPE per family";
  const auto [status, said] = promtool_check(text);
  if (status < 0) GTEST_SKIP() << "promtool is not installed (scripts/setup.sh --tests)";
  EXPECT_EQ(status, 0) << said << "\n" << text;
}

// /api/sessions carries every counter of the list by name, and the task as its list.
TEST(SessionsJson, CountersAndTaskAreTheirLists) {
  session::SteadyClock clock;
  session::SessionRegistry registry(session::RegistryOptions{}, clock);
  std::string why;
  auto s = registry.create(testing::world_setup(), std::make_shared<OkSink>(), 0, {}, &why);
  ASSERT_NE(s, nullptr) << why;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (s->counters().frames_sent < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));   // the score comes with a frame
  const auto j = nlohmann::json::parse(sessions_json(registry));
  ASSERT_EQ(j["sessions"].size(), 1u);
  const auto& c = j["sessions"][0]["counters"];
  for (const session::CounterField& f : session::kCounterFields)
    EXPECT_TRUE(c.contains(f.name)) << f.name;
  EXPECT_EQ(c.size(), session::kCounterFields.size());
  const auto& task = j["sessions"][0]["task"];
  ASSERT_TRUE(task.is_object()) << "the dam world has a task";
  core::for_each_field(training::kTaskScoreFields,
                       [&](const auto& f) { EXPECT_TRUE(task.contains(f.name)) << f.name; });
}

TEST(Probes, ReadyUntilDrainingAliveThroughout) {
  session::SteadyClock clock;
  session::SessionRegistry registry(session::RegistryOptions{}, clock);
  EXPECT_EQ(readiness(registry).status, 200);
  EXPECT_EQ(liveness(registry, 5.0).status, 200);
  registry.begin_drain(10.0);
  const Probe r = readiness(registry);
  EXPECT_EQ(r.status, 503);
  const auto j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["status"], "draining");
  EXPECT_TRUE(j["reason"].is_string());
  EXPECT_EQ(liveness(registry, 5.0).status, 200);
  EXPECT_NE(metrics_text(registry, WebStats{}).find("clamsim_draining 1\n"), std::string::npos);
}

}  // namespace
}  // namespace clamsim::web
