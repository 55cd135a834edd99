// Machine parameters: everything the dynamics core needs, in SI units.
// Filled by server/model from models/<machine>.json; never hard-coded elsewhere.
// The model file names each field with its unit (e.g. "mass_kg"); the comment beside
// each field here gives the same unit and the thesis table it comes from.
#pragma once

#include <array>

namespace clamsim::core {

// Clamshell grapple (section 2.1, Table 2.1). A symmetric 3-link slider mechanism:
// point A (top, cable 1) -- link 1 -- B (hinge) -- link 2 (bucket) -- C (pulley, cable 2).
// Links 1 and 2 exist twice (left and right half); link 3, the pulley, once.
struct ClamParams {
  double link1_mass_kg = 25.0;       // one of the two top links (Table 2.1)
  double link2_mass_kg = 350.0;      // one bucket (Table 2.1)
  double link3_mass_kg = 25.0;       // the pulley at C (Table 2.1)
  double link1_length_m = 1.37;      // A to B (Table 2.1)
  double link2_length_m = 1.14;      // B to C (Table 2.1)
  double link1_inertia_kgm2 = 0.0;   // about its centre of gravity, in the clam's plane
  double link2_inertia_kgm2 = 0.0;   // about its centre of gravity, in the clam's plane
  double theta2_open_rad = 0.0;      // bucket angle from the vertical when fully open
  double theta2_closed_rad = 0.0;    // bucket angle from the vertical when fully closed
  double lip_length_m = 0.0;         // C to the bucket's lip (for the jaw gap and squeeze force)
  // The angle the shell's inner face turns through from the hinge C to the lip: a bucket's
  // shell is an arc curling in under what it holds (core/clam_grip.h; 0 a flat plate)
  double shell_curl_rad = 0.0;
  double max_load_kg = 0.0;          // heaviest load the grapple is rated for
  double bucket_width_m = 0.0;       // width of each bucket across the clam's plane
  double displaced_volume_m3 = 0.0;  // steel volume (buoyancy when under water)
  double drag_area_m2 = 0.0;         // projected area for water drag
  // Parts of the closing rope (cable 2) between the head at A and the pulley block at C: it
  // enters the head and runs n times down and up (docs/model.md, Decisions). n = 1 is a
  // single part straight through the head to C.
  int closing_parts = 1;
};

// The anti-swing mechanism of Fig. 2.11 (section 2.3): a spring roll on the boom head whose
// chain runs through a swivelling guide under the tip sheave down to an eye on the grab's
// body. The roll pays the chain out with the ropes, so only the chain's angle against the
// plumb under the guide works its spring and its friction, along and across the boom alike:
// a horizontal pull on the eye back towards the plumb (core/derivative.h anti_swing_chain;
// docs/model.md, Coupling and swing).
struct AntiSwingParams {
  bool fitted = false;                   // false: the bare double pendulum
  double stiffness_N_per_m = 0.0;        // the spring's pull per metre of the eye's offset
  double damping_Ns_per_m = 0.0;         // the roll's viscous brake, per m/s of the eye's run
  double friction_N = 0.0;               // Coulomb friction of the roll and guide
  double friction_velocity_m_per_s = 0.05;  // below it the friction is viscous (regularised)
  double attach_below_a_m = 0.0;         // the chain's eye on the grab's axis, below A
};

// One crane link for eqs 2.13-2.14: mass, centre of gravity and inertia in the link's
// own Denavit-Hartenberg frame.
struct LinkParams {
  double mass_kg = 0.0;
  std::array<double, 3> com_m{};          // centre of gravity in the link frame [m]
  std::array<double, 3> inertia_kgm2{};   // principal moments about the CoG, link-frame axes
};

// The superstructure's counterweight, a uniform block with its edges along frame 1's axes.
// The dynamics see it folded into the swing cab's link (with_counterweight, crane.h); it is
// kept apart so the picture can put it where the dynamics do (docs/model.md, Crane).
struct CounterweightParams {
  double mass_kg = 0.0;
  std::array<double, 3> com_m{};    // its centre in frame 1 [m]
  std::array<double, 3> size_m{};   // its edges along frame 1's x, y, z [m]
};

// 3-DOF P&H-T250 crane (section 2.2.1, Tables 2.6-2.7). Joint 1 swing (revolute),
// joint 2 boom (revolute, theta2 = 90 deg + boom angle), joint 3 telescope (prismatic, d3).
struct CraneParams {
  double d1_m = 0.0;                       // height of the boom pivot above the swing base
  double a1_m = 0.0;                       // offset of the boom pivot behind the swing axis
  // swing cab with its counterweight (with_counterweight(cab, counterweight)), boom base
  // section, telescopic section: what the dynamics integrate
  std::array<LinkParams, 3> links{};
  LinkParams cab;                          // the swing cab alone (Table 2.6), as the file gives it
  CounterweightParams counterweight;
  double boom_min_rad = 0.0;               // boom angle range (Table 2.6: 0-50 deg)
  double boom_max_rad = 0.0;
  double telescope_min_m = 0.0;            // d3 range (Table 2.6: 9.7-24.4 m)
  double telescope_max_m = 0.0;
  double boom_stop_stiffness_Nm_per_rad = 0.0;   // hard stops: one-sided spring-damper
  double boom_stop_damping_Nms_per_rad = 0.0;
  double telescope_stop_stiffness_N_per_m = 0.0;
  double telescope_stop_damping_Ns_per_m = 0.0;
  double gravity_m_per_s2 = 9.81;
  // Anti-two-block switch (ASME B30.5): trips when point A comes within this distance of the
  // tip sheave, and cuts out hoisting up, telescoping out and booming down (machine.cc).
  double anti_two_block_m = 0.0;
};

// Boom cylinder geometry of Fig. 2.8, eqs 2.17-2.20:
// l^2 = lp^2 + lr^2 + 2 lp lr cos(theta + delta), theta measured as in Fig. 2.8, which is
// the negative of the boom angle (the cylinder extends as the boom rises).
struct BoomGeometry {
  double lp_m = 0.0;          // pivot to cylinder base (fixed)
  double lr_m = 0.0;          // pivot to rod eye on the boom (fixed)
  double delta_rad = 0.0;     // delta1 + delta2, constant
};

// An open-centre proportional valve and its pump (eqs 2.21-2.23). Spool x = volts / 5 V.
struct ValveParams {
  double pump_flow_m3_per_s = 0.0;       // fixed-displacement pump at rated engine speed
  double orifice_coeff = 0.0;            // k*w of eqs 2.21-2.23 [m^3/s per sqrt(Pa)] at x = 1
  double tank_pressure_Pa = 0.0;         // P_e, return line
  double relief_pressure_Pa = 0.0;       // pump and cross-port relief setting
  double relief_gain_m3_per_s_Pa = 0.0;  // line relief / anti-cavitation valve conductance
  double laminar_dp_Pa = 0.0;            // below this pressure drop orifice flow is linear
  double input_deadband_V = 0.0;         // spool overlap: no metering below this voltage
  // Centre bypass opening (a fraction of k*w) against spool stroke |x|: two straight pieces,
  // from 1 at x = 0 through (bypass_knee_stroke, bypass_knee_opening) to 0 at x = 1. The
  // thesis's linear 1 - x (eq 2.23) is the knee on that line, the default here.
  double bypass_knee_stroke = 0.5;
  double bypass_knee_opening = 0.5;
  // The spool follows the stick through a first-order lag (a pilot-operated spool;
  // State::spool, taken exactly over each step): dx/dt = (x_stick - x) / spool_lag_s.
  // 0: at once, as eqs 2.21-2.23 have it.
  double spool_lag_s = 0.0;
};

// The lowest pressure a line can hold, gauge [Pa]: absolute zero (1 atm below gauge zero)
// plus mineral oil's vapour pressure, under 1 kPa at working temperature. Below
// atmospheric the oil's dissolved air comes out and the line fills with gas and vapour
// instead of stretching the oil: a line at the floor that is drawn on stays there.
inline constexpr double kVapourPressureGauge_Pa = -101325.0 + 1000.0;

// Two hydraulic lines between valve and actuator, eq 2.24: dP/dt = (Q_valve - Q_actuator) / C.
struct LineParams {
  double volume_m3 = 0.0;           // oil volume of each line (hose + mean chamber volume)
  double bulk_modulus_Pa = 0.0;     // effective bulk modulus of oil in hose
  // Lowest pressure the line holds, gauge: a property of the oil, not a file field. Only
  // the tests' lossless idealisation lowers it, to keep the oil a linear spring both ways.
  double floor_Pa = kVapourPressureGauge_Pa;
};

// A hydraulic cylinder, eq 2.25.
struct CylinderParams {
  double cap_area_m2 = 0.0;          // A_i (all cylinders of this function together)
  double rod_area_m2 = 0.0;          // A_o
  double viscous_Ns_per_m = 0.0;     // d
  double coulomb_N = 0.0;            // F_c
  double coulomb_velocity_m_per_s = 0.0;  // smoothing of sign(v) in the friction law
};

// A hydraulic motor with its gear train, eq 2.26.
struct MotorParams {
  double displacement_m3_per_rad = 0.0;   // D_m
  double gear_ratio = 0.0;                 // motor turns per output turn
  double viscous_Nms_per_rad = 0.0;        // at the output shaft
  double coulomb_Nm = 0.0;                 // at the output shaft
  double coulomb_velocity_rad_per_s = 0.0;
  // Internal leakage from port to port, laminar: q = leak (p_A - p_B). It damps the oil
  // spring of a motor whose ports the centred valve shuts (docs/model.md, Slewing drive).
  double cross_port_leak_m3_per_s_Pa = 0.0;
};

// Where a rope runs from its drum to the boom tip (docs/model.md, Rope reeving): the drum on
// the superstructure, the foot sheave on the boom's base section near the pivot, the tip
// sheave at the boom tip (frame 3's origin, where the hanging part starts). Positions in the
// boom's vertical plane; the sheaves' radii are left out (the wrap changes little).
struct ReevingParams {
  double drum_radial_m = 0.0;       // drum centre from the swing axis, + towards the boom tip
  double drum_height_m = 0.0;       // drum centre above the swing base
  double foot_along_m = 0.0;        // foot sheave along the boom from the pivot
  double foot_above_m = 0.0;        // foot sheave above the boom's axis
};

// Winch drum and its wire rope. Cables are elastic and cannot push.
// The winch state is the rope's unstretched length from the drum over both sheaves to the
// clam; the part hanging below the tip sheave is that minus the reeved path along the boom.
struct WinchParams {
  MotorParams motor;
  double drum_radius_m = 0.0;
  double drum_inertia_kgm2 = 0.0;     // drum + gear + motor reflected to the drum
  double rope_EA_N = 0.0;             // axial stiffness E*A of the rope
  double rope_damping_s = 0.0;        // stiffness-proportional damping: T = EA/L (e + c de/dt)
  ReevingParams reeving;
  double min_length_m = 0.0;          // shortest hanging length (block against the sheave)
  double max_length_m = 0.0;          // longest hanging length (rope fully paid out)
  double stop_stiffness_N_per_m = 0.0;  // drum end stops
  double stop_damping_Ns_per_m = 0.0;
  double rated_pull_N = 0.0;          // rope pull above this is an overload event
  double slack_margin_m = 0.0;        // rope longer than its span by this = visible slack
};

// A counterbalance (load-holding, over-centre) valve in line A, the line that holds the
// load: the cap side of the boom and telescope cylinders, the hoisting side of a winch.
// Flow into the actuator passes its check freely; flow out opens the poppet only when
// P_A + pilot_ratio * P_B reaches the setting, so a pulling load cannot run ahead of the
// oil fed to line B (Sun Hydraulics CBCA/CBEA data, docs/model.md, Hydraulics).
struct CounterbalanceParams {
  bool fitted = false;              // the swing has none: nothing hangs on it
  double pilot_ratio = 0.0;         // pilot area over the poppet's seat area
  double setting_Pa = 0.0;          // cracking pressure with no pilot (>= 1.3 x max load)
  double opening_rise_Pa = 0.0;     // rise of P_A + ratio P_B above the setting to full open
  double orifice_coeff = 0.0;       // fully open [m^3/s per sqrt(Pa)]
  // The pilot's damping orifice: the pressure on the pilot piston follows P_B with this time
  // constant (a state per channel, ix::pilot); 0: no orifice, the pilot sees P_B itself.
  double pilot_lag_s = 0.0;
  // The poppet's own dynamics: a poppet with its mass, spring and a damping chamber that the
  // oil must leave through an orifice, overdamped, follows the opening its pressures ask for
  // as a first-order lag of this time constant (a state per channel, ix::poppet; taken
  // exactly by the integrator's decay rate). 0: the opening is the static function of the
  // pressures (counterbalance_opening).
  double poppet_lag_s = 0.0;
};

struct ActuatorChannel {
  ValveParams valve;
  LineParams lines;
  CounterbalanceParams counterbalance;
};

struct HydraulicsParams {
  // Indexed like ControlSignal: 0 swing, 1 boom, 2 telescope, 3 main hoist, 4 aux hoist.
  std::array<ActuatorChannel, 5> channels{};
  MotorParams swing_motor;
  CylinderParams boom_cylinders;
  BoomGeometry boom_geometry;
  CylinderParams telescope_cylinder;
  std::array<WinchParams, 2> winches{};   // 0 main hoist (cable 1, point A), 1 aux (cable 2, C)
};

// What the crane stands on and how much it may lift (docs/model.md,
// Stability). The carrier does not turn with the swing; its outrigger pads span a rectangle
// in the base frame, x from -rear_m to +front_m, y from -half_span_m to +half_span_m, at
// height pad_height_m. The machine tips about one side of that rectangle.
struct CarrierParams {
  double mass_kg = 0.0;                  // chassis, axles, outrigger boxes (not the superstructure)
  std::array<double, 3> com_m{};         // its centre of gravity, base frame
  double front_m = 0.0;                  // outrigger pads' line ahead of the swing axis (+x)
  double rear_m = 0.0;                   // ... behind it (-x)
  double half_span_m = 0.0;              // ... to either side (+-y): the beams fully out
  double pad_height_m = 0.0;             // the pads' z in the base frame
};

// The rated-capacity chart (the manufacturer's load chart, over outriggers, 360 deg): the
// heaviest load the ropes may hold at the tip, by boom length (d3) and radius (swing axis to
// the tip), the grab included. Interpolated bilinearly, held constant outside its range.
struct CapacityChart {
  static constexpr int kMaxLengths = 8;
  static constexpr int kMaxRadii = 16;
  int lengths = 0;
  int radii = 0;
  std::array<double, kMaxLengths> boom_length_m{};   // ascending
  std::array<double, kMaxRadii> radius_m{};          // ascending
  std::array<std::array<double, kMaxRadii>, kMaxLengths> rated_kg{};
};

// The load moment indicator (LMI) and limiter: the hook load measured from the ropes' pull
// at the tip, low-pass filtered as real indicators damp it, in percent of the chart's rating.
struct LoadMomentParams {
  CapacityChart chart;
  double load_filter_s = 0.0;            // the load signal's time constant
  double warning_pct = 90.0;             // warn from here
  double cutout_pct = 100.0;             // cut out the motions that raise the moment from here
};

// The interface's fixed numbers (section 4.3): a control signal spans -5..+5 V, full stick
// at either end; DisplayData frames come every 0.05 s (20 Hz) unless a session asks for
// another rate. Every layer takes them from here.
inline constexpr double kFullStick_V = 5.0;
inline constexpr double kFramePeriod_s = 0.05;

struct IntegratorParams {
  double step_s = 0.001;                // fixed RK4 step
  double frame_s = kFramePeriod_s;      // one DisplayData frame
};

struct MachineParams {
  ClamParams clam;
  AntiSwingParams anti_swing;
  CraneParams crane;
  HydraulicsParams hydraulics;
  CarrierParams carrier;
  LoadMomentParams load_moment;
  IntegratorParams integrator;
};

}  // namespace clamsim::core
