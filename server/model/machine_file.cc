#include "model/machine_file.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <sstream>

#include "core/clam.h"
#include "core/crane.h"
#include "core/params.h"
#include "core/step_limits.h"
#include "model/quantities.h"

namespace clamsim::model {

namespace {

using B = Bounds;
namespace q = quantity;

// Ranges of this file's own (the shared kinds are in model/quantities.h).
// the closing rope's parts between the head and the block (docs/model.md, Decisions)
constexpr Quantity kClosingParts = Quantity::closed("", unit::one, 1.0, 12.0);
// Sun Hydraulics builds 1.5:1 to 10:1; below 1 the pilot could never open it against the load
constexpr Quantity kPilotRatio = Quantity::closed("", unit::one, 1.0, 20.0);
// full command is 5 V: a deadband that large would leave no metering range
constexpr Quantity kDeadband = {"V", unit::one, B::half_open(0.0, core::kFullStick_V)};
// the knee must lie inside the stroke and the opening must fall with the stroke
constexpr Quantity kKneeStroke = Quantity::closed("", unit::one, 0.01, 0.99);
constexpr Quantity kKneeOpening = Quantity::closed("", unit::one, 0.0, 1.0);
// a drum on the superstructure, within its deck of the boom pivot
constexpr Quantity kNearThePivot = Quantity::closed("m", unit::one, -20.0, 20.0);
// the foot sheave sits on the boom's base section, at most its depth above the axis
constexpr Quantity kFootAbove = Quantity::closed("m", unit::one, 0.0, 2.0);
// the carrier's CoG over its pads, and the pads from the swing bearing
constexpr Quantity kCarrierCoM = Quantity::closed("m", unit::one, -20.0, 20.0);
constexpr Quantity kPadHeight = Quantity::closed("m", unit::one, -10.0, 10.0);
// the indicator's filter (0: none) and its levels in percent of the chart
constexpr Quantity kLoadFilter = Quantity::closed("s", unit::one, 0.0, 10.0);
constexpr Quantity kMomentPct = Quantity::closed("%", unit::one, 50.0, 200.0);
// a step of 10 us makes a run 250 times dearer than the shipped 2.5 ms for nothing; the
// explicit oil springs (check_oil_springs) bound it from above for real lines
constexpr Quantity kStep = Quantity::closed("ms", unit::ms, 0.01, 100.0);
// frames go to people: 1 ms to 1 s
constexpr Quantity kFrame = Quantity::closed("ms", unit::ms, 1.0, 1000.0);

// Order of HydraulicsParams::channels, i.e. ControlSignal.
constexpr const auto& kChannels = kChannelNames;
// Order of CraneParams::links and HydraulicsParams::winches.
constexpr const char* kLinks[3] = {"swing_cab", "boom_base", "telescopic"};
constexpr const char* kWinches[2] = {"main_hoist", "aux_hoist"};

void check_schema(Section& root) {
  const std::string schema = root.text("schema");
  if (schema != kMachineSchema) {
    root.fail("schema", std::string("expected \"") + kMachineSchema + "\", got \"" + schema + "\"");
  }
}

// Cross-field check a < b, reported on key_a in the keys' unit.
void require_less(const Section& s, const std::string& key_a, double a, const std::string& key_b,
                  double b, double scale) {
  if (!(a < b)) {
    s.fail(key_a, "must be less than " + s.path_of(key_b) + " (" + format_number(b / scale) +
                      "), got " + format_number(a / scale));
  }
}

core::ClamParams read_clam(Section s) {
  core::ClamParams c;
  c.link1_mass_kg = s.number("link1_mass_kg", q::kPartMass);
  c.link2_mass_kg = s.number("link2_mass_kg", q::kPartMass);
  c.link3_mass_kg = s.number("link3_mass_kg", q::kPartMass);
  c.link1_length_m = s.number("link1_length_m", q::kPartLength);
  c.link2_length_m = s.number("link2_length_m", q::kPartLength);
  c.link1_inertia_kgm2 = s.number("link1_inertia_kgm2", q::kInertia);
  c.link2_inertia_kgm2 = s.number("link2_inertia_kgm2", q::kInertia);
  c.theta2_open_rad = s.number("theta2_open_deg", q::kBucketAngle);
  c.theta2_closed_rad = s.number("theta2_closed_deg", q::kBucketAngle);
  require_less(s, "theta2_open_deg", c.theta2_open_rad, "theta2_closed_deg", c.theta2_closed_rad,
               unit::deg);
  c.lip_length_m = s.number("lip_length_m", q::kPartLength);
  c.shell_curl_rad = s.number("shell_curl_deg", q::kShellCurl);
  c.max_load_kg = s.number("max_load_kg", q::kGrabRating);
  c.bucket_width_m = s.number("bucket_width_m", q::kPartLength);
  c.displaced_volume_m3 = s.number("displaced_volume_m3", q::kDisplacedVolume);
  c.drag_area_m2 = s.number("drag_area_m2", q::kDragArea);
  const double parts = s.number("closing_parts", kClosingParts);
  if (parts != std::floor(parts))
    s.fail("closing_parts", "must be a whole number of rope parts, got " + format_number(parts));
  c.closing_parts = static_cast<int>(parts);
  s.finish();
  return c;
}

core::AntiSwingParams read_anti_swing(Section s) {
  core::AntiSwingParams a;
  a.fitted = s.flag("fitted");
  a.stiffness_N_per_m = s.number("stiffness_N_per_m", q::kAntiSwingStiffness);
  a.damping_Ns_per_m = s.number("damping_Ns_per_m", q::kDamping);
  a.friction_N = s.number("friction_N", q::kFriction);
  a.friction_velocity_m_per_s = s.number("friction_velocity_m_per_s", q::kSmoothingSpeed);
  a.attach_below_a_m = s.number("attach_below_a_m", q::kOffset);
  s.finish();
  return a;
}

core::LinkParams read_link(Section s) {
  core::LinkParams l;
  l.mass_kg = s.number("mass_kg", q::kPartMass);
  l.com_m = s.vec3("com_m", q::kLinkCoM);
  l.inertia_kgm2 = s.vec3("inertia_kgm2", q::kInertia);
  // principal moments of a real body obey the triangle inequality
  const auto& I = l.inertia_kgm2;
  for (std::size_t i = 0; i < 3; ++i) {
    const double others = I[(i + 1) % 3] + I[(i + 2) % 3];
    if (I[i] > others * (1.0 + 1e-9)) {
      s.fail("inertia_kgm2", "moment " + std::to_string(i) + " (" + format_number(I[i]) +
                                 ") exceeds the sum of the other two (" + format_number(others) +
                                 "): not a physical body");
    }
  }
  s.finish();
  return l;
}

core::CounterweightParams read_counterweight(Section s) {
  core::CounterweightParams w;
  w.mass_kg = s.number("mass_kg", q::kBallastMass);
  w.com_m = s.vec3("com_m", q::kLinkCoM);
  w.size_m = s.vec3("size_m", q::kPartLength);
  s.finish();
  return w;
}

core::CraneParams read_crane(Section s) {
  core::CraneParams c;
  c.d1_m = s.number("d1_m", q::kPartLength);
  c.a1_m = s.number("a1_m", q::kOffset);
  Section links = s.child("links");
  c.cab = read_link(links.child(kLinks[0]));
  for (std::size_t i = 1; i < 3; ++i) c.links[i] = read_link(links.child(kLinks[i]));
  links.finish();
  c.counterweight = read_counterweight(s.child("counterweight"));
  c.links[0] = core::with_counterweight(c.cab, c.counterweight);
  c.boom_min_rad = s.number("boom_min_deg", q::kBoomAngle);
  c.boom_max_rad = s.number("boom_max_deg", q::kBoomAngle);
  require_less(s, "boom_min_deg", c.boom_min_rad, "boom_max_deg", c.boom_max_rad, unit::deg);
  c.telescope_min_m = s.number("telescope_min_m", q::kBoomLength);
  c.telescope_max_m = s.number("telescope_max_m", q::kBoomLength);
  require_less(s, "telescope_min_m", c.telescope_min_m, "telescope_max_m", c.telescope_max_m,
               unit::one);
  c.boom_stop_stiffness_Nm_per_rad = s.number("boom_stop_stiffness_Nm_per_rad",
                                              q::kStopStiffnessRot);
  c.boom_stop_damping_Nms_per_rad = s.number("boom_stop_damping_Nms_per_rad", q::kDampingRot);
  c.telescope_stop_stiffness_N_per_m = s.number("telescope_stop_stiffness_N_per_m",
                                                q::kStopStiffness);
  c.telescope_stop_damping_Ns_per_m = s.number("telescope_stop_damping_Ns_per_m", q::kDamping);
  c.gravity_m_per_s2 = s.number("gravity_m_per_s2", q::kGravity);
  c.anti_two_block_m = s.number("anti_two_block_m", q::kRopeLength);
  s.finish();
  return c;
}

// Optional: a channel without one (the swing) has no load to hold.
core::CounterbalanceParams read_counterbalance(Section s, const core::ValveParams& v) {
  core::CounterbalanceParams cb;
  cb.fitted = true;
  cb.pilot_ratio = s.number("pilot_ratio", kPilotRatio);
  cb.setting_Pa = s.number("setting_MPa", q::kSystemPressure);
  if (cb.setting_Pa <= v.tank_pressure_Pa) {
    s.fail("setting_MPa", "must be above the channel's tank_pressure_MPa (" +
                              format_number(v.tank_pressure_Pa / unit::MPa) + "), got " +
                              format_number(cb.setting_Pa / unit::MPa));
  }
  cb.opening_rise_Pa = s.number("opening_rise_MPa", q::kPressureRise);
  cb.orifice_coeff = s.number("orifice_coeff_m3_per_s_per_sqrt_Pa", q::kOrificeCoeff);
  // 0: no damping orifice; a short one is checked against the step (check_pilot_lags)
  cb.pilot_lag_s = s.number("pilot_lag_s", q::kValveLag);
  // 0: the opening is a static function of the pressures; any lag is taken exactly
  cb.poppet_lag_s = s.number("poppet_lag_s", q::kValveLag);
  s.finish();
  return cb;
}

core::ActuatorChannel read_channel(Section s) {
  core::ActuatorChannel ch;
  core::ValveParams& v = ch.valve;
  v.pump_flow_m3_per_s = s.number("pump_flow_L_per_min", q::kPumpFlow);
  v.orifice_coeff = s.number("orifice_coeff_m3_per_s_per_sqrt_Pa", q::kOrificeCoeff);
  v.tank_pressure_Pa = s.number("tank_pressure_MPa", q::kTankPressure);
  v.relief_pressure_Pa = s.number("relief_pressure_MPa", q::kSystemPressure);
  require_less(s, "tank_pressure_MPa", v.tank_pressure_Pa, "relief_pressure_MPa",
               v.relief_pressure_Pa, unit::MPa);
  v.relief_gain_m3_per_s_Pa = s.number("relief_gain_L_per_min_per_MPa", q::kReliefGain);
  v.laminar_dp_Pa = s.number("laminar_dp_MPa", q::kLaminarDrop);
  v.input_deadband_V = s.number("input_deadband_V", kDeadband);
  v.bypass_knee_stroke = s.number("bypass_knee_stroke", kKneeStroke);
  v.bypass_knee_opening = s.number("bypass_knee_opening", kKneeOpening);
  // 0: the spool is where the stick puts it; any lag is taken exactly (core spool_track)
  v.spool_lag_s = s.number("spool_lag_s", q::kValveLag);
  ch.lines.volume_m3 = s.number("line_volume_L", q::kLineVolume);
  ch.lines.bulk_modulus_Pa = s.number("bulk_modulus_MPa", q::kBulkModulus);
  if (s.has("counterbalance")) ch.counterbalance = read_counterbalance(s.child("counterbalance"), v);
  s.finish();
  return ch;
}

core::MotorParams read_motor(Section s) {
  core::MotorParams m;
  m.displacement_m3_per_rad = s.number("displacement_cc_per_rev", q::kDisplacement);
  m.gear_ratio = s.number("gear_ratio", q::kGearRatio);
  m.viscous_Nms_per_rad = s.number("viscous_Nms_per_rad", q::kDampingRot);
  m.coulomb_Nm = s.number("coulomb_Nm", q::kFrictionRot);
  // a smoothing velocity of zero would divide by zero in the friction law
  m.coulomb_velocity_rad_per_s = s.number("coulomb_velocity_rad_per_s", q::kSmoothingRate);
  m.cross_port_leak_m3_per_s_Pa = s.number("cross_port_leak_L_per_min_per_MPa", q::kLeak);
  s.finish();
  return m;
}

core::CylinderParams read_cylinder(Section s) {
  core::CylinderParams c;
  c.cap_area_m2 = s.number("cap_area_m2", q::kCylinderArea);
  c.rod_area_m2 = s.number("rod_side_area_m2", q::kCylinderArea);
  require_less(s, "rod_side_area_m2", c.rod_area_m2, "cap_area_m2", c.cap_area_m2, unit::one);
  c.viscous_Ns_per_m = s.number("viscous_Ns_per_m", q::kDamping);
  c.coulomb_N = s.number("coulomb_N", q::kFriction);
  c.coulomb_velocity_m_per_s = s.number("coulomb_velocity_m_per_s", q::kSmoothingSpeed);
  s.finish();
  return c;
}

core::BoomGeometry read_boom_geometry(Section s) {
  core::BoomGeometry g;
  g.lp_m = s.number("lp_m", q::kPartLength);
  g.lr_m = s.number("lr_m", q::kPartLength);
  g.delta_rad = s.number("delta_deg", q::kFullTurn);
  s.finish();
  return g;
}

// Drum and foot sheave in the boom's vertical plane (core::ReevingParams); that they fit the
// boom (check_reeving) needs the crane's numbers.
core::ReevingParams read_reeving(Section s) {
  core::ReevingParams r;
  r.drum_radial_m = s.number("drum_radial_m", kNearThePivot);
  r.drum_height_m = s.number("drum_height_m", kNearThePivot);
  r.foot_along_m = s.number("foot_along_m", q::kOffset);
  r.foot_above_m = s.number("foot_above_m", kFootAbove);
  s.finish();
  return r;
}

core::WinchParams read_winch(Section s) {
  core::WinchParams w;
  w.motor = read_motor(s.child("motor"));
  w.reeving = read_reeving(s.child("reeving"));
  w.drum_radius_m = s.number("drum_radius_mm", q::kDrumRadius);
  w.drum_inertia_kgm2 = s.number("drum_inertia_kgm2", q::kDrumInertia);
  w.rope_EA_N = s.number("rope_EA_N", q::kRopeEA);
  w.rope_damping_s = s.number("rope_damping_s", q::kRopeDamping);
  w.min_length_m = s.number("min_length_m", q::kRopeLength);
  w.max_length_m = s.number("max_length_m", q::kRopeLength);
  require_less(s, "min_length_m", w.min_length_m, "max_length_m", w.max_length_m, unit::one);
  w.stop_stiffness_N_per_m = s.number("stop_stiffness_N_per_m", q::kStopStiffness);
  w.stop_damping_Ns_per_m = s.number("stop_damping_Ns_per_m", q::kDamping);
  w.rated_pull_N = s.number("rated_pull_N", q::kRatedPull);
  w.slack_margin_m = s.number("slack_margin_m", q::kSlackMargin);
  s.finish();
  return w;
}

core::HydraulicsParams read_hydraulics(Section s) {
  core::HydraulicsParams h;
  Section channels = s.child("channels");
  for (std::size_t i = 0; i < 5; ++i) h.channels[i] = read_channel(channels.child(kChannels[i]));
  channels.finish();
  h.swing_motor = read_motor(s.child("swing_motor"));
  h.boom_cylinders = read_cylinder(s.child("boom_cylinders"));
  h.boom_geometry = read_boom_geometry(s.child("boom_geometry"));
  h.telescope_cylinder = read_cylinder(s.child("telescope_cylinder"));
  Section winches = s.child("winches");
  for (std::size_t i = 0; i < 2; ++i) h.winches[i] = read_winch(winches.child(kWinches[i]));
  winches.finish();
  s.finish();
  return h;
}

core::CarrierParams read_carrier(Section s) {
  core::CarrierParams c;
  c.mass_kg = s.number("mass_kg", q::kCarrierMass);
  c.com_m = s.vec3("com_m", kCarrierCoM);
  c.front_m = s.number("outrigger_front_m", q::kOutrigger);
  c.rear_m = s.number("outrigger_rear_m", q::kOutrigger);
  c.half_span_m = s.number("outrigger_half_span_m", q::kOutrigger);
  c.pad_height_m = s.number("pad_height_m", kPadHeight);
  s.finish();
  return c;
}

// Numbers that must rise from one to the next (a chart's axes), named at the first that does not.
void require_ascending(const Section& s, const std::string& key, const std::vector<double>& v) {
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (!(v[i] > v[i - 1])) {
      s.fail(key + "[" + std::to_string(i) + "]",
             "must be greater than the one before (" + format_number(v[i - 1]) + "), got " +
                 format_number(v[i]));
    }
  }
}

// The rated-capacity chart: boom lengths by radii, a row of ratings per boom length.
core::CapacityChart read_chart(Section s, const core::CraneParams& crane) {
  using Chart = core::CapacityChart;
  core::CapacityChart c;
  s.note();
  const std::vector<double> lengths =
      s.numbers("boom_length_m", 1, Chart::kMaxLengths, q::kBoomLength);
  const std::vector<double> radii = s.numbers("radius_m", 1, Chart::kMaxRadii, q::kRadius);
  require_ascending(s, "boom_length_m", lengths);
  require_ascending(s, "radius_m", radii);
  // every boom length the telescope reaches must be on the chart
  if (lengths.front() > crane.telescope_min_m + 1e-9 || lengths.back() < crane.telescope_max_m - 1e-9) {
    s.fail("boom_length_m", "must span the telescope's range, " +
                                format_number(crane.telescope_min_m) + " to " +
                                format_number(crane.telescope_max_m) + " m, got " +
                                format_number(lengths.front()) + " to " + format_number(lengths.back()));
  }
  c.lengths = static_cast<int>(lengths.size());
  c.radii = static_cast<int>(radii.size());
  std::copy(lengths.begin(), lengths.end(), c.boom_length_m.begin());
  std::copy(radii.begin(), radii.end(), c.radius_m.begin());
  const auto rated = s.number_rows("rated_kg", lengths.size(), radii.size(), q::kRatedLoad);
  for (std::size_t i = 0; i < rated.size(); ++i)
    std::copy(rated[i].begin(), rated[i].end(), c.rated_kg[i].begin());
  s.finish();
  return c;
}

core::LoadMomentParams read_load_moment(Section s, const core::CraneParams& crane) {
  core::LoadMomentParams p;
  p.load_filter_s = s.number("load_filter_s", kLoadFilter);
  p.warning_pct = s.number("warning_pct", kMomentPct);
  p.cutout_pct = s.number("cutout_pct", kMomentPct);
  require_less(s, "warning_pct", p.warning_pct, "cutout_pct", p.cutout_pct, unit::one);
  p.chart = read_chart(s.child("chart"), crane);
  s.finish();
  return p;
}

core::IntegratorParams read_integrator(Section s) {
  core::IntegratorParams p;
  p.step_s = s.number("step_ms", kStep);
  p.frame_s = s.number("frame_ms", kFrame);
  // a frame must be a whole number of steps, or frames would drift against the clock
  const double n = p.frame_s / p.step_s;
  if (std::round(n) < 1.0 || std::abs(n - std::round(n)) > 1e-9) {
    s.fail("step_ms", "must divide frame_ms (" + format_number(p.frame_s / unit::ms) +
                          ") a whole number of times, got " + format_number(p.step_s / unit::ms));
  }
  s.finish();
  return p;
}

// The integrator takes the lines' decay through the valves exactly at any step, but follows
// the oil spring (line compressibility against the driven masses) explicitly: a line too
// small or too stiff for the step would ring beyond what the step resolves.
void check_oil_springs(Section& root, const core::MachineParams& m) {
  const std::array<double, 5> w = core::oil_spring_frequencies(m);
  const double h = m.integrator.step_s;
  for (std::size_t i = 0; i < 5; ++i) {
    if (h * w[i] <= core::kMaxOilSpringStepRatio) continue;
    const core::LineParams& l = m.hydraulics.channels[i].lines;
    const double min_volume = l.volume_m3 * (h * w[i] / core::kMaxOilSpringStepRatio) *
                              (h * w[i] / core::kMaxOilSpringStepRatio);
    root.child("hydraulics").child("channels").child(kChannels[i]).fail(
        "line_volume_L",
        format_number(l.volume_m3 / unit::L) + " L of oil at " +
            format_number(l.bulk_modulus_Pa / unit::MPa) + " MPa makes an oil spring of " +
            format_number(std::round(w[i])) + " rad/s, too fast for the " +
            format_number(h / unit::ms) + " ms step (h w = " + format_number(h * w[i]) +
            ", at most " + format_number(core::kMaxOilSpringStepRatio) +
            "): use at least " + format_number(min_volume / unit::L) +
            " L, a lower bulk_modulus_MPa or a shorter integrator.step_ms");
  }
}

// A counterbalance valve's pilot lag is a state the integrator follows explicitly: it must
// span several steps, or be 0 (none). (A spool's lag is taken exactly: any length will do.)
void check_pilot_lags(Section& root, const core::MachineParams& m) {
  const double h = m.integrator.step_s, least = core::kMinLagSteps * h;
  for (std::size_t i = 0; i < 5; ++i) {
    const core::ActuatorChannel& ch = m.hydraulics.channels[i];
    const double lag = ch.counterbalance.pilot_lag_s;
    if (!ch.counterbalance.fitted || lag == 0.0 || lag >= least) continue;
    root.child("hydraulics").child("channels").child(kChannels[i]).child("counterbalance").fail(
        "pilot_lag_s", format_number(lag) + " s is shorter than " +
                           format_number(core::kMinLagSteps) + " integrator steps (" +
                           format_number(least) + " s at " + format_number(h / unit::ms) +
                           " ms): use 0 (no damping orifice), at least " + format_number(least) +
                           " s, or a shorter integrator.step_ms");
  }
}

// The foot sheave sits on the base section, and the rope from the drum reaches it at every
// boom angle (the sheave turns on a circle about the pivot that must keep clear of the drum);
// the anti-two-block switch trips before the main hoist's block reaches its stop.
void check_reeving(Section& root, const core::MachineParams& m) {
  const core::CraneParams& c = m.crane;
  for (std::size_t i = 0; i < 2; ++i) {
    const core::ReevingParams& r = m.hydraulics.winches[i].reeving;
    Section s = root.child("hydraulics").child("winches").child(kWinches[i]).child("reeving");
    if (r.foot_along_m >= c.telescope_min_m)
      s.fail("foot_along_m", "must be on the boom's base section, less than crane.telescope_min_m (" +
                                 format_number(c.telescope_min_m) + "), got " +
                                 format_number(r.foot_along_m));
    const double circle = std::hypot(r.foot_along_m, r.foot_above_m);
    const double drum = std::hypot(r.drum_radial_m + c.a1_m, r.drum_height_m - c.d1_m);
    if (std::abs(drum - circle) < 0.1)
      s.fail("drum_radial_m", "the drum is within 0.1 m of the foot sheave's circle about the "
                              "boom pivot (radius " + format_number(circle) +
                              " m): move the drum or the sheave");
  }
  const double stop = m.hydraulics.winches[0].min_length_m;
  if (c.anti_two_block_m <= stop)
    root.child("crane").fail("anti_two_block_m",
                             "must be more than hydraulics.winches.main_hoist.min_length_m (" +
                                 format_number(stop) + "), got " + format_number(c.anti_two_block_m));
}

}  // namespace

