// web/host_check.cc: which Host headers the web front end answers (DNS rebinding).
#include "web/host_check.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace clamsim::web {
namespace {

using K = HostVerdict::Kind;

K kind(const HostPolicy& p, const char* host, std::size_t fields = 1) {
  return p.check(fields, host).kind;
}

TEST(HostCheck, LoopbackNamesListenAddressesAndConfiguredNamesAreAllowed) {
  const HostPolicy p({"Sim.School.Example", "[2001:db8::5]", "198.51.100.7"}, {"192.0.2.10"});
  for (const char* ok :
       {"localhost", "LOCALHOST:8080", "localhost.", "127.0.0.1", "127.0.0.1:8080", "127.1.2.3",
        "[::1]", "[::1]:8080", "[0:0:0:0:0:0:0:1]:80", "sim.school.example",
        "SIM.SCHOOL.EXAMPLE.:443", "192.0.2.10:8080", "[2001:DB8::5]", "198.51.100.7",
        " localhost ", "localhost:"})
    EXPECT_EQ(kind(p, ok), K::Allowed) << ok;
}

TEST(HostCheck, OtherNamesAndAddressesAreNotAnsweredFor) {
  const HostPolicy p({"sim.school.example"}, {"192.0.2.10"});
  for (const char* no : {"evil.example", "evil.example:8080", "sim.school.example.evil",
                         "school.example", "192.0.2.11", "[2001:db8::1]", "localhost.evil",
                         "[::ffff:127.0.0.1]"})
    EXPECT_EQ(kind(p, no), K::NotAllowed) << no;
  const HostVerdict v = p.check(1, "evil.example:8080");
  EXPECT_NE(v.reason.find("evil.example"), std::string::npos) << v.reason;
}

TEST(HostCheck, MissingDuplicateAndMalformedHostsAreBadRequests) {
  const HostPolicy p({}, {});
  EXPECT_EQ(kind(p, "", 0), K::Missing);
  EXPECT_EQ(kind(p, "  ", 1), K::Missing);
  EXPECT_EQ(kind(p, "localhost", 2), K::Malformed);
  for (const char* bad : {"local host", "[::1", "[::1]x", "localhost:80x", "localhost:123456",
                          "::1", "[127.0.0.1]", "[evil.example]", "user@localhost",
                          "localhost/x", "l\xc3\xa9.example"})
    EXPECT_EQ(kind(p, bad), K::Malformed) << bad;
}

TEST(HostCheck, ConfiguredEntriesMustBeNamesOrAddresses) {
  EXPECT_THROW(HostPolicy({"http://evil/"}, {}), std::invalid_argument);
  EXPECT_THROW(HostPolicy({"a b"}, {}), std::invalid_argument);
  EXPECT_THROW(HostPolicy({}, {"not-an-address"}), std::invalid_argument);
  EXPECT_NO_THROW(HostPolicy({"::1", "[fe80::1]", "host-1.example_x"}, {"0.0.0.0"}));
}

TEST(HostCheck, InterfaceAddressesIncludeLoopback) {
  bool loopback = false;
  for (const std::string& a : HostPolicy::interface_addresses()) loopback |= a == "127.0.0.1";
  EXPECT_TRUE(loopback);
}

}  // namespace
}  // namespace clamsim::web
