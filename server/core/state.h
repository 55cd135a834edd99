// The machine's mutable state, its inputs and its outputs.
// One struct of continuous state (integrated), plus the clam's discrete working state.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>

#include "faults.h"
#include "field_list.h"
#include "parts.h"
#include "world.h"

namespace clamsim::core {

// Working states of the clam (section 2.1.1) and its two flags (Table 2.4).
enum class WorkingState : std::uint8_t { Free = 0, Distributed = 1, Full = 2 };
enum class GeoStatus : std::uint8_t { InRange = 0, Open = 1, Close = 2 };
enum class LoadStatus : std::uint8_t { WithoutLoad = 0, WithLoad = 1 };

const char* to_string(WorkingState s);
const char* to_string(GeoStatus s);
const char* to_string(LoadStatus s);

// Layout of the continuous state vector (SI units throughout).
//   q      crane joints: theta1 swing [rad], theta2 boom D-H angle [rad] (90 deg = level), d3 [m]
//   qd     their rates
//   yA,yC  depth of clam points A and C below the swing base [m], positive down (thesis's y)
//   vA,vC  their rates [m/s]
//   len    hanging (unstretched) length of cable 1 and cable 2 from the boom-tip sheave [m]
//   lend   their rates [m/s], positive paying out
//   p      line pressures [Pa]: channel k (ControlSignal index) has lines 2k (A) and 2k+1 (B)
//   hx,hy  horizontal position of the clam's head A in the base frame [m]: the head swings
//          under the tip on its ropes (section 3.4.2)
//   hvx,hvy its velocity [m/s]
//   pilot  the pressure on each channel's counterbalance pilot, behind its damping orifice
//          [Pa] (ControlSignal index; unused where the valve has no orifice: pilot_lag_s 0)
//   tilt   the grab's body turning about its head A, a double pendulum with the ropes
//          (docs/model.md, Coupling and swing): [0] in the base frame's x-z plane, [1] in
//          its y-z plane [rad], its centre of gravity d (sin tilt[0], sin tilt[1]) off A
//          horizontally (core/clam.h SwingBody); held back by the anti-swing device when fitted
//   tiltd  their rates [rad/s]
//   poppet the opening (0..1) of each channel's counterbalance poppet, where the poppet has its
//          own dynamics (ControlSignal index; unused where poppet_lag_s is 0)
// The spools' strokes are not in it: a spool's lag is linear, so each step takes it exactly
// (State::spool, core/derivative.h spool_track) and RK4 carries 42 components, not 47.
namespace ix {
constexpr int q = 0;
constexpr int qd = 3;
constexpr int yA = 6;
constexpr int yC = 7;
constexpr int vA = 8;
constexpr int vC = 9;
constexpr int len = 10;
constexpr int lend = 12;
constexpr int p = 14;
constexpr int hx = 24;
constexpr int hy = 25;
constexpr int hvx = 26;
constexpr int hvy = 27;
constexpr int pilot = 28;
constexpr int tilt = 33;
constexpr int tiltd = 35;
// the counterbalance poppets' openings (docs/model.md, Load-holding valves)
constexpr int poppet = 37;
constexpr int size = 42;
}  // namespace ix

using StateVector = Eigen::Matrix<double, ix::size, 1>;

// Discrete part of the clam: working state, flags and the held load.
struct ClamMode {
  WorkingState working = WorkingState::Free;
  GeoStatus geo = GeoStatus::InRange;
  LoadStatus load = LoadStatus::WithoutLoad;
  double load_mass_kg = 0.0;
  // Locked on an object the shells touch but cannot lift (it lies in the throat, where the
  // shells push it down): the links stop on it, nothing is held (core/clam_grip.h).
  bool on_object = false;
  // A held load: how the two shells touch it, fixed while the links are locked on it.
  std::array<double, 2> grip_support{};   // vertical support per newton of normal force
  std::array<double, 2> grip_lever_m{};   // each normal force's lever about C
  double slip_s = 0.0;            // how long the grip has been failing (a load slips, not teleports)
};

// Health counters, MuJoCo-style: counted, never thrown from the hot path.
struct Health {
  std::uint64_t nonfinite_resets = 0;      // state became NaN/inf and was restored
  std::uint64_t singular_solves = 0;       // a linear solve was ill-conditioned
  std::uint64_t limit_hits = 0;            // joint or drum hard-stop contacts begun
  std::uint64_t clam_impacts = 0;          // inelastic collisions at clam stops (eq 2.9)
  std::uint64_t transitions = 0;           // working-state changes
  std::uint64_t loads_released = 0;        // loads that slipped out (the grip could not hold)
  std::uint64_t nonphysical_warnings = 0;  // times a speed passed what the machine can reach
};

// The counters' one list: clamsim-sim's summary and its batch facts walk it.
inline constexpr std::array<Field<Health, std::uint64_t>, 7> kHealthFields{{
    {"nonfinite_resets", "", "Steps whose state went NaN or inf and were undone.",
     &Health::nonfinite_resets},
    {"singular_solves", "", "Ill-conditioned linear solves.", &Health::singular_solves},
    {"limit_hits", "", "Joint or drum hard-stop contacts begun.", &Health::limit_hits},
    {"clam_impacts", "", "Inelastic collisions at the clam's stops (eq 2.9).",
     &Health::clam_impacts},
    {"transitions", "", "Working-state changes.", &Health::transitions},
    {"loads_released", "", "Loads that slipped out of the jaws.", &Health::loads_released},
    {"nonphysical_warnings", "",
     "Times a speed passed what no machine of this kind reaches (core/plausibility.h).",
     &Health::nonphysical_warnings},
}};
static_assert(covers_struct(kHealthFields));

// The load moment indicator and the tipping degree of freedom (core/stability.h). Not in the
// integrated vector: the indicator is a filter, and the tilt a rigid turn of the whole machine
// about one side of its pads, stepped after the motion (docs/model.md, Stability).
struct StabilityState {
  double load_kg = 0.0;        // the indicator's hook load, low-pass filtered
  double pct = 0.0;            // that load in percent of the chart's rating here
  bool warning = false;        // at or above the warning level (hysteresis)
  bool cut_out = false;        // at or above the cut-out level (hysteresis)
  int edge = -1;               // the side of the pads it has lifted about (TipEdge), -1 none
  double tilt_rad = 0.0;       // turned outward about that side
  double tilt_rate = 0.0;
  bool tipped_over = false;    // turned past kLostTiltDeg or its own CoG past the side: lost
};

struct State {
  StateVector x = StateVector::Zero();
  // each channel's spool stroke, -1..1, behind the stick (ControlSignal index; where the
  // spool follows at once, spool_lag_s 0, the stick's own stroke)
  std::array<double, 5> spool{};
  ClamMode clam;
  Health health;
  double time_s = 0.0;
  std::uint64_t steps = 0;
  std::uint8_t stops_engaged = 0;   // bit per hard stop in contact (to count new hits)
  bool implausible = false;         // a speed is past core/plausibility.h's (to count new ones)
  WorldState world;                 // loads, contacts and events (empty without a world)
  StabilityState stability;
};

// The five valve command voltages of ControlSignal (Table 4.1 order), -5..+5 V.
// [0] swing, [1] boom, [2] telescope, [3] main hoist (cable 1), [4] aux hoist (cable 2).
// Positive: swing counter-clockwise seen from above, boom up, telescope out, winch reels in.
struct Control {
  std::array<double, 5> volts{};
};

// What the surroundings offer the jaws: an object between the lips that can be gripped.
// Filled by the world model (contact detection); empty when nothing is there.
struct JawObject {
  bool present = false;     // a load both shells touch
  // it can bear the squeeze: it rests on a solid, or is out of the water (a floating load
  // pressed by shells that do not hold it gives way, and the shells close on past it)
  bool supported = true;
  double mass_kg = 0.0;
  std::array<double, 2> support{};   // as ClamMode::grip_support, at this pose (with the
                                     // world's contact friction)
  std::array<double, 2> lever_m{};
};

// The surroundings: the dam, the water and the loads (null = empty space, as in the
// offline experiments of 5.1.1-5.1.2). The object between the jaws is the world's: each step
// finds it among the loads (find_jaw_object).
struct Environment {
  Environment() = default;
  // Environment{&world}: a world without faults (spelled out, so that adding the faults kept
  // every such initialiser free of a missing-initializer warning)
  explicit Environment(const WorldParams* w, const Faults& f = {}) : world(w), faults(f) {}

