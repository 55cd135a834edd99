// clamsim-accounts run as a user runs it: the real binary, the password on standard input.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "auth/accounts_file.h"
#include "auth/password_hash.h"
#include "tools/tool_run.h"

namespace clamsim::auth {
namespace {

using clamsim::testing::run_tool;
using clamsim::testing::ScratchDir;
using clamsim::testing::ToolResult;

const std::string kTool = CLAMSIM_ACCOUNTS_BINARY;

struct Tool {
  ScratchDir dir{"clamsim-accounts-tool"};
  std::string file = dir.path("accounts.json");
  ToolResult run(const std::vector<std::string>& args, const std::string& input = "") {
    const std::string in = dir.path("stdin.txt");
    std::ofstream(in) << input;
    return run_tool(kTool, args, dir, std::chrono::seconds(60), "", in);
  }
};

TEST(AccountsTool, AddListRemove) {
  Tool t;
  ToolResult r = t.run({"--file", t.file, "add", "ada"}, "correct horse battery\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = t.run({"--file", t.file, "add", "grace"}, "another long password\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(t.file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  const auto accounts = load_accounts(t.file);
  ASSERT_EQ(accounts.size(), 2u);
  EXPECT_TRUE(verify_password("correct horse battery", accounts[0].hash));

  r = t.run({"--file", t.file, "list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ada\t20"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("grace\t20"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("scrypt"), std::string::npos) << "list never shows hashes";

  r = t.run({"--file", t.file, "passwd", "ada"}, "a new long password\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(verify_password("a new long password", load_accounts(t.file)[0].hash));

  r = t.run({"--file", t.file, "remove", "ada"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = t.run({"--file", t.file, "list"});
  EXPECT_EQ(r.out.find("ada"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("grace"), std::string::npos) << r.out;
}

TEST(AccountsTool, RefusesBadPasswordsWithExit2) {
  Tool t;
  ToolResult r = t.run({"--file", t.file, "add", "ada"}, "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no password"), std::string::npos) << r.err;
  r = t.run({"--file", t.file, "add", "ada"}, "short\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("password too short: 5 characters, at least 10"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(t.file).good()) << "nothing written";
}

TEST(AccountsTool, UsageErrorsExit2) {
  Tool t;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"add", "ada"},                               // no --file
           {"--file", t.file},                           // no command
           {"--file", t.file, "delete", "ada"},          // unknown command
           {"--file", t.file, "add"},                    // no name
           {"--file", t.file, "add", "ada lovelace"},    // bad name
           {"--file", t.file, "--bogus", "list"}}) {
    const ToolResult r = t.run(args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
    EXPECT_NE(r.err.find("see --help"), std::string::npos) << r.err;
  }
  const ToolResult help = t.run({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("add NAME"), std::string::npos);
}

TEST(AccountsTool, FailuresExit1) {
  Tool t;
  ToolResult r = t.run({"--file", t.file, "list"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
  ASSERT_EQ(t.run({"--file", t.file, "add", "ada"}, "correct horse battery\n").exit_code, 0);
  r = t.run({"--file", t.file, "add", "ada"}, "correct horse battery\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("exists already"), std::string::npos) << r.err;
  r = t.run({"--file", t.file, "remove", "nobody"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no account 'nobody'"), std::string::npos) << r.err;
  std::ofstream(t.file) << "{\"schema\": 1}";
  r = t.run({"--file", t.file, "list"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("\"schema\" must be"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace clamsim::auth
