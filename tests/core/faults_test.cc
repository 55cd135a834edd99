// Injected faults as physics: a burst hose lets a held boom sink at the rate its
// leak implies, a stuck spool keeps its function moving, a slipping brake lets the drum creep
// under load, a current carries a floating log at the water's speed; and without them
// nothing moves.
#include <gtest/gtest.h>

#include <cmath>

#include "core/crane.h"
#include "core/faults.h"
#include "core/hydraulics.h"
#include "core/machine.h"
#include "model/scenario_file.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

using testing::default_pose;
using testing::volts;

constexpr double kPi = 3.14159265358979323846;

MachineParams machine_with_step(double step_s) {
  MachineParams m = testing::shipped_machine();
  m.integrator.step_s = step_s;
  return m;
}

Environment with_faults(const Faults& f, const WorldParams* world = nullptr) {
  return Environment(world, f);
}

double boom_angle(const State& st) { return st.x(ix::q + 1) - kPi / 2; }

// ---- burst hose -----------------------------------------------------------------------

struct Sinking {
  double cylinder_m = 0.0;   // how far the boom cylinders retracted over the window
  double leaked_m = 0.0;     // the leak's volume over the window, over the cap area
};

// The boom held (stick neutral) under the grab, a hose of the cap side burst; after a
// second's transient, the cylinders' retraction over `window_s` against the oil the leak
// let out at the cap pressure of each step.
Sinking boom_sinking(double step_s, double diameter_m, double window_s) {
  const MachineParams m = machine_with_step(step_s);
  const HydraulicsParams& hy = m.hydraulics;
  Faults f;
  f.hoses[1] = {true, HoseLine::A, diameter_m};
  const Environment env = with_faults(f);
  State st = initial_state(m, default_pose());
  advance_to(m, st, volts(0, 0, 0, 0, 0), env, 1.0);
  Sinking s;
  const double start = boom_cylinder_length(hy.boom_geometry, boom_angle(st));
  const long n = std::lround(window_s / step_s);
  for (long i = 0; i < n; ++i) {
    const double leak = hose_leak_flow(f.hoses[1], hy.channels[1].valve, st.x(ix::p + 2));
    step(m, st, volts(0, 0, 0, 0, 0), env);
    const double after = hose_leak_flow(f.hoses[1], hy.channels[1].valve, st.x(ix::p + 2));
    s.leaked_m += 0.5 * (leak + after) * step_s / hy.boom_cylinders.cap_area_m2;  // trapezoid
  }
  s.cylinder_m = start - boom_cylinder_length(hy.boom_geometry, boom_angle(st));
  return s;
}

// Q = Cd A sqrt(2 p / rho) out of the cap side, which nothing refills: the cylinders retract
// at Q / A_cap. What the leak does not account for is the oil's compression as the held
// pressure shifts with the boom's lever: within 1 % (measured: 17.28 mm in 3 s both ways at
// 3.35 MPa, 3 mm hole; the same at 0.5 ms).
TEST(BurstHose, HeldBoomSinksAtTheRateTheLeakImplies) {
  for (const double h : {0.001, 0.0005}) {
    const Sinking s = boom_sinking(h, 0.003, 3.0);
    EXPECT_GT(s.cylinder_m, 0.01) << "h " << h;   // visibly sinking: centimetres in 3 s
    EXPECT_NEAR(s.cylinder_m, s.leaked_m, 0.01 * s.leaked_m) << "h " << h;
  }
}

// The same sink at half the step: the leak is in the integrator's exact decay, not ringing.
TEST(BurstHose, SinkDoesNotDependOnTheStep) {
  const Sinking coarse = boom_sinking(0.001, 0.003, 3.0);
  const Sinking fine = boom_sinking(0.0005, 0.003, 3.0);
  EXPECT_NEAR(coarse.cylinder_m, fine.cylinder_m, 0.005 * fine.cylinder_m);
}

// The closed form at the hold pressure: 3 mm at the cap pressure that holds the boom.
TEST(BurstHose, LeakIsTheOrificeLaw) {
  const ValveParams v = testing::shipped_machine().hydraulics.channels[1].valve;
  const HoseBurst hose{true, HoseLine::A, 0.003};
  const double p = 10e6;
  const double area = kPi * 0.0015 * 0.0015;
  const double q = kLeakDischargeCoeff * area *
                   std::sqrt(2.0 * (p - v.tank_pressure_Pa) / kOilDensity_kg_per_m3);
  EXPECT_NEAR(hose_leak_flow(hose, v, p), q, 1e-12);
  // its slope, for the integrator: dQ/dp = Q / (2 dp)
  EXPECT_NEAR(hose_leak_conductance(hose, v, p), q / (2.0 * (p - v.tank_pressure_Pa)), 1e-18);
  EXPECT_EQ(hose_leak_flow(HoseBurst{}, v, p), 0.0);
}

