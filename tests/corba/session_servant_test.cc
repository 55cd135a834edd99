// corba/session_servant.cc through the real server: controls move the machine, bad controls
// are counted and never reach it, unsubscribe frees the session.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "test_support.h"

namespace clamsim::corba::test {
namespace {

void send(CLAMX::Session_ptr s, float v0, float v1 = 0, float v2 = 0, float v3 = 0,
          float v4 = 0) {
  const CLAM::ControlSignal u = {v0, v1, v2, v3, v4};
  s->GetControlInput(u);
}

float swing_deg(const FrameRecorder& rec) { return rec.summary().last.display[0]; }

TEST(SessionServant, ControlSwingsTheCrane) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> rec;
  CLAMX::Session_var session = admin->subscribeWith(rec.client(), default_options());
  ASSERT_TRUE(rec->wait_frames(3, Ms(5000)));
  const float before = swing_deg(*rec);

  send(session, 5.0f);  // swing motor, full: about 15 deg in the first second
  EXPECT_TRUE(eventually([&] { return swing_deg(*rec) > before + 3.0f; }, Ms(5000)))
      << "swing stayed at " << swing_deg(*rec) << " deg";
  EXPECT_TRUE(eventually([&] { return session->stats().controls_received == 1; }, Ms(2000)));
  session->unsubscribe();
}

TEST(SessionServant, NonFiniteRejectedOutOfRangeClampedAndCounted) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> rec;
  CLAMX::Session_var session = admin->subscribeWith(rec.client(), default_options());
  ASSERT_TRUE(rec->wait_frames(3, Ms(5000)));
  const float start = swing_deg(*rec);

  send(session, std::numeric_limits<float>::quiet_NaN());
  send(session, 0.0f, std::numeric_limits<float>::infinity());
  ASSERT_TRUE(eventually([&] { return session->stats().controls_received == 2; }, Ms(2000)));
  CLAMX::SessionStats st = session->stats();
  EXPECT_EQ(st.controls_rejected, 2u);
  EXPECT_EQ(st.controls_clamped, 0u);
  // rejected controls never reach the model: the machine stays at rest
  std::this_thread::sleep_for(Ms(300));
  EXPECT_NEAR(swing_deg(*rec), start, 0.01);
  const FrameRecorder::Summary s = rec->summary();
  for (float v : s.last.display) EXPECT_TRUE(std::isfinite(v));

  send(session, 50.0f);  // clamped to +5 V, and applied
  ASSERT_TRUE(eventually([&] { return session->stats().controls_received == 3; }, Ms(2000)));
  st = session->stats();
  EXPECT_EQ(st.controls_rejected, 2u);
  EXPECT_EQ(st.controls_clamped, 1u);
  EXPECT_TRUE(eventually([&] { return swing_deg(*rec) > start + 3.0f; }, Ms(5000)));

  CLAMX::ServerStatus_var status = admin->status();
  EXPECT_EQ(status->controls_received, 3u);
  EXPECT_EQ(status->controls_rejected, 2u);
  session->unsubscribe();
}

TEST(SessionServant, UnsubscribeFreesTheSession) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> rec;
  CLAMX::Session_var session = admin->subscribeWith(rec.client(), default_options());
  ASSERT_TRUE(rec->wait_frames(3, Ms(5000)));
  CLAMX::ServerStatus_var status = admin->status();
  EXPECT_EQ(status->sessions, 1u);

  session->unsubscribe();
  status = admin->status();
  EXPECT_EQ(status->sessions, 0u);
  const std::size_t frames = rec->summary().frames;
  std::this_thread::sleep_for(Ms(200));
  EXPECT_LE(rec->summary().frames, frames + 1) << "frames after unsubscribe";
  // the servant is gone
  EXPECT_TRUE(eventually(
      [&] {
        try {
          session->stats();
          return false;
        } catch (const CORBA::OBJECT_NOT_EXIST&) {
          return true;
        }
      },
      Ms(2000)));
  EXPECT_GE(status->frames_sent, frames);
}

}  // namespace
}  // namespace clamsim::corba::test
