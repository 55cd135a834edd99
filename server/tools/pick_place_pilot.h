// A scripted operator for the thesis's experiment 5.1.3 (pick-and-place): it reads only what
// a trainee sees (the frame's outputs) and answers with the five joystick voltages.
// Proportional control per phase; no knowledge of the model's state. Used by
// `clamsim-sim --pick-place` (a demonstration run with the chapter-5 plots) and by the tests
// of experiment 5.1.3 and of the task's scoring.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/clam.h"
#include "core/params.h"
#include "core/state.h"

namespace clamsim::tools {

struct Point {
  double x = 0.0, y = 0.0, z = 0.0;
};

class PickPlacePilot {
 public:
  enum class Phase { MoveOver, Lower, Close, Lift, Carry, LowerToPlace, Release, Retreat, Done, Failed };

  // pick: the load's centre; place: where its centre should go; carry_z: the height the clam's
  // lowest point travels at. depth_below_c: how far below C the load sits when closing.
  PickPlacePilot(const core::MachineParams& m, Point pick, Point place, double carry_z)
      : m_(m), pick_(pick), place_(place), carry_z_(carry_z) {}

  Phase phase() const { return phase_; }
  const char* phase_name() const {
    static const char* names[] = {"move over", "lower", "close", "lift", "carry",
                                  "lower to place", "release", "retreat", "done", "failed"};
    return names[static_cast<int>(phase_)];
  }
  double phase_time_s() const { return in_phase_s_; }

  // Called once per frame of period dt_s.
  core::Control next(const core::Outputs& o, double dt_s) {
    in_phase_s_ += dt_s;
    core::Control u;
    auto& v = u.volts;
    switch (phase_) {
      case Phase::MoveOver:
        if (steer(o, pick_, v) && settled(o)) advance(Phase::Lower);
        break;
      case Phase::Lower:
        lower_to_grip(o, dt_s, v);
        break;
      case Phase::Close:
        close_on_load(o, v);
        break;
      case Phase::Lift:
        lift_load(o, v);
        break;
      case Phase::Carry:
        v[3] = slack_follow(o);
        if (steer(o, place_, v) && settled(o)) advance(Phase::LowerToPlace);
        if (o.load != core::LoadStatus::WithLoad) advance(Phase::Failed);
        break;
      case Phase::LowerToPlace:
        lower_to_place(o, v);
        break;
      case Phase::Release:
        // Hold the head, let the closing rope out: the buckets open and the load slips out.
        v[3] = rope_volts(0, 0.2);
        v[4] = rope_volts(1, -0.3);
        if (o.load == core::LoadStatus::WithoutLoad && in_phase_s_ > 1.0) advance(Phase::Retreat);
        if (in_phase_s_ > 10.0) advance(Phase::Failed);
        break;
      case Phase::Retreat:
        // up clear of the truck, 1 m: the block stays well below the anti-two-block switch
        v[3] = rope_volts(0, 0.5);
        v[4] = rope_volts(1, 0.5);
        if (in_phase_s_ > 2.0) advance(Phase::Done);
        break;
      case Phase::Done:
      case Phase::Failed:
        break;
    }
    return eased(u, dt_s);
  }

 private:
  // The phases with more to them than a few lines (next() runs them), each on the volts v.
  void lower_to_grip(const core::Outputs& o, double dt_s, std::array<double, 5>& v) {
    const double c_z = o.point_c[2];
    // Both ropes out until C is a grip depth above the load's centre: the open buckets
    // around it, their lips beside it, where closing turns them in under it (higher, the
    // shells close on it in the throat and only push it down: docs/model.md, Grip).
    v[3] = -clamp(3.0 * (c_z - (pick_.z + grip_depth())) + 1.0, 1.0, 2.5);
    v[4] = clamp(v[3] - 0.1 * (90.0 - o.display[4]), -5.0, 0.0);  // keep the jaws open
    steer(o, pick_, v, false);
    // Landed: the clam has rested on something for a few frames. (A single frame's
    // contact force is an impact's, which the frame samples somewhere in its spike.)
    touching_s_ = o.clam_contact_force_N > 0.0 ? touching_s_ + dt_s : 0.0;
    if (c_z < pick_.z + grip_depth() || touching_s_ >= kLandedAfter_s) advance(Phase::Close);
  }

