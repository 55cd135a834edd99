// What an observer's connection (/ws?observe=ID) may send: ping; the instructor's
// control of the machine (take_control, share_control, release_control, and control while
// holding it); a message for the trainee; fault and clear_fault. The one place where
// observer messages are parsed: the same strict JSON as a trainee's messages
// (client_message.h), then the observer's own rules. Whether an action is allowed (who
// holds control, which faults exist) is the session layer's answer.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "web/client_message.h"

namespace clamsim::web {

// The message types an observer may send, as named in errors and in hello.observing.
inline constexpr const char* kObserverMessageTypes[] = {
    "ping", "take_control", "share_control", "release_control", "control",
    "message", "fault", "clear_fault"};

struct ObserverMessage {
  enum class Type {
    Ping, TakeControl, ShareControl, ReleaseControl, Control, Message, Fault, ClearFault,
    Invalid
  };
  Type type = Type::Invalid;
  ClientMessage parsed;            // Ping: its id and t; Control: its volts
  bool wait = false;               // TakeControl, ShareControl: wait in line when held
  std::string text;                // Message
  std::string fault;               // Fault, ClearFault: the fault's name
  nlohmann::json params = nlohmann::json::object();   // Fault, ClearFault
  std::string error_code;          // Invalid: observer_refused, unknown_type, bad_json, ...
  std::string error_message;       // Invalid: names what was wrong and what is allowed
};

ObserverMessage parse_observer_message(std::string_view text);

// "ping, take_control, ..." for messages.
std::string observer_message_types();

}  // namespace clamsim::web
