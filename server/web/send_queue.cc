#include "web/send_queue.h"

#include <utility>

namespace clamsim::web {

std::optional<SendQueue::Kind> SendQueue::push(Item item) {
  if (items_.size() < limit_) {
    items_.push_back(std::move(item));
    return std::nullopt;
  }
  // the front is on the wire while writing; it cannot be taken back
  auto it = items_.begin() + (writing_ ? 1 : 0);
  for (; it != items_.end(); ++it)
    if (it->kind == Kind::Display) break;
  if (it == items_.end()) return item.kind;  // nothing stale to drop: drop the new one
  items_.erase(it);
  items_.push_back(std::move(item));
  return Kind::Display;
}

void SendQueue::end_write() {
  if (writing_ && !items_.empty()) items_.pop_front();
  writing_ = false;
}

void SendQueue::clear_pending() {
  if (writing_) {
    items_.erase(items_.begin() + 1, items_.end());
  } else {
    items_.clear();
  }
}

}  // namespace clamsim::web
