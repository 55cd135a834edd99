// One trainee's (or receiver's) machine: its own dynamics state and its own thread that
// keeps frames on an absolute schedule, integrates the model up to each frame, and hands
// the frame to the transport's sink. Transport-neutral (DESIGN.md "Data flow").
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/machine.h"
#include "session/clock.h"
#include "session/control_input.h"
#include "session/counters.h"
#include "session/frame_sink.h"

namespace clamsim::session {

struct MachineSetup {
  std::string name;                                  // e.g. "t250"
  std::shared_ptr<const core::MachineParams> params;
  core::InitialConditions initial;
};

struct SessionOptions {
  double frame_period_s = 0.05;   // must be a whole number of integrator steps
  double send_grace_s = 2.0;      // reap after this long without a successful send
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

  std::uint64_t id() const { return id_; }
  const MachineSetup& machine() const { return machine_; }
  CounterSnapshot counters() const { return counters_.snapshot(); }
  bool running() const { return running_.load(); }
  // True when every send has failed for longer than the grace period (dead or hung
  // receiver). A session that is merely late (CPU starved) has not failed.
  bool delivery_failed_too_long() const;
  // Simulated time of the last frame sent [s].
  double sim_time_s() const;

 private:
  void run();
  ControlVerdict accept(ControlVerdict v);

  const std::uint64_t id_;
  const MachineSetup machine_;
  const std::shared_ptr<FrameSink> sink_;
  const SessionOptions options_;
  Clock& clock_;
  Counters counters_;

  mutable std::mutex control_mutex_;
  core::Control control_;                 // the mailbox

  std::atomic<bool> stop_requested_{false};
  std::atomic<bool> running_{false};
  std::atomic<std::int64_t> failing_since_ns_{-1};  // first failed send since the last success
  std::atomic<double> sim_time_s_{0.0};
  std::mutex lifecycle_mutex_;
  std::thread thread_;
};

}  // namespace clamsim::session
