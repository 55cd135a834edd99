#include "session/control_arbiter.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

namespace clamsim::session {

const char* to_string(ControlMode m) {
  switch (m) {
    case ControlMode::Trainee: return "trainee";
    case ControlMode::Exclusive: return "exclusive";
    case ControlMode::Shared: return "shared";
  }
  return "?";
}

const char* to_string(Driver d) {
  switch (d) {
    case Driver::Trainee: return "trainee";
    case Driver::Instructor: return "instructor";
    case Driver::Both: return "both";
  }
  return "?";
}

const char* to_string(ControlAnswer::Kind k) {
  switch (k) {
    case ControlAnswer::Kind::Granted: return "granted";
    case ControlAnswer::Kind::Waiting: return "waiting";
    case ControlAnswer::Kind::Refused: return "refused";
    case ControlAnswer::Kind::Released: return "released";
    case ControlAnswer::Kind::NotHeld: return "not_held";
  }
  return "?";
}

namespace {

std::string shown_name(const std::string& name) { return name.empty() ? "instructor" : name; }

// "Instructor ann", or "The instructor" without a name or for the first account's own name
// (auth::kFirstInstructor), which would read "Instructor instructor".
std::string instructor_words(const std::string& name) {
  return name.empty() || name == "instructor" ? "The instructor" : "Instructor " + name;
}

std::string mode_words(ControlMode m) {
  return m == ControlMode::Shared ? "shared (dual) control" : "exclusive control";
}

}  // namespace

std::string control_notice_text(const ControlState& c) {
  switch (c.mode) {
    case ControlMode::Exclusive:
      return instructor_words(c.holder_name) + " is driving: your stick is ignored";
    case ControlMode::Shared: {
      std::string who = instructor_words(c.holder_name);
      who[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(who[0])));
      return "Dual control: " + who + "'s stick overrides yours where it moves";
    }
    case ControlMode::Trainee: break;
  }
  return "You are driving";
}

void ControlArbiter::drop_from_line(ClientId who) {
  line_.erase(std::remove_if(line_.begin(), line_.end(),
                             [who](const Request& r) { return r.who == who; }),
              line_.end());
}

void ControlArbiter::grant(Request r) {
  state_.mode = r.mode;
  state_.holder = r.who;
  state_.holder_name = shown_name(r.name);
  instructor_ = core::Control{};  // a new holder starts at neutral, never a stale stick
  changed();
}

ControlAnswer ControlArbiter::request(ClientId who, const std::string& name, ControlMode mode,
                                      bool wait) {
  if (mode == ControlMode::Trainee)
    return {ControlAnswer::Kind::Refused, "ask for exclusive or shared control"};
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_.holder == 0 || state_.holder == who) {
    const bool switching = state_.holder == who;
    drop_from_line(who);
    if (switching && state_.mode == mode)
      return {ControlAnswer::Kind::Granted, "you already have " + mode_words(mode)};
    const core::Control kept = instructor_;
    grant({who, name, mode});
    if (switching) instructor_ = kept;  // a change of mode keeps the stick where it is
    return {ControlAnswer::Kind::Granted, "you have " + mode_words(mode)};
  }
  const std::string held = state_.holder_name + " has " + mode_words(state_.mode);
  if (!wait) return {ControlAnswer::Kind::Refused, held + "; ask again to wait in line"};
  const auto it = std::find_if(line_.begin(), line_.end(),
                               [who](const Request& r) { return r.who == who; });
  if (it != line_.end()) it->mode = mode;
  else line_.push_back({who, name, mode});
  changed();
  const auto place = static_cast<std::size_t>(
      std::find_if(line_.begin(), line_.end(), [who](const Request& r) { return r.who == who; }) -
      line_.begin());
  return {ControlAnswer::Kind::Waiting,
          held + "; you are number " + std::to_string(place + 1) + " in line"};
}

ControlAnswer ControlArbiter::release(ClientId who) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_.holder == who && who != 0) {
    if (line_.empty()) {
      state_ = ControlState{ControlMode::Trainee, 0, "", 0, state_.version};
      instructor_ = core::Control{};
      changed();
    } else {
      Request next = std::move(line_.front());
      line_.pop_front();
      grant(std::move(next));
    }
    return {ControlAnswer::Kind::Released, "control handed back"};
  }
  const auto before = line_.size();
  drop_from_line(who);
  if (line_.size() != before) {
    changed();
    return {ControlAnswer::Kind::Released, "you left the line"};
  }
  return {ControlAnswer::Kind::NotHeld, "you do not hold control and are not in line"};
}

void ControlArbiter::leave(ClientId who) { release(who); }

bool ControlArbiter::set_instructor_control(ClientId who, const core::Control& u) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (who == 0 || state_.holder != who) return false;
  instructor_ = u;
  return true;
}

MergedControl ControlArbiter::merge(const core::Control& trainee) const {
  std::lock_guard<std::mutex> lock(mutex_);
  MergedControl m{trainee, Driver::Trainee, {}};
  if (state_.mode == ControlMode::Exclusive) {
    m.control = instructor_;
    m.driver = Driver::Instructor;
    m.instructor = state_.holder_name;
  } else if (state_.mode == ControlMode::Shared) {
    bool instructor_moved = false, trainee_moved = false;
    for (std::size_t i = 0; i < m.control.volts.size(); ++i) {
      if (std::abs(instructor_.volts[i]) > kNeutralVolts) {
        m.control.volts[i] = instructor_.volts[i];
        instructor_moved = true;
      } else if (std::abs(trainee.volts[i]) > kNeutralVolts) {
        trainee_moved = true;
      }
    }
    if (instructor_moved) {
      m.driver = trainee_moved ? Driver::Both : Driver::Instructor;
      m.instructor = state_.holder_name;
    }
  }
  return m;
}

ControlState ControlArbiter::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return state_;
}

}  // namespace clamsim::session
