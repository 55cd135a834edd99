// Parsing what a browser sends (docs/websocket-protocol.md, "Browser to server") into a
// typed message, or into the `error` the server answers with. Value checks (finite,
// -5..+5 V) stay with the session's control validation, shared with CORBA.
#pragma once

#include <array>
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace clamsim::web {

struct ClientMessage {
  enum class Type { Control, Ping, Restart, Trainee, ReplayTicket, Invalid };
  Type type = Type::Invalid;
  std::array<double, 5> volts{};   // Control
  nlohmann::json id;               // Ping, Restart: echoed as sent (number, string or null)
  bool practice = false;           // Restart: a practice attempt (no time limit)
  nlohmann::json ping_t;           // Ping: the client's clock [ms] (number or null)
  std::string trainee;             // Trainee: the name as sent (session checks it)
  std::string error_code;          // Invalid: bad_json, unknown_type, bad_control, bad_message
  std::string error_message;       // Invalid: names what was wrong
};

ClientMessage parse_client_message(std::string_view text);

// Shared by the observers' and the replays' parsers: a text cut to 40 bytes for an error,
// and the error for a field of `type` not in `allowed` ("" when every field is allowed).
std::string cut_for_error(const std::string& s);
std::string unexpected_field(const nlohmann::json& j, const std::string& type,
                             std::initializer_list<const char*> allowed);

}  // namespace clamsim::web
