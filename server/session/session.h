// One trainee's (or receiver's) machine: its own dynamics state and its own thread that
// keeps frames on an absolute schedule, integrates the model up to each frame, and hands
// the frame to the transport's sink. Transport-neutral (no sockets, no ORB): the CORBA and
// WebSocket transports each give it their own sink.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/machine.h"
#include "model/scenario_file.h"
#include "session/clock.h"
#include "session/control_input.h"
#include "session/counters.h"
#include "session/frame_sink.h"
#include "session/frame_stepper.h"
#include "session/instructor_desk.h"
#include "session/observers.h"
#include "session/recorder.h"
#include "session/server_wide.h"

namespace clamsim::session {

// Where a session taken over from a replay starts (the replay's "Take over from here"): the
// replay's stepper after frame k of `recording` (a file name in the recordings directory).
// The new session's frame 1 follows that frame, its state restored exactly.
struct SessionSeed {
  FrameStepper stepper;
  std::string recording;
  std::uint64_t k = 0;
};

struct MachineSetup {
  std::string name;                                  // e.g. "t250"
  std::shared_ptr<const core::MachineParams> params;
  core::InitialConditions initial;
  // The working world and its task; null = empty space, as in the offline
  // experiments of 5.1.1-5.1.2. world_name is its catalog name ("dam_intake").
  std::shared_ptr<const model::Scenario> scenario;
  std::string world_name;
  // The files' SHA-256, named in every report ("" when there is no world).
  std::string model_sha256;
  std::string world_sha256;
  // null: every attempt, the first too, begins at `initial`; else the first one goes on
  // from a replayed moment (restarts still begin at `initial`)
  std::shared_ptr<const SessionSeed> seed;
};

struct SessionOptions {
  double frame_period_s = core::kFramePeriod_s;   // must be a whole number of integrator steps
  double send_grace_s = 2.0;      // reap after this long without a successful send
  // Where finished tasks' reports go (report-<id>-<UTC>.json), created when missing;
  // relative to the working directory. "" = not written (the frame still carries it).
  std::string report_dir = "reports";
  // The session's MCAP recording (recorder.h); off unless enabled.
  RecordingOptions recording;
  // Shared with the server (timing histograms, drain deadline); null = none.
  ServerWide* wide = nullptr;
};

class Session {
 public:
  Session(std::uint64_t id, MachineSetup machine, std::shared_ptr<FrameSink> sink,
          SessionOptions options, Clock& clock);
  ~Session();  // stops and joins; never call from the session's own thread
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void start();
  // Ask the thread to stop without waiting (lets a caller stop many sessions at once).
  void request_stop();
  // Stop the thread and wait for it. Safe from any thread but the session's own; idempotent.
  void stop();

  // Latest control wins (mailbox); validated here, counted, and only valid values reach
  // the model. Thread-safe.
  ControlVerdict submit_control(const double* volts, std::size_t count);
  ControlVerdict submit_control(const float* volts, std::size_t count);

  // A new attempt at the task: at the next frame the machine is back at its start pose,
  // the world as loaded and the score cleared (sim time restarts at 0; seq goes on).
  // Counted as restarts. Thread-safe.
  void request_restart(bool practice = false);

