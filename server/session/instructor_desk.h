// What instructors do to a session: take or share the controls
// (control_arbiter.h), send the trainee a message, inject and clear faults
// (fault_catalog.h). Instructors act
// from their connections' threads; everything reaches the machine at a frame boundary, on
// the session thread, in the order it came (each input takes effect at a known frame, so
// a recording replays it; docs/architecture.md, "Inputs are the record"). Transport-neutral.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/faults.h"
#include "core/state.h"
#include "session/control_arbiter.h"
#include "session/fault_catalog.h"

namespace clamsim::session {

struct InstructorMessage {
  std::string from;   // the instructor's name
  std::string text;
};
// At most this many characters: a line on the trainee's screen.
constexpr std::size_t kMaxMessageChars = 200;

// A change for the task's report timeline (training::TaskScorer::note).
struct DeskNote {
  std::string kind;     // "control", "message", "fault", "fault_cleared"
  std::string detail;   // "exclusive", "shared", "trainee"; the message's text; the fault
  std::string by;       // the instructor
};

// What changed at one frame boundary, riding on that frame to the trainee and the
// observers (null on the frames where nothing changed).
struct FrameNotices {
  bool control_changed = false;
  ControlState control;                      // as of this frame, when changed
  std::vector<InstructorMessage> messages;   // sent since the last frame
  bool faults_changed = false;
  nlohmann::json faults;                     // active_faults_json, when changed
};

// The inputs of one frame, merged.
struct FrameInputs {
  MergedControl control;          // the trainee's stick (through the axis faults) merged
  core::Faults faults;            // the physics faults in force, for core::Environment
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

  // Inject or clear a fault by the catalog's name and parameters. Checked here against the
  // faults as they stand, so the instructor hears at once what is wrong ("" when queued
  // for the next frame). Thread-safe.
  std::string inject_fault(const std::string& by, const std::string& name,
                           const nlohmann::json& params);
  std::string clear_fault(const std::string& by, const std::string& name,
                          const nlohmann::json& params);
  // What is active now (active_faults_json). Thread-safe.
  nlohmann::json active_faults() const;

  // Session thread, once per frame: what instructors did since the last frame takes effect;
  // the trainee's stick through the axis faults, merged with the instructor's. time_s: the
  // session's own clock, which a restart does not reset (faults outlive an attempt).
  FrameInputs begin_frame(const core::Control& trainee, double time_s);

 private:
  struct FaultAction {
    bool inject = true;
    std::string by, name;
    nlohmann::json params;
  };
  // Checks a fault action against the faults shown and queues it; "" or the error.
  std::string queue_fault(FaultAction a);
  // Applies the queued fault actions and expiries (session thread); notes each.
  bool apply_faults(double time_s, std::vector<DeskNote>& notes);

  ControlArbiter arbiter_;
  mutable std::mutex mutex_;
  std::vector<InstructorMessage> messages_;   // waiting for the next frame
  std::vector<FaultAction> fault_actions_;    // waiting for the next frame
  ActiveFaults shown_;                        // the faults after the queued actions: what
                                              // requests are checked against and shown
  ActiveFaults faults_;                       // session thread only: in force
  core::Control last_control_;                // session thread only: the volts in force
  std::uint64_t control_version_ = 0;         // session thread only, as noted_
  ControlState noted_;                        // the control state last noted
};

}  // namespace clamsim::session
