#include "auth/instructor_access.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "auth/accounts_file.h"
#include "auth/password_hash.h"
#include "tools/tool_run.h"

namespace clamsim::auth {
namespace {

using clamsim::testing::ScratchDir;

TEST(InstructorAccess, TheRule) {
  // an accounts file given: logins needed, loopback included
  EXPECT_EQ(plan_instructor_access("/etc/acc.json", false, "state").accounts_file, "/etc/acc.json");
  EXPECT_FALSE(plan_instructor_access("/etc/acc.json", true, "state").create_if_missing);
  // loopback alone, none given: open
  EXPECT_EQ(plan_instructor_access("", false, "state").accounts_file, "");
  // beyond loopback, none given: the state directory's file, made when missing
  const AccessPlan beyond = plan_instructor_access("", true, "/var/lib/clamsim/state");
  EXPECT_EQ(beyond.accounts_file, "/var/lib/clamsim/state/accounts.json");
  EXPECT_TRUE(beyond.create_if_missing);
}

TEST(InstructorAccess, FirstInstructorIsCreatedOnceWithAHashedPassword) {
  ScratchDir dir("clamsim-access");
  const std::string path = dir.path("state/accounts.json");
  const auto password = create_first_instructor(path);
  ASSERT_TRUE(password.has_value());
  EXPECT_GE(password->size(), 20u);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  ASSERT_EQ(::stat(dir.path("state").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  const auto accounts = load_accounts(path);
  ASSERT_EQ(accounts.size(), 1u);
  EXPECT_EQ(accounts[0].name, kFirstInstructor);
  EXPECT_EQ(accounts[0].hash.find(*password), std::string::npos) << "stored hashed only";
  EXPECT_TRUE(verify_password(*password, accounts[0].hash));
  // a second start keeps the file and prints nothing
  EXPECT_FALSE(create_first_instructor(path).has_value());
  EXPECT_TRUE(verify_password(*password, load_accounts(path)[0].hash));
}

}  // namespace
}  // namespace clamsim::auth
