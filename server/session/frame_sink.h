// What a session hands to its transport: one immutable frame per period.
#pragma once

#include <cstdint>

#include "core/state.h"

namespace clamsim::session {

struct Frame {
  std::uint64_t seq = 0;          // 0, 1, 2, ... within the session
  core::Outputs outputs;          // display values and the extended fields
};

// Implemented by transports (the CORBA oneway sender, the WebSocket send queue).
// deliver() runs on the session's thread and must return promptly: transports bound it
// (CORBA call timeout, WebSocket bounded queue). It returns false when delivery failed.
class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual bool deliver(const Frame& frame) = 0;
};

}  // namespace clamsim::session
