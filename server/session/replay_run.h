// The debrief replay of one recording (docs/recording.md "Debrief"): the run is
// re-simulated once to find its events and the series the plots show, keeping a checkpoint
// (a copy of the stepper) every kCheckpointEvery frames; after that any frame comes from
// the nearest checkpoint or the current position, bit for bit as the live session computed
// it. No threads, no clocks, no I/O: the player (replay_player.h) paces it.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "session/frame_sink.h"
#include "session/recording_read.h"
#include "session/session.h"

namespace clamsim::session {

// Something on the timeline: an observer event (observers.h's names: "rack_gate_hit",
// "grip", "restart", ...) found by comparing frames, or an instructor's change from the
// recorded notes ("control", "instructor_message", "faults", with the note's words).
struct ReplayEvent {
  std::uint64_t k = 0;   // the frame it happened in
  std::string kind;
  int value = 0;         // as ObserverEvent::value
  std::string text;      // the instructor's note; "" for the world's events
};

// What the debrief plots show, every Nth frame (at most kSeriesPoints points).
struct ReplaySeries {
  std::vector<std::uint64_t> k;
  std::array<std::vector<double>, 2> tension_N;       // rope 1, rope 2
  std::array<std::vector<double>, 3> joint_velocity;  // swing deg/s, boom deg/s, telescope m/s
};

class ReplayRun {
 public:
  static constexpr std::uint64_t kCheckpointEvery = 200;   // 10 s at 20 Hz
  static constexpr std::size_t kSeriesPoints = 4000;

  // setup: the machine and world (recorded_setup), kept alive here for the steppers that
  // point into them; start: replay_start's.
  ReplayRun(RecordedSession recording, MachineSetup setup, ReplayStart start);

  // Re-simulates the whole run once. progress(done, of) is called every 100 frames and at
  // the end; returning false stops it (and prepare returns false).
  using Progress = std::function<bool(std::uint64_t done, std::uint64_t of)>;
  bool prepare(const Progress& progress);

  std::uint64_t frames() const { return recording_.last_k; }
  double frame_period_s() const { return period_; }
  const RecordedSession& recording() const { return recording_; }
  const std::vector<ReplayEvent>& events() const { return events_; }
  const ReplaySeries& series() const { return series_; }

  // Frame k (1..frames()) as the live session sent it: seq k - 1, the score and lesson as
  // they stood. After prepare() only.
  Frame frame(std::uint64_t k);
  // The stepper after the last frame() (a take-over's seed) and that frame's index.
  const FrameStepper& stepper() const { return now_->stepper; }
  std::uint64_t position() const { return k_; }

 private:
  struct Point {
    FrameStepper stepper;
    StepInputs inputs;   // the control, faults and driver in force
  };
  // Steps now_ from frame k_ to k_ + 1 with that frame's recorded inputs; true when a new
  // attempt began with it.
  bool step_next();
  Frame current_frame() const;
  void note_events(const std::vector<DeskNote>& notes);

  const RecordedSession recording_;
  const MachineSetup setup_;
  const double period_;
  std::optional<Point> now_;  // the state after frame k_ (optional: emplaced, not assigned)
  std::uint64_t k_ = 0;
  std::vector<std::pair<std::uint64_t, Point>> checkpoints_;   // the state after frame .first
  std::vector<ReplayEvent> events_;
  ReplaySeries series_;
  bool prepared_ = false;
};

}  // namespace clamsim::session
