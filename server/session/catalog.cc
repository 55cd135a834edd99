#include "session/catalog.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "model/control_script.h"
#include "model/json_fields.h"
#include "model/machine_file.h"
#include "session/file_digest.h"

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

// A name as a client sent it, fit for a log line and a WebSocket close reason: at most 40
// bytes, control characters as \xNN (a client's "%0A" must not start a forged log line).
std::string shown(const std::string& name) {
  std::string out;
  static const char* hex = "0123456789abcdef";
  for (std::size_t i = 0; i < name.size() && i < 40; ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7f) out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    else out += static_cast<char>(c);
  }
  return name.size() > 40 ? out + "..." : out;
}

// "dam_intake, quarry" or "none there"
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none there" : out;
}

}  // namespace

Catalog::Catalog(const std::string& models_dir, const std::string& scenarios_dir,
                 const std::string& default_model, const std::string& default_world)
    : default_model_(default_model), default_world_(default_world), models_dir_(models_dir) {
  for (const auto& path : files_with(models_dir, ".json")) {
    const nlohmann::json doc = model::read_json_file(path.string());
    MachineSetup m;
    m.name = path.stem().string();
    m.params = std::make_shared<const core::MachineParams>(
        model::parse_machine_json(doc, path.string()));
    m.initial = model::parse_initial_conditions(doc, path.string());
    m.model_sha256 = file_sha256(path.string());
    machines_.emplace(m.name, std::move(m));
  }
  const auto machine = machines_.find(default_model_);
  if (machine == machines_.end())
    throw UnknownDefault(models_dir + ": default model \"" + default_model_ +
                         "\" not found (no " + default_model_ + ".json); models: " +
                         listed(models()));
  for (const auto& path : files_with(scenarios_dir, ".ctl")) {
    const model::ControlScript script = model::load_control_script(path.string());
    if (script.initial()) poses_.emplace(path.stem().string(), *script.initial());
  }
  for (const auto& path : files_with(scenarios_dir, ".json")) {
    const std::string name = path.stem().string();
    if (poses_.count(name))
      throw model::ModelError(path.string() + ": scenario \"" + name + "\" is also " + name +
                              ".ctl; one name, one scenario");
    auto world = std::make_shared<const model::Scenario>(
        model::load_scenario_file(path.string(), *machine->second.params));
    // a report names every byte its world came from: the file, then the site's file
    std::vector<std::string> files = {path.string()};
    if (!world->site_file.empty()) files.push_back(world->site_file);
    world_sha256_.emplace(name, files_sha256(files));
    worlds_.emplace(name, std::move(world));
  }
  check_lessons(scenarios_dir);
  if (!default_world_.empty() && !worlds_.count(default_world_))
    throw UnknownDefault(scenarios_dir + ": default world \"" + default_world_ +
                         "\" not found (no " + default_world_ + ".json); worlds: " +
                         listed(worlds()) + ", or none for empty space");
}

// A task that names its lesson must name a world scenario that has one.
void Catalog::check_lessons(const std::string& scenarios_dir) const {
  std::string with_lessons;
  for (const auto& [name, w] : worlds_)
    if (w->lesson.enabled) with_lessons += (with_lessons.empty() ? "" : ", ") + name;
  for (const auto& [name, w] : worlds_) {
    const std::string& lesson = w->task.lesson;
    const auto it = worlds_.find(lesson);
    if (lesson.empty() || (it != worlds_.end() && it->second->lesson.enabled)) continue;
    throw model::ModelError(scenarios_dir + "/" + name + ".json: task.lesson: no scenario \"" +
                            lesson + "\" with a lesson (scenarios with a lesson: " +
                            (with_lessons.empty() ? "none" : with_lessons) + ")");
  }
}

std::shared_ptr<const model::Scenario> Catalog::world(const std::string& name) const {
  const auto w = worlds_.find(name.empty() ? default_world_ : name);
  return w == worlds_.end() ? nullptr : w->second;
}

bool Catalog::resolve(const std::string& model, const std::string& scenario, MachineSetup* out,
                      std::string* error) const {
  const std::string name = model.empty() ? default_model_ : model;
  auto m = machines_.find(name);
  if (m == machines_.end()) {
    if (error) *error = "unknown model \"" + shown(name) + "\"; the models: " + listed(models());
    return false;
  }
  *out = m->second;
  const auto use_world = [&](const std::string& world_name, bool its_start) {
    out->scenario = world(world_name);
    if (!out->scenario) return;
    out->world_name = world_name.empty() ? default_world_ : world_name;
    out->world_sha256 = world_sha256_.at(out->world_name);
    if (its_start) out->initial = out->scenario->start;
  };
  if (scenario.empty()) {
    use_world("", true);
    return true;
  }
  if (auto pose = poses_.find(scenario); pose != poses_.end()) {
    out->initial = pose->second;
    use_world("", false);
    return true;
  }
  if (worlds_.count(scenario)) {
    use_world(scenario, true);
    return true;
  }
  if (error) *error = "unknown scenario \"" + shown(scenario) + "\"; the scenarios: " + listed(scenarios());
  return false;
}

std::vector<std::string> Catalog::models() const {
  std::vector<std::string> v;
  for (const auto& kv : machines_) v.push_back(kv.first);
  return v;
}

std::vector<std::string> Catalog::scenarios() const {
  std::vector<std::string> v;
  for (const auto& kv : poses_) v.push_back(kv.first);
  for (const auto& kv : worlds_) v.push_back(kv.first);
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::string> Catalog::worlds() const {
  std::vector<std::string> v;
  for (const auto& kv : worlds_) v.push_back(kv.first);
  return v;
}

}  // namespace clamsim::session
