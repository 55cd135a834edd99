// The bounded per-connection send queue (as Beast's advanced server example bounds its queue at 8),
// so a slow browser costs memory up to a bound and never slows its session. The front message may
// be on the wire. When the queue is full, a new message displaces the oldest display frame that is
// not being written, so a browser that reads slowly sees the newest state with a gap in `seq`, and
// memory stays bounded. Not thread-safe: owned by one connection and used on its strand only.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>

namespace clamsim::web {

class SendQueue {
 public:
  enum class Kind { Display, Other };
  struct Item {
    std::shared_ptr<const std::string> text;
    Kind kind = Kind::Other;
  };

  explicit SendQueue(std::size_t limit) : limit_(limit < 1 ? 1 : limit) {}

  // Appends; returns the kind of the message dropped to make room, if one was. A display
  // frame is dropped before anything else; when only non-display messages wait (a client
  // flooding pings while not reading), the new message is dropped instead.
  std::optional<Kind> push(Item item);

  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  std::size_t limit() const { return limit_; }
  const Item& front() const { return items_.front(); }
  // Bytes of every message held, the one on the wire included.
  std::size_t pending_bytes() const {
    std::size_t n = 0;
    for (const Item& i : items_) n += i.text ? i.text->size() : 0;
    return n;
  }

  // The front message goes on the wire / has been written.
  void begin_write() { writing_ = true; }
  void end_write();
  bool writing() const { return writing_; }

  // Forget everything not on the wire (the connection is closing).
  void clear_pending();

 private:
  std::size_t limit_;
  std::deque<Item> items_;
  bool writing_ = false;
};

}  // namespace clamsim::web
