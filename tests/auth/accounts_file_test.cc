#include "auth/accounts_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "auth/account_store.h"
#include "auth/password_hash.h"
#include "tools/tool_run.h"

namespace clamsim::auth {
namespace {

namespace fs = std::filesystem;
using clamsim::testing::ScratchDir;

const ScryptCost kCheap{10, 8, 1};

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string load_error(const std::string& path) {
  try {
    load_accounts(path);
  } catch (const AccountsError& e) {
    return e.what();
  }
  return "(loaded)";
}

TEST(AccountsFile, RoundTrip) {
  ScratchDir dir("clamsim-accounts");
  const std::string path = dir.path("accounts.json");
  const std::vector<Account> in = {{"ada", hash_password("password-1", kCheap), "2026-11-24T10:00:00Z"},
                                   {"grace.h", hash_password("password-2", kCheap), "2026-11-24T10:01:00Z"}};
  save_accounts(path, in);
  const auto out = load_accounts(path);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].name, "ada");
  EXPECT_EQ(out[1].hash, in[1].hash);
  EXPECT_EQ(out[1].created, "2026-11-24T10:01:00Z");
  EXPECT_TRUE(verify_password("password-2", out[1].hash));
  EXPECT_NE(std::ifstream(path).peek(), EOF);
}

TEST(AccountsFile, WrittenWithMode0600AndNoTemporaryLeft) {
  ScratchDir dir("clamsim-accounts");
  const std::string path = dir.path("accounts.json");
  write(path, "old");
  ::chmod(path.c_str(), 0644);
  const auto old_umask = ::umask(0);  // a careless umask must not widen the mode
  save_accounts(path, {{"ada", hash_password("password-1", kCheap), "2026-11-24T10:00:00Z"}});
  ::umask(old_umask);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_FALSE(permission_warning(path).has_value());
  int files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(path).parent_path())) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 1) << "the temporary file was left behind";
  EXPECT_EQ(load_accounts(path).size(), 1u);
}

TEST(AccountsFile, WarnsWhenOthersCanRead) {
  ScratchDir dir("clamsim-accounts");
  const std::string path = dir.path("accounts.json");
  save_accounts(path, {});
  ::chmod(path.c_str(), 0644);
  const auto w = permission_warning(path);
  ASSERT_TRUE(w.has_value());
  EXPECT_NE(w->find("0644"), std::string::npos) << *w;
  EXPECT_NE(w->find("chmod 600"), std::string::npos) << *w;
}

TEST(AccountsFile, MalformedFilesNameTheProblem) {
  ScratchDir dir("clamsim-accounts");
  const std::string path = dir.path("accounts.json");
  const std::string hash = hash_password("password-1", kCheap);
  const std::string entry = R"({"name":"ada","hash":")" + hash + R"(","created":"x"})";
  struct Case {
    std::string text, expect;
  };
  const std::vector<Case> cases = {
      {"{", "not JSON"},
      {"[]", "expected a JSON object"},
      {R"({"accounts":[]})", "\"schema\" must be"},
      {R"({"schema":"clamsim-accounts/2","accounts":[]})", "\"schema\" must be"},
      {R"({"schema":"clamsim-accounts/1"})", "\"accounts\" must be an array"},
      {R"({"schema":"clamsim-accounts/1","accounts":[3]})", "accounts[0] is not an object"},
      {R"({"schema":"clamsim-accounts/1","accounts":[{"name":"ada","created":"x"}]})",
       "accounts[0].hash is missing"},
      {R"({"schema":"clamsim-accounts/1","accounts":[{"name":7,"hash":"h","created":"x"}]})",
       "accounts[0].name is a number"},
      {R"({"schema":"clamsim-accounts/1","accounts":[{"name":"a b","hash":")" + hash +
           R"(","created":"x"}]})",
       "accounts[0].name: may hold only"},
      {R"({"schema":"clamsim-accounts/1","accounts":[{"name":"ada","hash":"secret","created":"x"}]})",
       "(ada).hash: not of the form"},
      {R"({"schema":"clamsim-accounts/1","accounts":[)" + entry + "," + entry + "]}",
       "'ada' appears twice"},
  };
  for (const Case& c : cases) {
    write(path, c.text);
    const std::string e = load_error(path);
    EXPECT_NE(e.find(c.expect), std::string::npos) << c.text << "\n -> " << e;
    EXPECT_EQ(e.rfind(path, 0), 0u) << "the message names the file: " << e;
  }
  EXPECT_NE(load_error(dir.path("missing.json")).find("cannot read"), std::string::npos);
}

TEST(AccountsFile, NameRules) {
  EXPECT_EQ(account_name_problem("ada.lovelace@school-1_x"), "");
  EXPECT_NE(account_name_problem(""), "");
  EXPECT_NE(account_name_problem(std::string(65, 'a')), "");
  EXPECT_NE(account_name_problem("ada lovelace"), "");
  EXPECT_NE(account_name_problem("ad\xc3\xa4"), "");
}

TEST(AccountStore, SeesChangesAndKeepsAccountsWhenTheFileBreaks) {
  ScratchDir dir("clamsim-accounts");
  const std::string path = dir.path("accounts.json");
  save_accounts(path, {{"ada", hash_password("password-1", kCheap), "2026-11-24T10:00:00Z"}});
  std::vector<std::string> warnings;
  AccountStore store(path, [&](const std::string& w) { warnings.push_back(w); });
  EXPECT_TRUE(store.hash_of("ada").has_value());
  EXPECT_FALSE(store.hash_of("grace").has_value());
  save_accounts(path, {{"grace", hash_password("password-2", kCheap), "2026-11-24T10:00:00Z"}});
  EXPECT_TRUE(store.hash_of("grace").has_value());
  EXPECT_FALSE(store.hash_of("ada").has_value());
  write(path, "{ broken");
  EXPECT_TRUE(store.hash_of("grace").has_value());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("keeping the accounts loaded before"), std::string::npos);
}

TEST(AccountStore, AMalformedFileStopsTheStart) {
  ScratchDir dir("clamsim-accounts");
  const std::string path = dir.path("accounts.json");
  write(path, "{}");
  EXPECT_THROW(AccountStore(path, nullptr), AccountsError);
}

}  // namespace
}  // namespace clamsim::auth
