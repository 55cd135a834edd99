// The deployment as a department's sysadmin runs it (docs/deploy.md): the image built from
// this checkout by scripts/build-image.sh, run read-only as a non-root user with its state
// on a volume and a config directory mounted read-only, then driven over both wires and
// stopped with SIGTERM. Host networking, loopback only: the container's server is told by
// environment variables (CLAMSIM_*) to listen on 127.0.0.1 at free ports.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "test_client.h"
#include "test_support.h"

namespace clamsim::corba::test {
namespace {

namespace fs = std::filesystem;
using clamsim::testing::http_request;
using clamsim::testing::Seconds;
using clamsim::testing::WsClient;

const std::string kImage = "localhost/clamsim:test";

struct Ran {
  int status = -1;
  std::string out;
};

Ran run(const std::vector<std::string>& argv, Ms timeout = Ms(120000)) {
  ChildProcess p(argv);
  Ran r;
  r.status = p.wait_exit(timeout);
  r.out = p.output();
  return r;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// podman as the build machines need it (scripts/build-image.sh says why).
std::vector<std::string> podman(std::vector<std::string> args) {
  static const std::string path = which("podman");
  std::vector<std::string> argv = {path, "--runtime", "runc"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

class Container : public ::testing::Test {
 protected:
  void SetUp() override {
    if (which("podman").empty()) {
      const char* require = std::getenv("CLAMSIM_REQUIRE_CONTAINER");
      if (require != nullptr && std::string(require) == "yes")
        FAIL() << "podman is not installed (scripts/setup.sh --tests installs it)";
      GTEST_SKIP() << "podman is not installed: the container test needs it";
    }
    tag_ = std::to_string(getpid());
    name_ = "clamsim-test-" + tag_;
    volume_ = "clamsim-test-state-" + tag_;
    config_ = fs::temp_directory_path() / ("clamsim-container-" + tag_);
  }
  void TearDown() override {
    if (name_.empty()) return;
    run(podman({"rm", "-f", "-t", "0", name_}));
    run(podman({"volume", "rm", "-f", volume_}));
    std::error_code ec;
    fs::remove_all(config_, ec);
  }

  // The config directory mounted at /etc/clamsim: the image's own server.json with a world
  // whose task times out in 3 s, so a report lands on the volume quickly.
  void write_config() {
    fs::create_directories(config_ / "scenarios");
    nlohmann::ordered_json world;
    std::ifstream(std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json") >>
        world;
    world["task"]["optimum_s"] = 2.0;
    world["task"].erase("lesson");  // its lesson's scenario is not in this folder
    std::ofstream(config_ / "scenarios" / "short_task.json") << world.dump(1);
    nlohmann::ordered_json server;
    std::ifstream(std::string(CLAMSIM_SOURCE_DIR) + "/deploy/container/server.json") >> server;
    server["scenarios_dir"] = "/etc/clamsim/scenarios";
    server["world"] = "short_task";
    server["drain_seconds"] = 60;
    std::ofstream(config_ / "server.json") << server.dump(1);
    fs::permissions(config_, fs::perms::owner_all | fs::perms::group_read |
                                 fs::perms::group_exec | fs::perms::others_read |
                                 fs::perms::others_exec);
  }

  std::string tag_, name_, volume_;
  fs::path config_;
};

TEST_F(Container, ServesBothWiresAsNonRootAndDrainsOnSigterm) {
  // the image, from this checkout (a cached base image and layers make a re-run quick)
  const Ran built = run({std::string(CLAMSIM_SOURCE_DIR) + "/scripts/build-image.sh", kImage},
                        Ms(1800000));
  ASSERT_EQ(built.status, 0) << built.out;
  std::smatch figures;
  if (std::regex_search(built.out, figures, std::regex("built in .*")))
    std::printf("%s\n", figures.str().c_str());  // the build time and image size, for the log

  write_config();
  const int http = free_port(), corba = free_port();
  ASSERT_EQ(run(podman({"volume", "create", volume_})).status, 0);
  const Ran started = run(podman(
      {"run", "-d", "--name", name_, "--network", "host", "--ulimit", "nofile=4096:4096",
       "--ulimit", "nproc=4096:4096", "--read-only", "--tmpfs", "/tmp",
       "-v", volume_ + ":/var/lib/clamsim", "-v", config_.string() + ":/etc/clamsim:ro",
       "-e", "CLAMSIM_HOST=127.0.0.1", "-e", "CLAMSIM_HTTP_HOST=127.0.0.1",
       "-e", "CLAMSIM_HTTP_ALL_INTERFACES=no", "-e", "CLAMSIM_HTTP_PORT=" + std::to_string(http),
       "-e", "CLAMSIM_CORBA_PORT=" + std::to_string(corba),
       "-e", "CLAMSIM_ENDPOINT_PUBLISH=giop:tcp:127.0.0.1:" + std::to_string(corba), kImage}));
  ASSERT_EQ(started.status, 0) << started.out;
  const auto port = static_cast<std::uint16_t>(http);
  const auto logs = [&] { return run(podman({"logs", name_})).out; };
  ASSERT_TRUE(eventually([&] { return http_request(port, "/readyz").status == 200; }, Ms(60000)))
      << logs();

  // not root, and the healthcheck the image declares passes
  const Ran status = run(podman({"exec", name_, "cat", "/proc/1/status"}));
  std::smatch uid;
  ASSERT_TRUE(std::regex_search(status.out, uid, std::regex("Uid:\\s+(\\d+)"))) << status.out;
  EXPECT_NE(uid[1].str(), "0") << "the server runs as root";
  EXPECT_EQ(run(podman({"healthcheck", "run", name_})).status, 0) << logs();
  // the page's libraries are in the image: three.js for the view, uPlot for the debrief
  EXPECT_EQ(http_request(port, "/vendor/three/build/three.module.js").status, 200) << logs();
  EXPECT_EQ(http_request(port, "/vendor/uplot/uPlot.esm.js").status, 200) << logs();

  // a browser: frames through the published port, 50 ms of simulated time apart (how many
  // a wall-clock second brings is the benchmarks' figure, not this test's)
  WsClient browser;
  ASSERT_TRUE(browser.connect(port));
  ASSERT_TRUE(browser.read_type("hello"));
  ASSERT_TRUE(browser.read_type("display"));
  // a control moved starts the task's clock (docs/training-task.md), so its report lands below
  ASSERT_TRUE(browser.write(R"({"type":"control","volts":[0,0,0,0,1]})"));
  int frames = 0;
  std::int64_t last_seq = -1;
  for (int i = 0; i < 400 && frames < 40; ++i) {
    const auto m = browser.read_json(Seconds(10));
    ASSERT_TRUE(m) << "the frames stopped after " << frames << "\n" << logs();
    if ((*m)["type"] != "display") continue;
    const auto seq = (*m)["seq"].get<std::int64_t>();
    EXPECT_GT(seq, last_seq) << "in order";
    EXPECT_NEAR((*m)["t"].get<double>(), 0.05 * static_cast<double>(seq + 1), 1e-4) << seq;
    last_seq = seq;
    ++frames;
  }
  EXPECT_EQ(frames, 40);

  // a classroom receiver through the published CORBA endpoint
  const Ran receiver = run({CLAMSIM_RECEIVER, "--server",
                            "corbaloc::127.0.0.1:" + std::to_string(corba) + "/CraneClamAdmin",
                            "--listen", "127.0.0.1", "--duration", "2"},
                           Ms(30000));
  EXPECT_EQ(receiver.status, 0) << receiver.out;
  std::smatch got;
  ASSERT_TRUE(std::regex_search(receiver.out, got, std::regex("getFrame\\s+\\d+\\s+(\\d+)")))
      << receiver.out;
  EXPECT_GT(std::stoi(got[1].str()), 0) << receiver.out;

  // the browser's task times out after 3 s: its report lands on the volume
  const std::string volume_dir =
      trimmed(run(podman({"volume", "inspect", "--format", "{{.Mountpoint}}", volume_})).out);
  const auto reports = [&] {
    std::size_t n = 0;
    std::error_code ec;
    for (fs::directory_iterator it(fs::path(volume_dir) / "reports", ec), end; !ec && it != end;
         it.increment(ec))
      n += it->path().extension() == ".json";
    return n;
  };
  EXPECT_TRUE(eventually([&] { return reports() > 0; }, Ms(15000))) << volume_dir << "\n"
                                                                     << logs();

  // SIGTERM: /readyz 503 (the bound only says "never"), new sessions refused, the client
  // told, and the container gone once that client leaves
  ASSERT_EQ(run(podman({"kill", "--signal", "TERM", name_})).status, 0);
  ASSERT_TRUE(eventually([&] { return http_request(port, "/readyz").status == 503; }, Ms(30000)));
  WsClient late;
  ASSERT_TRUE(late.connect(port));
  EXPECT_EQ(late.read_until_closed(), 1013);
  const auto notice = browser.read_type("drain", Seconds(3));
  ASSERT_TRUE(notice) << logs();
  EXPECT_GT((*notice)["seconds_left"].get<int>(), 0);
  browser.close();
  const Ran waited = run(podman({"wait", name_}), Ms(30000));
  EXPECT_EQ(trimmed(waited.out), "0") << waited.out << "\n" << logs();
  const std::string log = logs();
  EXPECT_NE(log.find("drain_start"), std::string::npos) << log;
  EXPECT_NE(log.find("ended_by=\"last session ended\""), std::string::npos) << log;
}

}  // namespace
}  // namespace clamsim::corba::test
