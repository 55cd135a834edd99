#include "session/frame_stepper.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace clamsim::session {

namespace {

training::TaskScorer make_scorer(const model::Scenario* scenario) {
  if (scenario == nullptr) return training::TaskScorer(model::TaskSpec{});
  std::vector<std::string> names;
  for (const core::LoadParams& l : scenario->world.loads) names.push_back(l.name);
  return training::TaskScorer(scenario->task, std::move(names));
}

}  // namespace

FrameStepper::FrameStepper(const core::MachineParams& model, const model::Scenario* scenario,
                           const core::InitialConditions& initial, double frame_period_s)
    : model_(model), scenario_(scenario), initial_(initial), frame_period_s_(frame_period_s),
      scorer_(make_scorer(scenario)),
      lesson_(scenario != nullptr ? scenario->lesson : model::LessonSpec{}) {
  env_.world = scenario != nullptr ? &scenario->world : nullptr;
  restart(1);
}

void FrameStepper::restart(std::uint64_t k, bool practice) {
  state_ = core::initial_state(model_, initial_);
  if (env_.world != nullptr) core::reset_world(*env_.world, state_.world);
  scorer_.reset(practice);
  lesson_.reset();
  k0_ = static_cast<std::int64_t>(k) - 1;
}

const core::Outputs& FrameStepper::step(std::uint64_t k, const StepInputs* in) {
  if (in != nullptr) {
    control_ = in->control;
    env_.faults = in->faults;
    scorer_.set_driver(to_string(in->driver), in->instructor);
    for (const DeskNote& n : in->notes) scorer_.note(state_.time_s, n.kind, n.detail, n.by);
  }
  core::advance_to(model_, state_, control_, env_, sim_time(k));
  outputs_ = core::outputs(model_, state_, env_);
  const bool moved = std::any_of(control_.volts.begin(), control_.volts.end(),
                                 [](double v) { return std::abs(v) > kControlMovedV; });
  scorer_.update(outputs_, moved);
  lesson_.update(outputs_);
  return outputs_;
}

}  // namespace clamsim::session
