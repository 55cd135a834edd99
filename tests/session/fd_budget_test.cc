// session/fd_budget.cc: the descriptor limit raised at start, and the reserve every
// transport keeps.
#include "session/fd_budget.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace clamsim::session {
namespace {

TEST(FdBudget, TheSoftLimitIsRaisedToTheHardOneAndSaidSo) {
  const FdLimit l = raise_fd_limit();
  EXPECT_TRUE(l.error.empty()) << l.error;
  EXPECT_GE(l.soft, l.before);
  rlimit r{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &r), 0);
  EXPECT_EQ(static_cast<std::size_t>(r.rlim_cur), l.soft);
  EXPECT_NE(describe(l).find("file descriptors"), std::string::npos);
  EXPECT_NE(describe(l).find("reserve"), std::string::npos);
}

TEST(FdBudget, ExhaustedWhenFewerThanTheReserveAreFree) {
  EXPECT_FALSE(fd_budget_exhausted()) << "a test process uses few descriptors";
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
  const int lowest = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(lowest, 0);
  close(lowest);
  // a soft limit just above what is open: less than the reserve is left
  rlimit tight = saved;
  tight.rlim_cur = static_cast<rlim_t>(lowest) + kFdReserve / 2;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &tight), 0);
  EXPECT_TRUE(fd_budget_exhausted());
  EXPECT_FALSE(fd_budget_exhausted(kFdReserve / 4));
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &saved), 0);
  EXPECT_FALSE(fd_budget_exhausted());
}

}  // namespace
}  // namespace clamsim::session
