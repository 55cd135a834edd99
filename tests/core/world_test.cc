// The working world as physics: the clam's pendulum swing and the anti-swing chain, loads
// resting on solids, floating and sinking, contacts felt in the ropes, and the grasp/release
// transitions of Table 2.5 driven by contact with a real load.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/clam.h"
#include "core/clam_pose.h"
#include "core/crane.h"
#include "core/derivative.h"
#include "core/loads.h"
#include "core/machine.h"
#include "core/world_step.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

using testing::default_pose;
using testing::deg;
using testing::volts;

constexpr double kPi = 3.14159265358979323846;

SolidBox box(SolidKind kind, Eigen::Vector3d centre, Eigen::Vector3d size) {
  SolidBox b;
  b.kind = kind;
  b.name = to_string(kind);
  b.center_m = centre;
  b.half_size_m = 0.5 * size;
  return b;
}

// A flat deck (top at z = 0) everywhere, the water far below unless asked otherwise.
WorldParams flat_world(double water_level_m = -50.0) {
  WorldParams w;
  w.solids.push_back(box(SolidKind::Deck, {0, 0, -5}, {200, 200, 10}));
  w.water.level_m = water_level_m;
  return w;
}

LoadParams log_load(double x, double y, double z, double mass = 471.0) {
  LoadParams l;
  l.name = "log";
  l.shape = LoadShape::Cylinder;
  l.radius_m = 0.25;
  l.length_m = 4.0;
  l.mass_kg = mass;
  l.position_m = {x, y, z};
  l.yaw_rad = kPi / 2;   // axis across the boom (along y at swing 0)
  return l;
}

// Only the loads move: the machine is parked with its clam high above everything.
struct LoadsOnly {
  MachineParams m = testing::shipped_machine();
  WorldParams w;
  State st;
  explicit LoadsOnly(WorldParams world) : w(std::move(world)) {
    InitialConditions ic = default_pose();
    ic.clam_depth_m = 2.0;   // clam hangs well above the deck
    st = initial_state(m, ic);
    reset_world(w, st.world);
  }
  Environment env() const { return Environment{&w}; }
  void run_to(double t) { advance_to(m, st, volts(0, 0, 0, 0, 0), env(), t); }
  const LoadBody& load(int i = 0) const { return st.world.loads[static_cast<std::size_t>(i)]; }
};

// --- swing -------------------------------------------------------------------------------

// The swing's period against the double pendulum's closed form, the chain's decay and the
// step independence are in swing_test.cc.

TEST(Swing, SlewingTheCraneSwingsTheClamAndTheRopesFollowIt) {
  const MachineParams m = testing::shipped_machine();
  State st = initial_state(m, default_pose());
  double most = 0.0;
  for (int f = 1; f <= 80; ++f) {   // 4 s of full swing command, then stop
    const double v = f <= 40 ? 5.0 : 0.0;
    advance_to(m, st, volts(v, 0, 0, 0, 0), {}, 0.05 * f);
    const Outputs o = outputs(m, st, {});
    most = std::max(most, std::hypot(o.clam_swing_deg[0], o.clam_swing_deg[1]));
    // The drawn clam's axis is its body's, turned about A by its tilts (not the rope's), and
    // C hangs on it.
    const Eigen::Quaterniond r(o.clam_orientation[0], o.clam_orientation[1],
                               o.clam_orientation[2], o.clam_orientation[3]);
    const Eigen::Vector3d axis = r * Eigen::Vector3d::UnitZ();
    ASSERT_NEAR(axis.dot(-clam_axis(st.x).down), 1.0, 1e-9);
    const Eigen::Vector3d a_to_c(o.point_c[0] - o.point_a[0], o.point_c[1] - o.point_a[1],
                                 o.point_c[2] - o.point_a[2]);
    ASSERT_NEAR(a_to_c.normalized().dot(-axis), 1.0, 1e-9);
  }
  EXPECT_GT(most, 0.2) << "the crane's acceleration must excite the swing (deg)";
  EXPECT_LT(most, 10.0) << "the anti-swing chain keeps it small (deg)";
}

