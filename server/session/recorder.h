// Records one session to an MCAP file (docs/recording.md): the inputs as they reach the
// machine (/inputs), every Nth frame (/frames), the world's events (/events), the task's
// score (/score), and metadata naming the model, scenario, build and start. With the
// inputs, the model file and the scenario, clamsim-sim --replay re-simulates every frame
// bit for bit. Session thread only; a failed write stops the recording, never the session.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "core/state.h"
#include "record/mcap_writer.h"
#include "session/frame_stepper.h"
#include "session/instructor_desk.h"
#include "session/recording_retention.h"
#include "training/task_score.h"

namespace clamsim::session {

// The sparsest /frames a recording may keep (--record-frame-every's largest; a replay
// refuses a recording that claims more, recording_read.h).
inline constexpr unsigned kMaxFrameEvery = 10000;

struct RecordingOptions {
  bool enabled = false;             // the server's --record (yes by default there)
  std::string dir = "recordings";   // created when missing
  unsigned frame_every = 20;        // /frames: every Nth frame (1 = all)
  double chunk_s = 1.0;             // session time per chunk: what a crash may lose
  RetentionLimits keep;             // checked when a recording starts and ends
};

// What names the run: the metadata record "session".
struct RecordingInfo {
  std::uint64_t session_id = 0;
  std::string label;                // "session 3 (t250, dam_intake)"
  std::string model, model_sha256;  // the machine's catalog name and file hash
  std::string world, world_sha256;  // "" without a world
  core::InitialConditions initial;  // the start pose every attempt begins from
  // a session taken over from a replay: the source recording (file name) and its frame
  // this session's frame 1 follows; "" = none
  std::string seed_recording;
  std::uint64_t seed_k = 0;
  double frame_period_s = core::kFramePeriod_s;
  std::chrono::system_clock::time_point start;
};

class SessionRecorder {
 public:
  // Opens <dir>/session-<UTC>-<id>.mcap and writes the schemas, channels and metadata.
  // !ok() (error() says why) when it cannot: the session runs unrecorded.
  SessionRecorder(const RecordingOptions& options, const RecordingInfo& info);
  ~SessionRecorder();   // finish()es

  bool ok() const { return writer_ && writer_->ok(); }
  std::string error() const;
  const std::string& path() const { return path_; }

  // Before frame k: a new attempt.
  void restart(std::uint64_t k, bool practice = false);
  // Frame k's inputs: the control when it changed (and the trainee's own stick when it
  // differs), the faults and the driver when they changed, the desk's notes and messages.
  void inputs(std::uint64_t k, const core::Control& trainee, const StepInputs& in,
              const FrameNotices* notices);
  void trainee(std::uint64_t k, const std::string& name);
  // After frame k: /frames every Nth frame, /events when a count grew, /score when more
  // than its clock changed (and with every recorded frame).
  void frame(std::uint64_t k, std::uint64_t seq, const core::Outputs& o,
             const training::TaskScore& score, const core::State& state);
  // Writes the "session_end" metadata and the summary; applies retention. Idempotent.
  void finish(std::uint64_t frames, const std::string& trainee);

 private:
  std::uint64_t log_time(std::uint64_t k) const;
  void write(std::uint16_t channel, std::uint64_t k, const std::string& json_text);

  RecordingOptions options_;
  RecordingInfo info_;
  std::string path_;
  std::string open_error_;
  std::unique_ptr<record::McapWriter> writer_;
  std::uint16_t inputs_ = 0, frames_ = 0, events_ = 0, score_ = 0;
  std::uint64_t start_ns_ = 0;
  bool first_inputs_ = true;
  core::Control last_control_, last_trainee_;
  core::Faults last_faults_;
  Driver last_driver_ = Driver::Trainee;
  std::string last_instructor_;
  core::WorldEvents last_events_;
  training::TaskScore last_score_;
  bool finished_ = false;
};

}  // namespace clamsim::session
