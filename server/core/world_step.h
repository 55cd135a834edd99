// One integrator step of the world around the machine: what the dam, the water and
// the loads do to the clam, what lies between its jaws, and how the loose loads move.
// machine.cc calls these around its RK4 step; the split keeps the clam's equations free of
// contact code and lets stiff load contacts use their own (semi-implicit) integrator.
#pragma once

#include <array>

#include "clam_pose.h"
#include "derivative.h"
#include "params.h"
#include "state.h"
#include "world.h"

namespace clamsim::core {

// The world's pushes on the clam, held constant over one step.
struct ClamWorldForces {
  Vec3d force_N = Vec3d::Zero();   // contacts, water drag, buoyancy (clam and held load)
  double head_up_N = 0.0;          // of its vertical part, what the head's contacts push at A
  double held_up_N = 0.0;          // ... and what holds up the load in the jaws (the solids it
                                   // rests on, the water, loose loads under it)
  double contact_N = 0.0;          // magnitude of the contact part alone
  double submerged = 0.0;          // fraction of the clam below the water
  WorldPush push() const { return {force_N, head_up_N}; }
};

// Reactions of the clam on loose loads, handed from clam_world_forces to advance_loads.
struct LoadPushes {
  std::array<Vec3d, kMaxLoads> force{};
  std::array<Vec3d, kMaxLoads> torque{};
};

// Contacts of the clam (and the load it holds) with the dam and the loose loads, the water's
// buoyancy and drag on them (on their velocity through the water, which moves at `current`
// [m/s]); counts new hits and records contact markers. The head's contacts are sized by the
// mass a push at A meets (core/derivative.h, head_mass_kg), the buckets' by the clam's.
ClamWorldForces clam_world_forces(const MachineParams& m, const WorldParams& w, WorldState& s,
                                  const ClamPose& pose, double h, const Vec3d& current,
                                  const HeadMass& head_mass, LoadPushes& pushes);

// The loose load both shells touch, if any, with how they touch it (core/clam_grip.h): of
// several, the one they can lift best. Table 2.5's "contact with an object" (machine.cc).
JawObject find_jaw_object(const MachineParams& m, const WorldParams& w, const WorldState& s,
                          const ClamPose& pose, int* load_index);

// The jaws took load `index` (it now rides with the clam), or let go of the held load.
void grip_load(WorldState& s, int index, const ClamPose& pose);
void release_load(WorldState& s, const ClamPose& pose);

// Moves the loose loads one step (gravity, buoyancy, drag, contacts with the dam, each other
// and the clam's pushes), carries the held one with the clam, and puts quiet loads to sleep.
// The water moves at `current` [m/s]: drag acts on velocity relative to it, and a load may
// sleep in a current only while it touches something.
void advance_loads(const WorldParams& w, WorldState& s, const ClamPose& pose,
                   const LoadPushes& pushes, double h, double gravity, const Vec3d& current);

// How many load sub-steps a machine step of h needs. The loads' contacts are stiff springs
// integrated by semi-implicit Euler: a log's rocking on two contacts runs at about sqrt(3)
// times the contact's natural frequency w, with damping and friction stiffer still, so the
// sub-step keeps h w <= 0.2 (1 ms at the dam's 150 rad/s: one sub-step, as before).
int load_substeps(const ContactParams& contact, double h);

// Fraction of load `index`'s volume below the water surface (0..1).
double load_submerged_fraction(const WorldParams& w, int index, const LoadBody& b);

}  // namespace clamsim::core
