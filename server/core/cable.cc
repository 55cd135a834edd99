#include "core/cable.h"

#include <algorithm>

namespace clamsim::core {

RopeForce rope_force(const WinchParams& w, double span_m, double span_rate_m_per_s,
                     double length_m, double length_rate_m_per_s) {
  RopeForce f;
  const double stretch = span_m - length_m;
  if (stretch <= 0.0) return f;  // slack: a rope cannot push
  const double k = w.rope_EA_N / length_m;
  const double elastic = k * stretch;
  const double rate = span_rate_m_per_s - length_rate_m_per_s;
  f.tension_N = std::max(0.0, elastic + k * w.rope_damping_s * rate);
  // V = EA/(2L) e^2 with e = span - L: -dV/dL = T_el + EA e^2 / (2 L^2). The second term is
  // tiny (strain-sized) but keeps the exchange of energy between rope and drum exact.
  f.drum_force_N = f.tension_N + 0.5 * elastic * stretch / length_m;
  return f;
}

double rope_energy(const WinchParams& w, double span_m, double length_m) {
  const double stretch = span_m - length_m;
  if (stretch <= 0.0) return 0.0;
  return 0.5 * w.rope_EA_N / length_m * stretch * stretch;
}

}  // namespace clamsim::core
