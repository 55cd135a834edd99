#include "session/clock.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <ctime>

namespace clamsim::session {

namespace {

// libstdc++'s steady_clock reads CLOCK_MONOTONIC, the clock FUTEX_WAIT_BITSET's absolute
// timeout is measured on (without FUTEX_CLOCK_REALTIME).
timespec monotonic_timespec(Instant t) {
  const auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
  ts.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  return ts;
}

long futex(const std::atomic<std::uint32_t>& word, int op, std::uint32_t val,
           const timespec* timeout) {
  // std::atomic<uint32_t> is a plain 32-bit word on Linux (the futex ABI); the kernel only
  // reads it here and in FUTEX_WAKE
  auto* addr = const_cast<std::uint32_t*>(reinterpret_cast<const std::uint32_t*>(&word));
  return syscall(SYS_futex, addr, op, val, timeout, nullptr, FUTEX_BITSET_MATCH_ANY);
}

}  // namespace

void Alarm::ring() {
  word_.store(1, std::memory_order_release);
  futex(word_, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, INT_MAX, nullptr);
}

void SteadyClock::sleep_until(Instant t, const Alarm& alarm) {
  if (alarm.rung() || now() >= t) return;
  const timespec deadline = monotonic_timespec(t);
  // returns on the deadline (ETIMEDOUT), on ring() (woken, or EAGAIN when it rang between
  // the check above and the wait: the kernel compares the word to 0 atomically), or on a
  // signal (EINTR); the caller's loop sorts them out
  futex(alarm.word(), FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 0, &deadline);
}

Instant ManualClock::now() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return now_;
}

void ManualClock::sleep_until(Instant t, const Alarm&) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (t > now_) now_ = t;
}

void ManualClock::advance(Duration d) {
  std::lock_guard<std::mutex> lock(mutex_);
  now_ += d;
}

}  // namespace clamsim::session