// --- loads on solids and in water --------------------------------------------------------

TEST(Loads, DroppedLoadsComeToRestOnTheDeckWithoutSinkingThrough) {
  WorldParams w = flat_world();
  w.loads.push_back(log_load(12, -3, 2.0));
  LoadParams crate;
  crate.name = "crate";
  crate.shape = LoadShape::Box;
  crate.mass_kg = 200;
  crate.box_size_m = {1.0, 0.8, 0.6};
  crate.position_m = {12, 3, 3.0};
  crate.yaw_rad = 0.3;
  w.loads.push_back(crate);
  LoadParams stump;
  stump.name = "stump";
  stump.shape = LoadShape::Sphere;
  stump.mass_kg = 350;
  stump.radius_m = 0.4;
  stump.position_m = {15, 0, 1.5};
  w.loads.push_back(stump);
  LoadsOnly sim(w);
  const double rest_height[3] = {0.25, 0.3, 0.4};
  double lowest[3] = {1e9, 1e9, 1e9};
  for (int f = 1; f <= 200; ++f) {   // 10 s
    sim.run_to(0.05 * f);
    for (int i = 0; i < 3; ++i) lowest[i] = std::min(lowest[i], sim.load(i).position_m.z() - rest_height[i]);
  }
  for (int i = 0; i < 3; ++i) {
    const LoadBody& b = sim.load(i);
    EXPECT_TRUE(b.asleep) << w.loads[static_cast<std::size_t>(i)].name << " still moving";
    EXPECT_NEAR(b.position_m.z(), rest_height[i], 0.005) << w.loads[static_cast<std::size_t>(i)].name;
    // Impact at 6-7 m/s: the penalty contact lets it in by centimetres, never through.
    EXPECT_GT(lowest[i], -0.08) << w.loads[static_cast<std::size_t>(i)].name;
  }
  EXPECT_GE(sim.st.world.events.load_impacts, 3u);
  // The log lies flat (axis horizontal) and the crate on a face.
  const Eigen::Vector3d axis = sim.load(0).orientation * Eigen::Vector3d::UnitX();
  EXPECT_NEAR(axis.z(), 0.0, 0.01);
  const Eigen::Vector3d up = sim.load(1).orientation * Eigen::Vector3d::UnitZ();
  EXPECT_NEAR(std::fabs(up.z()), 1.0, 0.01);
}

// A log rolling on the deck stops as rolling resistance says: torque c_rr m g r against the
// spin, so a solid cylinder rolling without slipping decelerates at c_rr g / 1.5 (from
// m a = -f, I a / r = f r - c_rr m g r, I = m r^2 / 2) and rolls v0^2 / (2 a) before it stops.
// Without it a penalty contact lets a log roll on for ever.
TEST(Loads, ARollingLogStopsWhereRollingResistanceSays) {
  WorldParams w = flat_world();
  w.loads.push_back(log_load(12, -3, 0.25));   // axis along y, resting on the deck
  LoadsOnly sim(w);
  sim.run_to(2.0);   // settled at its sag
  LoadBody& b = sim.st.world.loads[0];
  const double r = w.loads[0].radius_m, v0 = 1.0;
  b.asleep = false;
  b.quiet_s = 0.0;
  b.velocity_m_per_s = {v0, 0.0, 0.0};
  b.angular_velocity_rad_per_s = {0.0, v0 / r, 0.0};   // rolling along +x without slipping
  const double x0 = b.position_m.x();
  for (int f = 1; f <= 200 && !sim.load().asleep; ++f) sim.run_to(2.0 + 0.05 * f);
  ASSERT_TRUE(sim.load().asleep) << "still rolling after 10 s";
  const double a = w.contact.rolling_resistance * 9.81 / 1.5;
  const double expected = v0 * v0 / (2.0 * a);
  const double rolled = sim.load().position_m.x() - x0;
  EXPECT_NEAR(rolled, expected, 0.15 * expected) << "rolled " << rolled << " m";
  EXPECT_NEAR(sim.load().position_m.y(), -3.0, 0.05) << "rolled straight";
  RecordProperty("rolled_m", std::to_string(rolled));
}

