#include "web/url.h"

#include <gtest/gtest.h>

namespace clamsim::web {
namespace {

TEST(Url, SplitsPathAndQuery) {
  const Target t = split_target("/ws?model=t250&scenario=demo#top");
  EXPECT_EQ(t.path, "/ws");
  EXPECT_EQ(t.query, "model=t250&scenario=demo");
  EXPECT_EQ(split_target("/a/b").query, "");
}

TEST(Url, PercentDecodes) {
  std::string out;
  EXPECT_TRUE(percent_decode("/a%20b/%2e%2E", &out));
  EXPECT_EQ(out, "/a b/..");
  EXPECT_FALSE(percent_decode("/%zz", &out));
  EXPECT_FALSE(percent_decode("/%2", &out));
  EXPECT_FALSE(percent_decode("/a%00b", &out)) << "NUL";
  EXPECT_TRUE(percent_decode("a+b", &out, true));
  EXPECT_EQ(out, "a b");
}

TEST(Url, ReadsQueryValues) {
  EXPECT_EQ(query_value("model=t250&scenario=exp%5F1", "scenario").value(), "exp_1");
  EXPECT_EQ(query_value("model=t250", "model").value(), "t250");
  EXPECT_EQ(query_value("flag&model=", "model").value(), "");
  EXPECT_FALSE(query_value("model=t250", "scenario").has_value());
  EXPECT_FALSE(query_value("", "model").has_value());
}

// A malformed escape used to read as an absent parameter.
TEST(Url, AMalformedQueryIsNamedBeforeItIsRead) {
  EXPECT_EQ(query_problem("model=t250&scenario=exp%5F1"), "");
  EXPECT_EQ(query_problem(""), "");
  EXPECT_EQ(query_problem("flag&x="), "");
  for (const char* bad : {"observe=19%00", "observe=%zz", "observe=1%", "replay=%2"})
    EXPECT_NE(query_problem(bad).find("malformed %-escape"), std::string::npos) << bad;
  EXPECT_NE(query_problem("observe=19%00").find("\"observe\""), std::string::npos);
  EXPECT_NE(query_problem("a%zz=1").find("name"), std::string::npos);
}

}  // namespace
}  // namespace clamsim::web