// Idle without a leak: the held boom stays where it is.
TEST(BurstHose, WithoutALeakTheHeldBoomStays) {
  const MachineParams m = testing::shipped_machine();
  State st = initial_state(m, default_pose());
  advance_to(m, st, volts(0, 0, 0, 0, 0), {}, 1.0);
  const double before = boom_angle(st);
  advance_to(m, st, volts(0, 0, 0, 0, 0), {}, 4.0);
  EXPECT_NEAR(boom_angle(st), before, 1e-5);   // 0.0006 deg; the leak sinks it 100 x that
}

// ---- sticking spool -------------------------------------------------------------------

// The boom rising at 2.5 V; its spool sticks there and the stick goes to neutral: the boom
// goes on exactly as if the stick were still at 2.5 V. Freed, it stops.
TEST(StickingSpool, FunctionKeepsMovingAtTheHeldOpeningThenStops) {
  const MachineParams m = testing::shipped_machine();
  State held = initial_state(m, default_pose());
  advance_to(m, held, volts(0, 2.5, 0, 0, 0), {}, 1.0);
  State stuck = held;
  Faults f;
  f.spools[1] = {true, 2.5};
  advance_to(m, held, volts(0, 2.5, 0, 0, 0), {}, 3.0);
  advance_to(m, stuck, volts(0, 0, 0, 0, 0), with_faults(f), 3.0);
  EXPECT_EQ(boom_angle(stuck), boom_angle(held));
  EXPECT_GT(stuck.x(ix::qd + 1), 0.005);   // still rising, rad/s

  // the fault ends (the session lifts it when its time is up): the boom stops
  advance_to(m, stuck, volts(0, 0, 0, 0, 0), {}, 4.0);
  const double at_rest = boom_angle(stuck);
  advance_to(m, stuck, volts(0, 0, 0, 0, 0), {}, 5.0);
  EXPECT_NEAR(boom_angle(stuck), at_rest, 1e-4);
}

// ---- slipping brake -------------------------------------------------------------------

struct Creep {
  double rate_m_per_s = 0.0;       // rope 1's pay-out speed, measured
  double leak_rate_m_per_s = 0.0;  // r G dp / (n D) at the measured pressures (closed form)
  double pull_N = 0.0;             // rope 1's tension
};

// Winch 1's brake slips under a grab of `bucket_kg` buckets; rates over [1, 2] s.
Creep creep_of(double bucket_kg, double creep_m_per_s_per_N) {
  MachineParams m = testing::shipped_machine();
  m.clam.link2_mass_kg = bucket_kg;
  const WinchParams& w = m.hydraulics.winches[0];
  Faults f;
  f.brakes[0] = {true, creep_m_per_s_per_N};
  const Environment env = with_faults(f);
  State st = initial_state(m, default_pose());
  advance_to(m, st, volts(0, 0, 0, 0, 0), env, 1.0);
  const double nd = w.motor.gear_ratio * w.motor.displacement_m3_per_rad;
  const double g = brake_leak_conductance(f.brakes[0], w);
  Creep c;
  const double len0 = st.x(ix::len);
  const int n = 1000;
  for (int i = 0; i < n; ++i) {
    step(m, st, volts(0, 0, 0, 0, 0), env);
    const double dp = st.x(ix::p + 6) - st.x(ix::p + 7);
    c.leak_rate_m_per_s += w.drum_radius_m * g * dp / nd / n;
    c.pull_N += outputs(m, st, env).tensions_N[0] / n;
  }
  c.rate_m_per_s = (st.x(ix::len) - len0) / (n * m.integrator.step_s);
  return c;
}

