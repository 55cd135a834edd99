// The session clocks: SteadyClock's per-session absolute-deadline sleep (a ring wakes its
// own sleeper only, promptly; a sleep never ends before its deadline unless rung) and
// ManualClock's jumps.
#include "session/clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>
#include <vector>

namespace clamsim::session {
namespace {

using namespace std::chrono_literals;

// Sleeps until `t` (looping over early returns, as Session::run does) unless rung.
void sleep_through(Clock& clock, Instant t, const Alarm& alarm) {
  while (!alarm.rung() && clock.now() < t) clock.sleep_until(t, alarm);
}

TEST(SteadyClock, SleepsUntilTheDeadlineAndNoLess) {
  SteadyClock clock;
  Alarm alarm;
  const Instant due = clock.now() + 30ms;
  clock.sleep_until(due, alarm);  // one call: a signal is the only early return
  EXPECT_GE(clock.now(), due);
  EXPECT_FALSE(alarm.rung());
}

TEST(SteadyClock, ReturnsAtOnceForAPastDeadlineOrARungAlarm) {
  SteadyClock clock;
  Alarm quiet;
  clock.sleep_until(clock.now() - 1s, quiet);  // would hang the test if it waited
  Alarm rung;
  rung.ring();
  clock.sleep_until(clock.now() + 1h, rung);
  EXPECT_TRUE(rung.rung());
}

TEST(SteadyClock, RingWakesItsOwnSleeperAndNoOther) {
  SteadyClock clock;
  Alarm mine, other;
  const Instant far = clock.now() + 1h;
  auto woken = std::async(std::launch::async, [&] { sleep_through(clock, far, mine); });
  // the other sleeper's deadline is near: it must reach it, not be cut short by mine
  const Instant near = clock.now() + 200ms;
  auto bystander = std::async(std::launch::async, [&] {
    sleep_through(clock, near, other);
    return clock.now();
  });
  std::this_thread::sleep_for(20ms);  // both asleep (a ring before the sleep works too)
  mine.ring();
  ASSERT_EQ(woken.wait_for(10s), std::future_status::ready) << "ring did not wake its sleeper";
  EXPECT_GE(bystander.get(), near);
  EXPECT_FALSE(other.rung());
}

TEST(SteadyClock, ManySleepersEachStoppedAlone) {
  SteadyClock clock;
  constexpr int kSleepers = 16;
  std::vector<Alarm> alarms(kSleepers);
  std::vector<std::future<void>> done;
  const Instant far = clock.now() + 1h;
  for (int i = 0; i < kSleepers; ++i)
    done.push_back(std::async(std::launch::async,
                              [&, i] { sleep_through(clock, far, alarms[i]); }));
  for (int i = 0; i < kSleepers; ++i) {
    alarms[i].ring();
    ASSERT_EQ(done[i].wait_for(10s), std::future_status::ready) << "sleeper " << i;
    // the ones not yet rung are still asleep
    for (int j = i + 1; j < kSleepers; ++j)
      EXPECT_EQ(done[j].wait_for(0s), std::future_status::timeout) << "sleeper " << j;
  }
}

TEST(ManualClock, JumpsToTheDeadlineAndNeverBack) {
  ManualClock clock;
  Alarm alarm;
  const Instant t0 = clock.now();
  clock.sleep_until(t0 + 50ms, alarm);
  EXPECT_EQ(clock.now(), t0 + 50ms);
  clock.sleep_until(t0 + 10ms, alarm);
  EXPECT_EQ(clock.now(), t0 + 50ms);
  clock.advance(5ms);
  EXPECT_EQ(clock.now(), t0 + 55ms);
}

}  // namespace
}  // namespace clamsim::session