// Fraction of a circle of radius r below a line at height d above its centre (independent
// of the code under test: integrates the chord length numerically).
double segment_fraction(double r, double d) {
  const int n = 20000;
  double area = 0.0;
  for (int i = 0; i < n; ++i) {
    const double y = -r + (i + 0.5) * (2.0 * r / n);
    if (y < d) area += 2.0 * std::sqrt(r * r - y * y) * (2.0 * r / n);
  }
  return area / (kPi * r * r);
}

TEST(Loads, ALogFloatsAtTheDraftWhereItDisplacesItsOwnWeight) {
  WorldParams w = flat_world();
  w.solids.clear();
  w.solids.push_back(box(SolidKind::Bed, {0, 0, -30}, {200, 200, 10}));
  w.water.level_m = 0.0;
  const double r = 0.25, length = 4.0, density = 600.0;
  w.loads.push_back(log_load(12, 0, 1.0, density * kPi * r * r * length));   // dropped from 1 m
  LoadParams stump;
  stump.name = "waterlogged stump";
  stump.shape = LoadShape::Sphere;
  stump.radius_m = 0.4;
  stump.mass_kg = 1300.0 * load_volume_m3(stump);   // denser than water
  stump.position_m = {16, 0, 0.0};
  w.loads.push_back(stump);
  LoadsOnly sim(w);
  sim.run_to(40.0);
  const LoadBody& log = sim.load(0);
  EXPECT_TRUE(log.asleep);
  // Expected waterline: the circle's submerged fraction equals the wood's density ratio.
  double lo = -r, hi = r;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (segment_fraction(r, mid) < density / 1000.0 ? lo : hi) = mid;
  }
  const double centre_z = -0.5 * (lo + hi);   // waterline is `mid` above the centre
  EXPECT_NEAR(log.position_m.z(), centre_z, 0.005) << "centre at " << centre_z << " m";
  const Outputs o = outputs(sim.m, sim.st, sim.env());
  EXPECT_NEAR(o.loads[0].submerged, 0.6, 0.01);
  // The stump sinks to the bed, slowed by the water (terminal speed well below free fall).
  EXPECT_NEAR(sim.load(1).position_m.z(), -25.0 + 0.4, 0.01);
  EXPECT_NEAR(o.loads[1].submerged, 1.0, 1e-9);
}

TEST(Loads, SinkingSpeedIsLimitedByWaterDrag) {
  WorldParams w = flat_world();
  w.solids.clear();
  w.water.level_m = 0.0;
  LoadParams stump;
  stump.name = "stump";
  stump.shape = LoadShape::Sphere;
  stump.radius_m = 0.4;
  stump.mass_kg = 1300.0 * load_volume_m3(stump);
  stump.position_m = {0, 0, -2.0};
  w.loads.push_back(stump);
  LoadsOnly sim(w);
  sim.run_to(15.0);
  // Terminal speed: (m - rho V) g = 1/2 rho Cd A v^2 + rho V v / tau (drag + wave damping).
  const double volume = load_volume_m3(stump);
  const double a = 0.5 * 1000.0 * w.water.drag_coefficient * kPi * 0.4 * 0.4;
  const double b = 1000.0 * volume / w.water.heave_damping_s;
  const double c = (stump.mass_kg - 1000.0 * volume) * 9.81;
  const double v = (-b + std::sqrt(b * b + 4.0 * a * c)) / (2.0 * a);
  EXPECT_NEAR(-sim.load().velocity_m_per_s.z(), v, 0.01 * v);
}

