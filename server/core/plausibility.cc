#include "core/plausibility.h"

#include <algorithm>
#include <cmath>

#include "core/crane.h"
#include "core/derivative.h"

namespace clamsim::core {

namespace {

// The full-stick flow of channel ch [m^3/s].
double pump_flow(const MachineParams& m, int ch) {
  return m.hydraulics.channels[static_cast<std::size_t>(ch)].valve.pump_flow_m3_per_s;
}

// A motor's output speed at full flow [rad/s].
double motor_speed(const MotorParams& mo, double flow) {
  return flow / (mo.displacement_m3_per_rad * mo.gear_ratio);
}

}  // namespace

PlausibleSpeeds plausible_speeds(const MachineParams& m) {
  const HydraulicsParams& hy = m.hydraulics;
  PlausibleSpeeds p;
  p.swing_rad_per_s = kFastestFactor * motor_speed(hy.swing_motor, pump_flow(m, kSwing));
  // the rod side is the smaller area: full flow into it drives the cylinder fastest
  p.boom_cylinder_m_per_s = kFastestFactor * pump_flow(m, kBoom) / hy.boom_cylinders.rod_area_m2;
  p.telescope_m_per_s = kFastestFactor * pump_flow(m, kTelescope) / hy.telescope_cylinder.rod_area_m2;
  double rope = 0.0, longest = 0.0;
  for (int i = 0; i < 2; ++i) {
    const WinchParams& w = hy.winches[static_cast<std::size_t>(i)];
    rope = std::max(rope, motor_speed(w.motor, pump_flow(m, kMainHoist + i)) * w.drum_radius_m);
    longest = std::max(longest, w.max_length_m);
  }
  p.rope_m_per_s = kFastestFactor * rope;
  p.clam_m_per_s = std::max(p.rope_m_per_s, std::sqrt(2.0 * m.crane.gravity_m_per_s2 * longest));
  return p;
}

const char* implausible_speed(const MachineParams& m, const PlausibleSpeeds& limits,
                              const StateVector& x) {
  const double boom = x(ix::q + 1) - kHalfPi;
  const double lever = boom_cylinder_lever(m.hydraulics.boom_geometry, boom);
  if (std::fabs(x(ix::qd)) > limits.swing_rad_per_s) return "swing rate";
  if (std::fabs(lever * x(ix::qd + 1)) > limits.boom_cylinder_m_per_s) return "boom rate";
  if (std::fabs(x(ix::qd + 2)) > limits.telescope_m_per_s) return "telescope rate";
  for (int i = 0; i < 2; ++i)
    if (std::fabs(x(ix::lend + i)) > limits.rope_m_per_s) return i == 0 ? "cable 1 speed" : "cable 2 speed";
  const double horizontal = std::hypot(x(ix::hvx), x(ix::hvy));
  for (int p : {ix::vA, ix::vC})
    if (std::hypot(horizontal, x(p)) > limits.clam_m_per_s) return "grab speed";
  return nullptr;
}

}  // namespace clamsim::core
