#include "web/client_message.h"

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace clamsim::web {

namespace {

const char* const kChannels[5] = {"swing", "boom", "telescope", "main hoist", "aux hoist"};

ClientMessage invalid(const char* code, std::string message) {
  ClientMessage m;
  m.type = ClientMessage::Type::Invalid;
  m.error_code = code;
  m.error_message = std::move(message);
  return m;
}

// nlohmann's messages start with "[json.exception.parse_error.101] "; keep what follows.
std::string short_reason(const char* what) {
  std::string s(what);
  if (!s.empty() && s.front() == '[') {
    const auto close = s.find("] ");
    if (close != std::string::npos) s.erase(0, close + 2);
  }
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

ClientMessage parse_control(const nlohmann::json& j) {
  const auto it = j.find("volts");
  if (it == j.end()) return invalid("bad_message", "control: missing \"volts\"");
  if (!it->is_array())
    return invalid("bad_control",
                   std::string("volts is not an array (got ") + it->type_name() + ")");
  if (it->size() != 5)
    return invalid("bad_control",
                   "volts has " + std::to_string(it->size()) + " values, expected 5");
  ClientMessage m;
  m.type = ClientMessage::Type::Control;
  for (std::size_t i = 0; i < 5; ++i) {
    const nlohmann::json& v = (*it)[i];
    if (!v.is_number())
      return invalid("bad_control", "volts[" + std::to_string(i) + "] (" + kChannels[i] +
                                        ") is not a number (got " + v.type_name() + ")");
    m.volts[i] = v.get<double>();
  }
  return m;
}

// The optional `id` of ping and restart: a number, a string or null, echoed in the reply.
bool read_id(const nlohmann::json& j, const char* type, ClientMessage& m, ClientMessage& error) {
  const auto id = j.find("id");
  if (id == j.end()) return true;
  if (!id->is_number() && !id->is_string() && !id->is_null()) {
    error = invalid("bad_message", std::string(type) + ": id is a " + id->type_name() +
                                       ", expected a number or a string");
    return false;
  }
  m.id = *id;
  return true;
}

ClientMessage parse_ping(const nlohmann::json& j) {
  ClientMessage m;
  m.type = ClientMessage::Type::Ping;
  if (ClientMessage e; !read_id(j, "ping", m, e)) return e;
  if (const auto t = j.find("t"); t != j.end()) {
    if (!t->is_number() && !t->is_null())
      return invalid("bad_message",
                     std::string("ping: t is a ") + t->type_name() + ", expected a number");
    m.ping_t = *t;
  }
  return m;
}

// {"type": "restart"} or {"type": "restart", "id": 3, "practice": true}: start the
// scenario's task again, as a practice attempt (no time limit) when asked. Nothing else may
// ride along, so a message meant for something else is not taken for it.
ClientMessage parse_restart(const nlohmann::json& j) {
  ClientMessage m;
  m.type = ClientMessage::Type::Restart;
  for (const auto& item : j.items()) {
    if (item.key() != "type" && item.key() != "id" && item.key() != "practice") {
      std::string key = item.key().size() > 40 ? item.key().substr(0, 40) + "..." : item.key();
      return invalid("bad_message", "restart: unexpected field \"" + key +
                                        "\" (restart takes only an optional id and practice)");
    }
  }
  if (ClientMessage e; !read_id(j, "restart", m, e)) return e;
  if (const auto p = j.find("practice"); p != j.end()) {
    if (!p->is_boolean())
      return invalid("bad_message", std::string("restart: practice is a ") + p->type_name() +
                                        ", expected true or false");
    m.practice = p->get<bool>();
  }
  return m;
}

// {"type": "trainee", "name": "Ada"}: who is at the controls (checked by the session layer).
ClientMessage parse_trainee(const nlohmann::json& j) {
  for (const auto& item : j.items()) {
    if (item.key() != "type" && item.key() != "name") {
      std::string key = item.key().size() > 40 ? item.key().substr(0, 40) + "..." : item.key();
      return invalid("bad_message", "trainee: unexpected field \"" + key +
                                        "\" (trainee takes only a name)");
    }
  }
  const auto name = j.find("name");
  if (name == j.end()) return invalid("bad_message", "trainee: missing \"name\"");
  if (!name->is_string())
    return invalid("bad_message",
                   std::string("trainee: name is a ") + name->type_name() + ", expected a string");
  ClientMessage m;
  m.type = ClientMessage::Type::Trainee;
  m.trainee = name->get<std::string>();
  return m;
}

}  // namespace

std::string cut_for_error(const std::string& s) {
  return s.size() > 40 ? s.substr(0, 40) + "..." : s;
}

std::string unexpected_field(const nlohmann::json& j, const std::string& type,
                             std::initializer_list<const char*> allowed) {
  for (const auto& item : j.items()) {
    if (item.key() == "type") continue;
    bool ok = false;
    for (const char* a : allowed) ok = ok || item.key() == a;
    if (ok) continue;
    std::string takes;
    for (const char* a : allowed) takes += (takes.empty() ? "" : ", ") + std::string(a);
    return type + ": unexpected field \"" + cut_for_error(item.key()) + "\" (" + type + " takes " +
           (takes.empty() ? "nothing else" : takes) + ")";
  }
  return "";
}

ClientMessage parse_client_message(std::string_view text) {
  nlohmann::json j;
  // A key given twice in one object is refused: parsers disagree on which one wins
  // ({"type":"control","type":"ping"} was a ping here, and may be a control elsewhere).
  std::vector<std::set<std::string>> keys;   // the keys seen, one set per open object
  std::string duplicate;
  const auto check_keys = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    if (event == E::object_start) {
      keys.emplace_back();
    } else if (event == E::object_end) {
      if (!keys.empty()) keys.pop_back();
    } else if (event == E::key && !keys.empty() && duplicate.empty() &&
               !keys.back().insert(parsed.get<std::string>()).second) {
      duplicate = parsed.get<std::string>();
    }
    return true;
  };
  try {
    j = nlohmann::json::parse(text.begin(), text.end(), check_keys);
  } catch (const nlohmann::json::exception& e) {
    return invalid("bad_json", "not JSON: " + short_reason(e.what()));
  }
  if (!duplicate.empty()) {
    if (duplicate.size() > 40) duplicate = duplicate.substr(0, 40) + "...";
    return invalid("bad_json", "duplicate key \"" + duplicate + "\" in one object");
  }
  if (!j.is_object())
    return invalid("bad_json", std::string("not a JSON object (got ") + j.type_name() + ")");
  const auto type = j.find("type");
  if (type == j.end()) return invalid("bad_message", "missing \"type\"");
  if (!type->is_string())
    return invalid("bad_message",
                   std::string("\"type\" is a ") + type->type_name() + ", expected a string");
  const std::string& t = type->get_ref<const std::string&>();
  if (t == "control") return parse_control(j);
  if (t == "ping") return parse_ping(j);
  if (t == "restart") return parse_restart(j);
  if (t == "trainee") return parse_trainee(j);
  if (t == "replay_ticket") {
    if (auto e = unexpected_field(j, t, {}); !e.empty()) return invalid("bad_message", e);
    ClientMessage m;
    m.type = ClientMessage::Type::ReplayTicket;
    return m;
  }
  std::string shown = t.size() > 40 ? t.substr(0, 40) + "..." : t;
  return invalid("unknown_type", "unknown message type \"" + shown + "\"");
}

}  // namespace clamsim::web
