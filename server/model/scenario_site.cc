#include "model/scenario_site.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "model/json_fields.h"

namespace clamsim::model {

namespace fs = std::filesystem;

const std::vector<std::string>& site_keys() {
  static const std::vector<std::string> keys = {
      "water_level_m", "reservoir", "deck", "trash_rack", "gate", "intake_floor",
      "intake_walls", "truck_bed", "water", "contact"};
  return keys;
}

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& key, const std::string& what) {
  throw ModelError(path + ": " + key + ": " + what);
}

// The scenario files beside `path`, by name, for the message that lists the choices.
std::string scenarios_beside(const fs::path& dir, const fs::path& self) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && e.path() != self) names.push_back(e.path().stem());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// A name, not a path: the site is looked up beside the file, nowhere else.
bool plain_name(const std::string& s) {
  return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

}  // namespace

SitedDocument with_site(nlohmann::json doc, const std::string& path) {
  SitedDocument out;
  if (!doc.is_object() || !doc.contains("site")) {
    out.doc = std::move(doc);
    return out;
  }
  const fs::path self(path);
  const fs::path dir = self.parent_path().empty() ? fs::path(".") : self.parent_path();
  const nlohmann::json& named = doc["site"];
  if (!named.is_string() || !plain_name(named.get<std::string>()))
    fail(path, "site", "expected the name of a scenario beside this file (" +
                           scenarios_beside(dir, self) + "), got " + named.dump());
  const std::string name = named.get<std::string>();
  const fs::path site_path = dir / (name + ".json");
  std::error_code ec;
  if (site_path == self || !fs::is_regular_file(site_path, ec))
    fail(path, "site", "no scenario \"" + name + "\" beside this file (scenarios there: " +
                           scenarios_beside(dir, self) + ")");
  const nlohmann::json site = read_json_file(site_path.string());
  if (site.is_object() && site.contains("site"))
    fail(path, "site", "\"" + name + "\" takes its own site from elsewhere; name the scenario "
                       "that writes the site out");
  for (const std::string& key : site_keys()) {
    if (doc.contains(key))
      fail(path, key, "given by the site \"" + name + "\"; remove it here, or drop \"site\"");
    if (site.is_object() && site.contains(key)) doc[key] = site[key];
  }
  doc.erase("site");
  out.doc = std::move(doc);
  out.site_file = site_path.string();
  return out;
}

}  // namespace clamsim::model
