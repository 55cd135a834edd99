// What a receiver got from the server, in plain C++ types (no IDL types), and the observer
// the servants hand it to. One struct for both wires: a legacy getDisplayData fills only
// `display`; an extended getFrame fills everything.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/state.h"
#include "training/task_score.h"

namespace clamsim::client {

// CLAMX::TaskScore in the server's own score struct (training/task_score.h), copied by
// name from the IDL's fields (corba/idl_fields.h); `interrupted` the IDL lacks stays false.
using ReceivedScore = training::TaskScore;

struct ReceivedFrame {
  double arrival_s = 0.0;  // steady clock [s], taken when the call is dispatched
  bool extended = false;   // came as CLAMX::Frame (seq and the rest are valid)
  std::uint64_t seq = 0;
  double sim_time_s = 0.0;
  std::array<float, 8> display{};         // Table 4.1 order and units
  std::array<float, 3> joint_velocity{};  // deg/s, deg/s, m/s
  std::array<float, 2> tension_N{};
  // thesis 2.1.1 and Table 2.4, named by core::to_string as clamsim-sim names them
  core::WorkingState working = core::WorkingState::Free;
  core::GeoStatus geo = core::GeoStatus::InRange;
  core::LoadStatus load = core::LoadStatus::WithoutLoad;
  float theta2_deg = 0.0f;
  float jaw_gap_m = 0.0f;
  float squeeze_N = 0.0f;
  std::array<float, 3> tip_m{};
  int loads = 0;                  // loads in the world
  int held_load = -1;             // the one in the jaws, -1 none
  ReceivedScore score;
  std::string task_report_json;   // only on the frame in which the task ended
};

// Called on an ORB dispatch thread; several threads may call concurrently for different
// servants, and (when the server uses more than one connection) for the same servant.
class FrameObserver {
 public:
  virtual ~FrameObserver() = default;
  virtual void on_frame(const ReceivedFrame& frame) = 0;
  // The server's notices (CLAMX::NoticeClient::notify): kind "drain" while it shuts down,
  // with the whole seconds left and the sentence to show.
  virtual void on_notice(const std::string& kind, double seconds_left,
                         const std::string& message) {
    (void)kind;
    (void)seconds_left;
    (void)message;
  }
};

// Monotonic seconds, the clock arrival_s is read from.
double now_s();

}  // namespace clamsim::client
