// web/client_limits.cc: connections counted in total and per client address.
#include "web/client_limits.h"

#include <gtest/gtest.h>

namespace clamsim::web {
namespace {

using A = ClientLimits::Admit;

TEST(ClientLimits, OneClientFillsOnlyItsShare) {
  ClientLimits l(5, 2);
  EXPECT_EQ(l.admit("10.0.0.1"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.1"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.1"), A::ClientFull);
  EXPECT_EQ(l.open_from("10.0.0.1"), 2u);
  EXPECT_EQ(l.admit("10.0.0.2"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.2"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.3"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.4"), A::TotalFull);
  EXPECT_EQ(l.open(), 5u);
  l.release("10.0.0.1");
  EXPECT_EQ(l.admit("10.0.0.4"), A::Ok);
  EXPECT_EQ(l.admit("10.0.0.1"), A::TotalFull);
}

TEST(ClientLimits, ReleasingEverythingForgetsTheClient) {
  ClientLimits l(10, 3);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(l.admit("c"), A::Ok);
  for (int i = 0; i < 3; ++i) l.release("c");
  EXPECT_EQ(l.open(), 0u);
  EXPECT_EQ(l.open_from("c"), 0u);
  l.release("c");  // one too many: ignored, never below zero
  EXPECT_EQ(l.open(), 0u);
  EXPECT_EQ(l.admit("c"), A::Ok);
}

}  // namespace
}  // namespace clamsim::web