  void close_on_load(const core::Outputs& o, std::array<double, 5>& v) {
    const double c_z = o.point_c[2];
    // Haul on the closing rope: its parts in the clam draw the block C up towards the head.
    // The holding rope lets the head down as far as keeps C at the grip depth over the
    // load, so that the lips turn in under it rather than closing above it (C rises by
    // half a metre as the buckets close; the holding rope's load-holding valve lets the
    // head down only once its damped poppet has opened, hence feedback on C, not a fixed
    // ratio). Lift only once the closing rope carries the grab: hoisted on the holding rope, the
    // buckets would be pulled open and the load slip out. Once it grips, gently: the
    // closing rope takes the weight and would snatch the grab up past the holding rope.
    v[4] = o.load == core::LoadStatus::WithLoad ? 1.0 : 2.0;
    v[3] = o.load == core::LoadStatus::WithLoad
               ? 0.0
               : clamp(-4.0 * (c_z - (pick_.z + grip_depth())), -2.5, 0.0);
    if (o.load == core::LoadStatus::WithLoad &&
        o.tensions_N[1] > 0.5 * core::clam_mass(m_.clam, 0.0) * m_.crane.gravity_m_per_s2)
      advance(Phase::Lift);
    if (in_phase_s_ > 8.0) advance(Phase::Failed);
  }

  void lift_load(const core::Outputs& o, std::array<double, 5>& v) {
    // The tip must stand high enough that the load's lowest point reaches the carry height
    // with the block (A) still clear of the anti-two-block switch under the tip sheave
    // (crane.anti_two_block_m, plus a margin): boom up (and out, keeping the tip over the
    // pick) as far as that needs, and hoist only while A is clear.
    const core::CraneParams& c = m_.crane;
    const double a_over_c = o.point_a[2] - o.point_c[2];
    tip_rise_ = std::max(tip_rise_, carry_z_ + m_.clam.lip_length_m + a_over_c +
                                        c.anti_two_block_m + kTwoBlockMargin_m - c.d1_m);
    // hoist first (the log leaves the water on the ropes alone: booming while it is still
    // in the water swings it out of the jaws); boom only as A nears the switch
    const bool near = o.display[3] < c.anti_two_block_m + 2.0 * kTwoBlockMargin_m;
    if (near) steer(o, pick_, v, false);
    // slowing as A nears the switch: the winch runs on for its spool's lag after the
    // lever is eased (0.3 s, 0.3 m at the 2 m/s of full stick)
    const double room = o.display[3] - (c.anti_two_block_m + 0.5 * kTwoBlockMargin_m);
    // The holding rope was paying out to follow the sinking head while the grab closed:
    // the closing rope starts slowly and waits for it to take up its loop (a loop longer
    // than the slack margin is an exam fault).
    const double loop = o.display[5] - o.display[3];
    const double hoist = std::min(1.6 * clamp(1.0 - (loop - 0.2) / 0.15, 0.0, 1.0),
                                  0.2 + 0.5 * in_phase_s_);
    v[4] = rope_volts(1, clamp(1.5 * room, 0.0, hoist));
    v[3] = clamp(v[4] + slack_follow(o), -5.0, 5.0);
    if (lowest(o) > carry_z_) {
      // carry at this height: the tip may not sink below where it is now
      const double boom = o.joint_pos[1] * M_PI / 180.0;
      tip_rise_ = std::max(tip_rise_, o.joint_pos[2] * std::sin(boom));
      advance(Phase::Carry);
    }
    if (o.load != core::LoadStatus::WithLoad) advance(Phase::Failed);
  }

