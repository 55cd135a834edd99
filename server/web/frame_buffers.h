// The display texts one WebSocket sink has in flight, reused (no heap allocation per frame;
// docs/architecture.md, "No heap allocation per frame"). The session thread encodes each frame into
// a buffer nobody else holds any more; the strand and its send queue hold it (shared_ptr) until it
// is written or dropped, then let go. Once every buffer has grown to a frame's size, a steady
// stream allocates nothing here. Session thread only.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace clamsim::web {

class FrameBuffers {
 public:
  // keep: how many buffers to hold on to; the send queue's limit and a few in flight.
  explicit FrameBuffers(std::size_t keep) : keep_(keep < 1 ? 1 : keep) { pool_.reserve(keep_); }

  // A buffer only the pool holds (its old text still in it, its capacity kept), or a new
  // one: kept while fewer than `keep` exist, else used once (a browser that has stopped
  // reading holds them all; its frames are being dropped anyway).
  // Its capacity is at least the largest text written so far (written()), so a buffer
  // last used before the frames grew does not grow again mid-stream.
  std::shared_ptr<std::string> take() {
    for (const std::shared_ptr<std::string>& b : pool_) {
      if (b.use_count() != 1) continue;
      // use_count() is a relaxed load of the count the strand's copy released (an acq_rel
      // decrement): this fence makes the strand's last reads of the text happen before our
      // writes to it
      std::atomic_thread_fence(std::memory_order_acquire);
      b->reserve(largest_);
      return b;
    }
    auto b = std::make_shared<std::string>();
    b->reserve(largest_);
    if (pool_.size() < keep_) pool_.push_back(b);
    return b;
  }
  // The text just written into a buffer from take(), before it is handed on.
  void written(const std::string& text) {
    if (text.capacity() > largest_) largest_ = text.capacity();
  }

  std::size_t size() const { return pool_.size(); }

 private:
  const std::size_t keep_;
  std::size_t largest_ = 0;   // capacity of the largest text so far
  std::vector<std::shared_ptr<std::string>> pool_;
};

}  // namespace clamsim::web
