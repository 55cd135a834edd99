// What instructors do to a session (issue 11): take or share the controls
// (control_arbiter.h), send the trainee a message, inject and clear faults. Instructors act
// from their connections' threads; everything reaches the machine at a frame boundary, on
// the session thread, in the order it came (DESIGN.md "Inputs are the record": each input
// takes effect at a known frame). Transport-neutral.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/state.h"
#include "session/control_arbiter.h"

namespace clamsim::session {

struct InstructorMessage {
  std::string from;   // the instructor's name
  std::string text;
};
// At most this many characters: a line on the trainee's screen.
constexpr std::size_t kMaxMessageChars = 200;

// A change for the task's report timeline (training::TaskScorer::note).
struct DeskNote {
  std::string kind;     // "control", "message"
  std::string detail;   // "exclusive", "shared", "trainee"; the message's text
  std::string by;       // the instructor
};

// What changed at one frame boundary, riding on that frame to the trainee and the
// observers (null on the frames where nothing changed).
struct FrameNotices {
  bool control_changed = false;
  ControlState control;                      // as of this frame, when changed
  std::vector<InstructorMessage> messages;   // sent since the last frame
};

// The inputs of one frame, merged.
struct FrameInputs {
  MergedControl control;
  std::shared_ptr<const FrameNotices> notices;
  std::vector<DeskNote> notes;
};

class InstructorDesk {
 public:
  ControlArbiter& control() { return arbiter_; }
  const ControlArbiter& control() const { return arbiter_; }

  // "" when queued for the trainee's screen, else why not (empty, too long, control
  // characters). Thread-safe.
  std::string post_message(const std::string& from, const std::string& text);

  // Session thread, once per frame: the trainee's stick merged with the instructor's, and
  // what changed since the last frame.
  FrameInputs begin_frame(const core::Control& trainee);

 private:
  ControlArbiter arbiter_;
  std::mutex mutex_;
  std::vector<InstructorMessage> messages_;   // waiting for the next frame
  std::uint64_t control_version_ = 0;         // session thread only, as noted_
  ControlState noted_;                        // the control state last noted
};

}  // namespace clamsim::session
