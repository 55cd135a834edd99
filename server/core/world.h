// The working world around the machine: the dam's static solids, the water and
// the loose loads (logs, debris), with their rigid-body state, contacts and events.
//
// Base frame as everywhere: z up, origin on the swing axis at deck level, boom along +x at
// swing 0. Parameters come from a scenario file (server/model/scenario_file); the state
// lives inside core::State and is advanced by core::step together with the machine.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/field_list.h"

namespace clamsim::core {

inline constexpr int kMaxLoads = 16;           // loads per world (State stays allocation-free)
inline constexpr int kMaxContactMarkers = 8;   // contacts reported per frame
// The clam (or its load) meeting a solid faster than this [m/s] is a collision, counted in
// WorldEvents; a slower touch is a rub and is not. Browsers get it in hello.scene.task.
inline constexpr double kHitSpeed_m_per_s = 0.2;

// What a static solid is, for contact bookkeeping and scoring.
enum class SolidKind : std::uint8_t { Deck, Rack, Gate, Wall, Floor, Truck, Bed };
const char* to_string(SolidKind k);

// A static, solid, yawed box.
// A turn about the vertical with its cosine and sine, taken once when it is set: the
// contact tests rotate every proxy into a box's axes, several times a step.
class Yaw {
 public:
  Yaw(double rad = 0.0)  // NOLINT(google-explicit-constructor): a yaw is its angle
      : rad_(rad), cos_(std::cos(rad)), sin_(std::sin(rad)) {}
  double rad() const { return rad_; }
  double cos() const { return cos_; }
  double sin() const { return sin_; }