namespace {

// The closing rope hangs from the tip to the head and then runs its parts between the head
// and the block at C: reach + n s(theta2) below the tip sheave (docs/model.md, Decisions).
// A start pose whose closing rope would be past its drum's stops is refused, naming the
// fields; "" when it fits.
std::string closing_rope_out_of_range(const core::InitialConditions& ic,
                                      const core::MachineParams& m) {
  const core::WinchParams& aux = m.hydraulics.winches[1];
  const double s = core::clam_distance_at(m.clam, ic.clam_theta2_rad);
  const double parts = m.clam.closing_parts * s;
  const double hangs = ic.clam_depth_m + parts;
  if (hangs >= aux.min_length_m && hangs <= aux.max_length_m) return "";
  const bool longer = hangs > aux.max_length_m;
  std::ostringstream os;
  os << "clam_depth_m=" << format_number(ic.clam_depth_m) << " with clam_theta2_deg="
     << format_number(ic.clam_theta2_rad / unit::deg) << " needs " << format_number(hangs)
     << " m of the closing rope below the tip (the depth and " << m.clam.closing_parts
     << " parts of " << format_number(s) << " m in the grab), "
     << (longer ? "past its drum's end, hydraulics.winches.aux_hoist.max_length_m "
                : "shorter than its stop at the tip, hydraulics.winches.aux_hoist.min_length_m ")
     << format_number(longer ? aux.max_length_m : aux.min_length_m) << " m: at this opening "
     << "clam_depth_m must be " << (longer ? "at most " : "at least ")
     << format_number((longer ? aux.max_length_m : aux.min_length_m) - parts);
  return os.str();
}

}  // namespace

