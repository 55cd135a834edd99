// What the fixed step can resolve. The integrator (core/integrator.h) takes each line
// pressure's decay through its valve exactly, at any step; what it leaves to RK4's explicit
// weights is the oil spring: the line's compressibility against the masses the actuator
// drives, an oscillation of angular frequency w = sqrt(k / J) with k = beta A^2 / V per line.
#pragma once

#include <array>

#include "params.h"

namespace clamsim::core {

// The largest h * w that a model may have: RK4 follows an oscillation with at least six steps
// per period there and damps it numerically by under 1 % per step (|R(i)| = 0.994); at
// 2 sqrt(2) it is no longer stable.
constexpr double kMaxOilSpringStepRatio = 1.0;

// The smallest lag of a counterbalance pilot, in steps: RK4 follows the lag's decay
// explicitly (at h / lag = 0.1 its error is 1e-7 of the step's change). The pilot follows
// line B's pressure, which moves within the step; a spool follows the stick, which does not,
// and is taken exactly (derivative.h spool_track).
constexpr double kMinLagSteps = 10.0;

// For each valve channel (ControlSignal order) the fastest oil-spring frequency [rad/s] over
// the working range: both lines' stiffness against the lightest inertia the actuator drives
// (the crane's effective joint inertia at the corners of the boom and telescope ranges, the
// bare drum for a winch whose rope has gone slack).
std::array<double, 5> oil_spring_frequencies(const MachineParams& m);

}  // namespace clamsim::core
