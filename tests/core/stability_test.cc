// Stability (docs/model.md, Stability): the tipping moment against a hand calculation, the load
// chart against the statics it claims, the load moment indicator against hand figures, the
// tipping threshold and the tipping motion against statics and a closed form, and the
// limiter and the tip-over in the running machine.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "core/derivative.h"
#include "core/machine.h"
#include "core/stability.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

using testing::deg;

constexpr double kCraneRating_kg = 25000.0;   // the chart's cap (models/t250.json chart.source)
constexpr double kChartFraction = 0.85;       // of the tipping load (ASME B30.5, SAE J765)

// A point's centre of gravity by hand, base frame: the boom's pivot at (-a1, 0, d1) turned by
// the swing, the boom's axis u at the boom angle, the cab's frame 1 (x along the boom
// horizontally, y up).
struct HandPose {
  double swing, boom, d3;
  Vec3 pivot(const MachineParams& m) const {
    return Vec3(-m.crane.a1_m * std::cos(swing), -m.crane.a1_m * std::sin(swing), m.crane.d1_m);
  }
  Vec3 along() const {
    return Vec3(std::cos(boom) * std::cos(swing), std::cos(boom) * std::sin(swing), std::sin(boom));
  }
  Vec3 q() const { return Vec3(swing, kHalfPi + boom, d3); }
};

// Sum of m g (outward distance) over the carrier and the links, and the tip's outward
// distance, for the front side (x = front_m) and the left side (y = half_span_m).
struct HandMoments {
  double front_Nm = 0.0, left_Nm = 0.0, tip_front_m = 0.0, tip_left_m = 0.0;
};
HandMoments by_hand(const MachineParams& m, const HandPose& p) {
  const double g = m.crane.gravity_m_per_s2;
  const CarrierParams& car = m.carrier;
  const auto& L = m.crane.links;
  const Vec3 x1(std::cos(p.swing), std::sin(p.swing), 0.0);
  const Vec3 cab = p.pivot(m) + L[0].com_m[0] * x1 + L[0].com_m[1] * Vec3::UnitZ();
  const Vec3 base = p.pivot(m) + L[1].com_m[2] * p.along();
  const Vec3 fly = p.pivot(m) + (p.d3 + L[2].com_m[2]) * p.along();
  const Vec3 tip = p.pivot(m) + p.d3 * p.along();
  HandMoments h;
  const std::pair<double, Vec3> parts[] = {
      {car.mass_kg, Vec3(car.com_m[0], car.com_m[1], car.com_m[2])},
      {L[0].mass_kg, cab}, {L[1].mass_kg, base}, {L[2].mass_kg, fly}};
  for (const auto& [mass, at] : parts) {
    h.front_Nm += mass * g * (at.x() - car.front_m);
    h.left_Nm += mass * g * (at.y() - car.half_span_m);
  }
  h.tip_front_m = tip.x() - car.front_m;
  h.tip_left_m = tip.y() - car.half_span_m;
  return h;
}

TEST(Stability, OverturningMomentMatchesAHandCalculationAtThreePoses) {
  const MachineParams m = testing::shipped_machine();
  const double g = m.crane.gravity_m_per_s2;
  const HandPose poses[] = {{0.0, deg(30), 12.0}, {deg(90), deg(10), 20.0}, {deg(45), deg(50), 24.4}};
  const double load_kg = 1500.0;
  const Vec3 weight(0.0, 0.0, -load_kg * g);
  for (const HandPose& p : poses) {
    const HandMoments h = by_hand(m, p);
    EXPECT_NEAR(overturning_moment(m, p.q(), weight, kFrontEdge, 0.0),
                h.front_Nm + load_kg * g * h.tip_front_m, 1.0)
        << "swing " << p.swing << " boom " << p.boom << " d3 " << p.d3;
    EXPECT_NEAR(overturning_moment(m, p.q(), weight, kLeftEdge, 0.0),
                h.left_Nm + load_kg * g * h.tip_left_m, 1.0);
  }
}

TEST(Stability, ATiltTurnsPointsAboutTheSideKeepingTheirDistance) {
  const MachineParams m = testing::shipped_machine();
  for (int k = 0; k < kTipEdges; ++k) {
    const EdgeLine e = edge_line(m.carrier, k);
    const Vec3 p(1.0, -0.5, 2.0);
    const Vec3 t = tilted(e, p, deg(20));
    auto distance = [&](const Vec3& v) { return ((v - e.point).cross(e.axis())).norm(); };
    EXPECT_NEAR(distance(t), distance(p), 1e-12) << tip_edge_name(k);
    EXPECT_NEAR((t - e.point).dot(e.axis()), (p - e.point).dot(e.axis()), 1e-12);
    // tipping outward lowers a point that is inside the side and above the pads' level
    EXPECT_GT((t - e.point).dot(e.normal), (p - e.point).dot(e.normal));
  }
}

