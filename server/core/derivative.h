// The model's derivative dx/dt in named stages: kinematics and ropes ->
// hydraulics -> forces -> accelerations, each a function a test can call alone, composed in
// derivative(). machine.cc integrates it (core/integrator.h) and handles the events between
// steps; the stages know nothing of steps, events or the world's contacts (their pushes on
// the clam come in as one force, held over the step).
#pragma once

#include <Eigen/Core>
#include <array>

#include "cable.h"
#include "clam.h"
#include "crane.h"
#include "params.h"
#include "state.h"

namespace clamsim::core {

// The five valve channels, in ControlSignal order.
enum Channel { kSwing = 0, kBoom = 1, kTelescope = 2, kMainHoist = 3, kAuxHoist = 4 };

// Each channel's spool stroke, -1..1 (hydraulics.h spool_position).
using Spools = std::array<double, 5>;

// The strokes the sticks ask for, which a lagging spool follows (spool_track); a stuck
// spool (core/faults.h) stays where it stuck.
Spools spools_for(const MachineParams& m, const Control& u, const Faults& faults);

// Each channel's e^(-h / 2T) for its spool's lag T over half a step h (0 where T = 0): the
// model's, built once per advance.
Spools spool_half_step_decay(const MachineParams& m);

// The spools' strokes over one step at the stages RK4 evaluates: at its start, half-way and
// at its end. With the stick held over the step the lag dx/dt = (asked - x) / T is linear,
// so x(t) = asked + (from - asked) e^(-t/T) exactly, at any h / T: no state for RK4 to carry
// and no lower bound on the lag. A spool without lag (T = 0) is where the stick puts it.
struct SpoolTrack {
  Spools start{}, half{}, end{};
};
SpoolTrack spool_track(const MachineParams& m, const Spools& half_step_decay, const Spools& from,
                       const Spools& asked);

// Which way the locked clam's stop pushes: closing stop or a held load (+1), opening stop (-1).
double stop_sign(const ClamMode& mode);
bool locked(const ClamMode& mode);

// The world's push on the clam (contacts, water), held over a step: the whole force, whose
// horizontal part moves the clam's swing, and how much of its vertical part pushes up on the
// head at A (a beam the clam is hoisted into); the rest acts at C, where the buckets hinge
// (docs/model.md, Decisions). Built from a plain force, all of it acts at C.
struct WorldPush {
  Vec3 force_N = Vec3::Zero();
  double head_up_N = 0.0;
  WorldPush() = default;
  WorldPush(const Vec3& force, double head_up = 0.0) : force_N(force), head_up_N(head_up) {}
  double at_c_up_N() const { return force_N.z() - head_up_N; }
};

// The anti-swing device of Fig. 2.11 (section 2.3) at one state. The roll pays its chain out
// with the ropes, so hoisting, telescoping and slewing with the grab plumb under the tip move
// neither its spring nor its friction; the chain leaves through a swivelling guide under the
// tip sheave, and what the roll feels is the chain's angle there against the plumb line, in
// both directions: the eye's horizontal offset from the plumb under the tip (docs/model.md,
// Coupling and swing). Its pull on the grab at the eye is horizontal, towards the plumb.
struct AntiSwingChain {
  Eigen::Vector2d offset_m = Eigen::Vector2d::Zero();          // eye from the plumb under the tip
  Eigen::Vector2d offset_rate_m_per_s = Eigen::Vector2d::Zero();
  // on the grab at the eye (horizontal); its reaction loads the boom at the tip, where the
  // guide hangs (force_stage)
  Vec3 force_N = Vec3::Zero();
  Eigen::Vector2d on_tilt = Eigen::Vector2d::Zero();    // generalised forces on the tilts [N m]
};

// The device's horizontal pull on the eye from its offset and the offset's rate (0 unfitted):
// the roll's spring, its viscous brake and its Coulomb friction, the last smoothed over
// friction_velocity (a vector friction: it opposes the eye's motion in any direction).
Eigen::Vector2d anti_swing_force(const AntiSwingParams& a, const Eigen::Vector2d& offset_m,
                                 const Eigen::Vector2d& rate_m_per_s);
// The roll's spring energy at this offset (the brake's and the friction's work is lost).
double anti_swing_energy(const AntiSwingParams& a, const Eigen::Vector2d& offset_m);

// The grab's axis pointing down from A, for its tilts (ix::tilt): (sin tilt[0], sin tilt[1],
// -sqrt(1 - both squared)); and its derivatives by each tilt.
struct ClamAxis {
  Vec3 down = Vec3(0.0, 0.0, -1.0);
  Eigen::Vector2d sin = Eigen::Vector2d::Zero(), cos = Eigen::Vector2d::Ones();
  // d(down)/d(tilt i): horizontally cos(tilt i) along its own axis only, vertically
  // sin cos / level. Asked for outside the stages only (clam_pose), so not built with the axis.
  Vec3 by_tilt(int i) const {
    const double level = -down.z();
    return i == 0 ? Vec3(cos(0), 0.0, sin(0) * cos(0) / level)
                  : Vec3(0.0, cos(1), sin(1) * cos(1) / level);
  }
};
ClamAxis clam_axis(const StateVector& x);

// Stages 1-2: kinematics and ropes, everything the clam's equations need.
// Both ropes run from the tip sheave to the head A (the clam swings as a pendulum on them;
// `hang` is the clam's horizontal position h minus the tip's); the closing rope then runs
// closing_parts times between the head and the block at C (clam_pulls).
// Only clam_context builds one, and it sets every member but `chain` (zero unless the device
// is fitted): the members have no initialisers of their own, which a context, built at every
// stage, would pay for twice.
struct ClamContext {
  JointTrig trig;         // the joints' sines and cosines it was built with
  Vec3 tip;
  Vec3 tip_grad;          // d(tip z)/dq
  Eigen::Matrix<double, 2, 3> tip_jac;   // d(tip x, y)/dq
  double tip_z_rate;
  Eigen::Vector2d hang;
  Eigen::Vector2d hang_rate;
  double drop;             // vertical distance from the tip down to A
  double reach;            // straight distance from the tip sheave to A
  // Hanging rope lengths: rope 1 the reach, rope 2 the reach and its parts in the clam,
  // reach + n (yC - yA).
  double span[2];
  // Each rope's reeved path drum -> foot sheave -> tip sheave (core/reeving.h): its length,
  // d/dq and rate. The rope's stretched length is path + span; its unstretched length is
  // the winch state, and the hanging part of it len - path (hanging_length).
  double path[2];
  Vec3 path_grad[2];
  double path_rate[2];
  ClamKinematics kin;
  RopeForce rope[2];
  ClamAxis axis;          // the grab's body, tilted about A
  AntiSwingChain chain;   // zero when not fitted
  // The ropes' pull on the clam as a whole: vertical (up) and horizontal parts, along the
  // reach; and how it divides between the head and the block (clam_pulls).
  double pulling() const { return rope[0].tension_N + rope[1].tension_N; }
  double vertical_pull() const { return pulling() * drop / reach; }
  Eigen::Vector2d horizontal_pull() const { return -pulling() / reach * hang; }
  ClamPulls pulls(const ClamParams& p) const {
    return clam_pulls(p, rope[0].tension_N, rope[1].tension_N, drop / reach);
  }
};

ClamContext clam_context(const MachineParams& m, const StateVector& x, const JointTrig& trig);
ClamContext clam_context(const MachineParams& m, const StateVector& x);

// The unstretched rope below the tip sheave: the winch state less the reeved path.
inline double hanging_length(const ClamContext& c, const StateVector& x, int i) {
  return x(ix::len + i) - c.path[i];
}

// Rope i's slack loop: what hangs beyond its span, none when taut. The one measure of slack
// (a loop past the winch's slack_margin_m is a slack event, core/machine.cc; the browser
// shows this figure, display.flags.slack_m).
inline double slack_loop_m(const ClamContext& c, const StateVector& x, int i) {
  return std::max(0.0, hanging_length(c, x, i) - c.span[static_cast<std::size_t>(i)]);
}

// The anti-swing device (Fig. 2.11) at state x: built by clam_context from the tip and the
// grab's axis it has already worked out (c.tip, tip_jac, tip_grad, axis); zero when not
// fitted.
AntiSwingChain anti_swing_chain(const MachineParams& m, const StateVector& x,
                                const ClamContext& c);

// The clam's link accelerations (eqs 2.1-2.9) under its ropes' vertical pulls and the
// world's push (up at A and at C).
ClamSolution clam_solution(const MachineParams& m, const ClamContext& c, const ClamMode& mode,
                           const WorldPush& world);

// The mass a vertical push on the head at A meets, 1 / (d a_A / d F_A), with the mechanism
// as it is: Free, the links give way under it (far less than the clam's mass); locked, the
// whole clam moves. The world's contacts at A are sized by it (world_step.cc), as a penalty
// contact sized for the whole clam would ring at A from step to step.
double head_mass_kg(const MachineParams& m, const ClamContext& c, const ClamMode& mode);

// head_mass_kg, worked out the first time it is asked for: a step whose head touches
// nothing never asks, and pays nothing for it (two of the clam's solves otherwise).
class HeadMass {
 public:
  HeadMass(const MachineParams& m, const ClamContext& c, const ClamMode& mode)
      : m_(m), c_(c), mode_(mode) {}
  double kg() const {
    if (kg_ < 0.0) kg_ = head_mass_kg(m_, c_, mode_);
    return kg_;
  }

