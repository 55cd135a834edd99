// Fixed-step exponential Runge-Kutta (Cox & Matthews 2002, "Exponential time differencing for stiff
// systems", J. Comput. Phys. 176, ETDRK4), independent of the model (it knows nothing of cranes, so
// it can be tested and swapped alone). The model supplies f(x) -> dx/dt over a fixed-size Eigen
// vector and, at the step's start, a decay rate lambda_i >= 0 per component: the stiff linear part
// -lambda_i x_i of f_i. That part is integrated exactly, the rest with RK4 weights.
// Nothing here allocates.
//
// Why: the line pressures are stiff. A return orifice in its laminar band gives a pressure
// the eigenvalue -G/C; with the shipped lines (1.2 GPa, 4 L) h*G/C reaches 2.7 at h = 1 ms,
// and at 1 L or 1.5 GPa it passes classical RK4's real-axis bound of 2.785: the pressure
// rings, the orifice's kink rectifies the ringing and the actuator's speed changes with the
// oil's compressibility. With each pressure's own conductance as lambda, that mode
// is exact for any h*lambda; what is left to the explicit weights (the oil spring against
// the masses, which oscillates) is bounded by the loader (core/step_limits.h).
//
// Components with lambda = 0 (all the mechanical states) get classical RK4 exactly:
// stages x + h/2 k1, x + h/2 k2, x + h k3 and weights 1/6, 1/3, 1/3, 1/6.
#pragma once

#include <cmath>
#include <type_traits>

namespace clamsim::core {

namespace detail {

// f(x), or for a model with inputs that move over the step, f(x, t): t is the stage's time
// from the step's start (0, h/2, h/2, h), as in RK4's f(t_n + c_i h, .).
template <typename Vec, typename Derivative>
Vec stage(Derivative& f, const Vec& x, double t) {
  if constexpr (std::is_invocable_v<Derivative&, const Vec&, double>)
    return f(x, t);
  else
    return f(x);
}

// Weights of ETDRK4 for one component, already multiplied by h; c = -h lambda <= 0.
struct EtdWeights {
  double half = 0.0;  // (h/2) phi1(c/2): weight of a stage derivative over half a step
  double w1 = 0.0;    // final weights of k1, k2 (= of k3) and k4
  double w2 = 0.0;
  double w3 = 0.0;
};

inline EtdWeights etd_weights(double h, double lambda) {
  EtdWeights w;
  const double c = -h * lambda;
  if (c == 0.0) {
    w.half = 0.5 * h;
    w.w1 = w.w2 = w.w3 = h / 6.0;
    return w;
  }
  if (c > -0.2) {
    // The closed forms cancel to c^3 / 6 out of terms of order 4: Taylor series instead
    // (error below 1e-11 of the weight at |c| = 0.2).
    const double z = 0.5 * c;
    w.half = 0.5 * h * (1.0 + z * (0.5 + z * (1.0 / 6 + z * (1.0 / 24 + z * (1.0 / 120 +
                        z * (1.0 / 720 + z / 5040))))));
    w.w1 = h * (1.0 / 6 + c * (1.0 / 6 + c * (3.0 / 40 + c * (1.0 / 45 + c * (5.0 / 1008 +
               c * (1.0 / 1120 + c * 7.0 / 51840))))));
    w.w2 = h * (1.0 / 6 + c * (1.0 / 12 + c * (1.0 / 40 + c * (1.0 / 180 + c * (1.0 / 1008 +
               c * (1.0 / 6720 + c / 51840))))));
    w.w3 = h * (1.0 / 6 + c * c * (-1.0 / 120 + c * (-1.0 / 360 + c * (-1.0 / 1680 +
               c * (-1.0 / 10080 - c / 72576)))));
    return w;
  }
  // one exponential per stiff component: e^c = (e^(c/2))^2
  const double e_half = std::exp(0.5 * c);
  const double e = e_half * e_half;
  const double ic = 1.0 / c;                  // the one division: 1 / lambda = -h / c
  const double scale = h * ic * ic * ic;
  w.half = (1.0 - e_half) * -h * ic;
  w.w1 = scale * (-4.0 - c + e * (4.0 - 3.0 * c + c * c));
  w.w2 = scale * (2.0 + c + e * (c - 2.0));
  w.w3 = scale * (-4.0 - 3.0 * c - c * c + e * (4.0 - c));
  return w;
}

}  // namespace detail

// The weights of every component for one step: RK4's where a component does not decay.
// Each stiff component costs an exponential or a 7-term series, so the weights of a
// component whose rate is the same as last step's (a poppet's fixed lag, an orifice in its
// laminar band) are kept, not worked out again.
template <typename Vec>
struct EtdStepWeights {
  double h = 0.0;
  Vec lambda, half, w1, w2, w3;

