// The head of a WebSocket message, read without building the whole JSON document: the
// load generator stands for hundreds of browsers on other machines, so its own cost per
// frame must stay small beside the server's on a shared machine. A frame's "type", "seq" and
// "t" come first (docs/websocket-protocol.md); the SAX parse stops as soon as it has them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clamsim::wsload {

struct FrameHead {
  std::string type;                  // empty: not a JSON object with a string "type"
  std::optional<std::uint64_t> seq;  // top-level "seq", an unsigned integer
  std::optional<double> t;           // top-level "t", a number
};

// Reads the top-level "type", "seq" and "t" of a JSON object message, stopping once a
// display frame's three are read; other messages are read to the end.
FrameHead read_frame_head(std::string_view text);

}  // namespace clamsim::wsload