 private:
  double rad_, cos_, sin_;
};

struct SolidBox {
  SolidKind kind = SolidKind::Deck;
  std::string name;                                   // as in the scenario file
  Eigen::Vector3d center_m = Eigen::Vector3d::Zero();
  Eigen::Vector3d half_size_m = Eigen::Vector3d::Zero();  // along the box's own x, y, z
  Yaw yaw;                                            // about z
};

enum class LoadShape : std::uint8_t { Sphere, Box, Cylinder };
const char* to_string(LoadShape s);

// One loose load. Its local x axis is a cylinder's axis; box sizes are along local x, y, z.
struct LoadParams {
  std::string name;
  LoadShape shape = LoadShape::Sphere;
  double mass_kg = 0.0;
  double radius_m = 0.0;                             // sphere, cylinder
  double length_m = 0.0;                             // cylinder
  Eigen::Vector3d box_size_m = Eigen::Vector3d::Zero();  // box
  Eigen::Vector3d position_m = Eigen::Vector3d::Zero();  // initial centre
  double yaw_rad = 0.0;                              // initial orientation: yaw about z,
  double pitch_rad = 0.0;                            // then pitch about the local y axis
};

struct WaterParams {
  double level_m = 0.0;                 // z of the surface
  double density_kg_per_m3 = 1000.0;
  double drag_coefficient = 1.0;        // quadratic drag, on the projected area
  double angular_damping_s = 0.5;       // time constant of the water's damping of rotation
  double heave_damping_s = 2.0;         // time constant of the linear damping by the displaced
                                        // water (wave radiation: a bobbing log settles)
};

// Penalty contacts: stiffness and damping scale with the lighter body's mass so that every
// contact rings at the same natural frequency (~0.4 mm sag at rest; the loads take sub-steps
// short enough for it, world_step.h load_substeps).
struct ContactParams {
  double natural_frequency_rad_per_s = 150.0;
  double damping_ratio = 0.7;
  double friction = 0.5;                 // Coulomb coefficient
  double friction_velocity_m_per_s = 0.05;  // regularisation of sign(v)
  // Rolling resistance coefficient: a load rolling on a contact meets a torque of this times
  // the normal force times the proxy's radius, against its spin. Without it a log set down
  // rolling rolls on for ever (a penalty contact loses nothing to steady rolling). Logs with
  // bark, knots and out-of-round sections roll badly: 0.05 is assumed, between a tyre on
  // gravel (0.02) and one on sand (0.3), the range engineering tables give.
  double rolling_resistance = 0.05;
};

struct WorldParams {
  std::vector<SolidBox> solids;
  WaterParams water;
  ContactParams contact;
  std::vector<LoadParams> loads;         // at most kMaxLoads
};

// ---- state ----------------------------------------------------------------------------

struct LoadBody {
  Eigen::Vector3d position_m = Eigen::Vector3d::Zero();
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  Eigen::Vector3d velocity_m_per_s = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular_velocity_rad_per_s = Eigen::Vector3d::Zero();  // world frame
  bool held = false;               // rides in the clam's jaws (pose follows the clam)
  bool asleep = false;             // at rest and untouched: skipped until woken
  bool in_contact = false;         // touching a solid, another load or the clam
  double quiet_s = 0.0;            // time spent nearly at rest (for sleeping)
  double ignore_clam_s = 0.0;      // after a release, lets the load fall clear of the jaws
  Eigen::Vector3d held_offset_m = Eigen::Vector3d::Zero();       // in the clam frame
  Eigen::Quaterniond held_orientation = Eigen::Quaterniond::Identity();
};

enum class ContactPair : std::uint8_t { ClamWorld, LoadWorld, ClamLoad, LoadLoad };
const char* to_string(ContactPair p);

struct ContactMarker {
  std::array<double, 3> position_m{};
  double force_N = 0.0;
  ContactPair pair = ContactPair::ClamWorld;
  SolidKind solid = SolidKind::Deck;   // for *World pairs
  int load = -1;                       // the load involved, if any
};

// Cumulative counters of things an instructor (and the task's score) cares about.
struct WorldEvents {
  std::uint64_t rack_gate_hits = 0;   // clam or held load struck the rack or the gate
  std::uint64_t structure_hits = 0;       // ... struck any other solid (deck, walls, truck)
  std::uint64_t load_impacts = 0;          // a loose load struck something hard
  std::uint64_t slack_cables = 0;    // a rope paid out into a visible slack loop
  std::uint64_t overloads = 0;       // rope pull above rating, or load above the clam's
  std::uint64_t grips = 0;                 // loads taken into the jaws
  std::uint64_t releases = 0;              // loads let go
  std::uint64_t loads_restored = 0;        // a load went non-finite or fell out of the world
                                           // and was put back where it started (health)
  std::uint64_t two_blocks = 0;      // the clam's block came within the anti-two-block
                                           // distance of the tip sheave (the switch tripped)
  std::uint64_t lmi_warnings = 0;          // the load moment reached the warning level (90 %)
  std::uint64_t lmi_cutouts = 0;           // ... the cut-out level (100 %)
  std::uint64_t tip_overs = 0;             // the machine tipped over its pads (core/stability.h)
};

// The events' one list: the display JSON, the CORBA frame and clamsim-sim's summary walk it.
inline constexpr std::array<Field<WorldEvents, std::uint64_t>, 12> kWorldEventFields{{
    {"rack_gate_hits", "", "The clam or held load struck the rack or the gate.",
     &WorldEvents::rack_gate_hits},
    {"structure_hits", "", "The clam or held load struck another solid (deck, walls, truck).",
     &WorldEvents::structure_hits},
    {"load_impacts", "", "A loose load struck something hard.", &WorldEvents::load_impacts},
    {"slack_cables", "", "A rope paid out into a visible slack loop.",
     &WorldEvents::slack_cables},
    {"overloads", "", "A rope pull above its rating, or a load above the clam's.",
     &WorldEvents::overloads},
    {"grips", "", "Loads taken into the jaws.", &WorldEvents::grips},
    {"releases", "", "Loads let go.", &WorldEvents::releases},
    {"loads_restored", "", "Loads put back at their start (non-finite or out of the world).",
     &WorldEvents::loads_restored},
    {"two_blocks", "", "The clam came up to the tip sheave: the anti-two-block switch tripped.",
     &WorldEvents::two_blocks},
    {"lmi_warnings", "", "The load moment reached the indicator's warning level.",
     &WorldEvents::lmi_warnings},
    {"lmi_cutouts", "", "The load moment reached the limiter's cut-out level.",
     &WorldEvents::lmi_cutouts},
    {"tip_overs", "", "The machine tipped over its outrigger pads.", &WorldEvents::tip_overs},
}};
static_assert(covers_struct(kWorldEventFields));

struct WorldState {
  std::array<LoadBody, kMaxLoads> loads{};
  int load_count = 0;
  int held_load = -1;                      // index of the load in the jaws, -1 none
  Eigen::Vector3d clam_world_force_N = Eigen::Vector3d::Zero();  // all world pushes, last step
  double clam_world_head_up_N = 0.0;   // of which pushing up on the head at A (WorldPush)
  Eigen::Vector3d held_load_push_N = Eigen::Vector3d::Zero();   // loose loads on the held one,
                                                                // last step (the clam feels it)
  std::uint32_t clam_touching = 0;         // bit per solid the clam touched last step
  std::array<double, 32> clam_touch_gap_s{};  // time since the clam left each solid
  std::array<bool, 2> rope_slack{};        // slack loop present (hysteresis)
  bool overloaded = false;
  bool two_blocked = false;                // the anti-two-block switch is tripped (hysteresis)
  double clam_contact_N = 0.0;             // contact forces on the clam, last step
  double clam_submerged = 0.0;             // fraction of the clam under water, last step
  WorldEvents events;
  std::array<ContactMarker, kMaxContactMarkers> markers{};
  int marker_count = 0;
};

// Every load at its initial pose and at rest, nothing held, contacts and events cleared.
void reset_world(const WorldParams& world, WorldState& state);

// Solid volume of a load [m^3] (buoyancy: a load lighter than its volume of water floats).
double load_volume_m3(const LoadParams& load);

}  // namespace clamsim::core
