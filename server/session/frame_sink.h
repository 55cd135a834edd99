// What a session hands to its transport: one immutable frame per period.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/state.h"
#include "session/instructor_desk.h"
#include "training/lesson.h"
#include "training/task_score.h"

namespace clamsim::session {

struct Frame {
  std::uint64_t seq = 0;          // 0, 1, 2, ... within the session
  // How many controls the session had received when it took this frame's inputs: a client
  // that counts what it sent sees which of its controls a frame reflects (its latency).
  std::uint64_t control_seq = 0;
  core::Outputs outputs;          // display values and the extended fields
  training::TaskScore score;                // the training task, live (enabled = false without one)
  training::LessonProgress lesson;          // the first lesson, live (enabled = false without one)
  // The task's report (JSON, docs/training-task.md), only on the frame in which the task
  // ended; null on every other frame.
  std::shared_ptr<const std::string> report;
  // What instructors changed at this frame (who drives, messages for the
  // trainee); null on every frame where nothing changed.
  std::shared_ptr<const FrameNotices> notices;
  // While the server drains (SIGTERM): seconds left before it stops this session; clients
  // tell their user. -1 = not draining.
  double drain_s_left = -1.0;
};

// Implemented by transports (the CORBA oneway sender, the WebSocket send queue).
// deliver() runs on the session's thread and must return promptly: transports bound it
// (CORBA call timeout, WebSocket bounded queue). It returns false when delivery failed.
class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual bool deliver(const Frame& frame) = 0;
  // For logs and /metrics: which transport ("corba", "websocket") and which peer
  // ("127.0.0.1:40312"; "" when not known) this sink sends to.
  virtual const char* transport() const { return "other"; }
  virtual std::string peer() const { return ""; }
  // The address whose sessions count against RegistryOptions::max_sessions_per_client:
  // where the connection really comes from, never what the client says ("" = not counted).
  virtual std::string client_address() const { return ""; }
};

}  // namespace clamsim::session
