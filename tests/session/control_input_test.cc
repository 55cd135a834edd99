#include "session/control_input.h"

#include <gtest/gtest.h>

#include <limits>

namespace clamsim::session {
namespace {

TEST(ControlInput, AcceptsFiveFiniteVoltagesInRange) {
  const double v[5] = {1, -2, 3, -4.5, 5};
  const ControlVerdict r = validate_control(v, 5);
  EXPECT_EQ(r.kind, ControlVerdict::Kind::Accepted);
  EXPECT_TRUE(r.reason.empty());
  EXPECT_EQ(r.control.volts[3], -4.5);
}

TEST(ControlInput, ClampsOutOfRangeAndSaysWhich) {
  const float v[5] = {0, 7.5f, 0, -100, 0};
  const ControlVerdict r = validate_control(v, 5);
  EXPECT_EQ(r.kind, ControlVerdict::Kind::Clamped);
  EXPECT_EQ(r.control.volts[1], 5.0);
  EXPECT_EQ(r.control.volts[3], -5.0);
  EXPECT_NE(r.reason.find("[1] 7.5"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("[3] -100"), std::string::npos) << r.reason;
}

TEST(ControlInput, RejectsNonFiniteAndWrongArity) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double a[5] = {0, 0, nan, 0, 0};
  ControlVerdict r = validate_control(a, 5);
  EXPECT_EQ(r.kind, ControlVerdict::Kind::Rejected);
  EXPECT_NE(r.reason.find("[2] (telescope)"), std::string::npos) << r.reason;
  const double b[5] = {0, 0, 0, 0, -inf};
  EXPECT_EQ(validate_control(b, 5).kind, ControlVerdict::Kind::Rejected);
  const double c[4] = {0, 0, 0, 0};
  r = validate_control(c, 4);
  EXPECT_EQ(r.kind, ControlVerdict::Kind::Rejected);
  EXPECT_EQ(r.reason, "expected 5 voltages, got 4");
}

}  // namespace
}  // namespace clamsim::session