TEST(Loads, ALoadThatFallsOutOfTheWorldIsPutBackWhereItStarted) {
  WorldParams w;               // no solids, no water under it
  w.water.level_m = -1000.0;
  w.loads.push_back(log_load(30, 0, 0.0));
  LoadsOnly sim(w);
  sim.run_to(7.0);             // 200 m of free fall take 6.4 s
  EXPECT_EQ(sim.st.world.events.loads_restored, 1u);
  EXPECT_GT(sim.load().position_m.z(), -20.0);
  EXPECT_TRUE(sim.load().position_m.allFinite());
}

// --- the clam in the world ---------------------------------------------------------------

// The crane parked so that the tip is over (x, 0); the clam hangs at `depth` below it.
InitialConditions pose_over(const MachineParams& m, double x, double clam_bottom_z,
                            double theta2_deg) {
  InitialConditions ic;
  ic.boom_rad = deg(20);
  ic.telescope_m = (x + m.crane.a1_m) / std::cos(ic.boom_rad);
  const double tip_z = m.crane.d1_m + ic.telescope_m * std::sin(ic.boom_rad);
  const double s = clam_distance_at(m.clam, deg(theta2_deg));
  const double below_c = m.clam.lip_length_m * std::cos(m.clam.theta2_closed_rad - deg(theta2_deg));
  ic.clam_depth_m = tip_z - (clam_bottom_z + s + below_c);
  ic.clam_theta2_rad = deg(theta2_deg);
  return ic;
}

TEST(ClamInWorld, SettingTheClamDownOnAStructureIsFeltAsATensionDrop) {
  const MachineParams m = testing::shipped_machine();
  WorldParams w;
  w.solids.push_back(box(SolidKind::Gate, {12, 0, -5}, {3, 5, 10}));   // top at z = 0
  w.water.level_m = -50.0;
  State st = initial_state(m, pose_over(m, 12.0, 1.0, 40));   // lips 1 m above the gate
  reset_world(w, st.world);
  const Environment env{&w};
  const Outputs before = outputs(m, st, env);
  const double hanging = before.tensions_N[0] + before.tensions_N[1];
  double least = hanging;
  for (int f = 1; f <= 160; ++f) {   // pay out both ropes for 4 s, then hold
    const double v = f <= 80 ? -5.0 : 0.0;
    advance_to(m, st, volts(0, 0, 0, v, v), env, 0.05 * f);
    const Outputs o = outputs(m, st, env);
    least = std::min(least, o.tensions_N[0] + o.tensions_N[1]);
    EXPECT_GE(o.tensions_N[0], 0.0);
    EXPECT_GE(o.tensions_N[1], 0.0);
  }
  const Outputs after = outputs(m, st, env);
  EXPECT_EQ(after.events.rack_gate_hits, 1u) << "one landing, one collision";
  EXPECT_LT(least, 0.2 * hanging) << "the operator feels the landing in the ropes";
  EXPECT_GT(after.clam_contact_force_N, 0.5 * clam_mass(m.clam, 0.0) * 9.81);
  // Resting on the gate's top face, not sunk into it.
  double lowest = after.point_c[2];
  EXPECT_GT(lowest, -0.05);
  EXPECT_GT(after.contact_count, 0);
  EXPECT_EQ(after.contacts[0].solid, SolidKind::Gate);
}

