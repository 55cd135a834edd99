// Controls from a control script (docs/control-script.md), the same format clamsim-sim
// reads. Time 0 of the script is the moment of subscription.
#pragma once

#include <string>

#include "model/control_script.h"
#include "tools/receiver/control_source.h"

namespace clamsim::receiver {

class ScriptSource : public ControlSource {
 public:
  // Throws model::ModelError for a bad script.
  explicit ScriptSource(const std::string& path);
  std::array<float, 5> sample(double t_s) override;
  std::string label() const override { return label_; }
  const model::ControlScript& script() const { return script_; }

 private:
  model::ControlScript script_;
  std::string label_;
};

}  // namespace clamsim::receiver