// The chart in the model file is what it says it is: 85 % of the 360 deg tipping load, at most
// the crane's 25 t, rounded down to 10 kg; where a boom length cannot reach a radius, the next
// longer boom's rating there (a longer boom is heavier out front, so that is on the safe
// side), and nothing beyond the longest boom's reach. On a mismatch it prints the chart the
// statics give, to paste into the model file.
TEST(Stability, ChartIsEightyFivePercentOfTheTippingLoad) {
  const MachineParams m = testing::shipped_machine();
  const CapacityChart& c = m.load_moment.chart;
  std::vector<std::vector<double>> expected(static_cast<std::size_t>(c.lengths));
  for (int i = c.lengths - 1; i >= 0; --i) {
    for (int j = 0; j < c.radii; ++j) {
      const double L = c.boom_length_m[static_cast<std::size_t>(i)];
      const double R = c.radius_m[static_cast<std::size_t>(j)];
      const bool reaches = R + m.crane.a1_m <= L + 1e-9;
      double rated = 0.0;
      if (reaches) {
        rated = std::floor(std::min(kChartFraction * tipping_load_360_kg(m, L, R), kCraneRating_kg) / 10.0) * 10.0;
      } else if (i + 1 < c.lengths) {
        rated = expected[static_cast<std::size_t>(i + 1)][static_cast<std::size_t>(j)];
      }
      expected[static_cast<std::size_t>(i)].push_back(rated);
    }
  }
  std::ostringstream json;
  bool same = true;
  for (int i = 0; i < c.lengths; ++i) {
    json << (i ? ",\n" : "") << "        [";
    for (int j = 0; j < c.radii; ++j) {
      const double want = expected[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      json << (j ? ", " : "") << want;
      same = same && std::abs(c.rated_kg[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] - want) < 0.5;
    }
    json << "]";
  }
  EXPECT_TRUE(same) << "models/t250.json load_moment.chart.rated_kg should be:\n" << json.str();
}

TEST(Stability, ChartInterpolatesBetweenItsEntriesAndHoldsAtItsEdges) {
  CapacityChart c;
  c.lengths = 2;
  c.radii = 2;
  c.boom_length_m = {10.0, 20.0};
  c.radius_m = {4.0, 8.0};
  c.rated_kg[0] = {8000.0, 4000.0};
  c.rated_kg[1] = {6000.0, 2000.0};
  EXPECT_DOUBLE_EQ(rated_capacity_kg(c, 10.0, 4.0), 8000.0);
  EXPECT_DOUBLE_EQ(rated_capacity_kg(c, 15.0, 6.0), 5000.0);
  EXPECT_DOUBLE_EQ(rated_capacity_kg(c, 20.0, 6.0), 4000.0);
  EXPECT_DOUBLE_EQ(rated_capacity_kg(c, 5.0, 2.0), 8000.0);    // held below both axes
  EXPECT_DOUBLE_EQ(rated_capacity_kg(c, 30.0, 12.0), 2000.0);  // and above
}

// The clam hanging still at a chart node: the indicator reads the clam's mass (its ropes
// carry it), the chart's entry there, and the one in percent of the other.
TEST(Stability, LoadMomentMatchesAHandCalculationAtThreePoses) {
  const MachineParams m = testing::shipped_machine();
  const CapacityChart& c = m.load_moment.chart;
  const double clam_kg = 2 * m.clam.link1_mass_kg + 2 * m.clam.link2_mass_kg + m.clam.link3_mass_kg;
  const int nodes[][2] = {{1, 5}, {3, 8}, {5, 11}};   // (boom length, radius) indices
  for (const auto& node : nodes) {
    const double L = c.boom_length_m[static_cast<std::size_t>(node[0])];
    const double R = c.radius_m[static_cast<std::size_t>(node[1])];
    InitialConditions ic = testing::default_pose();
    ic.telescope_m = L;
    ic.boom_rad = std::acos((R + m.crane.a1_m) / L);
    ic.clam_depth_m = 4.0;
    const State st = initial_state(m, ic);
    const Outputs o = outputs(m, st, {});
    const double rated = c.rated_kg[static_cast<std::size_t>(node[0])][static_cast<std::size_t>(node[1])];
    EXPECT_NEAR(o.radius_m, R, 1e-9);
    EXPECT_NEAR(o.hook_load_kg, clam_kg, 0.01 * clam_kg) << "L " << L << " R " << R;
    EXPECT_NEAR(o.rated_kg, rated, 1e-6);
    EXPECT_NEAR(o.load_moment_pct, 100.0 * o.hook_load_kg / rated, 1e-9);
  }
}

// Just under the tipping load the machine stays on its pads; just over it, it lifts off the
// side statics names and turns with the acceleration M / I (a closed form for the first
// instants: tilt = M t^2 / (2 I)).
TEST(Stability, TipsAtTheStaticTippingLoadAboutTheSideStaticsNames) {
  const MachineParams m = testing::shipped_machine();
  const double g = m.crane.gravity_m_per_s2;
  const HandPose p{deg(90), deg(10), 20.0};   // over the left side, far out
  const double tipping = tipping_load_kg(m, p.q());
  ASSERT_TRUE(std::isfinite(tipping));
  const double h = m.integrator.step_s;

  StabilityState below;
  WorldEvents events;
  for (int k = 0; k < 400; ++k)
    tipping_step(m, below, events, p.q(), Vec3(0, 0, -0.99 * tipping * g), h);
  EXPECT_EQ(below.edge, kNoEdge);
  EXPECT_EQ(below.tilt_rad, 0.0);

  StabilityState above;
  const Vec3 pull(0, 0, -1.05 * tipping * g);
  const int steps = 40;   // 0.1 s
  for (int k = 0; k < steps; ++k) tipping_step(m, above, events, p.q(), pull, h);
  EXPECT_EQ(above.edge, kLeftEdge);
  const double moment = overturning_moment(m, p.q(), pull, kLeftEdge, 0.0);
  const double t = steps * h;
  const double closed_form = moment * t * t / (2.0 * tipping_inertia(m, p.q(), kLeftEdge));
  EXPECT_NEAR(above.tilt_rad, closed_form, 0.05 * closed_form);
  EXPECT_FALSE(above.tipped_over);
  EXPECT_EQ(events.tip_overs, 0u);
}

// Kept pulling, it turns past 10 deg and is lost: one tip-over, and it comes to rest lying
// over; a load let go in time lets it land again.
TEST(Stability, TipsOverOnceItsOwnWeightPassesTheSideAndLandsIfTheLoadGoes) {
  const MachineParams m = testing::shipped_machine();
  const double g = m.crane.gravity_m_per_s2;
  const HandPose p{deg(90), deg(10), 20.0};
  const Vec3 pull(0, 0, -1.5 * tipping_load_kg(m, p.q()) * g);
  const double h = m.integrator.step_s;

  StabilityState lost;
  WorldEvents events;
  for (int k = 0; k < 4000 && !lost.tipped_over; ++k) tipping_step(m, lost, events, p.q(), pull, h);
  ASSERT_TRUE(lost.tipped_over);
  EXPECT_EQ(events.tip_overs, 1u);
  EXPECT_NEAR(lost.tilt_rad, deg(kLostTiltDeg), deg(0.5));
  EXPECT_LT(own_weight_margin_m(m, p.q(), kLeftEdge, lost.tilt_rad), 0.0);   // low and wide
  for (int k = 0; k < 4000; ++k) tipping_step(m, lost, events, p.q(), Vec3::Zero(), h);
  EXPECT_EQ(events.tip_overs, 1u);
  EXPECT_GT(lost.tilt_rad, deg(29));

  StabilityState saved;
  WorldEvents none;
  for (int k = 0; k < 200; ++k) tipping_step(m, saved, none, p.q(), pull, h);   // 0.5 s lifting
  ASSERT_GT(saved.tilt_rad, 0.0);
  for (int k = 0; k < 4000 && saved.edge != kNoEdge; ++k)
    tipping_step(m, saved, none, p.q(), Vec3::Zero(), h);   // the load let go
  EXPECT_EQ(saved.edge, kNoEdge);
  EXPECT_EQ(saved.tilt_rad, 0.0);
  EXPECT_EQ(none.tip_overs, 0u);
}

// The limiter in the running machine: a heavy grab telescoped out over the side. The
// indicator warns, then cuts out telescoping out (the telescope stops short of where the
// stick would take it) and the machine stays on its pads; the opposite motion still works.
// With the instructor's override the same stick tips it over, and a machine that has tipped
// over answers nothing.
MachineParams heavy_grab() {
  MachineParams m = testing::shipped_machine();
  m.clam.link2_mass_kg = 1500.0;   // 3.1 t of grab
  return m;
}

InitialConditions over_the_side() {
  InitialConditions ic = testing::default_pose();
  ic.swing_rad = deg(90);
  ic.boom_rad = deg(20);
  ic.telescope_m = 12.0;
  ic.clam_depth_m = 4.0;
  return ic;
}

TEST(Stability, LimiterStopsTelescopingOutBeforeTheMachineTips) {
  const MachineParams m = heavy_grab();
  State st = initial_state(m, over_the_side());
  ASSERT_LT(st.stability.pct, m.load_moment.warning_pct);
  const Control out = testing::volts(0, 0, 5, -1.5, -1.5);   // telescope out, ropes following
  for (int f = 0; f < 1200 && !st.stability.cut_out; ++f)
    advance_to(m, st, out, {}, st.time_s + m.integrator.frame_s);
  ASSERT_TRUE(st.stability.cut_out);

  EXPECT_EQ(st.world.events.lmi_warnings, 1u);
  EXPECT_EQ(st.world.events.lmi_cutouts, 1u);
  const double cut_at = st.x(ix::q + 2);
  advance_to(m, st, out, {}, st.time_s + 5.0);
  EXPECT_NEAR(st.x(ix::q + 2), cut_at, 0.05);
  EXPECT_LT(st.x(ix::q + 2), m.crane.telescope_max_m - 1.0);
  EXPECT_EQ(st.stability.edge, kNoEdge);
  EXPECT_EQ(st.world.events.tip_overs, 0u);
  // telescoping in is still allowed and brings the moment down again
  advance_to(m, st, testing::volts(0, 0, -5, 1.5, 1.5), {}, st.time_s + 5.0);
  EXPECT_LT(st.x(ix::q + 2), cut_at - 0.5);
  EXPECT_FALSE(st.stability.cut_out);
}

TEST(Stability, OverriddenLimiterLetsTheMachineTipOverAndThenNothingMoves) {
  const MachineParams m = heavy_grab();
  State st = initial_state(m, over_the_side());
  Environment env;
  env.faults.lmi_bypass = true;
  const Control out = testing::volts(0, 0, 5, -1.5, -1.5);
  for (int f = 0; f < 2400 && !st.stability.tipped_over; ++f)
    advance_to(m, st, out, env, st.time_s + m.integrator.frame_s);
  ASSERT_TRUE(st.stability.tipped_over);
  EXPECT_EQ(st.stability.edge, kLeftEdge);
  EXPECT_EQ(st.world.events.tip_overs, 1u);
  EXPECT_GE(st.world.events.lmi_cutouts, 1u);   // counted under the override too
  const Outputs o = outputs(m, st, env);
  EXPECT_TRUE(o.tipped_over);
  EXPECT_GT(o.tilt_deg, 0.0);
  EXPECT_EQ(o.tilt_edge, kLeftEdge);
  const double d3 = st.x(ix::q + 2), swing = st.x(ix::q);
  advance_to(m, st, testing::volts(5, 5, -5, 5, 5), env, st.time_s + 3.0);
  EXPECT_NEAR(st.x(ix::q + 2), d3, 0.05);
  EXPECT_NEAR(st.x(ix::q), swing, 0.01);
}

TEST(Stability, CutOutStopsOnlyTheMotionsThatRaiseTheMoment) {
  State st;
  st.stability.cut_out = true;
  const Control all = testing::volts(3, -3, 3, 3, 3);
  const Control cut = load_moment_cutout(st, all, {});
  EXPECT_EQ(cut.volts, (std::array<double, 5>{3, 0, 0, 0, 0}));
  const Control back = testing::volts(-3, 3, -3, -3, -3);
  EXPECT_EQ(load_moment_cutout(st, back, {}).volts, back.volts);
  Faults bypass;
  bypass.lmi_bypass = true;
  EXPECT_EQ(load_moment_cutout(st, all, bypass).volts, all.volts);
  st.stability.tipped_over = true;
  EXPECT_EQ(load_moment_cutout(st, back, bypass).volts, (std::array<double, 5>{}));
}

}  // namespace
}  // namespace clamsim::core