TEST(ClamInWorld, ClosingOnALogGripsItAndOpeningReleasesIt_Table25) {
  const MachineParams m = testing::shipped_machine();
  WorldParams w = flat_world();
  LoadParams log = log_load(12.0, 0.0, 0.2, 300.0);
  log.radius_m = 0.2;
  w.loads.push_back(log);
  // The open clam hangs over the log, lips 30 cm above the deck.
  State st = initial_state(m, pose_over(m, 12.0, 0.3, 20));
  reset_world(w, st.world);
  const Environment env{&w};
  // Lower it onto the deck around the log (both ropes out), then close on cable 2. The
  // transition is checked at the very step it happens.
  bool gripped = false;
  for (int i = 0; i < 6000 && !gripped; ++i) {
    const WorkingState was = st.clam.working;
    const double out = i < 1000 ? -4.0 : 0.0;
    step(m, st, volts(0, 0, 0, out, i < 1000 ? out : 3.0), env);
    gripped = st.clam.load == LoadStatus::WithLoad;
    if (gripped) {   // Table 2.5: contact while closing from Free -> Distributed, With-load
      EXPECT_EQ(was, WorkingState::Free);
      EXPECT_EQ(st.clam.working, WorkingState::Distributed);
    }
  }
  ASSERT_TRUE(gripped) << "contact with the log while closing";
  EXPECT_EQ(st.world.events.grips, 1u);
  // Settle on the deck with the closing rope taking up its slack, on a light stick (the
  // winch reels at 2 m/s at full stick), until it carries half the grab.
  for (int f = 0; f < 400 && st.time_s < 60.0; ++f) {
    advance_to(m, st, volts(0, 0, 0, 0, 1.0), env, st.time_s + 0.05);
    if (outputs(m, st, env).tensions_N[1] > 0.5 * clam_mass(m.clam, 0.0) * 9.81) break;
  }
  const std::uint64_t grips = st.world.events.grips, releases = st.world.events.releases;
  Outputs o = outputs(m, st, env);
  EXPECT_EQ(o.held_load, 0);
  EXPECT_TRUE(o.loads[0].held);
  EXPECT_DOUBLE_EQ(o.display[7], 300.0);             // DisplayData[7]: the held load's mass
  EXPECT_GT(o.jaw_gap_m, 0.2);                        // stopped on the log, not shut
  // Lift it on the closing rope (the weight keeps the jaws shut); it rides with the clam.
  const double t0 = st.time_s;
  // The lever eased on to 4.5 V over a third of a second, as an operator moves it (a step
  // would snatch the clam off the deck at the winch's 2 m/s and bounce it on its rope).
  for (int f = 1; f <= 20; ++f)   // 1 s, and the half second easing off: about 2 m
    advance_to(m, st, volts(0, 0, 0, 0, std::min(4.5, 1.0 + 0.5 * f)), env, t0 + 0.05 * f);
  // and eased off over half a second: let go at once, the drum stops and the grab, rising at
  // 2 m/s, runs on up on a slack rope and the log falls out of the unsqueezed jaws
  const double t_lifted = st.time_s;
  for (int f = 1; f <= 10; ++f)
    advance_to(m, st, volts(0, 0, 0, 0, 4.5 * (1.0 - 0.1 * f)), env, t_lifted + 0.05 * f);
  o = outputs(m, st, env);
  EXPECT_EQ(o.load, LoadStatus::WithLoad);
  EXPECT_GT(o.loads[0].position_m[2], 1.0);
  EXPECT_NEAR(o.loads[0].position_m[0], o.point_c[0], 0.5);
  // Open: take up cable 1, which hung slack while cable 2 lifted, then hold it and pay out
  // cable 2; the squeeze falls below the threshold and the log drops. The slack is taken up
  // on a light stick: at 3 V the 120 m/min drum snatches the rope taut and jerks the log out.
  for (int f = 0; f < 400 && o.tensions_N[0] < 1000.0; ++f) {
    advance_to(m, st, volts(0, 0, 0, 1.5, 0), env, st.time_s + 0.05);
    o = outputs(m, st, env);
  }
  ASSERT_GE(o.tensions_N[0], 1000.0) << "cable 1 taken up";
  ASSERT_EQ(o.load, LoadStatus::WithLoad);
  const double t1 = st.time_s;
  bool released = false;
  for (int f = 1; f <= 100 && !released; ++f) {
    advance_to(m, st, volts(0, 0, 0, 0, -3.0), env, t1 + 0.05 * f);
    released = st.clam.load == LoadStatus::WithoutLoad;
  }
  ASSERT_TRUE(released);
  o = outputs(m, st, env);
  EXPECT_EQ(o.held_load, -1);
  EXPECT_DOUBLE_EQ(o.display[7], 0.0);
  EXPECT_EQ(o.events.grips, grips);
  EXPECT_EQ(o.events.releases, releases + 1);
  // It falls back to the deck and lies there.
  const double t2 = st.time_s;
  for (int f = 1; f <= 100; ++f) advance_to(m, st, volts(0, 0, 0, 0, 0), env, t2 + 0.05 * f);
  EXPECT_NEAR(st.world.loads[0].position_m.z(), 0.2, 0.01);
}