// The leak across the motor turns the drum at Q / (n D): the rope pays out at the rate the
// leak implies at the pressures that hold the rope (within 1 %: the oil's compression as
// the pull settles; measured 4.31 mm/s at 2.34 kN, 36.1 mm/s at 8.83 kN), and faster under
// a heavier grab.
TEST(BrakeSlip, DrumCreepsUnderLoadAtTheLeakRateFasterWhenHeavier) {
  const double creep = 0.05 / 9806.65;   // 50 mm/s per tonne of pull
  const Creep light = creep_of(350.0, creep);
  const Creep heavy = creep_of(1500.0, creep);
  EXPECT_GT(light.rate_m_per_s, 0.002);   // visibly paying out
  EXPECT_NEAR(light.rate_m_per_s, light.leak_rate_m_per_s, 0.01 * light.leak_rate_m_per_s);
  EXPECT_NEAR(heavy.rate_m_per_s, heavy.leak_rate_m_per_s, 0.01 * heavy.leak_rate_m_per_s);
  EXPECT_GT(heavy.pull_N, 2.0 * light.pull_N);
  EXPECT_GT(heavy.rate_m_per_s, 2.0 * light.rate_m_per_s);
  // the drum's balance: the motor's friction takes part of the pull, the leak the rest,
  // v = creep (T - (c w + F_c tanh(w / w_eps)) / r) at drum speed w = v / r (within 3 %)
  const MachineParams m = testing::shipped_machine();
  const MotorParams& mo = m.hydraulics.winches[0].motor;
  const double r = m.hydraulics.winches[0].drum_radius_m;
  for (const Creep& c : {light, heavy}) {
    const double w = c.rate_m_per_s / r;
    const double friction =
        mo.viscous_Nms_per_rad * w + mo.coulomb_Nm * std::tanh(w / mo.coulomb_velocity_rad_per_s);
    const double expected = creep * (c.pull_N - friction / r);
    EXPECT_NEAR(c.rate_m_per_s, expected, 0.03 * expected) << "pull " << c.pull_N;
  }
}

// A rope that carries nothing (slack, its lines at tank pressure) does not creep.
TEST(BrakeSlip, UnloadedDrumHolds) {
  const MachineParams m = testing::shipped_machine();
  Faults f;
  f.brakes[0] = {true, 0.05 / 9806.65};
  State st = initial_state(m, default_pose());
  st.x(ix::len) += 3.0;   // slack beyond the grab's stroke: it hangs on rope 2 alone
  st.x(ix::p + 6) = st.x(ix::p + 7) = m.hydraulics.channels[3].valve.tank_pressure_Pa;
  const double before = st.x(ix::len);
  advance_to(m, st, volts(0, 0, 0, 0, 0), with_faults(f), 5.0);
  EXPECT_NEAR(st.x(ix::len), before, 1e-3);
}

// ---- water current --------------------------------------------------------------------

// Open water (no solids) with one floating log, far from the grab, axis along y.
WorldParams pond_with_log() {
  WorldParams w;
  w.water.level_m = -10.0;
  LoadParams log;
  log.name = "log";
  log.shape = LoadShape::Cylinder;
  log.radius_m = 0.25;
  log.length_m = 4.0;
  log.mass_kg = 0.6 * w.water.density_kg_per_m3 * load_volume_m3(log);   // 600 kg/m^3 wood
  log.position_m = {25.0, 0.0, w.water.level_m - 0.04};   // afloat, as in the dam scenario
  log.yaw_rad = kPi / 2;
  w.loads.push_back(log);
  return w;
}

// Across the current the log feels m dw/dt = -(c + k |w|) w, w its velocity through the
// water: radiation damping c = rho V f / tau (= m / tau afloat) and quadratic drag
// k = rho Cd (2 r L) f / 2, f = 0.6 the submerged fraction. From rest (|w0| = u):
//   |w|(t) = a u e^(-a t) / (a + b u (1 - e^(-a t))),  a = c/m, b = k/m
//   x(t) = x0 - (u t - ln(1 + (b u / a)(1 - e^(-a t))) / b)   toward the rack (-x)
TEST(Current, FloatingLogDriftsTowardTheRackAtTheWaterSpeed) {
  const MachineParams m = testing::shipped_machine();
  const WorldParams w = pond_with_log();
  const LoadParams& log = w.loads[0];
  const double u = 0.3;
  Faults f;
  f.water_velocity_m_per_s = {-u, 0.0};   // heading 180 deg: toward the dam face
  const Environment env = with_faults(f, &w);
  State st = initial_state(m, default_pose());
  reset_world(w, st.world);

  const double frac = 0.6;
  const double a = frac * w.water.density_kg_per_m3 * load_volume_m3(log) / w.water.heave_damping_s /
                   log.mass_kg;
  const double b = 0.5 * w.water.density_kg_per_m3 * w.water.drag_coefficient *
                   (2.0 * log.radius_m * log.length_m) * frac / log.mass_kg;
  for (const double t : {1.0, 3.0, 10.0}) {
    advance_to(m, st, volts(0, 0, 0, 0, 0), env, t);
    const LoadBody& body = st.world.loads[0];
    const double e = std::exp(-a * t);
    const double slip = a * u * e / (a + b * u * (1.0 - e));
    const double moved = u * t - std::log(1.0 + b * u / a * (1.0 - e)) / b;
    // 1 % of the water speed and of the drift (measured: within 0.1 %; semi-implicit Euler)
    EXPECT_NEAR(body.velocity_m_per_s.x(), -(u - slip), 0.01 * u) << "t " << t;
    EXPECT_NEAR(log.position_m.x() - body.position_m.x(), moved, 0.01 * moved) << "t " << t;
    EXPECT_NEAR(body.position_m.y(), 0.0, 1e-3);
  }
  EXPECT_NEAR(st.world.loads[0].velocity_m_per_s.x(), -u, 0.01 * u);   // carried at u
}