core::InitialConditions parse_initial_section(Section& s, const core::MachineParams& m) {
  core::InitialConditions ic;
  // the ranges are the machine's own, bounded by its fields' kinds
  ic.swing_rad = s.number("swing_deg", q::kFullTurn);
  ic.boom_rad = s.number("boom_deg", {"deg", unit::deg,
                                      B::closed(m.crane.boom_min_rad, m.crane.boom_max_rad)});
  ic.telescope_m = s.number("telescope_m", {"m", unit::one, B::closed(m.crane.telescope_min_m,
                                                                       m.crane.telescope_max_m)});
  // point A hangs on cable 1 (main hoist)
  const core::WinchParams& main = m.hydraulics.winches[0];
  ic.clam_depth_m = s.number("clam_depth_m",
                             {"m", unit::one, B::closed(main.min_length_m, main.max_length_m)});
  ic.clam_theta2_rad = s.number("clam_theta2_deg",
                                {"deg", unit::deg, B::closed(m.clam.theta2_open_rad,
                                                             m.clam.theta2_closed_rad)});
  if (const std::string why = closing_rope_out_of_range(ic, m); !why.empty())
    s.fail("clam_depth_m", why);
  s.finish();
  return ic;
}

std::string initial_out_of_range(const core::InitialConditions& ic, const core::MachineParams& m) {
  const core::WinchParams& main = m.hydraulics.winches[0];   // point A hangs on cable 1
  const struct {
    const char* key;
    double v, lo, hi, scale;   // SI, and SI units per file unit
  } values[] = {
      {"swing_deg", ic.swing_rad, q::kFullTurn.bounds.lo, q::kFullTurn.bounds.hi, unit::deg},
      {"boom_deg", ic.boom_rad, m.crane.boom_min_rad, m.crane.boom_max_rad, unit::deg},
      {"telescope_m", ic.telescope_m, m.crane.telescope_min_m, m.crane.telescope_max_m, 1.0},
      {"clam_depth_m", ic.clam_depth_m, main.min_length_m, main.max_length_m, 1.0},
      {"clam_theta2_deg", ic.clam_theta2_rad, m.clam.theta2_open_rad, m.clam.theta2_closed_rad,
       unit::deg}};
  for (auto v : values) {
    if (v.lo > v.hi) std::swap(v.lo, v.hi);
    // a pose converted from degrees in text: forgive the last bit of the conversion
    const double tol = 1e-9 * std::max({1.0, std::abs(v.lo), std::abs(v.hi)});
    if (!(v.v >= v.lo - tol && v.v <= v.hi + tol)) {
      std::ostringstream os;
      os << v.key << "=" << v.v / v.scale << " is outside the machine's range " << v.lo / v.scale
         << ".." << v.hi / v.scale;
      return os.str();
    }
  }
  return closing_rope_out_of_range(ic, m);
}

