// What a replay's connection (/ws?replay=NAME; docs/websocket-protocol.md
// "Replays") may send: ping; replay (play or pause, a speed, a frame to seek to, any of
// them together); take_over. The one place where replay messages are parsed: the same
// strict JSON as a trainee's messages (client_message.h), then the replay's own rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "web/client_message.h"

namespace clamsim::web {

inline constexpr const char* kReplayMessageTypes[] = {"ping", "replay", "take_over"};

struct ReplayMessage {
  enum class Type { Ping, Replay, TakeOver, Invalid };
  Type type = Type::Invalid;
  ClientMessage parsed;                  // Ping: its id and t
  std::optional<bool> play;              // Replay
  std::optional<double> speed;           // Replay: one of session::kReplaySpeeds
  std::optional<std::uint64_t> seek_k;   // Replay: 1..frames
  std::string error_code;                // Invalid: bad_json, bad_message, unknown_type, ...
  std::string error_message;             // Invalid: names what was wrong and what is allowed
};

// frames: the recording's last frame (0 while the replay is being prepared: a seek is
// then refused).
ReplayMessage parse_replay_message(std::string_view text, std::uint64_t frames);

}  // namespace clamsim::web
