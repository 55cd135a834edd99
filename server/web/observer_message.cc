#include "web/observer_message.h"

#include <initializer_list>
#include <utility>

namespace clamsim::web {

namespace {

using Type = ObserverMessage::Type;

ObserverMessage invalid(std::string code, std::string message) {
  ObserverMessage m;
  m.error_code = std::move(code);
  m.error_message = std::move(message);
  return m;
}

ObserverMessage take(const nlohmann::json& j, const std::string& type, Type t) {
  if (auto e = unexpected_field(j, type, {"wait"}); !e.empty()) return invalid("bad_message", e);
  ObserverMessage m;
  m.type = t;
  if (const auto w = j.find("wait"); w != j.end()) {
    if (!w->is_boolean())
      return invalid("bad_message", type + ": wait is a " + w->type_name() +
                                        ", expected true or false");
    m.wait = w->get<bool>();
  }
  return m;
}

ObserverMessage message(const nlohmann::json& j) {
  if (auto e = unexpected_field(j, "message", {"text"}); !e.empty())
    return invalid("bad_message", e);
  const auto t = j.find("text");
  if (t == j.end() || !t->is_string())
    return invalid("bad_message", "message: expected \"text\", a string");
  ObserverMessage m;
  m.type = Type::Message;
  m.text = t->get<std::string>();
  return m;
}

ObserverMessage fault(const nlohmann::json& j, const std::string& type, Type t) {
  if (auto e = unexpected_field(j, type, {"name", "params"}); !e.empty())
    return invalid("bad_message", e);
  const auto name = j.find("name");
  if (name == j.end() || !name->is_string())
    return invalid("bad_message", type + ": expected \"name\", a string (the fault catalog "
                                         "in hello.observing.faults lists them)");
  ObserverMessage m;
  m.type = t;
  m.fault = name->get<std::string>();
  if (const auto p = j.find("params"); p != j.end()) {
    if (!p->is_object())
      return invalid("bad_message", type + ": params is a " + p->type_name() +
                                        ", expected an object");
    m.params = *p;
  }
  return m;
}

// The observer's own types (the trainee's parser called them unknown).
ObserverMessage observer_type(std::string_view text) {
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  const std::string type = j.value("type", "");
  if (type == "take_control") return take(j, type, Type::TakeControl);
  if (type == "share_control") return take(j, type, Type::ShareControl);
  if (type == "release_control") {
    if (auto e = unexpected_field(j, type, {}); !e.empty()) return invalid("bad_message", e);
    ObserverMessage m;
    m.type = Type::ReleaseControl;
    return m;
  }
  if (type == "message") return message(j);
  if (type == "fault") return fault(j, type, Type::Fault);
  if (type == "clear_fault") return fault(j, type, Type::ClearFault);
  return invalid("unknown_type", "unknown message type \"" + cut_for_error(type) +
                                     "\"; an observer may send: " + observer_message_types());
}

}  // namespace

std::string observer_message_types() {
  std::string s;
  for (const char* t : kObserverMessageTypes) s += (s.empty() ? "" : ", ") + std::string(t);
  return s;
}

ObserverMessage parse_observer_message(std::string_view text) {
  ObserverMessage m;
  m.parsed = parse_client_message(text);
  switch (m.parsed.type) {
    case ClientMessage::Type::Ping: m.type = Type::Ping; return m;
    case ClientMessage::Type::Control: m.type = Type::Control; return m;
    case ClientMessage::Type::Restart:
    case ClientMessage::Type::Trainee:
    case ClientMessage::Type::ReplayTicket: {
      // the trainee's own: the attempt, the name and the recording are theirs
      const char* type = m.parsed.type == ClientMessage::Type::Restart   ? "restart"
                         : m.parsed.type == ClientMessage::Type::Trainee ? "trainee"
                                                                         : "replay_ticket";
      return invalid("observer_refused", std::string("\"") + type +
                                             "\" refused: it is the trainee's (an observer may send: " +
                                             observer_message_types() + ")");
    }
    case ClientMessage::Type::Invalid: break;
  }
  // well-formed JSON of a type the trainee's parser does not know: perhaps an observer's
  if (m.parsed.error_code == "unknown_type") return observer_type(text);
  return invalid(m.parsed.error_code, m.parsed.error_message);
}

}  // namespace clamsim::web
