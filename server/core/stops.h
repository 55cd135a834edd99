// Hard stops of joints and drums: a physical response (stiff spring-damper), not a clamp.
#pragma once

namespace clamsim::core {

// One-sided penalty stop: force pushing back out of a range [lo, hi] with spring k and
// damper c, never pulling (Hunt-Crossley-like clip), so a stop cannot stick.
double stop_force(double pos, double vel, double lo, double hi, double k, double c);
double stop_energy(double pos, double lo, double hi, double k);

}  // namespace clamsim::core
