#include "web/observer_message.h"

#include <utility>

#include <nlohmann/json.hpp>

namespace clamsim::web {

namespace {

ObserverMessage invalid(std::string code, std::string message) {
  ObserverMessage m;
  m.error_code = std::move(code);
  m.error_message = std::move(message);
  return m;
}

// The type the trainee's parser saw ("control", ...), for the refusal's wording.
std::string type_of(std::string_view text) {
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  const auto t = j.is_object() ? j.find("type") : j.end();
  if (!j.is_object() || t == j.end() || !t->is_string()) return "";
  std::string s = t->get<std::string>();
  return s.size() > 40 ? s.substr(0, 40) + "..." : s;
}

}  // namespace

ObserverMessage parse_observer_message(std::string_view text) {
  ObserverMessage m;
  m.parsed = parse_client_message(text);
  const std::string allowed = std::string("an observer may send: ") + kObserverMessageTypes;
  if (m.parsed.type == ClientMessage::Type::Invalid && m.parsed.error_code == "bad_json")
    return invalid(m.parsed.error_code, m.parsed.error_message);
  // a trainee's message, well formed or not: the machine is the trainee's, not the observer's
  const std::string type = type_of(text);
  if (type == "control" || type == "restart" || type == "trainee")
    return invalid("observer_refused", "\"" + type +
                                           "\" refused: this connection only watches the "
                                           "session (" + allowed + ")");
  if (m.parsed.type == ClientMessage::Type::Ping) {
    m.type = ObserverMessage::Type::Ping;
    return m;
  }
  if (m.parsed.error_code == "unknown_type")
    return invalid("unknown_type", m.parsed.error_message + "; " + allowed);
  return invalid(m.parsed.error_code, m.parsed.error_message);
}

}  // namespace clamsim::web
