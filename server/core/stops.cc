#include "core/stops.h"

#include <algorithm>

namespace clamsim::core {

double stop_force(double pos, double vel, double lo, double hi, double k, double c) {
  if (pos < lo) return std::max(0.0, k * (lo - pos) - c * vel);
  if (pos > hi) return std::min(0.0, -k * (pos - hi) - c * vel);
  return 0.0;
}

double stop_energy(double pos, double lo, double hi, double k) {
  const double pen = pos < lo ? lo - pos : (pos > hi ? pos - hi : 0.0);
  return 0.5 * k * pen * pen;
}

}  // namespace clamsim::core
