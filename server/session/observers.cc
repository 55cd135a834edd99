#include "session/observers.h"

#include <algorithm>
#include <utility>

#include "model/scenario_file.h"

namespace clamsim::session {

const char* to_string(ObserverEventKind k) {
  switch (k) {
    case ObserverEventKind::RackGateHit: return model::to_string(model::PenaltyKind::RackGateHit);
    case ObserverEventKind::StructureHit: return model::to_string(model::PenaltyKind::StructureHit);
    case ObserverEventKind::LoadImpact: return "load_impact";
    case ObserverEventKind::SlackCable: return model::to_string(model::PenaltyKind::SlackCable);
    case ObserverEventKind::Overload: return model::to_string(model::PenaltyKind::Overload);
    case ObserverEventKind::Grip: return "grip";
    case ObserverEventKind::Release: return "release";
    case ObserverEventKind::Delivered: return "delivered";
    case ObserverEventKind::DroppedLoad: return model::to_string(model::PenaltyKind::DroppedLoad);
    case ObserverEventKind::LessonStep: return "lesson_step";
    case ObserverEventKind::TaskFinished: return "task_finished";
    case ObserverEventKind::Restart: return "restart";
    case ObserverEventKind::ControlChange: return "control";
    case ObserverEventKind::InstructorMessage: return "instructor_message";
    case ObserverEventKind::FaultsChanged: return "faults";
    case ObserverEventKind::TwoBlock: return "two_block";
    case ObserverEventKind::LmiWarning: return model::to_string(model::PenaltyKind::LmiWarning);
    case ObserverEventKind::LmiCutout: return model::to_string(model::PenaltyKind::LmiCutout);
    case ObserverEventKind::TipOver: return "tip_over";
  }
  return "unknown";
}

namespace {

void add(ObservedFrame* out, ObserverEventKind kind, int value) {
  if (out != nullptr && out->event_count < out->events.size())
    out->events[out->event_count++] = {kind, value};
}

// A counter that rose since the last frame: one event carrying how many.
void rose(ObservedFrame* out, ObserverEventKind kind, std::uint64_t before, std::uint64_t now) {
  if (now > before) add(out, kind, static_cast<int>(std::min<std::uint64_t>(now - before, 1000000)));
}

}  // namespace

void EventWatch::update(const Frame& f, bool restarted, ObservedFrame* out) {
  if (out != nullptr) out->event_count = 0;
  if (restarted) add(out, ObserverEventKind::Restart, 0);
  // an instructor's change makes an event frame, so no observer's queue drops it
  if (f.notices && f.notices->control_changed)
    add(out, ObserverEventKind::ControlChange, static_cast<int>(f.notices->control.mode));
  if (f.notices && !f.notices->messages.empty())
    add(out, ObserverEventKind::InstructorMessage, static_cast<int>(f.notices->messages.size()));
  if (f.notices && f.notices->faults_changed)
    add(out, ObserverEventKind::FaultsChanged, static_cast<int>(f.notices->faults.size()));
  // the first frame, and the first of a new attempt, are the baseline: their counters
  // start from what the world says now
  if (seen_ && !restarted) {
    const core::WorldEvents& a = last_.outputs.events;
    const core::WorldEvents& b = f.outputs.events;
    rose(out, ObserverEventKind::RackGateHit, a.rack_gate_hits, b.rack_gate_hits);
    rose(out, ObserverEventKind::StructureHit, a.structure_hits, b.structure_hits);
    rose(out, ObserverEventKind::LoadImpact, a.load_impacts, b.load_impacts);
    rose(out, ObserverEventKind::SlackCable, a.slack_cables, b.slack_cables);
    rose(out, ObserverEventKind::Overload, a.overloads, b.overloads);
    rose(out, ObserverEventKind::TwoBlock, a.two_blocks, b.two_blocks);
    rose(out, ObserverEventKind::LmiWarning, a.lmi_warnings, b.lmi_warnings);
    rose(out, ObserverEventKind::LmiCutout, a.lmi_cutouts, b.lmi_cutouts);
    rose(out, ObserverEventKind::TipOver, a.tip_overs, b.tip_overs);
    const int was = last_.outputs.held_load, is = f.outputs.held_load;
    if (was != is && was >= 0) add(out, ObserverEventKind::Release, was);
    if (was != is && is >= 0) add(out, ObserverEventKind::Grip, is);
    if (f.score.delivered > last_.score.delivered)
      add(out, ObserverEventKind::Delivered, f.score.delivered);
    rose(out, ObserverEventKind::DroppedLoad, static_cast<std::uint64_t>(last_.score.dropped_loads),
         static_cast<std::uint64_t>(f.score.dropped_loads));
    if (f.lesson.enabled && f.lesson.step != last_.lesson.step)
      add(out, ObserverEventKind::LessonStep, f.lesson.step);
    if (f.score.finished && !last_.score.finished)
      add(out, ObserverEventKind::TaskFinished, f.score.completed ? 1 : 0);
  }
  seen_ = true;
  last_ = f;
}

// ---- one observer's queue ----

void ObserverQueue::push(const std::shared_ptr<const ObservedFrame>& f) {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ended_) return;
    if (count_ == kFrames) {   // latest wins: the stalest frame goes
      frames_[first_].reset();
      first_ = (first_ + 1) % kFrames;
      --count_;
      dropped_.fetch_add(1, std::memory_order_relaxed);
    }
    frames_[(first_ + count_) % kFrames] = f;
    ++count_;
    if (f->event_count > 0) {
      if (events_count_ == kEventFrames) {
        events_first_ = (events_first_ + 1) % kEventFrames;
        --events_count_;
      }
      events_[(events_first_ + events_count_) % kEventFrames] = f;
      ++events_count_;
    }
    wake = !woken_;
    woken_ = true;
  }
  pushed_.fetch_add(1, std::memory_order_relaxed);
  if (wake && wake_) wake_();
}

