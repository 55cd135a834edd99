// corba/session_servant.cc through the real server: controls move the machine, bad controls
// are counted and never reach it, unsubscribe frees the session.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

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
  // rejected controls never reach the model: the machine stays at rest through the next
  // ten frames, all computed after the server had counted both (full swing moves it by
  // degrees in that time)
  const std::size_t counted_at = rec->total();
  ASSERT_TRUE(rec->wait_total(counted_at + 10, Ms(10000))) << "the frames stopped coming";
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

  session->unsubscribe();  // returns once the session's thread has stopped
  status = admin->status();
  EXPECT_EQ(status->sessions, 0u);
  // the server's count is final: every frame it sent arrives, and not one more
  EXPECT_TRUE(rec->wait_total(status->frames_sent, Ms(5000)))
      << rec->total() << " received, " << status->frames_sent << " sent";
  EXPECT_EQ(rec->total(), status->frames_sent) << "frames after unsubscribe";
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
}

// ---- the working world and its task ----------------------------------------------------

TEST(SessionServant, FramesCarryTheWorldsLoadsAndTheLiveScore) {
  ServerProcess server;  // the shipped config: every session works in dam_intake
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> rec;
  CLAMX::Session_var session = admin->subscribeWith(rec.client(), default_options());
  ASSERT_TRUE(rec->wait_frames(3, Ms(5000)));
  EXPECT_FALSE(rec->summary().last.score.running) << "the clock waits for the first moved control";
  send(session, 0, 0, 0.5f);   // the telescope a little out: the clock starts
  ASSERT_TRUE(eventually([&] { return rec->summary().last.score.elapsed_s > 0.0; }, Ms(5000)));
  const CLAMX::Frame f = rec->summary().last;
  ASSERT_EQ(f.loads.length(), 5u);
  EXPECT_EQ(f.loads[0].id, 0u);
  EXPECT_FLOAT_EQ(f.loads[0].mass_kg, 471.0f) << "the scenario's mass";
  EXPECT_NEAR(f.loads[0].position_m[0], 10.83, 0.3);
  EXPECT_NEAR(f.loads[0].position_m[2], -2.54, 0.3);
  EXPECT_FALSE(f.loads[0].held);
  EXPECT_FLOAT_EQ(f.loads[3].mass_kg, 350.0f);
  const double q = std::hypot(std::hypot(f.clam_orientation[0], f.clam_orientation[1]),
                              std::hypot(f.clam_orientation[2], f.clam_orientation[3]));
  EXPECT_NEAR(q, 1.0, 1e-3) << "a unit quaternion";
  EXPECT_TRUE(f.score.enabled);
  EXPECT_TRUE(f.score.running);
  EXPECT_EQ(f.score.required, 3u);
  EXPECT_DOUBLE_EQ(f.score.optimum_s, 300.0);
  EXPECT_DOUBLE_EQ(f.score.limit_s, 450.0);
  EXPECT_GT(f.score.elapsed_s, 0.0);
  EXPECT_STREQ(f.task_report_json.in(), "");
  session->unsubscribe();
}

TEST(SessionServant, RestartTaskStartsANewAttempt) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> rec;
  CLAMX::Session_var session = admin->subscribeWith(rec.client(), default_options());
  ASSERT_TRUE(rec->wait_frames(3, Ms(5000)));
  send(session, 5.0f);  // swing away from the start pose
  ASSERT_TRUE(eventually([&] { return swing_deg(*rec) > 3.0f; }, Ms(5000)));
  ASSERT_GT(rec->summary().last.score.elapsed_s, 0.5);
  send(session, 0.0f);

  session->restartTask();
  // the next frames: sim time and the task clock start over, the crane is back home
  EXPECT_TRUE(eventually([&] { return rec->summary().last.sim_time_s < 0.3; }, Ms(3000)));
  const CLAMX::Frame f = rec->summary().last;
  EXPECT_DOUBLE_EQ(f.score.elapsed_s, 0.0);
  EXPECT_FALSE(f.score.running) << "the new attempt waits for the next moved control";
  EXPECT_NEAR(f.display[0], 0.0f, 0.5f);
  // seq goes on through a restart: never back, and a hole only where the session skipped a
  // frame for want of CPU (it counts those)
  const FrameRecorder::Summary s = rec->summary();
  EXPECT_EQ(s.out_of_order, 0u) << "seq started over";
  EXPECT_LE(s.last_seq - s.first_seq + 1 - s.frames, session->stats().skipped_frames);
  session->unsubscribe();
}

TEST(SessionServant, AFinishedTaskSendsItsReportAndTheServerSavesIt) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("clamsim-corba-task-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "scenarios");
  // the shipped world with a 1.5 s optimum: the attempt times out 2.25 s in, well after
  // the trainee's name is given
  nlohmann::json quick;
  std::ifstream(std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json") >> quick;
  quick["task"]["optimum_s"] = 1.5;
  quick["task"].erase("lesson");  // its lesson's scenario is not in this folder
  std::ofstream(dir / "scenarios" / "quick.json") << quick.dump(2);

  ServerProcess server({"--scenarios-dir", (dir / "scenarios").string(), "--world", "quick",
                        "--report-dir", (dir / "reports").string()});
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> rec;
  CLAMX::Session_var session = admin->subscribeWith(rec.client(), default_options());
  // who is at the controls: a bad name is refused saying why, a good one goes in the
  // server's copy of the report
  try {
    session->setTrainee("\t ");
    ADD_FAILURE() << "an empty name was taken";
  } catch (const CLAMX::Refused& r) {
    EXPECT_NE(std::string(r.reason.in()).find("empty"), std::string::npos) << r.reason.in();
  }
  session->setTrainee(" Grace Hopper ");
  send(session, 0, 0, 0.5f);   // the task's clock starts at the first moved control
  ASSERT_TRUE(eventually([&] { return rec->summary().reports > 0; }, Ms(10000)));
  ASSERT_TRUE(rec->wait_frames(rec->summary().frames + 5, Ms(2000)));
  const FrameRecorder::Summary s = rec->summary();
  EXPECT_EQ(s.reports, 1u) << "only on the frame in which the task ended";
  EXPECT_TRUE(s.last.score.finished);
  EXPECT_FALSE(s.last.score.completed);
  const auto report = nlohmann::json::parse(s.last_report);
  EXPECT_EQ(report["schema"], "clamsim-report/1");
  EXPECT_EQ(report["outcome"], "timed out");
  // a plain IIOP receiver proved nobody's identity: the name stays on the server
  // (docs/security.md, "IIOP over TLS"; tls_test.cc has the authenticated case)
  EXPECT_TRUE(report["trainee"].is_null());

  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir / "reports")) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);
  std::ifstream in(files[0]);
  auto saved = nlohmann::json::parse(in);
  EXPECT_EQ(saved["trainee"], "Grace Hopper") << "the server's copy, for the instructor";
  saved["trainee"] = nullptr;
  EXPECT_EQ(saved, report) << "otherwise the same report";

  session->restartTask();  // a new attempt: the score runs again
  EXPECT_TRUE(eventually([&] { return rec->summary().last.score.running; }, Ms(3000)));
  session->unsubscribe();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace clamsim::corba::test
