// Faults and conditions an instructor injects: what the physics reads from
// Environment::faults. A plain value (no heap, cheap to copy); the default is no fault, and
// with it every result is bit for bit what it is without this file.
//
// What each one is (docs/model.md, Faults):
//   hoses    a burst hose: line A or B of a channel leaks to tank through a sharp-edged hole,
//            Q = Cd A sqrt(2 p / rho), between the load-holding valve and the actuator
//   spools   a sticking spool: the channel's valve sits at the opening of `volts`, whatever
//            the stick says (the session lifts it when its time is up)
//   brakes   a winch brake that slips: the motor's leakage across its ports, which the brake
//            normally hides, lets the drum pay out at creep_m_per_s_per_N x rope pull
//   water    a current: the water moves horizontally; drag acts on velocity relative to it
//   turbidity  0 clear .. 1 nil visibility: no dynamics, carried to the frame (Outputs)
//   anti_two_block_bypass  the instructor's override of the anti-two-block cut-out (the key
//            switch real cranes have): the event still counts, the motions are not stopped
//   lmi_bypass  the instructor's override of the load moment limiter's cut-out (the same key
//            switch): warnings and cut-outs still count, the motions are not stopped, and
//            past the tipping load the machine tips (core/stability.h)
#pragma once

#include <array>
#include <cstdint>

#include "params.h"

namespace clamsim::core {

// Mineral hydraulic oil (ISO VG 46) at working temperature, and a sharp-edged hole's
// discharge coefficient (Merritt 1967, Hydraulic Control Systems, section 3.2: 0.61).
inline constexpr double kOilDensity_kg_per_m3 = 870.0;
inline constexpr double kLeakDischargeCoeff = 0.61;

enum class HoseLine : std::uint8_t { A = 0, B = 1 };

struct HoseBurst {
  bool active = false;
  HoseLine line = HoseLine::A;   // A: the holding side (cap side, hoisting side)
  double diameter_m = 0.0;       // the hole's equivalent diameter
};

struct SpoolStick {
  bool active = false;
  double volts = 0.0;            // the command the spool is stuck at
};

struct BrakeSlip {
  bool active = false;
  double creep_m_per_s_per_N = 0.0;   // rope pay-out speed per newton of rope pull
};

struct Faults {
  std::array<HoseBurst, 5> hoses{};    // by channel (ControlSignal index)
  std::array<SpoolStick, 5> spools{};  // by channel
  std::array<BrakeSlip, 2> brakes{};   // by winch: 0 main hoist, 1 aux hoist
  std::array<double, 2> water_velocity_m_per_s{};  // horizontal current, base frame x, y
  double turbidity = 0.0;              // 0 clear .. 1 nothing visible under water
  bool anti_two_block_bypass = false;  // the anti-two-block cut-out overridden (machine.cc)
  bool lmi_bypass = false;             // the load moment limiter's cut-out overridden
};

// The hole's orifice coefficient Cd A sqrt(2 / rho) [m^3/s per sqrt(Pa)].
double hose_leak_coeff(double diameter_m);

// Flow out of a line at pressure p through a burst hose to tank [m^3/s] (negative: drawn in),
// turbulent, linear below the valve's laminar transition as the valve's orifices are.
double hose_leak_flow(const HoseBurst& h, const ValveParams& v, double p);
// d(hose_leak_flow)/dp: the leak's conductance, for the integrator's decay rates.
double hose_leak_conductance(const HoseBurst& h, const ValveParams& v, double p);

// The slipping brake's leak across the winch motor, from line A to line B [m^3/s per Pa]:
// Q = G (P_A - P_B). The motor's torque n D dp = F r holds rope pull F and the leak turns the
// drum at Q / (n D), so the rope pays out at v = r G dp / (n D) = creep x F with
// G = creep (n D)^2 / r^2.
double brake_leak_conductance(const BrakeSlip& b, const WinchParams& w);

}  // namespace clamsim::core
