// Valve metering as an operator feels it: every function moves visibly from a
// fifth of the stick, loaded and unloaded; speed rises with the stick all the way to full;
// the open-centre valve keeps its load dependence; and none of it hangs on the step size or
// the oil's stiffness. The valve's bypass characteristic is in docs/model.md (Hydraulics).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "core/machine.h"
#include "test_model.h"

namespace clamsim::core {
namespace {

using testing::default_pose;
using testing::volts;

struct Function {
  const char* name;
  int display;                    // DisplayData index that shows it (Table 4.1)
  std::array<double, 5> pattern;  // volts per unit stick on each channel
  double visible;                 // displacement a trainee sees in `seconds` (deg or m)
  double seconds = 4.0;           // how long the stick is held
};

// Hoisting drives both winches together, as the operator does; the jaws are one winch
// against the other. Visible: about half a metre at the boom tip, a clear change of rope.
// The winches are held for 1.5 s: at full stick their 120 m/min would take the grab from the
// default pose to the anti-two-block switch in 4 s, and a stopped function rises no more.
const std::array<Function, 10> kFunctions = {{
    {"swing left", 0, {1, 0, 0, 0, 0}, 5.0},
    {"swing right", 0, {-1, 0, 0, 0, 0}, 5.0},
    {"boom up", 1, {0, 1, 0, 0, 0}, 1.0},
    {"boom down", 1, {0, -1, 0, 0, 0}, 1.0},
    // out: 0.29 m in 4 s at a fifth of the stick, measured (the three-section boom's cable
    // doubles the cylinder's speed at the tip)
    {"telescope out", 2, {0, 0, 1, 0, 0}, 0.2},
    // in: the load-holding valve must first be piloted open (docs/model.md, "Load-holding
    // valves"), which the open-centre valve does slowly at a fifth of the stick: 0.21 m in
    // 4 s measured (0.089 m with the single fly section's cylinder)
    {"telescope in", 2, {0, 0, -1, 0, 0}, 0.15},
    {"hoist up", 5, {0, 0, 0, 1, 1}, 0.2, 1.5},
    {"hoist down", 5, {0, 0, 0, -1, -1}, 0.2, 1.5},
    {"cable 1 in (open)", 5, {0, 0, 0, 1, 0}, 0.2, 1.5},
    {"cable 2 in (close)", 6, {0, 0, 0, 0, 1}, 0.2, 1.5},
}};
constexpr double kLoadKg = 800.0;

// The machine at the default pose, or holding a log lifted clear (gripped in a small world,
// test_model.h, whose shelf then goes), then at rest. The world outlives the runs.
struct Rig {
  core::WorldParams world;
  State st;
  // empty space when unloaded, as before a log was wanted
  Environment env() const { return Environment{world.loads.empty() ? nullptr : &world}; }
};

void ready(const MachineParams& m, bool loaded, Rig& rig) {
  rig.st = initial_state(m, default_pose());
  if (!loaded) return;
  InitialConditions open = default_pose();
  open.clam_theta2_rad = m.clam.theta2_open_rad;
  rig.st = initial_state(m, open);
  rig.world = testing::log_between_jaws(m, rig.st, kLoadKg, 0.75);   // beside the open lips
  reset_world(rig.world, rig.st.world);
  advance_to(m, rig.st, volts(0, 0, 0, -1.2, 2.5), rig.env(), 3.0);  // close on the log
  rig.world.solids.clear();
  // lift it on cable 2 (the weight squeezes it; cable 1 hangs slack, as an operator carries)
  advance_to(m, rig.st, volts(0, 0, 0, 0, 2.5), rig.env(), 5.0);
  advance_to(m, rig.st, volts(0, 0, 0, 0, 0), rig.env(), 6.0);
  EXPECT_EQ(rig.st.clam.load_mass_kg, kLoadKg) << "the log is in the jaws";
}

// How far the function's display value moves at `stick` (0..1) in its own time, or in
// `seconds` where given.
double moved(const MachineParams& m, const Function& f, double stick, bool loaded,
             double seconds = 0.0) {
  Rig rig;
  ready(m, loaded, rig);
  State& st = rig.st;
  const Environment env = rig.env();
  const double before = outputs(m, st, env).display[f.display];
  Control u;
  for (int i = 0; i < 5; ++i) u.volts[i] = 5.0 * stick * f.pattern[i];
  advance_to(m, st, u, env, st.time_s + (seconds > 0.0 ? seconds : f.seconds));
  double d = outputs(m, st, env).display[f.display] - before;
  if (f.display == 0) d = std::remainder(d, 360.0);  // swing is shown in [0, 360)
  return std::fabs(d);
}

std::string label(const Function& f, bool loaded) {
  return std::string(f.name) + (loaded ? ", holding 800 kg" : ", empty");
}

TEST(Metering, EveryFunctionMovesVisiblyFromAFifthOfTheStickAndRisesToFull) {
  const MachineParams m = testing::shipped_machine();
  const std::array<double, 5> sticks = {0.2, 0.3, 0.5, 0.75, 1.0};
  for (bool loaded : {false, true})
    for (const auto& f : kFunctions) {
      std::array<double, 5> d{};
      for (std::size_t i = 0; i < sticks.size(); ++i) d[i] = moved(m, f, sticks[i], loaded);
      EXPECT_GT(d[0], f.visible) << label(f, loaded) << " at 20 % of stick";
      EXPECT_GT(d[0], 0.1 * d.back()) << label(f, loaded) << ": 20 % is a tenth of full or more";
      EXPECT_LT(d[0], 0.5 * d.back()) << label(f, loaded) << ": 20 % still meters, not full";
      for (std::size_t i = 1; i < d.size(); ++i)
        EXPECT_GT(d[i], d[i - 1]) << label(f, loaded) << " from " << sticks[i - 1] << " to "
                                  << sticks[i] << " of stick";
    }
}

TEST(Metering, TheThesissLinearBypassLeftTheBoomStillBelowHalfStick) {
  // Why the valve has a knee: eq 2.23's linear bypass (knee on 1 - x) cannot raise the pump to the
  // boom's holding pressure until the lever is past half way (measured on the thesis's valve).
  const MachineParams linear = testing::thesis_valve_machine();
  EXPECT_LT(moved(linear, kFunctions[2], 0.3, false), 0.01) << "boom up at 30 %, linear bypass";
  EXPECT_GT(moved(testing::shipped_machine(), kFunctions[2], 0.3, false), 1.0);
}

TEST(Metering, AHeavierLoadLiftsSlowerAtPartStickButNotAtFull) {
  // Open centre: at part stick the bypass returns more oil the higher the load pressure; at
  // full stick the bypass is shut and the whole pump flow goes to the boom either way.
  const MachineParams m = testing::shipped_machine();
  const Function& up = kFunctions[2];
  for (double stick : {0.2, 0.3, 0.5})
    EXPECT_LT(moved(m, up, stick, true), moved(m, up, stick, false)) << stick;
  EXPECT_NEAR(moved(m, up, 1.0, true), moved(m, up, 1.0, false), 0.01 * moved(m, up, 1.0, false));
}

TEST(Metering, PartStickSpeedDoesNotHangOnStepSizeOrOilStiffness) {
  const MachineParams base = testing::shipped_machine();
  MachineParams fine = base;
  fine.integrator.step_s = 0.5 * base.integrator.step_s;
  MachineParams stiff = base;
  for (auto& ch : stiff.hydraulics.channels) ch.lines.bulk_modulus_Pa *= 2.0;
  for (const Function* f : {&kFunctions[2], &kFunctions[0], &kFunctions[9]}) {
    const double d = moved(base, *f, 0.2, false);
    EXPECT_NEAR(moved(fine, *f, 0.2, false), d, 0.01 * d) << f->name << ", half the step";
    // The slewing drive brings the superstructure up to speed over the first 4 s, an approach
    // its oil spring shapes (physics: twice the oil's stiffness moves it 6 % further in those
    // 4 s; docs/model.md, Slewing drive), so the swing's speed is compared over 12 s.
    const double t = f == &kFunctions[0] ? 12.0 : f->seconds;
    const double d_t = t == f->seconds ? d : moved(base, *f, 0.2, false, t);
    EXPECT_NEAR(moved(stiff, *f, 0.2, false, t), d_t, 0.05 * d_t)
        << f->name << ", twice the stiffness, " << t << " s";
  }
}

}  // namespace
}  // namespace clamsim::core
