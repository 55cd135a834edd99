#include "tools/receiver/script_source.h"

namespace clamsim::receiver {

ScriptSource::ScriptSource(const std::string& path) : script_(model::load_control_script(path)) {
  const auto slash = path.find_last_of('/');
  label_ = "script " + (slash == std::string::npos ? path : path.substr(slash + 1));
}

std::array<float, 5> ScriptSource::sample(double t_s) {
  const core::Control c = script_.at(t_s);
  std::array<float, 5> v{};
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(c.volts[i]);
  return v;
}

}  // namespace clamsim::receiver