  void lower_to_place(const core::Outputs& o, std::array<double, 5>& v) {
    const double c_z = o.point_c[2];
    // Down on the closing rope until the load is half a metre above its place, slowing
    // to 0.2 m/s as it nears it (stopped from faster, the grab runs on and sets down
    // hard). Not lower: the buckets swing their lips down as they open and would strike
    // the truck's bed.
    const double load_z = o.held_load >= 0 ? o.loads[static_cast<std::size_t>(o.held_load)].position_m[2] : c_z;
    v[4] = rope_volts(1, -clamp(0.8 * (load_z - (place_.z + 0.5)) + 0.2, 0.2, 1.2));
    v[3] = clamp(v[4] + slack_follow(o), -5.0, 5.0);
    steer(o, place_, v, false);
    // Let go above its place, or once it has slipped out of the jaws
    // anyway (set down on something, the ropes slacken and the grip goes).
    if (load_z < place_.z + 0.5 || o.load != core::LoadStatus::WithLoad)
      advance(Phase::Release);
  }

  static double clamp(double x, double lo, double hi) { return std::max(lo, std::min(hi, x)); }
  static double wrap(double a) { return std::atan2(std::sin(a), std::cos(a)); }

  // A hand moves a lever from centre to full in about half a second, never in one frame: a
  // lever slammed from hoisting to lowering snatches a held load, which bounces on its
  // ropes until the closing rope goes slack and the grip lets go.
  core::Control eased(core::Control u, double dt_s) {
    const double most = kLeverRate_V_per_s * dt_s;
    for (std::size_t i = 0; i < u.volts.size(); ++i) {
      u.volts[i] = clamp(u.volts[i], last_.volts[i] - most, last_.volts[i] + most);
    }
    last_ = u;
    return u;
  }

  void advance(Phase p) {
    phase_ = p;
    in_phase_s_ = 0.0;
    hold_span_ = -1.0;
  }

  // C's height above a load's centre that puts the open lips beside it: three quarters of a
  // lip below the hinge (closing, the lips then come in under a log of 0.3-0.5 m).
  double grip_depth() const { return 0.75 * m_.clam.lip_length_m; }

  double lowest(const core::Outputs& o) const {
    // The lips hang about a lip length below C when closed on a load.
    return o.point_c[2] - m_.clam.lip_length_m;
  }

  // The holding rope follows the clam with a little slack (a rope paid out into a loop is an
  // exam fault; a taut one would pull the jaws open).
  double slack_follow(const core::Outputs& o) const {
    const double loop = o.display[5] - o.display[3];
    return clamp(4.0 * (loop - 0.25), -2.0, 2.0);
  }

