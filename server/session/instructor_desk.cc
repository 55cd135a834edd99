#include "session/instructor_desk.h"

#include <utility>

namespace clamsim::session {

namespace {

// UTF-8 code points in `s` (continuation bytes not counted), or -1 when `s` holds a
// control character; the JSON layer has already refused invalid UTF-8.
long printable_chars(const std::string& s) {
  long n = 0;
  for (const char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f) return -1;
    if ((b & 0xc0) != 0x80) ++n;
  }
  return n;
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

}  // namespace

std::string InstructorDesk::post_message(const std::string& from, const std::string& text) {
  const std::string t = trimmed(text);
  const long chars = printable_chars(t);
  if (chars < 0) return "the message may not hold control characters (tabs, new lines)";
  if (chars == 0) return "the message is empty";
  if (chars > static_cast<long>(kMaxMessageChars))
    return "the message has " + std::to_string(chars) + " characters; at most " +
           std::to_string(kMaxMessageChars) + " fit the trainee's screen";
  std::lock_guard<std::mutex> lock(mutex_);
  if (messages_.size() >= 8) return "too many messages at once; wait a moment";
  messages_.push_back({from.empty() ? "instructor" : from, t});
  return "";
}

FrameInputs InstructorDesk::begin_frame(const core::Control& trainee) {
  FrameInputs in;
  in.control = arbiter_.merge(trainee);
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
  in.notices = std::move(notices);
  return in;
}

}  // namespace clamsim::session
