// Per-session counters, written by the session thread and the transports, read by anyone.
// kCounterFields is the one list of them: the shutdown printout, /metrics, /sessions, the
// sums and the CORBA stats all walk it, so a counter added here appears everywhere at once.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "core/field_list.h"

namespace clamsim::session {

struct CounterSnapshot {
  std::uint64_t frames_sent = 0;
  std::uint64_t send_failures = 0;
  std::uint64_t controls_received = 0;
  std::uint64_t controls_rejected = 0;
  std::uint64_t controls_clamped = 0;
  std::uint64_t late_frames = 0;       // sent more than one period after their deadline
  std::uint64_t skipped_frames = 0;    // not sent at all because the thread fell behind
  std::uint64_t restarts = 0;          // new attempts at the task (request_restart)
  std::uint64_t reports_written = 0;   // task reports saved under the report directory
  std::uint64_t report_failures = 0;   // task reports that could not be saved
  std::uint64_t nonfinite_resets = 0;  // steps whose state went NaN/inf and were undone
  std::uint64_t nonphysical_warnings = 0;  // speeds past what the machine can reach

  CounterSnapshot& operator+=(const CounterSnapshot& o);
};

struct Counters {
  std::atomic<std::uint64_t> frames_sent{0};
  std::atomic<std::uint64_t> send_failures{0};
  std::atomic<std::uint64_t> controls_received{0};
  std::atomic<std::uint64_t> controls_rejected{0};
  std::atomic<std::uint64_t> controls_clamped{0};
  std::atomic<std::uint64_t> late_frames{0};
  std::atomic<std::uint64_t> skipped_frames{0};
  std::atomic<std::uint64_t> restarts{0};
  std::atomic<std::uint64_t> reports_written{0};
  std::atomic<std::uint64_t> report_failures{0};
  std::atomic<std::uint64_t> nonfinite_resets{0};
  std::atomic<std::uint64_t> nonphysical_warnings{0};

  CounterSnapshot snapshot() const;
};

// One counter: its name (the printout's and JSON's key; /metrics adds clamsim_ and
// _total), no unit (counts), what it counts (the metric's HELP), and where it lives in
// both structs.
struct CounterField : core::Field<CounterSnapshot, std::uint64_t> {
  std::atomic<std::uint64_t> Counters::*live;
};

inline constexpr std::array<CounterField, 12> kCounterFields{{
    {{"frames_sent", "", "Frames handed to a transport.", &CounterSnapshot::frames_sent},
     &Counters::frames_sent},
    {{"send_failures", "", "Frames a transport could not send.",
      &CounterSnapshot::send_failures},
     &Counters::send_failures},
    {{"controls_received", "", "Control messages received.",
      &CounterSnapshot::controls_received},
     &Counters::controls_received},
    {{"controls_rejected", "", "Control messages rejected (not finite, wrong arity).",
      &CounterSnapshot::controls_rejected},
     &Counters::controls_rejected},
    {{"controls_clamped", "", "Control messages clamped to -5..+5 V.",
      &CounterSnapshot::controls_clamped},
     &Counters::controls_clamped},
    {{"late_frames", "", "Frames sent more than one period after their deadline.",
      &CounterSnapshot::late_frames},
     &Counters::late_frames},
    {{"skipped_frames", "", "Frames not sent because a session fell behind.",
      &CounterSnapshot::skipped_frames},
     &Counters::skipped_frames},
    {{"restarts", "", "New attempts at the training task.", &CounterSnapshot::restarts},
     &Counters::restarts},
    {{"reports_written", "", "Task reports saved to the report directory.",
      &CounterSnapshot::reports_written},
     &Counters::reports_written},
    {{"report_failures", "", "Task reports that could not be saved.",
      &CounterSnapshot::report_failures},
     &Counters::report_failures},
    {{"nonfinite_resets", "",
      "Integration steps whose state went NaN or inf and were undone (a model whose numbers "
      "break the dynamics).",
      &CounterSnapshot::nonfinite_resets},
     &Counters::nonfinite_resets},
    {{"nonphysical_warnings", "",
      "Times a speed of the machine passed what no machine of this kind reaches (a model or a "
      "start pose gone wrong).",
      &CounterSnapshot::nonphysical_warnings},
     &Counters::nonphysical_warnings},
}};

// A counter in one struct and not the list (or the other struct) does not compile.
static_assert(core::covers_struct(kCounterFields));
static_assert(sizeof(Counters) == kCounterFields.size() * sizeof(std::atomic<std::uint64_t>));

}  // namespace clamsim::session
