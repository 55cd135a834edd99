#include "session/catalog.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "model/control_script.h"
#include "model/json_fields.h"
#include "model/machine_file.h"

namespace clamsim::session {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> files_with(const std::string& dir, const std::string& ext) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Catalog::Catalog(const std::string& models_dir, const std::string& scenarios_dir,
                 const std::string& default_model)
    : default_model_(default_model) {
  for (const auto& path : files_with(models_dir, ".json")) {
    const nlohmann::json doc = model::read_json_file(path.string());
    MachineSetup m;
    m.name = path.stem().string();
    m.params = std::make_shared<const core::MachineParams>(
        model::parse_machine_json(doc, path.string()));
    m.initial = model::parse_initial_conditions(doc, path.string());
    machines_.emplace(m.name, std::move(m));
  }
  if (!machines_.count(default_model_))
    throw model::ModelError(models_dir + ": default model \"" + default_model_ +
                            "\" not found (no " + default_model_ + ".json)");
  for (const auto& path : files_with(scenarios_dir, ".ctl")) {
    const model::ControlScript script = model::load_control_script(path.string());
    if (script.initial()) scenarios_.emplace(path.stem().string(), *script.initial());
  }
}

bool Catalog::resolve(const std::string& model, const std::string& scenario, MachineSetup* out,
                      std::string* error) const {
  const std::string name = model.empty() ? default_model_ : model;
  auto m = machines_.find(name);
  if (m == machines_.end()) {
    if (error) *error = "unknown model \"" + name + "\"";
    return false;
  }
  *out = m->second;
  if (!scenario.empty()) {
    auto s = scenarios_.find(scenario);
    if (s == scenarios_.end()) {
      if (error) *error = "unknown scenario \"" + scenario + "\"";
      return false;
    }
    out->initial = s->second;
  }
  return true;
}

std::vector<std::string> Catalog::models() const {
  std::vector<std::string> v;
  for (const auto& kv : machines_) v.push_back(kv.first);
  return v;
}

std::vector<std::string> Catalog::scenarios() const {
  std::vector<std::string> v;
  for (const auto& kv : scenarios_) v.push_back(kv.first);
  return v;
}

}  // namespace clamsim::session
