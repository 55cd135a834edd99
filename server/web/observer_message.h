// What an observer's connection (/ws?observe=ID, issue 11 "Watch") may send. The one place
// where observer messages are parsed: the same strict JSON as a trainee's messages
// (client_message.h), then the observer's own rules. Control of the machine is refused
// here; take_control / share_control / release_control are to be added in this file.
#pragma once

#include <string>
#include <string_view>

#include "web/client_message.h"

namespace clamsim::web {

// The message types an observer may send, as named in errors.
inline constexpr const char* kObserverMessageTypes = "ping";

struct ObserverMessage {
  enum class Type { Ping, Invalid };
  Type type = Type::Invalid;
  ClientMessage parsed;            // Ping: its id and t
  std::string error_code;          // Invalid: observer_refused, unknown_type, bad_json, ...
  std::string error_message;       // Invalid: names what was wrong and what is allowed
};

ObserverMessage parse_observer_message(std::string_view text);

}  // namespace clamsim::web
