// The machines and scenarios a server offers, loaded once at start-up: every models/*.json
// (name = file stem) and every config/scenarios/*.ctl that sets an initial pose.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "session/session.h"

namespace clamsim::session {

class Catalog {
 public:
  // Throws model::ModelError naming the file when a model or scenario is broken, or when
  // the default model is missing.
  Catalog(const std::string& models_dir, const std::string& scenarios_dir,
          const std::string& default_model);

  // "" picks the default model / the model's own initial pose. Returns false and sets
  // *error to a reason naming what is unknown.
  bool resolve(const std::string& model, const std::string& scenario, MachineSetup* out,
               std::string* error) const;

  const std::string& default_model() const { return default_model_; }
  std::vector<std::string> models() const;
  std::vector<std::string> scenarios() const;

 private:
  std::map<std::string, MachineSetup> machines_;
  std::map<std::string, core::InitialConditions> scenarios_;
  std::string default_model_;
};

}  // namespace clamsim::session
