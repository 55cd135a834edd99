// A scenario can take its site (the dam's solids, water and contact) from another scenario
// file in the same folder: `"site": "dam_intake"`. The first lesson works at the dam of the
// dam task this way, with one description of the dam instead of two that could drift apart.
// Only the site is shared; the start pose, loads, task and lesson stay the scenario's own.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace clamsim::model {

// The top-level keys that make a site.
const std::vector<std::string>& site_keys();

struct SitedDocument {
  nlohmann::json doc;      // the scenario with its site's keys in, "site" taken out
  std::string site_file;   // the file the site came from; empty without "site"
};

// `doc` (read from `path`) with the site it names filled in. Throws ModelError naming
// `path` and the key when the site is not a scenario beside it, names a site of its own,
// or when `doc` also writes a key the site gives.
SitedDocument with_site(nlohmann::json doc, const std::string& path);

}  // namespace clamsim::model
