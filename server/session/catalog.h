// The machines and scenarios a server offers, loaded once at start-up: every models/*.json
// (name = file stem), every config/scenarios/*.ctl that sets an initial pose, and every
// config/scenarios/*.json world scenario (the dam, its loads and its task).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/json_fields.h"
#include "model/scenario_file.h"
#include "session/session.h"

namespace clamsim::session {

// The default model or world names a file that is not there: a setting to correct, not a
// broken file. what() lists the names there are.
class UnknownDefault : public model::ModelError {
 public:
  using model::ModelError::ModelError;
};

class Catalog {
 public:
  // default_world names the world scenario (a *.json stem) every session works in unless
  // it asks for another; "" = empty space. World scenarios are checked against the
  // default model (their start pose must fit it). Throws model::ModelError naming the file
  // when a model or scenario is broken, UnknownDefault when the default model or world is
  // missing.
  Catalog(const std::string& models_dir, const std::string& scenarios_dir,
          const std::string& default_model, const std::string& default_world = "");

  // model "" = the default model. scenario:
  //   ""         the default world and its start pose (without one: the model's own pose)
  //   a .ctl     its initial pose, in the default world
  //   a .json    that world and its start pose
  // Returns false and sets *error to a reason naming what is unknown.
  bool resolve(const std::string& model, const std::string& scenario, MachineSetup* out,
               std::string* error) const;

  const std::string& default_model() const { return default_model_; }
  const std::string& models_dir() const { return models_dir_; }
  const std::string& default_world() const { return default_world_; }
  // A world scenario by name ("" = the default world); null when there is none.
  std::shared_ptr<const model::Scenario> world(const std::string& name = "") const;
  std::vector<std::string> models() const;
  std::vector<std::string> scenarios() const;   // both kinds, sorted
  std::vector<std::string> worlds() const;      // the *.json ones

 private:
  void check_lessons(const std::string& scenarios_dir) const;

  std::map<std::string, MachineSetup> machines_;
  std::map<std::string, core::InitialConditions> poses_;                  // *.ctl
  std::map<std::string, std::shared_ptr<const model::Scenario>> worlds_;  // *.json
  std::map<std::string, std::string> world_sha256_;                       // *.json
  std::string default_model_;
  std::string default_world_;
  std::string models_dir_;
};

}  // namespace clamsim::session
