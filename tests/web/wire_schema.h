// A validator for web/data/wire-schema.json, the WebSocket protocol's one description, in
// the subset of JSON Schema 2020-12 it is written in: the server test's twin of
// web/js/wire-schema.js (the same keywords, rules and wording of problems).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace clamsim::testing {

struct SchemaProblem {
  std::string path;      // in the value: "display.loads[0].id"
  std::string rule;      // the keyword broken: "type", "required", "additionalProperties", ...
  std::string message;   // what was wrong
};

class WireSchema {
 public:
  explicit WireSchema(nlohmann::json root);
  static WireSchema load(const std::string& file);

  const nlohmann::json& root() const { return root_; }
  // "#/$defs/name" -> the schema there; throws naming the reference when it leads nowhere.
  const nlohmann::json& resolve(const std::string& ref) const;
  // Problems with the schema itself ("at: what"): keywords outside the subset, references
  // that lead nowhere, required members that are not properties.
  std::vector<std::string> check_subset() const;

  // Validates value against the schema at `ref`. seen, when given, gets the schema pointer
  // of every property present (for coverage).
  std::vector<SchemaProblem> validate(const std::string& ref, const nlohmann::json& value,
                                      const std::string& path,
                                      std::set<std::string>* seen = nullptr) const;
  std::vector<SchemaProblem> validate_node(const nlohmann::json& schema, const nlohmann::json& value,
                                           const std::string& path, const std::string& pointer,
                                           std::set<std::string>* seen) const;

  // Every property under `ref`, as schema pointers (following $ref, items, prefixItems, oneOf
  // and additionalProperties; each $ref once).
  std::set<std::string> property_pointers(const std::string& ref) const;

  // The definitions of one direction's messages ("to_browser", "to_server"), as refs.
  std::vector<std::string> message_refs(const std::string& direction) const;

 private:
  nlohmann::json root_;
};

// One line per problem: "display.loads[0].id: type: expected integer or string, got null".
std::string describe(const std::vector<SchemaProblem>& problems);

}  // namespace clamsim::testing
