// Who drives a session's machine (docs/instructor.md, "Taking the controls"; after the
// observe / exclusive / collaborative model of Amoretti et al.): the trainee, or one
// instructor holding exclusive control (the trainee's stick is ignored), or one instructor
// sharing it like a dual-control car (the instructor's non-neutral axes override the
// trainee's, axis by axis). At most one instructor holds control; a second one waits in
// line or is refused with the reason. Transport-neutral and thread-safe: connections ask
// from their own threads, the session thread merges the inputs once per frame.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

#include "core/state.h"

namespace clamsim::session {

// The connection asking (an observer's connection); 0 is no client.
using ClientId = std::uint64_t;

enum class ControlMode : std::uint8_t { Trainee, Exclusive, Shared };
// "trainee", "exclusive", "shared"
const char* to_string(ControlMode m);

// Whose inputs moved the machine in a frame.
enum class Driver : std::uint8_t { Trainee, Instructor, Both };
// "trainee", "instructor", "both"
const char* to_string(Driver d);

// An instructor axis counts as moved (overrides the trainee's in shared control) beyond
// this: a centred joystick reads a few hundredths of a volt.
constexpr double kNeutralVolts = 0.2;

struct ControlState {
  ControlMode mode = ControlMode::Trainee;
  ClientId holder = 0;            // the instructor's connection; 0 in Trainee mode
  std::string holder_name;        // the instructor's login name ("instructor" without one)
  std::size_t waiting = 0;        // instructors in line
  std::uint64_t version = 0;      // counts changes: the session notes each one
};

struct ControlAnswer {
  enum class Kind { Granted, Waiting, Refused, Released, NotHeld };
  Kind kind = Kind::Refused;
  std::string message;            // for the instructor: what happened, or why not
};
// "granted", "waiting", "refused", "released", "not_held"
const char* to_string(ControlAnswer::Kind k);

struct MergedControl {
  core::Control control;          // what reaches the model
  Driver driver = Driver::Trainee;
  std::string instructor;         // the holder's name when the driver is not the trainee
};

// What the trainee is told of a change: "Instructor ann is driving: your stick is ignored",
// "Dual control: instructor ann's stick overrides yours where it moves", "You are driving".
std::string control_notice_text(const ControlState& c);

class ControlArbiter {
 public:
  // Take the controls in `mode` (Exclusive or Shared). Granted when nobody holds them or
  // `who` already does (a holder may switch modes); else Waiting when `wait` (in line,
  // granted on the holder's release), else Refused naming the holder.
  ControlAnswer request(ClientId who, const std::string& name, ControlMode mode, bool wait);
  // Hand back (the next in line takes over, else the trainee), or leave the line.
  ControlAnswer release(ClientId who);
  // The connection is gone: as release, without an answer.
  void leave(ClientId who);
  // The holder's stick; false (ignored) from anyone else. Starts at neutral on each grant.
  bool set_instructor_control(ClientId who, const core::Control& u);

  // The session thread's merge of the trainee's stick with the holder's.
  MergedControl merge(const core::Control& trainee) const;
  ControlState state() const;

 private:
  struct Request {
    ClientId who = 0;
    std::string name;
    ControlMode mode = ControlMode::Exclusive;
  };
  void grant(Request r);   // under mutex_, as the next two
  void drop_from_line(ClientId who);
  void changed() { ++state_.version; state_.waiting = line_.size(); }

  mutable std::mutex mutex_;
  ControlState state_;
  core::Control instructor_;      // the holder's last stick
  std::deque<Request> line_;
};

}  // namespace clamsim::session