 private:
  const MachineParams& m_;
  const ClamContext& c_;
  const ClamMode& mode_;
  mutable double kg_ = -1.0;
};

// Stage 3: the valves and lines. Every line pressure's rate (eq 2.24), and what the
// actuators exert: the swing motor's torque, the boom cylinders' torque about the pivot
// (eqs 2.16-2.20), the telescope cylinder's force (eq 2.25), and each winch motor's pull on
// its rope at the drum (positive reeling in).
struct HydraulicStage {
  Vec3 joint = Vec3::Zero();
  std::array<double, 2> drum_pull_N{};
  std::array<double, 10> pressure_rate{};
  std::array<double, 10> decay_rate{};   // decay_rates' lines, when asked for (with_decay)
  std::array<double, 5> pilot_rate{};    // each channel's counterbalance pilot (ix::pilot)
  std::array<double, 5> poppet_rate{};   // each channel's counterbalance poppet (ix::poppet)
};
// What derivative() needs of the model that no state changes: built once per advance.
struct DerivedModel {
  CraneInertia inertia;   // eq 2.12's links (crane_inertia)
  BoomLinkage boom;       // eqs 2.17-2.19's constants (boom_linkage)
  SwingBody empty_body;   // the grab as a body on its ropes, nothing held (swing_body)
};
DerivedModel derived_model(const MachineParams& m);

// With the model's derived constants and the joints' trigonometry already built (the
// derivative's); the short form derives both itself.
HydraulicStage hydraulic_stage(const MachineParams& m, const BoomLinkage& boom,
                               const JointTrig& trig, const StateVector& x, const Spools& spool,
                               const Faults& faults, bool with_decay);
HydraulicStage hydraulic_stage(const MachineParams& m, const StateVector& x, const Spools& spool,
                               const Faults& faults);

// Stage 4: the forces on each body. The joints: actuators, hard stops, the ropes pulling
// the tip towards the clam and the chain pulling its guide; the drums: rope, motor and stops;
// the grab's swing: the generalised forces on its head's horizontal position (ropes, chain,
// the world) and on its two tilts (the chain, the world's push at the centre of gravity).
struct ForceStage {
  Vec3 joint = Vec3::Zero();
  std::array<double, 2> drum_N{};
  Eigen::Vector2d clam_horizontal = Eigen::Vector2d::Zero();
  Eigen::Vector2d clam_tilt = Eigen::Vector2d::Zero();
};

// Stage 5 for the swing: the head's horizontal accelerations and the tilts' angular ones,
// axis by axis, from the double pendulum's equations (docs/model.md, Coupling and swing):
//   M (h'' + d cos(phi) phi'' - d sin(phi) phi'^2) = F
//   M d cos(phi) h'' + (J_G + M d^2) phi''        = Q - M g d sin(phi)
struct SwingAccelerations {
  Eigen::Vector2d head = Eigen::Vector2d::Zero();
  Eigen::Vector2d tilt = Eigen::Vector2d::Zero();
};
SwingAccelerations swing_accelerations(const SwingBody& body, double g, const ClamAxis& axis,
                                       const Eigen::Vector2d& tilt_rate,
                                       const Eigen::Vector2d& force,
                                       const Eigen::Vector2d& tilt_force);
ForceStage force_stage(const MachineParams& m, const StateVector& x, const ClamContext& c,
                       const HydraulicStage& hy, const WorldPush& world);

// Each state's decay rate for the integrator: a line's conductance to its valve (with its
// counterbalance valve), relief and fault leaks over its compliance, G / C, the stiff part
// taken exactly; zero for the mechanical states.
StateVector decay_rates(const MachineParams& m, const StateVector& x, const Spools& spool,
                        const Faults& faults);

// Stage 5 and the whole: dx/dt. `model` is derived from m once per advance
// (derived_model); `world` is the world's push on the clam (contacts, water), held over
// the step; singular solves of the clam's equations are counted in *singular.
StateVector derivative(const MachineParams& m, const DerivedModel& model, const StateVector& x,
                       const ClamMode& mode, const Spools& spool, const Faults& faults,
                       const WorldPush& world, int* singular);
// The same with x's clam context already built (clam_context(m, x)): the step's first stage
// is where the previous step ended, whose context the events already needed. With `decay`,
// also decay_rates(x) from the same valve flows (the first stage's, the integrator's lambda).
StateVector derivative(const MachineParams& m, const DerivedModel& model, const StateVector& x,
                       const ClamContext& c, const ClamMode& mode, const Spools& spool,
                       const Faults& faults, const WorldPush& world, int* singular,
                       StateVector* decay = nullptr);

}  // namespace clamsim::core