  void update(double step, const Vec& rates) {
    if (step != h) {
      h = step;
      lambda = Vec::Zero(rates.size());
      half = Vec::Constant(rates.size(), 0.5 * h);
      w1 = w2 = w3 = Vec::Constant(rates.size(), h / 6.0);
    }
    for (int i = 0; i < rates.size(); ++i) {
      if (rates(i) == lambda(i)) continue;
      lambda(i) = rates(i);
      const detail::EtdWeights w = detail::etd_weights(h, rates(i));
      half(i) = w.half;
      w1(i) = w.w1;
      w2(i) = w.w2;
      w3(i) = w.w3;
    }
  }
};

// One step of ETDRK4 in increment form: with N(x) = f(x) + lambda x, the published stages
// a = E x + P N(x), b = E x + P N(a), c = E a + P (2 N(b) - N(x)) and
// x' = E^2 x + w1 N(x) + 2 w2 (N(a) + N(b)) + w3 N(c) are rewritten with E + P lambda = 1
// and E^2 + (w1 + 4 w2 + w3) lambda = 1, so that no large lambda x term cancels and a state
// with f = 0 stays exactly where it is.
//
// lambda holds the decay rates (>= 0) at x; f(x) or f(x, t) returns dx/dt.
// k1 = f(x) when the caller has it already (it was built with lambda).
// `weights` carries the weights from step to step (EtdStepWeights); the overloads without it
// work them out afresh.
template <typename Vec, typename Derivative>
void etd_rk4_step(Vec& x, double h, const Vec& lambda, const Vec& k1, Derivative&& f,
                  EtdStepWeights<Vec>& weights) {
  weights.update(h, lambda);
  const Vec &half = weights.half, &w1 = weights.w1, &w2 = weights.w2, &w3 = weights.w3;
  const Vec a = x + half.cwiseProduct(k1);
  const Vec k2 = detail::stage(f, a, 0.5 * h);
  const Vec b = x + half.cwiseProduct(k2 + lambda.cwiseProduct(a - x));
  const Vec k3 = detail::stage(f, b, 0.5 * h);
  const Vec c = a + half.cwiseProduct(2.0 * k3 - k1 + lambda.cwiseProduct(2.0 * b - x - a));
  const Vec k4 = detail::stage(f, c, h);
  const Vec dx =
      w1.cwiseProduct(k1) + 2.0 * w2.cwiseProduct(k2 + k3) + w3.cwiseProduct(k4) +
      lambda.cwiseProduct(2.0 * w2.cwiseProduct(a + b - 2.0 * x) + w3.cwiseProduct(c - x));
  x += dx;
}

template <typename Vec, typename Derivative>
void etd_rk4_step(Vec& x, double h, const Vec& lambda, const Vec& k1, Derivative&& f) {
  EtdStepWeights<Vec> weights;
  etd_rk4_step(x, h, lambda, k1, f, weights);
}

template <typename Vec, typename Derivative>
void etd_rk4_step(Vec& x, double h, const Vec& lambda, Derivative&& f) {
  etd_rk4_step(x, h, lambda, detail::stage(f, x, 0.0), f);
}

}  // namespace clamsim::core