TEST(Current, WithoutCurrentTheLogStays) {
  const MachineParams m = testing::shipped_machine();
  const WorldParams w = pond_with_log();
  State st = initial_state(m, default_pose());
  reset_world(w, st.world);
  advance_to(m, st, volts(0, 0, 0, 0, 0), Environment(&w), 10.0);
  const Eigen::Vector3d moved = st.world.loads[0].position_m - w.loads[0].position_m;
  EXPECT_LT(moved.head<2>().norm(), 1e-3);
}

// The dam: in the current the floating crate at the bay's mouth and the logs before it drift
// to the rack (-x) and pack against it; without it nothing floats away.
TEST(Current, DebrisInTheDamBayDriftsTowardTheRack) {
  const MachineParams m = testing::shipped_machine();
  const model::Scenario sc = model::load_scenario_file(
      std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json", m);
  auto index_of = [&](const std::string& name) {
    for (std::size_t i = 0; i < sc.world.loads.size(); ++i)
      if (sc.world.loads[i].name == name) return i;
    return sc.world.loads.size();
  };
  double rack_face_x = 0.0;
  for (const SolidBox& b : sc.world.solids)
    if (b.kind == SolidKind::Rack) rack_face_x = b.center_m.x() + b.half_size_m.x();
  // log3 floats in the bay in front of the rack (log1 and log2 lie outside it)
  const std::size_t crate = index_of("crate"), bay_log = index_of("log3");
  ASSERT_LT(crate, sc.world.loads.size());
  ASSERT_LT(bay_log, sc.world.loads.size());
  for (int with_current = 0; with_current < 2; ++with_current) {
    Faults f;
    if (with_current) f.water_velocity_m_per_s = {-0.3, 0.0};
    State st = initial_state(m, sc.start);
    reset_world(sc.world, st.world);
    advance_to(m, st, volts(0, 0, 0, 0, 0), with_faults(f, &sc.world), 20.0);
    const double crate_drift = sc.world.loads[crate].position_m.x() - st.world.loads[crate].position_m.x();
    const double bay_log_x = st.world.loads[bay_log].position_m.x();
    if (with_current) {
      // the crate drifts in after the log, until it comes up against it
      EXPECT_GT(crate_drift, 0.6);
      EXPECT_NEAR(bay_log_x, rack_face_x + sc.world.loads[bay_log].radius_m, 0.02);   // on the bars
    } else {
      EXPECT_NEAR(crate_drift, 0.0, 0.01);
      EXPECT_NEAR(bay_log_x, sc.world.loads[bay_log].position_m.x(), 0.01);
    }
  }
}

// ---- turbidity ------------------------------------------------------------------------

TEST(Turbidity, ReachesTheFrameAndChangesNothingElse) {
  const MachineParams m = testing::shipped_machine();
  Faults f;
  f.turbidity = 0.8;
  State clear = initial_state(m, default_pose());
  State murky = clear;
  advance_to(m, clear, volts(1, 2, 0, -1, 0), {}, 1.0);
  advance_to(m, murky, volts(1, 2, 0, -1, 0), with_faults(f), 1.0);
  EXPECT_EQ(clear.x, murky.x);
  EXPECT_EQ(outputs(m, murky, with_faults(f)).turbidity, 0.8);
  EXPECT_EQ(outputs(m, clear, {}).turbidity, 0.0);
}

}  // namespace
}  // namespace clamsim::core
