#include "core/step_limits.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "core/crane.h"

namespace clamsim::core {

namespace {

// Lines A and B both stiffen the actuator: k = beta (A_a^2 + A_b^2) / V (eq 2.24).
double oil_stiffness(const LineParams& l, double area_a, double area_b) {
  return l.bulk_modulus_Pa * (area_a * area_a + area_b * area_b) / l.volume_m3;
}

}  // namespace

std::array<double, 5> oil_spring_frequencies(const MachineParams& m) {
  const CraneParams& cr = m.crane;
  const HydraulicsParams& hy = m.hydraulics;
  std::array<double, 5> w{};
  // swing and telescope: the lightest effective inertia 1 / (M^-1)_jj at the range's corners;
  // the boom: the largest stiffness-to-inertia ratio along its range (the lever changes)
  constexpr int kBoomSamples = 11;
  for (int i = 0; i < kBoomSamples; ++i) {
    const double boom = cr.boom_min_rad + (cr.boom_max_rad - cr.boom_min_rad) * i / (kBoomSamples - 1);
    for (double tel : {cr.telescope_min_m, cr.telescope_max_m}) {
      const Vec3 q(0.0, kHalfPi + boom, tel);
      const Mat3 inv = crane_dynamics(cr, q, Vec3::Zero(), 0.0).mass.inverse();
      const double swing_area = hy.swing_motor.gear_ratio * hy.swing_motor.displacement_m3_per_rad;
      const double k_swing = oil_stiffness(hy.channels[0].lines, swing_area, swing_area);
      const double lever = boom_cylinder_lever(hy.boom_geometry, boom);
      const double k_boom = oil_stiffness(hy.channels[1].lines, hy.boom_cylinders.cap_area_m2,
                                          hy.boom_cylinders.rod_area_m2) * lever * lever;
      const double k_tel = oil_stiffness(hy.channels[2].lines, hy.telescope_cylinder.cap_area_m2,
                                         hy.telescope_cylinder.rod_area_m2);
      w[0] = std::max(w[0], std::sqrt(k_swing * inv(0, 0)));
      w[1] = std::max(w[1], std::sqrt(k_boom * inv(1, 1)));
      w[2] = std::max(w[2], std::sqrt(k_tel * inv(2, 2)));
    }
  }
  for (int i = 0; i < 2; ++i) {
    const WinchParams& wp = hy.winches[i];
    const double area = wp.motor.gear_ratio * wp.motor.displacement_m3_per_rad;
    w[3 + i] = std::sqrt(oil_stiffness(hy.channels[3 + i].lines, area, area) / wp.drum_inertia_kgm2);
  }
  return w;
}

}  // namespace clamsim::core
