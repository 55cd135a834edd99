// The load generator's N receivers in one process: N servants, N subscriptions made at a
// bounded pace (each call with a timeout, every refusal kept with its reason), one thread
// sending every session's GetControlInput at 20 Hz as the thesis's receivers do, and an
// orderly unsubscribe of all at the end.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/params.h"
#include "model/control_script.h"
#include "tools/client/client_orb.h"
#include "tools/client/subscription.h"
#include "tools/loadgen/session_recorder.h"

namespace clamsim::loadgen {

struct SessionSlot {
  int index = 0;
  std::shared_ptr<SessionRecorder> recorder;
  PortableServer::ObjectId_var servant_id;
  std::unique_ptr<client::Subscription> sub;  // null when not (or no longer) subscribed
  bool subscribed = false;                    // the subscription succeeded
  std::string failure;                        // why (Refused reason or CORBA error)
  bool refused = false;                       // the server said no (vs. an error)
  std::uint64_t controls_sent = 0;
  std::uint64_t controls_failed = 0;
  std::optional<client::SessionCounters> server;  // CLAMX::Session::stats() at the end
};

struct FleetSettings {
  bool legacy = false;
  double period_s = core::kFramePeriod_s;
  client::SubscribeSettings subscribe;
};

// The spacing that spreads the sessions' frame times evenly over the frame period. A
// session's frames are due at its start + k periods, so its phase is its start time modulo
// the period. Independent receivers subscribe at unrelated moments, so their phases are
// spread; a spacing that divides the period (10 ms for 50 ms) would instead make groups of
// sessions due at the same instant, and their frames queue behind each other. Spacing by
// (2 - golden ratio) periods gives phases frac(i x 0.382), evenly spread for every N.
double phase_spreading_spacing(double period_s);

struct RampResult {
  int subscribed = 0;
  int refused = 0;
  int failed = 0;
  double seconds = 0.0;
};

class Fleet {
 public:
  Fleet(client::ClientOrb& orb, client::ServerAdmin& admin, FleetSettings settings);
  ~Fleet();  // stops the control thread, unsubscribes what is left

  // Subscribes up to n more sessions, one every `spacing_s`. Stops early when `stop` becomes
  // true or after 5 errors in a row (the server is gone or swamped). Progress on stderr.
  // Not while the controls run (their thread walks the sessions).
  RampResult subscribe_all(int n, double spacing_s, const std::atomic<bool>& stop);

  // GetControlInput to every subscribed session at rate_hz (0 = none); the script (may be
  // null = 0 V) is sampled at the time since start_controls.
  void start_controls(double rate_hz, const model::ControlScript* script);
  void stop_controls();

  void set_window(double start_s, double end_s);
  // Reads every extended session's server-side counters.
  void collect_server_stats();
  // Unsubscribes all; returns how many calls failed (their sessions are reaped anyway).
  int unsubscribe_all();

  const std::vector<std::unique_ptr<SessionSlot>>& slots() const { return slots_; }

 private:
  void control_loop(double rate_hz, const model::ControlScript* script);
  static void send_control(SessionSlot& slot, const std::array<float, 5>& volts);

  client::ClientOrb& orb_;
  client::ServerAdmin& admin_;
  FleetSettings settings_;
  std::vector<std::unique_ptr<SessionSlot>> slots_;
  std::atomic<bool> controls_stop_{false};
  std::thread controls_;
};

}  // namespace clamsim::loadgen
