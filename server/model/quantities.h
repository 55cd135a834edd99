// The kinds of number in machine and scenario files, each with its unit and the range physics
// allows. Every number a loader reads is one of these (or a range taken from the machine
// itself, like the start pose's boom angle), so a field's bounds are stated where it is read
// and defined here once; docs/machine-file.md and docs/scenario-file.md list them.
//
// The ranges are meant for any hydraulic crane with a rope-hung grab, from a 5 t loader crane
// to a 500 t mobile crane, not only the shipped T250: they exclude nonsense (a negative mass,
// zero where the model divides by the value, 1e308), not unusual machines. Zero is allowed
// where it switches something off (a damping, a friction, a leak, a lag).
#pragma once

#include "model/json_fields.h"

namespace clamsim::model::quantity {

using Q = Quantity;

// --- masses and inertias --------------------------------------------------------------
// a machine part: from a clam's pulley (a few kg) to the boom of a 500 t crane
inline constexpr Q kPartMass = Q::closed("kg", unit::one, 1.0, 2e5);
// a counterweight or a carrier: 0 is none (the thesis's superstructure had none)
inline constexpr Q kBallastMass = Q::closed("kg", unit::one, 0.0, 5e5);
inline constexpr Q kCarrierMass = Q::closed("kg", unit::one, 100.0, 5e5);
// a principal moment of inertia: a clam link's few kg m^2 to a 60 m boom's 1e8
inline constexpr Q kInertia = Q::closed("kg m^2", unit::one, 1e-3, 1e9);
// a drum with its gear and rope, at the drum
inline constexpr Q kDrumInertia = Q::closed("kg m^2", unit::one, 1e-3, 1e5);
// a grab's rating or a chart's: 0 on a chart is "do not lift here"
inline constexpr Q kRatedLoad = Q::closed("kg", unit::one, 0.0, 5e5);
inline constexpr Q kGrabRating = Q::closed("kg", unit::one, 1.0, 1e5);

// --- lengths, areas, volumes ------------------------------------------------------------
// a part's size (a link, a lip, a bucket's width, a lever of the boom cylinder)
inline constexpr Q kPartLength = Q::closed("m", unit::one, 0.01, 50.0);
// an offset that may be 0 (the boom pivot's behind the swing axis)
inline constexpr Q kOffset = Q::closed("m", unit::one, 0.0, 50.0);
// a centre of mass in its link's frame: within a long boom of the frame's origin
inline constexpr Q kLinkCoM = Q::closed("m", unit::one, -100.0, 100.0);
// the telescope's and the chart's boom lengths
inline constexpr Q kBoomLength = Q::closed("m", unit::one, 0.5, 200.0);
// a rope's length from the tip sheave: its stop, its anti-two-block switch, its whole length
inline constexpr Q kRopeLength = Q::closed("m", unit::one, 0.1, 1000.0);
// a slack loop that counts as slack
inline constexpr Q kSlackMargin = Q::closed("m", unit::one, 0.01, 10.0);
// a chart's working radius
inline constexpr Q kRadius = Q::closed("m", unit::one, 0.1, 300.0);
// an outrigger pad from the swing axis (> 0: the pads must surround the axis)
inline constexpr Q kOutrigger = Q::closed("m", unit::one, 0.1, 20.0);
// a drum's radius to the rope's centre
inline constexpr Q kDrumRadius = Q::closed("mm", unit::mm, 10.0, 5000.0);
// a cylinder's (or all of a function's cylinders') piston or annulus area
inline constexpr Q kCylinderArea = Q::closed("m^2", unit::one, 1e-5, 10.0);
// the clam's drag area and displaced volume: 0 leaves the water out
inline constexpr Q kDragArea = Q::closed("m^2", unit::one, 0.0, 100.0);
inline constexpr Q kDisplacedVolume = Q::closed("m^3", unit::one, 0.0, 100.0);
// the oil in a function's lines and chambers (> 0: the pressure rate divides by it)
inline constexpr Q kLineVolume = Q::closed("L", unit::L, 0.01, 1000.0);

// --- angles ---------------------------------------------------------------------------
inline constexpr Q kFullTurn = Q::closed("deg", unit::deg, -360.0, 360.0);
// the boom from the horizontal: beyond the vertical it would luff over backwards
inline constexpr Q kBoomAngle = Q::closed("deg", unit::deg, -90.0, 90.0);
// the bucket from the vertical: beyond horizontal the bucket would point up
inline constexpr Q kBucketAngle = Q::closed("deg", unit::deg, 0.0, 90.0);
// the turn of a bucket shell's face from hinge to lip: 0 a flat plate, 180 a half-round
inline constexpr Q kShellCurl = Q::closed("deg", unit::deg, 0.0, 180.0);

// --- stiffnesses and dampings (0 damping: undamped) -------------------------------------
inline constexpr Q kStopStiffness = Q::closed("N/m", unit::one, 1.0, 1e11);
inline constexpr Q kStopStiffnessRot = Q::closed("N m/rad", unit::one, 1.0, 1e12);
inline constexpr Q kDamping = Q::closed("N s/m", unit::one, 0.0, 1e10);
inline constexpr Q kDampingRot = Q::closed("N m s/rad", unit::one, 0.0, 1e11);
// the anti-swing roll's spring, per metre of the chain's eye off the plumb: 0 is no spring
inline constexpr Q kAntiSwingStiffness = Q::closed("N/m", unit::one, 0.0, 1e7);
// a rope's axial stiffness EA: a 6 mm rope's 1e6 N to a 100 mm rope's 4e8 (1e10 on a light
// clam rang faster than the step and went NaN)
inline constexpr Q kRopeEA = Q::closed("N", unit::one, 1e3, 1e9);
// a rope's stiffness-proportional damping (a time; 0: none)
inline constexpr Q kRopeDamping = Q::closed("s", unit::one, 0.0, 1.0);

// --- forces and torques -----------------------------------------------------------------
inline constexpr Q kFriction = Q::closed("N", unit::one, 0.0, 1e7);
inline constexpr Q kFrictionRot = Q::closed("N m", unit::one, 0.0, 1e8);
inline constexpr Q kRatedPull = Q::closed("N", unit::one, 100.0, 1e7);
// the speed over which a Coulomb friction's sign is smoothed (0 divides)
inline constexpr Q kSmoothingSpeed = Q::closed("m/s", unit::one, 1e-6, 1.0);
inline constexpr Q kSmoothingRate = Q::closed("rad/s", unit::one, 1e-6, 10.0);

// --- hydraulics -------------------------------------------------------------------------
inline constexpr Q kPumpFlow = Q::closed("L/min", unit::L_per_min, 0.1, 5000.0);
// a valve's (or counterbalance valve's) flow per square root of its drop
inline constexpr Q kOrificeCoeff = Q::closed("m^3/(s Pa^0.5)", unit::one, 1e-10, 1e-2);
// return-line back pressure (0: straight to an open tank)
inline constexpr Q kTankPressure = Q::closed("MPa", unit::MPa, 0.0, 5.0);
// relief and counterbalance settings: mobile hydraulics run to 45 MPa, none to 100
inline constexpr Q kSystemPressure = Q::closed("MPa", unit::MPa, 0.1, 100.0);
inline constexpr Q kPressureRise = Q::closed("MPa", unit::MPa, 0.01, 50.0);
inline constexpr Q kLaminarDrop = Q::closed("MPa", unit::MPa, 1e-4, 10.0);
inline constexpr Q kReliefGain = Q::closed("L/min/MPa", unit::L_per_min_per_MPa, 1e-3, 1e5);
// a motor's internal leak (0: none; the winches' is taken up by their brakes)
inline constexpr Q kLeak = Q::closed("L/min/MPa", unit::L_per_min_per_MPa, 0.0, 100.0);
// oil with some air (a few hundred MPa) to stiff steel pipe (about 2000)
inline constexpr Q kBulkModulus = Q::closed("MPa", unit::MPa, 10.0, 3000.0);
inline constexpr Q kDisplacement = Q::closed("cc/rev", unit::cc_per_rev, 0.1, 1e4);
inline constexpr Q kGearRatio = Q::closed("", unit::one, 0.1, 1e4);
// a first-order lag of a spool or a pilot (0: none); seconds-long lags are no valve's
inline constexpr Q kValveLag = Q::closed("s", unit::one, 0.0, 5.0);

// --- the world ------------------------------------------------------------------------
// from the Moon's 1.6 to Jupiter's 24.8 (standard 9.81); not 0: the load moment indicator
// weighs the hook load by it (core hook_load_kg), and a crane without weight lifts nothing
inline constexpr Q kGravity = Q::closed("m/s^2", unit::one, 1.0, 25.0);
// a point of the site (a solid's centre, a load, the water level) from the swing axis
inline constexpr Q kSitePosition = Q::closed("m", unit::one, -1000.0, 1000.0);
// a solid's size on the site
inline constexpr Q kSolidSize = Q::closed("m", unit::one, 0.001, 1000.0);
// fresh water 1000, sea water 1025, a mud slurry less than 2000
inline constexpr Q kWaterDensity = Q::closed("kg/m^3", unit::one, 500.0, 2000.0);
inline constexpr Q kDragCoefficient = Q::closed("", unit::one, 0.0, 10.0);
// a floating body's damping time constant (0 divides)
inline constexpr Q kWaterDamping = Q::closed("s", unit::one, 0.01, 1000.0);
inline constexpr Q kContactFrequency = Q::closed("rad/s", unit::one, 0.1, 1e4);
inline constexpr Q kDampingRatio = Q::closed("", unit::one, 0.0, 10.0);
inline constexpr Q kFrictionCoefficient = Q::closed("", unit::one, 0.0, 5.0);
// a load's size: a log of a few cm to a 50 m tree
inline constexpr Q kLoadSize = Q::closed("m", unit::one, 0.01, 50.0);
// a task's score points and its optimum time (a day at most)
inline constexpr Q kPoints = Q::closed("", unit::one, 0.0, 1000.0);
inline constexpr Q kTaskTime = Q::closed("s", unit::one, 1.0, 86400.0);

}  // namespace clamsim::model::quantity
