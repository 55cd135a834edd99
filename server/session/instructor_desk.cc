#include "session/instructor_desk.h"

#include <utility>

#include "training/trainee_name.h"

namespace clamsim::session {

std::string InstructorDesk::post_message(const std::string& from, const std::string& text) {
  // the trainee's screen shows it as the instructor's page shows a trainee's name: one rule
  std::string why;
  const std::optional<std::string> shown =
      training::normalise_shown_text(text, "the message", kMaxMessageChars, &why);
  if (!shown) return why;
  const std::string& t = *shown;
  std::lock_guard<std::mutex> lock(mutex_);
  if (messages_.size() >= 8) return "too many messages at once; wait a moment";
  messages_.push_back({from.empty() ? "instructor" : from, t});
  return "";
}

std::string InstructorDesk::inject_fault(const std::string& by, const std::string& name,
                                        const nlohmann::json& params) {
  return queue_fault({true, by, name, params});
}

std::string InstructorDesk::clear_fault(const std::string& by, const std::string& name,
                                       const nlohmann::json& params) {
  return queue_fault({false, by, name, params});
}

std::string InstructorDesk::queue_fault(FaultAction a) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (fault_actions_.size() >= 16) return "too many fault changes at once; wait a moment";
  // checked on a copy: the session applies it at the next frame, with the volts then
  ActiveFaults scratch = shown_;
  const std::string error = a.inject ? session::inject_fault(scratch, a.name, a.params, {})
                                     : session::clear_fault(scratch, a.name, a.params);
  if (!error.empty()) return error;
  shown_ = std::move(scratch);
  if (a.by.empty()) a.by = "instructor";
  fault_actions_.push_back(std::move(a));
  return "";
}

nlohmann::json InstructorDesk::active_faults() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return active_faults_json(shown_);
}

bool InstructorDesk::apply_faults(double time_s, std::vector<DeskNote>& notes) {
  std::vector<FaultAction> actions;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    actions.swap(fault_actions_);
  }
  bool changed = false;
  for (const FaultAction& a : actions) {
    const std::string error =
        a.inject ? session::inject_fault(faults_, a.name, a.params, {time_s, last_control_})
                 : session::clear_fault(faults_, a.name, a.params);
    if (!error.empty()) continue;   // checked when asked; a clear of what expired meanwhile
    changed = true;
    notes.push_back({a.inject ? "fault" : "fault_cleared",
                     fault_text(a.name, a.inject ? faults_.list.back().params : a.params), a.by});
  }
  // a fault whose time is up ends here (no copy of the list on the frames where none is)
  bool due = false;
  for (const ActiveFault& f : faults_.list) {
    if (f.until_s > time_s) continue;
    notes.push_back({"fault_cleared", fault_text(f.name, f.params), ""});  // nobody: time up
    due = true;
  }
  if (due) {
    expire_faults(faults_, time_s);
    changed = true;
  }
  if (changed) {
    std::lock_guard<std::mutex> lock(mutex_);
    // what is shown follows what is in force, with the actions still queued on top
    shown_ = faults_;
    for (const FaultAction& a : fault_actions_) {
      if (a.inject) session::inject_fault(shown_, a.name, a.params, {time_s, last_control_});
      else session::clear_fault(shown_, a.name, a.params);
    }
  }
  return changed;
}

FrameInputs InstructorDesk::begin_frame(const core::Control& trainee, double time_s) {
  FrameInputs in;
  const bool faults_changed = apply_faults(time_s, in.notes);
  in.control = arbiter_.merge(trainee_input(faults_.input, trainee, time_s));
  in.faults = faults_.physics;
  last_control_ = in.control.control;
  std::shared_ptr<FrameNotices> notices;
  const auto notice = [&]() -> FrameNotices& {
    if (!notices) notices = std::make_shared<FrameNotices>();
    return *notices;
  };
  const ControlState c = arbiter_.state();
  if (c.version != control_version_) {
    control_version_ = c.version;
    notice().control_changed = true;
    notice().control = c;
    // the line growing or shrinking is shown, not noted; a hand-over is noted (by whom:
    // the new holder, or the one who handed back)
    if (c.mode != noted_.mode || c.holder != noted_.holder)
      in.notes.push_back({"control", to_string(c.mode),
                          c.holder != 0 ? c.holder_name : noted_.holder_name});
    noted_ = c;
  }
  std::vector<InstructorMessage> messages;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    messages.swap(messages_);
  }
  for (InstructorMessage& m : messages) {
    in.notes.push_back({"message", m.text, m.from});
    notice().messages.push_back(std::move(m));
  }
  if (faults_changed) {
    notice().faults_changed = true;
    notice().faults = active_faults_json(faults_);
  }
  in.notices = std::move(notices);
  return in;
}

}  // namespace clamsim::session
