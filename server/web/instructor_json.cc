#include "web/instructor_json.h"

#include <nlohmann/json.hpp>

namespace clamsim::web {

using ojson = nlohmann::ordered_json;

namespace {

std::string dump(const ojson& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string control_json(const session::ControlState& c, session::ClientId viewer) {
  ojson j;
  j["type"] = "control";
  j["mode"] = session::to_string(c.mode);
  j["holder"] = c.holder != 0 ? ojson(c.holder_name) : ojson(nullptr);
  j["waiting"] = c.waiting;
  j["text"] = session::control_notice_text(c);
  if (viewer != 0) j["you"] = c.holder == viewer;
  return dump(j);
}

std::string instructor_message_json(const session::InstructorMessage& m) {
  return dump({{"type", "instructor_message"}, {"from", m.from}, {"text", m.text}});
}

std::vector<std::string> notices_json(const session::FrameNotices& n, session::ClientId viewer) {
  std::vector<std::string> out;
  if (n.control_changed) out.push_back(control_json(n.control, viewer));
  for (const session::InstructorMessage& m : n.messages) out.push_back(instructor_message_json(m));
  return out;
}

std::string control_answer_json(const char* request, const session::ControlAnswer& a) {
  return dump({{"type", "control_answer"},
               {"request", request},
               {"result", session::to_string(a.kind)},
               {"message", a.message}});
}

}  // namespace clamsim::web
