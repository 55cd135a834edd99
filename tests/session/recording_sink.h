// A FrameSink for the session tests: keeps every frame, lets a test wait (bounded) for
// them, and may run `act` on the session thread after each frame, as an instructor's
// connection does between frames, at a frame the test chooses.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "session/frame_sink.h"

namespace clamsim::testing {

class RecordingSink : public session::FrameSink {
 public:
  explicit RecordingSink(bool ok = true) : ok_(ok) {}
  std::function<void(const session::Frame&)> act;   // set before the session starts

  bool deliver(const session::Frame& f) override {
    if (act) act(f);
    std::lock_guard<std::mutex> lock(mutex_);
    frames_.push_back(f);
    cv_.notify_all();
    return ok_;
  }
  // Waits (bounded) until n frames have arrived; returns a copy.
  std::vector<session::Frame> wait_for(std::size_t n,
                                       std::chrono::seconds limit = std::chrono::seconds(20)) {
    return wait_until([n](const std::vector<session::Frame>& f) { return f.size() >= n; }, limit);
  }
  // Waits (bounded) until `done` holds for the frames so far; returns a copy.
  template <typename Done>
  std::vector<session::Frame> wait_until(Done done, std::chrono::seconds limit) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait_for(lock, limit, [&] { return done(frames_); });
    return frames_;
  }

 private:
  bool ok_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<session::Frame> frames_;
};

}  // namespace clamsim::testing