  const WorldParams* world = nullptr;
  Faults faults;                    // injected by an instructor; default: none (core/faults.h)
};

// Where a run starts. The machine starts at rest in static equilibrium.
struct InitialConditions {
  double swing_rad = 0.0;
  double boom_rad = 0.0;            // boom angle above level (0..50 deg), not the D-H theta2
  double telescope_m = 0.0;
  double clam_depth_m = 0.0;        // boom tip to point A, hanging
  double clam_theta2_rad = 0.0;     // initial bucket angle (between open and closed)
};

// Table 4.1's eight DisplayData values by name, units in the names, in the order of
// Outputs::display: what the WebSocket hello sends as display_fields and the browser reads
// the values by.
inline constexpr std::array<const char*, 8> kDisplayFields{
    "swing_deg",   "boom_deg", "telescope_m", "clam_to_tip_m",
    "opening_deg", "cable1_m", "cable2_m",    "load_kg"};

// One frame of output: the eight DisplayData values of Table 4.1 plus the extended fields.
struct Outputs {
  // Table 4.1, in its order and units.
  std::array<double, kDisplayFields.size()> display{};   // by kDisplayFields
  double time_s = 0.0;
  std::array<double, 3> joint_pos{};       // swing deg, boom deg, telescope m
  std::array<double, 3> joint_vel{};       // deg/s, deg/s, m/s
  std::array<double, 10> pressures_Pa{};   // as in the state vector
  std::array<double, 2> tensions_N{};      // cable 1, cable 2
  std::array<double, 2> cable_rates_m_per_s{};  // positive paying out
  double theta1_clam_deg = 0.0;            // clam link 1 from the vertical
  double theta2_clam_deg = 0.0;            // clam bucket from the vertical
  double jaw_gap_m = 0.0;
  double squeeze_N = 0.0;                  // normal force each shell presses a held load with
  // the mass the shells' contacts can carry straight up at that squeeze (core/clam_grip.h,
  // grip_capacity_N over g): against the held load's, how firm the grip is (the lesson's check)
  double grip_holds_kg = 0.0;
  double stop_force_N = 0.0;               // reaction of the clam's geometric stop or load
  std::array<double, 2> clam_vel_m_per_s{};  // vertical speed of A and C, positive up
  WorkingState working = WorkingState::Free;
  GeoStatus geo = GeoStatus::InRange;
  LoadStatus load = LoadStatus::WithoutLoad;
  std::array<double, 3> tip{};             // boom tip, world frame (z up) [m]
  std::array<double, 3> point_a{};         // clam points, world frame [m]
  std::array<double, 3> point_b{};         // right-hand hinge B
  std::array<double, 3> point_c{};
  double energy_J = 0.0;                   // total mechanical + hydraulic energy
  std::uint64_t nonphysical_warnings = 0;  // Health's count so far (core/plausibility.h)

