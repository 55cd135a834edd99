#include "core/finite_outputs.h"

#include <cmath>
#include <cstddef>

namespace clamsim::core {

namespace {

// Every number of an array, named "<name>[i]"; false (with *where set) at the first bad one.
template <std::size_t N>
bool all_finite(const std::array<double, N>& v, const std::string& name, std::string* where) {
  for (std::size_t i = 0; i < N; ++i) {
    if (!std::isfinite(v[i])) {
      *where = name + "[" + std::to_string(i) + "]";
      return false;
    }
  }
  return true;
}

bool all_finite(double v, const std::string& name, std::string* where) {
  if (std::isfinite(v)) return true;
  *where = name;
  return false;
}

// The world's loads and the parts' poses, which a viewer draws.
bool drawn_finite(const Outputs& o, std::string* w) {
  for (int i = 0; i < o.load_count && i < static_cast<int>(o.loads.size()); ++i) {
    const Outputs::Load& l = o.loads[static_cast<std::size_t>(i)];
    const std::string n = "loads[" + std::to_string(i) + "].";
    if (!all_finite(l.position_m, n + "position_m", w) ||
        !all_finite(l.orientation, n + "orientation", w) ||
        !all_finite(l.velocity_m_per_s, n + "velocity_m_per_s", w) ||
        !all_finite(l.submerged, n + "submerged", w))
      return false;
  }
  for (std::size_t i = 0; i < o.parts.size(); ++i) {
    const std::string n = "parts[" + std::to_string(i) + "].";
    if (!all_finite(o.parts[i].position_m, n + "position_m", w) ||
        !all_finite(o.parts[i].orientation, n + "orientation", w))
      return false;
  }
  return true;
}

}  // namespace

std::string first_nonfinite(const Outputs& o) {
  std::string w;
  const bool ok =
      all_finite(o.display, "display", &w) && all_finite(o.time_s, "time_s", &w) &&
      all_finite(o.joint_pos, "joint_pos", &w) && all_finite(o.joint_vel, "joint_vel", &w) &&
      all_finite(o.pressures_Pa, "pressures_Pa", &w) &&
      all_finite(o.tensions_N, "tensions_N", &w) &&
      all_finite(o.cable_rates_m_per_s, "cable_rates_m_per_s", &w) &&
      all_finite(o.theta1_clam_deg, "theta1_clam_deg", &w) &&
      all_finite(o.theta2_clam_deg, "theta2_clam_deg", &w) &&
      all_finite(o.jaw_gap_m, "jaw_gap_m", &w) && all_finite(o.squeeze_N, "squeeze_N", &w) &&
      all_finite(o.grip_holds_kg, "grip_holds_kg", &w) &&
      all_finite(o.stop_force_N, "stop_force_N", &w) &&
      all_finite(o.clam_vel_m_per_s, "clam_vel_m_per_s", &w) && all_finite(o.tip, "tip", &w) &&
      all_finite(o.point_a, "point_a", &w) && all_finite(o.point_b, "point_b", &w) &&
      all_finite(o.point_c, "point_c", &w) && all_finite(o.energy_J, "energy_J", &w) &&
      all_finite(o.clam_swing_deg, "clam_swing_deg", &w) &&
      all_finite(o.clam_orientation, "clam_orientation", &w) &&
      all_finite(o.clam_contact_force_N, "clam_contact_force_N", &w) &&
      all_finite(o.clam_submerged, "clam_submerged", &w) &&
      all_finite(o.hook_load_kg, "hook_load_kg", &w) && all_finite(o.rated_kg, "rated_kg", &w) &&
      all_finite(o.radius_m, "radius_m", &w) &&
      all_finite(o.load_moment_pct, "load_moment_pct", &w) &&
      all_finite(o.tilt_deg, "tilt_deg", &w) && drawn_finite(o, &w);
  return ok ? "" : w;
}

}  // namespace clamsim::core