core::MachineParams parse_machine_json(const nlohmann::json& doc, const std::string& origin) {
  Section root(doc, origin);
  check_schema(root);  // first: a file of another kind should say so, not list missing keys
  root.text("name");
  if (root.has("description")) root.text("description");
  core::MachineParams m;
  m.clam = read_clam(root.child("clam"));
  m.anti_swing = read_anti_swing(root.child("anti_swing"));
  m.crane = read_crane(root.child("crane"));
  m.hydraulics = read_hydraulics(root.child("hydraulics"));
  m.carrier = read_carrier(root.child("carrier"));
  m.load_moment = read_load_moment(root.child("load_moment"), m.crane);
  m.integrator = read_integrator(root.child("integrator"));
  check_oil_springs(root, m);
  check_pilot_lags(root, m);
  check_reeving(root, m);
  // a broken "initial" section must not load either, even if this caller ignores it
  if (root.has("initial")) {
    Section initial = root.child("initial");
    parse_initial_section(initial, m);
  }
  root.finish();
  return m;
}

core::MachineParams load_machine_file(const std::string& path) {
  return parse_machine_json(read_json_file(path), path);
}

core::InitialConditions parse_initial_conditions(const nlohmann::json& doc,
                                                 const std::string& origin) {
  const core::MachineParams m = parse_machine_json(doc, origin);
  Section root(doc, origin);
  Section initial = root.child("initial");
  return parse_initial_section(initial, m);
}

std::string machine_name(const nlohmann::json& doc, const std::string& origin) {
  Section root(doc, origin);
  check_schema(root);
  return root.text("name");
}

}  // namespace clamsim::model
