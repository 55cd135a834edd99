// Fixed-step classical Runge-Kutta (RK4), independent of the model (STYLE.md example 3).
// The model supplies f(x) -> dx/dt over a fixed-size Eigen vector; nothing here allocates.
//
// Why RK4 and not an implicit method: the stiffest terms (hydraulic line compressibility
// through the valve orifices, rope stretch, hard stops) have eigenvalues below ~2000 1/s with
// the shipped parameters, inside RK4's real-axis stability bound |h*lambda| < 2.78 at
// h = 1 ms, and RK4 is explicit, cheap, deterministic and fourth-order accurate for the
// smooth mechanical motion that the trainee sees.
#pragma once

namespace clamsim::core {

template <typename Vec, typename Derivative>
void rk4_step(Vec& x, double h, Derivative&& f) {
  const Vec k1 = f(x);
  const Vec k2 = f(Vec(x + (0.5 * h) * k1));
  const Vec k3 = f(Vec(x + (0.5 * h) * k2));
  const Vec k4 = f(Vec(x + h * k3));
  x += (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
}

}  // namespace clamsim::core