  std::uint64_t id() const { return id_; }
  const MachineSetup& machine() const { return machine_; }
  double frame_period_s() const { return options_.frame_period_s; }
  const FrameSink& sink() const { return *sink_; }
  CounterSnapshot counters() const { return counters_.snapshot(); }
  bool running() const { return running_.load(); }
  // True when every send has failed for longer than the grace period (dead or hung
  // receiver). A session that is merely late (CPU starved) has not failed.
  bool delivery_failed_too_long() const;
  // True when the thread has made no progress (no frame computed or sent) for longer than
  // `limit`: stuck in a sink, or dead. /livez fails on it.
  bool stalled(Duration limit) const;
  // The server stops this session (drain over, shutdown): a task still running is ended
  // with the outcome "interrupted" and its report written when the thread stops.
  void interrupt_task() { interrupt_task_ = true; }
  // Wall seconds since start() (steady clock), for the log's session_end.
  double age_s() const;
  // Simulated time of the last frame sent [s].
  double sim_time_s() const;
  // The task's score as of the last frame (enabled = false when the world has no task).
  // Thread-safe: the instructor's overview reads it while the session runs.
  training::TaskScore score() const;
  // The lesson's progress as of the last frame (enabled = false without a lesson).
  training::LessonProgress lesson() const;
  // "session 3 (t250, dam_intake)": how logs and reports name this session.
  std::string label() const;
  // Who is at the controls, as the trainee gave it (training/trainee_name.h checks it);
  // "" until then. Shown to the instructor and written into the task's reports.
  // Thread-safe.
  void set_trainee(std::string name);
  std::string trainee() const;
  // The file name of this session's recording in the recordings directory; "" while it is
  // not (yet) recorded. Thread-safe.
  std::string recording_name() const;
  // Observers (instructors watching the session): each gets every frame the sink gets (same seq), with
  // the voltages that drove it and its events, through its own bounded queue. False when
  // the session has ended. Thread-safe; detach is idempotent.
  bool attach_observer(std::shared_ptr<ObserverQueue> q) { return observers_.attach(std::move(q)); }
  void detach_observer(const ObserverQueue* q) { observers_.detach(q); }
  std::size_t observer_count() const { return observers_.size(); }
  // What instructors do to this session: the controls, messages. Thread-safe.
  InstructorDesk& desk() { return desk_; }
  const InstructorDesk& desk() const { return desk_; }

 private:
  // Hands the frame to the observers (session thread).
  void publish_to_observers(const Frame& frame, const core::Control& u, bool restarted);
  // The server's, model's and scenario's versions, for the task's report.
  training::ReportVersions report_versions() const;
  // The session thread: frames on their schedule until stopped (session.cc).
  struct RunState;
  void run();
  bool sleep_until(Instant due);   // false once stopped
  void run_frame(RunState& r, std::uint64_t k, Instant due);
  bool restart_if_requested(RunState& r, std::uint64_t k);
  StepInputs merge_inputs(RunState& r, std::uint64_t k, Frame& frame);
  void compute_frame(RunState& r, std::uint64_t k, const StepInputs& in, Frame& frame);
  void record_score(RunState& r, std::uint64_t k, const Frame& frame);
  void report_finished(RunState& r);
  std::string with_recording(const RunState& r, nlohmann::ordered_json report) const;
  void time_frame(Frame& frame, Instant computing, Instant computed, Instant due,
                  Duration period);
  void deliver(const Frame& frame, Instant sent_at);
  void catch_up(RunState& r, std::uint64_t& k);
  void end_run(RunState& r);
  FrameStepper first_stepper() const;
  // The recording, when enabled and its file opens (else logged and counted).
  std::unique_ptr<SessionRecorder> open_recorder() const;
  void mark_progress(Instant t) { progress_ns_ = t.time_since_epoch().count(); }
  ControlVerdict accept(ControlVerdict v);
  // The report of a task that just ended, also written to options_.report_dir.
  std::shared_ptr<const std::string> publish_report(const std::string& json_text);

  const std::uint64_t id_;
  const MachineSetup machine_;
  const std::shared_ptr<FrameSink> sink_;
  const SessionOptions options_;
  Clock& clock_;
  Counters counters_;

  mutable std::mutex control_mutex_;
  core::Control control_;                 // the mailbox
  std::uint64_t control_seq_ = 0;         // controls received so far; control_mutex_ too

  std::atomic<bool> stop_requested_{false};
  Alarm alarm_;                           // rung by request_stop(): cuts this thread's sleep short
  std::atomic<bool> restart_requested_{false};
  std::atomic<bool> restart_practice_{false};  // the requested attempt is practice
  std::atomic<bool> interrupt_task_{false};
  std::atomic<std::int64_t> progress_ns_{0};        // clock time of the last progress
  Instant started_{};                               // set by start() before the thread
  std::atomic<bool> running_{false};
  std::atomic<std::int64_t> failing_since_ns_{-1};  // first failed send since the last success
  std::atomic<double> sim_time_s_{0.0};
  mutable std::mutex score_mutex_;
  training::TaskScore score_;                       // the last frame's
  training::LessonProgress lesson_;                 // the last frame's; guarded by score_mutex_ too
  std::string trainee_;                   // guarded by score_mutex_ too
  std::string recording_;                 // the recording's file name; score_mutex_ too
  ObserverSet observers_;
  InstructorDesk desk_;
  EventWatch event_watch_;                // session thread only
  std::mutex lifecycle_mutex_;
  std::thread thread_;
};

}  // namespace clamsim::session
