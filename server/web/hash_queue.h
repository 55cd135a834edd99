// The password checks' own thread and its queue (docs/security.md, "Instructor accounts"):
// a check costs about 0.15 s of one core, so checks run one at a time, off the I/O
// threads. The queue is fair between client addresses: each address has a line of its
// own and the thread takes one job from each waiting address in turn (round-robin), so an
// address that floods the queue delays another address's login by at most one check per
// address waiting, never by its whole flood. Bounded: at most `max_waiting` jobs wait.
// How many one address may queue is the login throttle's business (its max_in_flight).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

namespace clamsim::web {

class HashQueue {
 public:
  explicit HashQueue(std::size_t max_waiting);
  ~HashQueue();  // stop()
  HashQueue(const HashQueue&) = delete;
  HashQueue& operator=(const HashQueue&) = delete;

  // Queues `job` in `client`'s line. False (job dropped, not run) when max_waiting jobs
  // wait already, or once stop() has begun.
  bool push(const std::string& client, std::function<void()> job);
  // Runs the jobs waiting and the one under way, then ends the thread; later pushes are
  // refused. Idempotent.
  void stop();
  std::size_t waiting() const;

 private:
  void run();
  bool next(std::function<void()>* job);  // waits; false once stopped and empty

  const std::size_t max_waiting_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::unordered_map<std::string, std::deque<std::function<void()>>> lines_;
  std::deque<std::string> turns_;   // the addresses with jobs waiting, in turn order
  std::size_t waiting_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace clamsim::web
