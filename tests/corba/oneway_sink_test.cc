// corba/oneway_sink.cc through the real server: dead receivers reaped, a stopped receiver
// does not slow anyone else, many sessions at once.
#include <gtest/gtest.h>

#include <signal.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "test_support.h"

namespace clamsim::corba::test {
namespace {

TEST(OnewaySink, KilledReceiverIsReapedAfterTheGracePeriod) {
  ServerProcess server({"--send-grace-s", "0.5"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  ChildProcess receiver({receiver_binary(), server.corbaloc()});
  ASSERT_FALSE(receiver.wait_for_line("subscribed", Ms(10000)).empty()) << receiver.output();
  CLAMX::ServerStatus_var status = admin->status();
  ASSERT_EQ(status->sessions, 1u);
  ASSERT_EQ(status->sessions_reaped, 0u);

  receiver.signal(SIGKILL);
  ASSERT_EQ(receiver.wait_exit(Ms(5000)), 128 + SIGKILL);
  // that the grace period is kept to the nanosecond is checked on the manual clock
  // (Session.FailingSinkIsCountedAndFlaggedAfterTheGracePeriod); here the real server
  // reaps, and the bound only says "it never did"
  EXPECT_TRUE(eventually(
      [&] {
        status = admin->status();
        return status->sessions == 0 && status->sessions_reaped == 1;
      },
      Ms(30000), Ms(50)))
      << "sessions " << status->sessions << ", reaped " << status->sessions_reaped;
  EXPECT_GT(status->send_failures, 0u);
  EXPECT_FALSE(server.process().wait_for_line("reaped session 1", Ms(2000)).empty());
}

TEST(OnewaySink, StoppedReceiverDoesNotDelayOtherSessions) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  // One session at 400 frames per second (a frame every 2.5 ms model step, the fastest the
  // server allows) fills the stopped receiver's socket buffers within a few seconds; from then on its sends block until the 20 ms call timeout, the
  // connection is dropped and reopened, and so on. One, not more: every session integrates
  // the model in real time whatever its frame rate, and under the sanitizers each costs
  // about a quarter of a core, so more stopped sessions would starve the healthy one of
  // CPU (on 2 cores, next to other tests) and measure the machine instead of the sink.
  ChildProcess stopped(
      {receiver_binary(), server.corbaloc(), "--rate", "400", "--sessions", "1"});
  ASSERT_FALSE(stopped.wait_for_line("subscribed", Ms(10000)).empty()) << stopped.output();
  stopped.signal(SIGSTOP);

  Activated<FrameRecorder> rec;
  CLAMX::Session_var session = admin->subscribeWith(rec.client(), default_options());
  const auto t_stop = Clock::now();
  ASSERT_TRUE(eventually([&] { return status_of(admin).send_failures >= 1; }, Ms(20000), Ms(50)))
      << "the stopped receiver's sends never timed out\n"
      << server.process().output();
  const CORBA::ULongLong failures_before = status_of(admin).send_failures;
  std::printf("first send timeout %.1f s after SIGSTOP\n",
              std::chrono::duration<double>(Clock::now() - t_stop).count());

  // The window is counted, not timed: 40 frames of the healthy session while the stopped
  // receiver's sends time out at least 5 more times (each a 20 ms call blocked in the
  // server). Were the healthy session's sends held up behind those, it would fall behind
  // its 50 ms schedule and skip most of its frames (the session counts each one it skips);
  // a machine short of CPU only makes it skip now and then.
  rec->reset();
  ASSERT_TRUE(rec->wait_frames(40, Ms(60000))) << rec->summary().frames << " of 40 frames came";
  ASSERT_TRUE(eventually([&] { return status_of(admin).send_failures >= failures_before + 5; },
                         Ms(60000), Ms(50)))
      << "the stopped receiver's sends did not keep timing out during the window\n"
      << server.process().output();
  const FrameRecorder::Summary s = rec->summary();
  const CLAMX::SessionStats st = session->stats();
  const std::uint64_t span = s.last_seq - s.first_seq + 1;
  std::printf("healthy session: %zu frames over %llu seq numbers, %llu skipped in all\n",
              s.frames, static_cast<unsigned long long>(span),
              static_cast<unsigned long long>(st.skipped_frames));
  EXPECT_EQ(s.out_of_order, 0u);
  EXPECT_GT(2 * s.frames, span) << "more than half of the healthy session's frames skipped";
  EXPECT_LE(span - s.frames, st.skipped_frames)
      << "frames missing that the session did not skip were lost on the way";
  EXPECT_EQ(st.send_failures, 0u);
  // every frame the healthy session sent arrived (no oneway lost)
  EXPECT_TRUE(eventually([&] { return rec->total() >= st.frames_sent; }, Ms(10000)))
      << rec->total() << " received, " << st.frames_sent << " sent";
  session->unsubscribe();
}

TEST(OnewaySink, FiftyConcurrentSessionsAllReceiveFrames) {
  constexpr std::size_t kSessions = 50;
  // With sanitizers 50 real-time sessions need about 7 cores: they fall behind and skip
  // frames (a longer grace keeps them from being reaped meanwhile).
  ServerProcess server(kSanitized ? std::vector<std::string>{"--send-grace-s", "60"}
                                  : std::vector<std::string>{});
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  std::vector<std::unique_ptr<Activated<FrameRecorder>>> recs;
  std::vector<CLAMX::Session_var> sessions;
  for (std::size_t i = 0; i < kSessions; ++i) {
    recs.push_back(std::make_unique<Activated<FrameRecorder>>());
    sessions.emplace_back(admin->subscribeWith(recs.back()->client(), default_options()));
  }
  EXPECT_EQ(status_of(admin).sessions, kSessions);
  // every session is served; the bound only says "never". Oneway calls carry no ordering
  // guarantee (the receiving ORB may dispatch two from one connection on two threads), and
  // under ASan with 50 sessions one frame in a few hundred was seen to overtake another:
  // nearly all must arrive in order, not every one.
  const std::size_t want = kSanitized ? 3 : 20;
  std::size_t frames = 0, out_of_order = 0;
  for (std::size_t i = 0; i < kSessions; ++i) {
    EXPECT_TRUE((*recs[i])->wait_frames(want, Ms(60000))) << "session " << i;
    const auto s = (*recs[i])->summary();
    frames += s.frames;
    out_of_order += s.out_of_order;
  }
  EXPECT_LE(20 * out_of_order, frames) << out_of_order << " of " << frames << " frames out of order";
  for (auto& s : sessions) s->unsubscribe();
  EXPECT_EQ(status_of(admin).sessions, 0u);
}

}  // namespace
}  // namespace clamsim::corba::test
