// Elastic wire rope from its drum over the boom's sheaves to the clam: a one-sided spring.
#pragma once

#include "params.h"

namespace clamsim::core {

struct RopeForce {
  double tension_N = 0.0;     // pull on the clam and on the tip; never negative (slack = 0)
  double drum_force_N = 0.0;  // pull on the drum towards paying out, -dV/dL of the rope
};

// span: the rope's stretched length, drum to attachment point (reeved path along the boom plus
// the hanging span); length: its unstretched length paid out from the drum.
// Tension T = EA/L * (e + c * de/dt) for stretch e = span - length > 0, clipped at 0.
RopeForce rope_force(const WinchParams& w, double span_m, double span_rate_m_per_s,
                     double length_m, double length_rate_m_per_s);

// Strain energy 0.5 * EA/L * e^2 [J].
double rope_energy(const WinchParams& w, double span_m, double length_m);

}  // namespace clamsim::core