  // Joint targets that put the tip over p: swing towards it, boom at 20 deg (more when the
  // telescope would be shorter than its minimum, or when the tip would sink below the height
  // it carries the load at), telescope for the reach. With the ropes reeved along the boom
  // the compensation below holds the clam's distance under the tip, so the tip's height is
  // the load's: telescoping in at a fixed boom angle would lower the load into whatever is
  // under it (the truck's side), so an operator booms up instead.
  bool steer(const core::Outputs& o, Point p, std::array<double, 5>& v, bool hold = true) {
    const core::CraneParams& c = m_.crane;
    const double swing = std::atan2(p.y, p.x);
    const double reach = std::hypot(p.x, p.y) + c.a1_m;
    double boom = std::max(20.0 * M_PI / 180.0, std::atan2(tip_rise_, reach));
    double tel = reach / std::cos(boom);
    if (tel < c.telescope_min_m + 0.2) {
      tel = c.telescope_min_m + 0.2;
      boom = std::acos(std::min(1.0, reach / tel));
    }
    const double e_swing = wrap(swing - o.joint_pos[0] * M_PI / 180.0) * 180.0 / M_PI;   // deg
    const double e_boom = boom * 180.0 / M_PI - o.joint_pos[1];                        // deg
    const double e_tel = tel - o.joint_pos[2];                                          // m
    // Swing gently (a slewing crane's tip acceleration is what makes the clam swing), and
    // ease the stick in and out like an operator: at most 2 V/s of change.
    const double swing_cmd = drive(0.15 * e_swing - 0.25 * o.joint_vel[0], e_swing, 0.3, 0.8, 3.0);
    v[0] = clamp(swing_cmd, last_swing_ - 0.1, last_swing_ + 0.1);
    last_swing_ = v[0];
    v[1] = drive(2.0 * e_boom - 0.5 * o.joint_vel[1], e_boom, 0.2, 0.8, 5.0);
    v[2] = drive(3.0 * e_tel - 1.0 * o.joint_vel[2], e_tel, 0.05, 0.8, 5.0);
    // The telescope draws the ropes in along the boom as it runs out and lets them out as it
    // runs in (docs/model.md, Rope reeving): an operator pays out or reels in as fast, keeping
    // the clam's distance below the tip (else it climbs to the tip sheave or drops). While
    // it lowers on purpose (hold false) only the feed-forward: holding the distance would
    // fight the lowering, and the two ropes' corrections would open the buckets.
    if (std::fabs(o.joint_vel[2]) > 0.005 || v[2] != 0.0) {
      if (hold_span_ < 0.0) hold_span_ = o.display[3];
      const double correct = hold ? clamp(2.0 * (o.display[3] - hold_span_), -2.0, 2.0) : 0.0;
      for (int i = 0; i < 2; ++i) v[3 + i] += correct - 0.5 * rope_volts(i, o.joint_vel[2]);
    }
    return std::fabs(e_swing) < 0.5 && std::fabs(e_boom) < 0.4 && std::fabs(e_tel) < 0.1;
  }

  // The winch command that moves rope i at speed m/s (+ reels in), at the full-stick speed
  // of pump flow over displacement, linear beyond the deadband.
  double rope_volts(int i, double speed) const {
    if (std::fabs(speed) < 0.005) return 0.0;
    const core::WinchParams& w = m_.hydraulics.winches[static_cast<std::size_t>(i)];
    const core::ValveParams& valve = m_.hydraulics.channels[static_cast<std::size_t>(3 + i)].valve;
    const double full = valve.pump_flow_m3_per_s /
                        (w.motor.displacement_m3_per_rad * w.motor.gear_ratio) * w.drum_radius_m;
    const double volts = valve.input_deadband_V + (core::kFullStick_V - valve.input_deadband_V) * std::fabs(speed) / full;
    return std::copysign(std::min(volts, core::kFullStick_V), speed);
  }

  // A proportional command, at least `least` volts (the open-centre valves meter little near
  // their deadband) while the error is outside the tolerance, zero inside it.
  static double drive(double command, double error, double tolerance, double least, double most) {
    if (std::fabs(error) < tolerance) return 0.0;
    const double magnitude = clamp(std::fabs(command), least, most);
    return command >= 0.0 ? magnitude : -magnitude;
  }

  static bool settled(const core::Outputs& o) {
    return std::hypot(o.clam_swing_deg[0], o.clam_swing_deg[1]) < 1.0 &&
           std::fabs(o.joint_vel[0]) < 0.5 && std::fabs(o.joint_vel[1]) < 0.5 &&
           std::fabs(o.joint_vel[2]) < 0.05;
  }

  const core::MachineParams& m_;
  Point pick_, place_;
  double carry_z_;
  Phase phase_ = Phase::MoveOver;
  double in_phase_s_ = 0.0;
  double last_swing_ = 0.0;
  double hold_span_ = -1.0;   // tip to A held while telescoping in this phase, -1: not yet
  double touching_s_ = 0.0;   // how long the clam has been in contact, lowering
  core::Control last_;         // the levers as they were left last frame
  static constexpr double kLeverRate_V_per_s = 10.0;
  static constexpr double kLandedAfter_s = 0.15;
  double tip_rise_ = 0.0;     // tip above the boom pivot to keep while carrying [m]
  // how far the block stays below the anti-two-block switch's trip distance when carrying [m]
  static constexpr double kTwoBlockMargin_m = 0.5;
};

}  // namespace clamsim::tools
