#include "web/origin.h"

#include <gtest/gtest.h>

namespace clamsim::web {
namespace {

TEST(Origin, DefaultAllowsTheSameHostAndLocalhost) {
  const std::vector<std::string> none;
  EXPECT_TRUE(origin_allowed("", "example.org:8080", none)) << "native clients send none";
  EXPECT_TRUE(origin_allowed("http://example.org:8080", "example.org:8080", none));
  EXPECT_TRUE(origin_allowed("http://EXAMPLE.org:8080", "example.org:8080", none));
  EXPECT_TRUE(origin_allowed("http://localhost:5173", "10.0.0.2:8080", none));
  EXPECT_TRUE(origin_allowed("http://127.0.0.1", "10.0.0.2:8080", none));
  EXPECT_TRUE(origin_allowed("http://[::1]:3000", "10.0.0.2:8080", none));
  EXPECT_FALSE(origin_allowed("http://example.org:9999", "example.org:8080", none));
  EXPECT_FALSE(origin_allowed("http://evil.example", "example.org:8080", none));
  EXPECT_FALSE(origin_allowed("http://localhost.evil.example", "example.org:8080", none));
  EXPECT_FALSE(origin_allowed("null", "example.org:8080", none));
}

TEST(Origin, AConfiguredListIsExact) {
  const std::vector<std::string> list = {"https://sim.example.edu/", "http://lab-pc:8080"};
  EXPECT_TRUE(origin_allowed("https://sim.example.edu", "x", list));
  EXPECT_TRUE(origin_allowed("HTTP://LAB-PC:8080", "x", list));
  EXPECT_FALSE(origin_allowed("http://localhost:8080", "x", list)) << "the list replaces the default";
  EXPECT_TRUE(origin_allowed("http://anything", "x", {"*"}));
}

}  // namespace
}  // namespace clamsim::web