  // The working world (core/world.h).
  std::array<double, 2> clam_swing_deg{};  // ropes from the vertical: [0] along the boom
                                           // (+ away from the cab), [1] across (+ to the left)
  std::array<double, 4> clam_orientation{1.0, 0.0, 0.0, 0.0};  // w, x, y, z: clam frame
                                           // (x across the jaws, z up the axis) in the world
  double clam_contact_force_N = 0.0;       // magnitude of solids + loads pushing on the clam
  double clam_submerged = 0.0;             // fraction of the clam below the water, 0..1
  double turbidity = 0.0;                  // 0 clear water .. 1 nothing visible under it
                                           // (Environment::faults; no dynamics)
  struct Load {
    std::array<double, 3> position_m{};
    std::array<double, 4> orientation{1.0, 0.0, 0.0, 0.0};  // w, x, y, z
    std::array<double, 3> velocity_m_per_s{};
    bool held = false;
    bool in_contact = false;
    bool asleep = false;
    double submerged = 0.0;                // fraction of its volume below the water
  };
  std::array<Load, kMaxLoads> loads{};
  int load_count = 0;
  int held_load = -1;
  std::array<ContactMarker, kMaxContactMarkers> contacts{};
  int contact_count = 0;
  WorldEvents events;

  // Stability (core/stability.h): the load moment indicator and the tilt.
  double hook_load_kg = 0.0;               // the indicator's load: grab and what it holds
  double rated_kg = 0.0;                   // the chart's rating at this radius and boom length
  double radius_m = 0.0;                   // swing axis to the tip, horizontal
  double load_moment_pct = 0.0;            // hook load in percent of the rating
  bool lmi_warning = false;                // at or above the warning level
  bool lmi_cutout = false;                 // the limiter has cut out the raising motions
  double tilt_deg = 0.0;                   // the machine turned about a side of its pads
  int tilt_edge = -1;                      // that side (core/stability.h TipEdge), -1 none
  std::array<double, 3> tilt_axis_point_m{};   // a point of that side at the pads' height
  std::array<double, 3> tilt_axis_direction{}; // the side's direction: tipping is a positive
                                               // turn about it (right hand)
  bool tipped_over = false;

  // What a viewer draws: every part's pose (parts.h), and the rope and load states
  // the world keeps with hysteresis, so no client re-derives them with thresholds of its own.
  PartPoses parts{};
  std::array<bool, 2> rope_slack{};        // a slack loop on cable 1, cable 2
  std::array<double, 2> slack_m{};         // each rope's loop beyond its span (slack_loop_m)
  bool overloaded = false;                 // rope pull above rating, or load above the clam's
  bool two_blocked = false;                // the anti-two-block switch is tripped
};

}  // namespace clamsim::core
