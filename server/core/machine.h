// The whole machine: crane + hydraulics + cables + clam, as one pure step function.
// No I/O, no threads, no clocks, no heap allocation in step(): threads, pacing and I/O live in
// the session, so the same step runs live, in a replay and in the offline simulator.
#pragma once

#include "params.h"
#include "state.h"

namespace clamsim::core {

// A machine at rest in static equilibrium at the given pose: joint rates zero, line
// pressures holding the loads, cables stretched just enough to carry the clam.
State initial_state(const MachineParams& model, const InitialConditions& init);

// The anti-two-block cut-out (ASME B30.5): while the switch is tripped
// (state.world.two_blocked) the motions that bring the block and the tip sheave together are
// stopped: hoisting up on either winch (positive volts reel in), telescoping out (positive)
// and booming down (negative); their opposites pass. The instructor's override
// (Faults::anti_two_block_bypass) lets everything through. step() applies it.
Control anti_two_block_cutout(const State& state, const Control& control, const Faults& faults);

// Advance by one integrator step of model.integrator.step_s (ETDRK4: RK4 for the motion,
// the line pressures' stiff decay exact; core/integrator.h), then apply the
// clam's discrete events (stops, grip, release; Tables 2.3 and 2.5).
void step(const MachineParams& model, State& state, const Control& control,
          const Environment& env);

// Advance by whole integrator steps until state.time_s reaches t_end_s.
void advance_to(const MachineParams& model, State& state, const Control& control,
                const Environment& env, double t_end_s);

// The eight DisplayData values and the extended fields for the current state.
Outputs outputs(const MachineParams& model, const State& state, const Environment& env);

// Total energy [J]: kinetic + gravitational + rope strain + oil compression.
// Conserved when damping, friction and valve flow are off (a test invariant).
double total_energy(const MachineParams& model, const State& state);

}  // namespace clamsim::core
