// Elastic wire rope between the boom-tip sheave and the clam: a one-sided spring.
#pragma once

#include "params.h"

namespace clamsim::core {

struct RopeForce {
  double tension_N = 0.0;     // pull on the clam and on the tip; never negative (slack = 0)
  double drum_force_N = 0.0;  // pull on the drum towards paying out, -dV/dL of the rope
};

// span: distance sheave to attachment point; length: unstretched hanging length (from the drum).
// Tension T = EA/L * (e + c * de/dt) for stretch e = span - length > 0, clipped at 0.
RopeForce rope_force(const WinchParams& w, double span_m, double span_rate_m_per_s,
                     double length_m, double length_rate_m_per_s);

// Strain energy 0.5 * EA/L * e^2 [J].
double rope_energy(const WinchParams& w, double span_m, double length_m);

}  // namespace clamsim::core
