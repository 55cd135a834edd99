// One 50 ms frame of the full model, measured alone: warm up, save the state, reset it
// every batch, report frames per second and the real-time factor.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "core/crane.h"
#include "core/machine.h"
#include "model/machine_file.h"
#include "model/scenario_file.h"

namespace {

using namespace clamsim;

core::MachineParams machine() {
  return model::load_machine_file(std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json");
}

core::InitialConditions pose() {
  core::InitialConditions ic;
  ic.boom_rad = 30.0 * M_PI / 180.0;
  ic.telescope_m = 12.0;
  ic.clam_depth_m = 8.0;
  ic.clam_theta2_rad = 40.0 * M_PI / 180.0;
  return ic;
}

// All five valves open, the clam closing: every stage of the model is busy.
void BM_Frame(benchmark::State& bs) {
  const core::MachineParams m = machine();
  core::State warm = core::initial_state(m, pose());
  core::Control u;
  u.volts = {2.0, 2.0, 1.0, -2.0, 2.0};
  core::advance_to(m, warm, u, {}, 0.5);
  core::State st = warm;
  int frames = 0;
  for (auto _ : bs) {
    if (++frames == 20) {  // stay in the same regime: reset every simulated second
      bs.PauseTiming();
      st = warm;
      frames = 0;
      bs.ResumeTiming();
    }
    core::advance_to(m, st, u, {}, st.time_s + m.integrator.frame_s);
    benchmark::DoNotOptimize(st.x.data());
  }
  bs.SetItemsProcessed(bs.iterations());
  bs.counters["realtime_factor"] = benchmark::Counter(
      static_cast<double>(bs.iterations()) * m.integrator.frame_s, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Frame)->Unit(benchmark::kMicrosecond);

// The same frame inside the shipped dam scenario: the world's contacts, water and loads on
// top of the machine. `awake` restarts the world every simulated second so that every load
// is moving (falling, bobbing, settling); otherwise the settled loads sleep, as in use.
void frame_in_dam(benchmark::State& bs, bool awake) {
  const core::MachineParams m = machine();
  const model::Scenario sc = model::load_scenario_file(
      std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json", m);
  const core::Environment env{&sc.world};
  core::State warm = core::initial_state(m, sc.start);
  core::reset_world(sc.world, warm.world);
  core::Control u;
  u.volts = {2.0, 2.0, 1.0, -2.0, 2.0};
  if (!awake) core::advance_to(m, warm, core::Control{}, env, 10.0);   // loads settle, sleep
  core::State st = warm;
  int frames = 0;
  for (auto _ : bs) {
    if (++frames == 20) {
      bs.PauseTiming();
      st = warm;
      frames = 0;
      bs.ResumeTiming();
    }
    core::advance_to(m, st, u, env, st.time_s + m.integrator.frame_s);
    benchmark::DoNotOptimize(st.x.data());
  }
  bs.SetItemsProcessed(bs.iterations());
  bs.counters["realtime_factor"] = benchmark::Counter(
      static_cast<double>(bs.iterations()) * m.integrator.frame_s, benchmark::Counter::kIsRate);
}
void BM_FrameDamWorldSettled(benchmark::State& bs) { frame_in_dam(bs, false); }
void BM_FrameDamWorldAllLoadsMoving(benchmark::State& bs) { frame_in_dam(bs, true); }
BENCHMARK(BM_FrameDamWorldSettled)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FrameDamWorldAllLoadsMoving)->Unit(benchmark::kMicrosecond);

// The same world with every load lifted 30 m above where it starts, at rest: they fall
// freely for the benchmark's simulated second and touch nothing, so this is the world's
// cost without contacts (awake loads, water and clam checks, no contact forces).
void BM_FrameDamWorldLoadsInTheAir(benchmark::State& bs) {
  const core::MachineParams m = machine();
  const model::Scenario sc = model::load_scenario_file(
      std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json", m);
  const core::Environment env{&sc.world};
  core::State warm = core::initial_state(m, sc.start);
  core::reset_world(sc.world, warm.world);
  for (int i = 0; i < warm.world.load_count; ++i)
    warm.world.loads[static_cast<std::size_t>(i)].position_m.z() += 30.0;
  core::Control u;
  u.volts = {2.0, 2.0, 1.0, -2.0, 2.0};
  core::State st = warm;
  int frames = 0;
  int touching = 0;
  for (auto _ : bs) {
    if (++frames == 20) {
      bs.PauseTiming();
      for (int i = 0; i < st.world.load_count; ++i)
        touching += st.world.loads[static_cast<std::size_t>(i)].in_contact ? 1 : 0;
      st = warm;
      frames = 0;
      bs.ResumeTiming();
    }
    core::advance_to(m, st, u, env, st.time_s + m.integrator.frame_s);
    benchmark::DoNotOptimize(st.x.data());
  }
  if (touching > 0) bs.SkipWithError("a load touched something: not a frame without contacts");
  bs.SetItemsProcessed(bs.iterations());
  bs.counters["realtime_factor"] = benchmark::Counter(
      static_cast<double>(bs.iterations()) * m.integrator.frame_s, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FrameDamWorldLoadsInTheAir)->Unit(benchmark::kMicrosecond);

// The crane terms alone (eq 2.12: mass matrix, velocity and gravity terms), as the
// derivative evaluates them: inertia once per model, trigonometry once per evaluation.
void BM_CraneTerms(benchmark::State& bs) {
  const core::MachineParams m = machine();
  const core::CraneInertia inertia = core::crane_inertia(m.crane);
  core::Vec3 q(0.3, 30.0 * M_PI / 180.0, 12.0);
  const core::Vec3 qd(0.1, -0.05, 0.2);
  for (auto _ : bs) {
    q.x() += 1e-6;  // a new pose each time: nothing cached between evaluations
    const core::JointTrig trig = core::joint_trig(q);
    core::CraneDynamics d = core::crane_dynamics(m.crane, inertia, q, trig, qd, 800.0);
    benchmark::DoNotOptimize(d);
  }
  bs.SetItemsProcessed(bs.iterations());
}
BENCHMARK(BM_CraneTerms)->Unit(benchmark::kNanosecond);

// One derivative-heavy integrator step, for profiling the per-step cost.
void BM_Step(benchmark::State& bs) {
  const core::MachineParams m = machine();
  core::State st = core::initial_state(m, pose());
  core::Control u;
  u.volts = {2.0, 2.0, 1.0, -2.0, 2.0};
  const core::State start = st;
  for (auto _ : bs) {
    core::step(m, st, u, {});
    if (st.steps > 1000) st = start;
    benchmark::DoNotOptimize(st.x.data());
  }
  bs.SetItemsProcessed(bs.iterations());
}
BENCHMARK(BM_Step)->Unit(benchmark::kNanosecond);

}  // namespace

BENCHMARK_MAIN();
