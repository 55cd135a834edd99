// Replicas in the CORBA Naming Service (docs/scaling.md): a real omniNames on a free
// loopback port, two real clamsim-server replicas binding their admins under
// clamsim/replicas/<name>, classroom receivers (clamsim-receiver) resolving each through
// corbaname:, and a drained replica gone from the context while the other stays.
#include <gtest/gtest.h>

#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "test_support.h"

namespace clamsim::corba::test {
namespace {

namespace fs = std::filesystem;

class NamingService : public ::testing::Test {
 protected:
  void SetUp() override {
    if (which("omniNames").empty() || which("nameclt").empty()) {
      const char* require = std::getenv("CLAMSIM_REQUIRE_CONTAINER");
      if (require != nullptr && std::string(require) == "yes")
        FAIL() << "omniNames or nameclt is missing: scripts/setup.sh installs "
                  "omniorb-nameserver (omniNames) and omniorb (nameclt)";
      GTEST_SKIP() << "omniNames or nameclt is not installed (scripts/setup.sh installs "
                      "omniorb-nameserver and omniorb): the Naming Service test needs them";
    }
    logdir_ = fs::temp_directory_path() / ("clamsim-naming-" + std::to_string(getpid()));
    fs::create_directories(logdir_);
    port_ = free_port();
    // a fresh log directory makes -start create the root context; loopback only
    names_ = std::make_unique<ChildProcess>(std::vector<std::string>{
        which("omniNames"), "-start", std::to_string(port_), "-logdir", logdir_.string(),
        "-ORBendPoint", "giop:tcp:127.0.0.1:" + std::to_string(port_)});
    // up once nameclt can list the root context (no name: `list ""` is InvalidName)
    ASSERT_TRUE(eventually([&] { return list().status == 0; }, Ms(10000)))
        << names_->output();
  }
  void TearDown() override {
    names_.reset();
    std::error_code ec;
    if (!logdir_.empty()) fs::remove_all(logdir_, ec);
  }

  std::string naming_ref() const {
    return "corbaloc::127.0.0.1:" + std::to_string(port_) + "/NameService";
  }

  struct Listed {
    int status = -1;
    std::string out;
  };
  // `nameclt list [CONTEXT]`, omniORB's own client of the Naming Service; no context lists
  // the root.
  Listed list(const std::string& context = "") {
    std::vector<std::string> argv{which("nameclt"), "-ORBInitRef", "NameService=" + naming_ref(),
                                  "list"};
    if (!context.empty()) argv.push_back(context);
    ChildProcess p(argv);
    Listed l;
    l.status = p.wait_exit(Ms(10000));
    l.out = p.output();
    return l;
  }

  std::unique_ptr<ServerProcess> replica(const std::string& name) {
    const int corba = free_port();
    return std::make_unique<ServerProcess>(std::vector<std::string>{
        "--corba-port", std::to_string(corba), "--endpoint-publish",
        "giop:tcp:127.0.0.1:" + std::to_string(corba), "--naming-service", naming_ref(),
        "--naming-name", "clamsim/replicas/" + name, "--drain-seconds", "30"});
  }

  // A classroom receiver through corbaname:; its output.
  std::pair<int, std::string> receive(const std::string& name) {
    ChildProcess r({clamsim_receiver_binary(), "--server",
                    "corbaname::127.0.0.1:" + std::to_string(port_) + "#clamsim/replicas/" + name,
                    "--listen", "127.0.0.1", "--duration", "1"});
    const int status = r.wait_exit(Ms(30000));
    return {status, r.output()};
  }

  fs::path logdir_;
  int port_ = 0;
  std::unique_ptr<ChildProcess> names_;
};

TEST_F(NamingService, ReceiversResolveEachReplicaAndADrainedOneLeaves) {
  auto r1 = replica("r1");
  auto r2 = replica("r2");
  ASSERT_TRUE(r1->ready()) << r1->process().output();
  ASSERT_TRUE(r2->ready()) << r2->process().output();
  EXPECT_NE(r1->process().output().find("naming service: bound \"clamsim/replicas/r1\""),
            std::string::npos)
      << r1->process().output();

  const Listed both = list("clamsim/replicas");
  ASSERT_EQ(both.status, 0) << both.out;
  EXPECT_NE(both.out.find("r1"), std::string::npos) << both.out;
  EXPECT_NE(both.out.find("r2"), std::string::npos) << both.out;

  // each receiver gets frames from the replica its name resolves to
  for (const std::string name : {"r1", "r2"}) {
    const auto [status, out] = receive(name);
    EXPECT_EQ(status, 0) << name << "\n" << out;
    std::smatch got;
    ASSERT_TRUE(std::regex_search(out, got, std::regex("getFrame\\s+\\d+\\s+(\\d+)"))) << out;
    EXPECT_GE(std::stoi(got[1].str()), 10) << out;
  }

  // SIGTERM drains r1: its binding goes at once, r2's stays, a receiver asking for r1 is
  // told it is not there
  r1->process().signal(SIGTERM);
  ASSERT_TRUE(eventually(
      [&] {
        const Listed l = list("clamsim/replicas");
        return l.status == 0 && l.out.find("r1") == std::string::npos;
      },
      Ms(5000)))
      << list("clamsim/replicas").out;
  EXPECT_NE(list("clamsim/replicas").out.find("r2"), std::string::npos);
  const auto [status, out] = receive("r1");
  EXPECT_NE(status, 0) << out;
  EXPECT_EQ(r1->process().wait_exit(Ms(15000)), 0) << r1->process().output();

  // a restarted r1 binds again (rebind: no stale entry is in the way)
  auto again = replica("r1");
  ASSERT_TRUE(again->ready()) << again->process().output();
  EXPECT_NE(list("clamsim/replicas").out.find("r1"), std::string::npos);
}

}  // namespace
}  // namespace clamsim::corba::test
