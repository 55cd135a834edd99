#include "core/faults.h"

#include <cmath>

namespace clamsim::core {

namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

double hose_leak_coeff(double diameter_m) {
  const double area = 0.25 * kPi * diameter_m * diameter_m;
  return kLeakDischargeCoeff * area * std::sqrt(2.0 / kOilDensity_kg_per_m3);
}

// The valve's orifice law: a sqrt(|dp|) with dp's sign, linear inside the laminar band so
// that the slope stays finite at zero (core/hydraulics.cc, orifice).
double hose_leak_flow(const HoseBurst& h, const ValveParams& v, double p) {
  if (!h.active) return 0.0;
  const double a = hose_leak_coeff(h.diameter_m);
  const double dp = p - v.tank_pressure_Pa;
  const double mag = std::fabs(dp);
  if (mag >= v.laminar_dp_Pa) return std::copysign(a * std::sqrt(mag), dp);
  return a * dp / std::sqrt(v.laminar_dp_Pa);
}

double hose_leak_conductance(const HoseBurst& h, const ValveParams& v, double p) {
  if (!h.active) return 0.0;
  const double a = hose_leak_coeff(h.diameter_m);
  const double mag = std::fabs(p - v.tank_pressure_Pa);
  if (mag >= v.laminar_dp_Pa) return 0.5 * a / std::sqrt(mag);
  return a / std::sqrt(v.laminar_dp_Pa);
}

double brake_leak_conductance(const BrakeSlip& b, const WinchParams& w) {
  if (!b.active) return 0.0;
  const double nd = w.motor.gear_ratio * w.motor.displacement_m3_per_rad;
  return b.creep_m_per_s_per_N * nd * nd / (w.drum_radius_m * w.drum_radius_m);
}

}  // namespace clamsim::core
