#include "session/replay_run.h"

#include <stdexcept>

#include "session/observers.h"

namespace clamsim::session {

namespace {

// A desk note's kind as the observer events name the same change.
const char* event_kind_of_note(const std::string& note) {
  if (note == "control") return to_string(ObserverEventKind::ControlChange);
  if (note == "message") return to_string(ObserverEventKind::InstructorMessage);
  return to_string(ObserverEventKind::FaultsChanged);   // "fault", "fault_cleared"
}

}  // namespace

ReplayRun::ReplayRun(RecordedSession recording, MachineSetup setup, ReplayStart start)
    : recording_(std::move(recording)), setup_(std::move(setup)), period_(recording_.frame_period_s()),
      now_(Point{std::move(start.stepper), std::move(start.inputs)}) {
  checkpoints_.emplace_back(0, *now_);
}

bool ReplayRun::step_next() {
  const std::uint64_t k = k_ + 1;
  bool restart = false, practice = false;
  apply_recorded_inputs(recorded_inputs(recording_, k), now_->inputs, &restart, &practice);
  if (restart) now_->stepper.restart(k, practice);
  now_->stepper.step(k, &now_->inputs);
  k_ = k;
  return restart;
}

Frame ReplayRun::current_frame() const {
  Frame f;
  f.seq = k_ - 1;
  f.outputs = now_->stepper.outputs();
  f.score = now_->stepper.scorer().score();
  f.lesson = now_->stepper.lesson().progress();
  return f;
}

void ReplayRun::note_events(const std::vector<DeskNote>& notes) {
  for (const DeskNote& n : notes) {
    std::string text = n.detail;
    if (!n.by.empty()) text += " (" + n.by + ")";
    events_.push_back({k_, event_kind_of_note(n.kind), 0, std::move(text)});
  }
}

bool ReplayRun::prepare(const Progress& progress) {
  const std::uint64_t n = frames();
  const std::uint64_t every = n / kSeriesPoints + 1;
  EventWatch watch;
  ObservedFrame seen;
  while (k_ < n) {
    const bool restarted = step_next();
    note_events(now_->inputs.notes);
    const Frame f = current_frame();
    watch.update(f, restarted, &seen);
    for (std::size_t i = 0; i < seen.event_count; ++i) {
      const ObserverEvent& e = seen.events[i];
      if (e.kind == ObserverEventKind::ControlChange || e.kind == ObserverEventKind::InstructorMessage ||
          e.kind == ObserverEventKind::FaultsChanged)
        continue;   // from the notes above, with their words
      events_.push_back({k_, to_string(e.kind), e.value, ""});
    }
    if (k_ % every == 0 || k_ == 1 || k_ == n) {
      series_.k.push_back(k_);
      for (std::size_t i = 0; i < 2; ++i) series_.tension_N[i].push_back(f.outputs.tensions_N[i]);
      for (std::size_t i = 0; i < 3; ++i) series_.joint_velocity[i].push_back(f.outputs.joint_vel[i]);
    }
    if (k_ % kCheckpointEvery == 0) checkpoints_.emplace_back(k_, *now_);
    if ((k_ % 100 == 0 || k_ == n) && progress && !progress(k_, n)) return false;
  }
  prepared_ = true;
  return true;
}

Frame ReplayRun::frame(std::uint64_t k) {
  if (!prepared_) throw std::logic_error("ReplayRun::frame before prepare()");
  if (k == 0 || k > frames())
    throw std::out_of_range("frame " + std::to_string(k) + " is not in the recording (1 to " +
                            std::to_string(frames()) + ")");
  if (k == k_) return current_frame();
  // the last checkpoint at or before the frame before k
  std::size_t c = (k - 1) / kCheckpointEvery;
  if (c >= checkpoints_.size()) c = checkpoints_.size() - 1;
  const std::uint64_t from = checkpoints_[c].first;
  if (k_ >= k || k_ < from) {
    now_.emplace(checkpoints_[c].second);
    k_ = from;
  }
  while (k_ < k) step_next();
  return current_frame();
}

}  // namespace clamsim::session