// An open grab paid out onto a log at full stick lands with the log in its throat, touching
// both shells above its middle while the landing pushes the head down: they stop on it but
// cannot lift it, so nothing is gripped, and hoisting on the holding rope leaves it on the
// deck (the score counts no dropped load).
TEST(ClamInWorld, AnOpenGrabLandedOnALogAndHoistedLetsItGoWhereItLay) {
  const MachineParams m = testing::shipped_machine();
  for (const double dx : {-0.3, 0.0, 0.4}) {
    WorldParams w = flat_world();
    w.loads.push_back(log_load(12.0 + dx, 0.0, 0.25));
    State st = initial_state(m, pose_over(m, 12.0, 2.0, 20));   // fully open, lips 2 m up
    reset_world(w, st.world);
    const Environment env{&w};
    double rise = 0.0;
    for (int f = 1; f <= 120; ++f) {   // 1.5 s paying out, 0.5 s still, 4 s hoisting on cable 1
      const double out = f < 30 ? -5.0 : 0.0;
      advance_to(m, st, volts(0, 0, 0, f > 40 ? 5.0 : out, f > 40 ? 0.0 : out), env, 0.05 * f);
      if (st.world.held_load >= 0) rise = std::max(rise, st.world.loads[0].position_m.z() - 0.25);
    }
    // where the open shells touch it above its middle they only push it down and grip
    // nothing; where the sinking head turns them in under it, hoisting on the holding rope
    // pulls them open again before it is carried (docs/model.md, Grip)
    EXPECT_EQ(st.world.events.grips, st.world.events.releases) << dx;
    EXPECT_EQ(st.world.held_load, -1) << dx;
    EXPECT_LT(rise, 0.1) << dx;
    EXPECT_NEAR(st.world.loads[0].position_m.z(), 0.25, 0.01) << "it lies on the deck";
  }
}

