// Observers of a session: an instructor watching a trainee's machine
// live. Each observer has its own small bounded queue that keeps the newest frames (latest
// wins); the session thread only pushes, never waits on an observer, so a slow or stalled
// observer delays neither the session nor another observer (docs/architecture.md, "One
// machine, several roles"). Transport-neutral: the web layer drains a queue on its own thread.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/state.h"
#include "session/frame_sink.h"

namespace clamsim::session {

// Something an instructor wants to see happen, found by comparing a frame with the one
// before (the world's counters, the jaws, the task, the lesson).
enum class ObserverEventKind : std::uint8_t {
  RackGateHit, StructureHit, LoadImpact, SlackCable, Overload, Grip, Release, Delivered,
  DroppedLoad, LessonStep, TaskFinished, Restart,
  ControlChange, InstructorMessage, FaultsChanged,  // instructors: the frame's notices say what
  TwoBlock, LmiWarning, LmiCutout, TipOver          // the machine's safety devices
};
// "rack_gate_hit", "structure_hit", "load_impact", "slack_cable", "overload", "grip",
// "release", "delivered", "dropped_load", "lesson_step", "task_finished", "restart",
// "control", "instructor_message", "faults", "two_block", "lmi_warning", "lmi_cutout",
// "tip_over"
const char* to_string(ObserverEventKind k);

struct ObserverEvent {
  ObserverEventKind kind = ObserverEventKind::RackGateHit;
  int value = 0;   // grip/release: the load's index (-1 unknown); lesson_step: the step now
                   // under way; delivered: loads delivered so far; else how many this frame
};

// One frame as observers see it: the trainee's frame (same seq), the five voltages that
// drove it, and the events it brought. Fixed size: no allocation beyond the shared block.
struct ObservedFrame {
  static constexpr std::size_t kMaxEvents = 16;
  Frame frame;
  std::array<double, 5> volts{};
  std::array<ObserverEvent, kMaxEvents> events{};
  std::size_t event_count = 0;

  // The frame as a transport writes it (the web's display JSON), made once by the first
  // observer connection that sends it and shared by the others: one encoding per frame
  // whatever the number of observers. Opaque text to the session layer. Thread-safe.
  const std::string& encoded(const std::function<std::string()>& make) const {
    std::call_once(encode_once_, [&] { encoded_ = make(); });
    return encoded_;
  }

 private:
  mutable std::once_flag encode_once_;
  mutable std::string encoded_;
};

// Finds the events between consecutive frames. Session thread only.
class EventWatch {
 public:
  // Compares f with the previous frame and fills out->events (out may be null: nobody
  // watches, the baseline still moves on); `restarted`: a new attempt began with f.
  void update(const Frame& f, bool restarted, ObservedFrame* out);

 private:
  bool seen_ = false;
  Frame last_;
};

// One observer's queue. push() from the session thread; take() from the observer's.
class ObserverQueue {
 public:
  static constexpr std::size_t kFrames = 4;   // newest frames kept; older ones dropped
  static constexpr std::size_t kEventFrames = 32;  // frames with events kept apart, so a
                                                   // dropped stale frame loses no event
  // `wake` is called (on the session thread, outside any lock) when the queue goes from
  // drained to holding something, and when it ends; it must return promptly (post).
  explicit ObserverQueue(std::function<void()> wake) : wake_(std::move(wake)) {}

  void push(const std::shared_ptr<const ObservedFrame>& f);
  // The session ended (reason for the observer); nothing more is pushed.
  void end(std::string reason);

  struct Batch {
    std::vector<std::shared_ptr<const ObservedFrame>> frames;        // oldest first
    std::vector<std::shared_ptr<const ObservedFrame>> event_frames;  // oldest first
    bool ended = false;
    std::string end_reason;
  };
  // Everything waiting; after it, the next push wakes again.
  Batch take();
  std::uint64_t dropped() const { return dropped_.load(); }
  std::uint64_t pushed() const { return pushed_.load(); }

 private:
  const std::function<void()> wake_;
  mutable std::mutex mutex_;
  std::array<std::shared_ptr<const ObservedFrame>, kFrames> frames_{};
  std::size_t first_ = 0, count_ = 0;
  std::array<std::shared_ptr<const ObservedFrame>, kEventFrames> events_{};
  std::size_t events_first_ = 0, events_count_ = 0;
  bool woken_ = false;   // a wake is outstanding: take() has not run since
  bool ended_ = false;
  std::string end_reason_;
  std::atomic<std::uint64_t> dropped_{0};
  std::atomic<std::uint64_t> pushed_{0};
};

// A session's observers. attach/detach from any thread; publish/end_all from the session
// thread. The lock is held only to copy the list, never while an observer is woken.
class ObserverSet {
 public:
  // False (not attached) when the session has already ended.
  bool attach(std::shared_ptr<ObserverQueue> q);
  void detach(const ObserverQueue* q);
  std::size_t size() const;
  bool any() const { return count_.load(std::memory_order_relaxed) > 0; }
  void publish(const std::shared_ptr<const ObservedFrame>& f);
  void end_all(const std::string& reason);

 private:
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<ObserverQueue>> queues_;
  std::vector<std::shared_ptr<ObserverQueue>> scratch_;   // session thread's copy, reused
  std::atomic<std::size_t> count_{0};
  bool ended_ = false;
};

}  // namespace clamsim::session
