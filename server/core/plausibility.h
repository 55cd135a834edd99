// Speeds no machine of this kind can reach. A state past them is not a crash (the numbers are
// finite) but a model or a start pose gone wrong: a grab released from a rope stretched past
// its drum stop left at 46 m/s. Each time the state passes one, Health::nonphysical_warnings
// counts it, as MuJoCo's mjWARN_BADQVEL does; clamsim-sim's summary and CSV and a session's
// /metrics show the count (docs/model.md, Health).
#pragma once

#include "params.h"
#include "state.h"

namespace clamsim::core {

struct PlausibleSpeeds {
  double swing_rad_per_s = 0.0;
  double boom_cylinder_m_per_s = 0.0;   // the boom's cylinders (lever x boom rate)
  double telescope_m_per_s = 0.0;
  double rope_m_per_s = 0.0;            // at the drum
  double clam_m_per_s = 0.0;            // points A and C, any direction
};

// From the machine itself: kFastestFactor times what each pump can drive at full stick, and
// for the grab the larger of that and a free fall down its longest rope.
inline constexpr double kFastestFactor = 10.0;
PlausibleSpeeds plausible_speeds(const MachineParams& m);

// The first of the state's speeds past its limit, or nullptr: "swing rate", ...
const char* implausible_speed(const MachineParams& m, const PlausibleSpeeds& limits,
                              const StateVector& x);

}  // namespace clamsim::core