void ObserverQueue::end(std::string reason) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ended_) return;
    ended_ = true;
    end_reason_ = std::move(reason);
    woken_ = true;
  }
  if (wake_) wake_();
}

ObserverQueue::Batch ObserverQueue::take() {
  Batch b;
  std::lock_guard<std::mutex> lock(mutex_);
  b.frames.reserve(count_);
  for (; count_ > 0; --count_, first_ = (first_ + 1) % kFrames)
    b.frames.push_back(std::move(frames_[first_]));
  b.event_frames.reserve(events_count_);
  for (; events_count_ > 0; --events_count_, events_first_ = (events_first_ + 1) % kEventFrames)
    b.event_frames.push_back(std::move(events_[events_first_]));
  b.ended = ended_;
  b.end_reason = end_reason_;
  woken_ = false;
  return b;
}

// ---- a session's observers ----

bool ObserverSet::attach(std::shared_ptr<ObserverQueue> q) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (ended_) return false;
  queues_.push_back(std::move(q));
  count_ = queues_.size();
  return true;
}

void ObserverSet::detach(const ObserverQueue* q) {
  std::lock_guard<std::mutex> lock(mutex_);
  queues_.erase(std::remove_if(queues_.begin(), queues_.end(),
                               [q](const auto& p) { return p.get() == q; }),
                queues_.end());
  count_ = queues_.size();
}

std::size_t ObserverSet::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queues_.size();
}

void ObserverSet::publish(const std::shared_ptr<const ObservedFrame>& f) {
  {
    // copied so that an observer is woken without the lock (its wake may post, and
    // attach/detach must never wait on that); scratch_ keeps its capacity
    std::lock_guard<std::mutex> lock(mutex_);
    scratch_.assign(queues_.begin(), queues_.end());
  }
  for (const auto& q : scratch_) q->push(f);
  scratch_.clear();
}

void ObserverSet::end_all(const std::string& reason) {
  std::vector<std::shared_ptr<ObserverQueue>> ending;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = true;
    ending.swap(queues_);
    count_ = 0;
  }
  for (const auto& q : ending) q->end(reason);
}

}  // namespace clamsim::session