// The same landing on a floating log: the log cannot bear the shells' squeeze (it rests on
// no solid, only on the water), so the links do not stop on it. Closing on cable 2 with
// cable 1 held closes the jaws, pushing the log aside or under, where a log on the deck would
// stop them; it does not hoist the whole grab on the closing rope and leave cable 1 slack.
TEST(ClamInWorld, AFloatingLogInTheThroatGivesWayToTheClosingJaws) {
  const MachineParams m = testing::shipped_machine();
  WorldParams w;                 // open water, the surface at z = 0
  w.water.level_m = 0.0;
  w.loads.push_back(log_load(12.0, 0.0, -0.04));
  State st = initial_state(m, pose_over(m, 12.0, 1.0, 20));   // fully open, lips 1 m up
  reset_world(w, st.world);
  const Environment env{&w};
  bool in_throat = false;
  for (int f = 1; f <= 60 && !in_throat; ++f) {   // paying out at half stick until it lands
    advance_to(m, st, volts(0, 0, 0, -2.5, -2.5), env, 0.05 * f);
    in_throat = find_jaw_object(m, w, st.world, clam_pose(m, st.x), nullptr).present;
  }
  ASSERT_TRUE(in_throat) << "the open grab came down on the log";
  for (int f = 1; f <= 40; ++f) advance_to(m, st, volts(0, 0, 0, 0, 0), env, st.time_s + 0.05);
  const Outputs landed = outputs(m, st, env);
  // 2 s closing on cable 2 at half stick, cable 1 held, or until the lips come in under the
  // log and grip it (the closing rope then carries the grab, and cable 1 goes slack by design)
  double least_t1 = landed.tensions_N[0];
  for (int f = 1; f <= 40 && st.clam.load == LoadStatus::WithoutLoad; ++f) {
    advance_to(m, st, volts(0, 0, 0, 0, 2.5), env, landed.time_s + 0.05 * f);
    if (st.clam.load == LoadStatus::WithoutLoad)
      least_t1 = std::min(least_t1, outputs(m, st, env).tensions_N[0]);
    EXPECT_FALSE(st.clam.on_object) << "the links stopped on the floating log at " << st.time_s;
  }
  const Outputs o = outputs(m, st, env);
  EXPECT_LT(o.display[4], landed.display[4] - 30.0) << "the jaws closed";
  EXPECT_LT(o.point_a[2] - landed.point_a[2], 0.2) << "the head stayed on cable 1";
  EXPECT_GT(least_t1, 0.3 * landed.tensions_N[0]) << "cable 1 kept carrying the head";
}

TEST(ClamInWorld, PayingOutOntoTheDeckCountsOneSlackCableEvent) {
  const MachineParams m = testing::shipped_machine();
  WorldParams w = flat_world();
  State st = initial_state(m, pose_over(m, 12.0, 0.5, 40));
  reset_world(w, st.world);
  const Environment env{&w};
  for (int f = 1; f <= 120; ++f) advance_to(m, st, volts(0, 0, 0, -5, -5), env, 0.05 * f);
  const Outputs o = outputs(m, st, env);
  EXPECT_GE(o.events.slack_cables, 1u);
  EXPECT_LE(o.events.slack_cables, 2u);   // one per rope at most
  EXPECT_EQ(o.events.structure_hits, 1u);       // set down on the deck at speed: one hit
  // the loop the browser shows is the one the event measures: past the margin on a flagged
  // rope, short of it on the other
  for (int i = 0; i < 2; ++i) {
    const double margin = m.hydraulics.winches[static_cast<std::size_t>(i)].slack_margin_m;
    const auto r = static_cast<std::size_t>(i);
    if (o.rope_slack[r]) {
      EXPECT_GT(o.slack_m[r], margin) << "rope " << i;
    } else {
      EXPECT_LT(o.slack_m[r], margin) << "rope " << i;
    }
  }
  EXPECT_TRUE(o.rope_slack[0] || o.rope_slack[1]);
}

}  // namespace
}  // namespace clamsim::core

// --- rope overload -------------------------------------------------------------------------

