#include "web/hash_queue.h"

namespace clamsim::web {

HashQueue::HashQueue(std::size_t max_waiting)
    : max_waiting_(max_waiting), thread_([this] { run(); }) {}

HashQueue::~HashQueue() { stop(); }

bool HashQueue::push(const std::string& client, std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ || waiting_ >= max_waiting_) return false;
    auto& line = lines_[client];
    if (line.empty()) turns_.push_back(client);  // joins the round at its end
    line.push_back(std::move(job));
    waiting_ += 1;
  }
  wake_.notify_one();
  return true;
}

bool HashQueue::next(std::function<void()>* job) {
  std::unique_lock<std::mutex> lock(mutex_);
  wake_.wait(lock, [this] { return stopping_ || !turns_.empty(); });
  if (turns_.empty()) return false;
  const std::string client = std::move(turns_.front());
  turns_.pop_front();
  auto it = lines_.find(client);
  *job = std::move(it->second.front());
  it->second.pop_front();
  waiting_ -= 1;
  // an address with more waiting takes its next turn after every other address's
  if (it->second.empty()) {
    lines_.erase(it);
  } else {
    turns_.push_back(client);
  }
  return true;
}

void HashQueue::run() {
  std::function<void()> job;
  while (next(&job)) {
    job();
    job = nullptr;  // what the job held goes now, not when the next one comes
  }
}

void HashQueue::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

std::size_t HashQueue::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_;
}

}  // namespace clamsim::web