namespace clamsim::core {
namespace {

struct Hoisted {
  double peak_N = 0.0;           // the largest rope pull
  std::uint64_t events = 0;      // overload events at the end
  std::uint64_t events_before = 0;  // ... 0.5 s before the end
  double last_min_N = 1e300;     // the larger rope's least pull over that last 0.5 s
};

// Hoisting at full stick for `seconds` with a beam 0.3 m above the clam's top (a grab caught
// under a rack's cross-beam) or without it.
Hoisted hoist_under_beam(bool beam, double seconds) {
  const MachineParams m = testing::shipped_machine();
  State st = initial_state(m, default_pose());
  WorldParams w;
  w.water.level_m = -1000.0;
  if (beam) {
    const ClamPose pose = clam_pose(m, st.x);
    SolidBox b;
    b.kind = SolidKind::Rack;
    b.name = "cross-beam";
    b.half_size_m = {1.5, 1.5, 0.1};
    b.center_m = pose.a + Eigen::Vector3d(0.0, 0.0, 0.3 + b.half_size_m.z());
    w.solids.push_back(b);
  }
  reset_world(w, st.world);
  const Environment env{&w};
  Hoisted h;
  for (double t = m.integrator.frame_s; t <= seconds + 1e-9; t += m.integrator.frame_s) {
    advance_to(m, st, volts(0, 0, 0, 5, 5), env, t);
    const Outputs o = outputs(m, st, env);
    const double pull = std::max(o.tensions_N[0], o.tensions_N[1]);
    h.peak_N = std::max(h.peak_N, pull);
    if (t <= seconds - 0.5 + 1e-9) {
      h.events_before = o.events.overloads;
    } else {
      h.last_min_N = std::min(h.last_min_N, pull);
    }
    h.events = o.events.overloads;
  }
  return h;
}

// The rope's rated pull (a 16 mm rope's working limit) lies between what the grab weighs and
// what the winch pulls at relief: free hoisting never overloads a rope, a drum stalled against
// a snagged grab does, once (docs/model.md, Ropes). The peak is the winch's pull at relief and
// what it takes to stop the drum: its inertia J at the rope's speed v, caught by the rope's
// spring k = EA / L, adds at most v sqrt(k J) / r (its kinetic energy all in the rope).
TEST(RopeOverload, ASnaggedGrabHoistedAtReliefOverloadsItsRope) {
  const MachineParams m = testing::shipped_machine();
  const WinchParams& wp = m.hydraulics.winches[0];
  const ValveParams& v = m.hydraulics.channels[3].valve;
  const double relief_pull = (v.relief_pressure_Pa - v.tank_pressure_Pa) *
                             wp.motor.displacement_m3_per_rad * wp.motor.gear_ratio / wp.drum_radius_m;
  const double grab_weight = clam_mass(m.clam, m.clam.max_load_kg) * m.crane.gravity_m_per_s2;
  EXPECT_GT(relief_pull, wp.rated_pull_N) << "a stalled drum can overload its rope";
  EXPECT_LT(grab_weight, wp.rated_pull_N / 1.5)
      << "a rated grab even on one rope, with room for a snatch of half its weight";
  const State start = initial_state(m, default_pose());
  const ClamContext c = clam_context(m, start.x);
  const double rope_k = wp.rope_EA_N / (c.path[0] + c.span[0]);   // the shorter, stiffer rope
  const double speed = v.pump_flow_m3_per_s /
                       (wp.motor.displacement_m3_per_rad * wp.motor.gear_ratio) * wp.drum_radius_m;
  const double drum_stop = speed * std::sqrt(rope_k * wp.drum_inertia_kgm2) / wp.drum_radius_m;

  const Hoisted free = hoist_under_beam(false, 3.0);
  EXPECT_LT(free.peak_N, 0.5 * wp.rated_pull_N);
  EXPECT_EQ(free.events, 0u);
  // The grab strikes the beam and rebounds (its ropes go slack) before the drums pull it
  // against the beam, so each strike may count; held there, the pull stays above the rating
  // and the count stands.
  const Hoisted snag = hoist_under_beam(true, 3.0);
  EXPECT_GT(snag.peak_N, wp.rated_pull_N);
  EXPECT_LT(snag.peak_N, relief_pull + drum_stop) << "the winch's pull at relief and its drum's stop";
  EXPECT_GE(snag.events, 1u);
  EXPECT_GT(snag.last_min_N, wp.rated_pull_N) << "held against the beam above the rating";
  EXPECT_EQ(snag.events, snag.events_before) << "one overload while it lasts";
  RecordProperty("snagged_peak_N", std::to_string(snag.peak_N));
  RecordProperty("relief_pull_N", std::to_string(relief_pull));
  RecordProperty("drum_stop_N", std::to_string(drum_stop));
}

}  // namespace
}  // namespace clamsim::core
