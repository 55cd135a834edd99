#include "wire_schema.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace clamsim::testing {

using json = nlohmann::json;

namespace {

const char* const kKeywords[] = {"type", "properties", "required", "additionalProperties", "minProperties",
                                 "items", "prefixItems", "minItems", "maxItems", "enum", "const",
                                 "minimum", "maximum", "$ref", "oneOf"};
const char* const kAnnotations[] = {"$schema", "$id", "$defs", "title", "description", "examples"};
const char* const kTypes[] = {"object", "array", "string", "number", "integer", "boolean", "null"};

bool listed(const std::string& k, const char* const* begin, const char* const* end) {
  return std::any_of(begin, end, [&](const char* x) { return k == x; });
}

std::string join(const char* const* begin, const char* const* end) {
  std::string s;
  for (auto i = begin; i != end; ++i) s += (s.empty() ? "" : ", ") + std::string(*i);
  return s;
}

// The type names of web/js/wire-schema.js: a whole number is "integer", a float "number".
std::string type_of(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer()) return "integer";
  const double d = v.get<double>();
  return d == static_cast<double>(static_cast<long long>(d)) ? "integer" : "number";
}

bool has_type(const json& v, const std::string& t) {
  const std::string actual = type_of(v);
  return actual == t || (t == "number" && actual == "integer");
}

// JSON equality as the browser's JSON.stringify sees it: 1 and 1.0 are one number.
bool same(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  return a == b;
}

std::string shown(const json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 40) : s;
}

std::vector<std::string> types_of(const json& s) {
  std::vector<std::string> out;
  if (!s.contains("type")) return out;
  if (s["type"].is_array())
    for (const auto& t : s["type"]) out.push_back(t.get<std::string>());
  else
    out.push_back(s["type"].get<std::string>());
  return out;
}

}  // namespace

WireSchema::WireSchema(json root) : root_(std::move(root)) {}

WireSchema WireSchema::load(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file);
  return WireSchema(json::parse(in));
}

const json& WireSchema::resolve(const std::string& ref) const {
  if (ref.rfind("#/", 0) != 0) throw std::runtime_error("$ref " + ref + ": only \"#/...\" references are in the subset");
  const json* node = &root_;
  std::size_t at = 2;
  while (at <= ref.size()) {
    const std::size_t slash = std::min(ref.find('/', at), ref.size());
    const std::string part = ref.substr(at, slash - at);
    if (node->is_array() && !part.empty() && part.find_first_not_of("0123456789") == std::string::npos &&
        std::stoul(part) < node->size()) {
      node = &(*node)[std::stoul(part)];
    } else if (node->is_object() && node->contains(part)) {
      node = &(*node)[part];
    } else {
      throw std::runtime_error("$ref " + ref + ": no such schema");
    }
    at = slash + 1;
  }
  return *node;
}

std::vector<std::string> WireSchema::check_subset() const {
  std::vector<std::string> problems;
  std::function<void(const json&, const std::string&)> walk = [&](const json& s, const std::string& at) {
    if (!s.is_object()) {
      problems.push_back(at + ": expected a schema object");
      return;
    }
    for (const auto& [k, v] : s.items()) {
      if (!listed(k, std::begin(kKeywords), std::end(kKeywords)) &&
          !listed(k, std::begin(kAnnotations), std::end(kAnnotations)) && k.rfind("x-", 0) != 0)
        problems.push_back(at + ": keyword \"" + k + "\" is not in the subset (" +
                           join(std::begin(kKeywords), std::end(kKeywords)) + ")");
    }
    for (const std::string& t : types_of(s))
      if (!listed(t, std::begin(kTypes), std::end(kTypes)))
        problems.push_back(at + ".type: \"" + t + "\" is not one of " + join(std::begin(kTypes), std::end(kTypes)));
    if (s.contains("$ref")) {
      try {
        resolve(s["$ref"].get<std::string>());
      } catch (const std::exception& e) {
        problems.push_back(at + ": " + e.what());
      }
    }
    if (s.contains("properties"))
      for (const auto& [k, v] : s["properties"].items()) walk(v, at + ".properties." + k);
    if (s.contains("$defs"))
      for (const auto& [k, v] : s["$defs"].items()) walk(v, at + ".$defs." + k);
    if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
      walk(s["additionalProperties"], at + ".additionalProperties");
    if (s.contains("items")) walk(s["items"], at + ".items");
    if (s.contains("prefixItems"))
      for (std::size_t i = 0; i < s["prefixItems"].size(); ++i)
        walk(s["prefixItems"][i], at + ".prefixItems[" + std::to_string(i) + "]");
    if (s.contains("oneOf"))
      for (std::size_t i = 0; i < s["oneOf"].size(); ++i) walk(s["oneOf"][i], at + ".oneOf[" + std::to_string(i) + "]");
    if (s.contains("required"))
      for (const auto& r : s["required"])
        if (!s.contains("properties") || !s["properties"].contains(r.get<std::string>()))
          problems.push_back(at + ".required: \"" + r.get<std::string>() + "\" is not among its properties");
  };
  walk(root_, "#");
  return problems;
}

std::vector<SchemaProblem> WireSchema::validate(const std::string& ref, const json& value,
                                                const std::string& path, std::set<std::string>* seen) const {
  return validate_node(resolve(ref), value, path, ref, seen);
}

std::vector<SchemaProblem> WireSchema::validate_node(const json& schema, const json& value,
                                                     const std::string& path, const std::string& pointer,
                                                     std::set<std::string>* seen) const {
  std::vector<SchemaProblem> problems;
  std::function<void(const json&, const json&, const std::string&, const std::string&)> check =
      [&](const json& s, const json& v, const std::string& p, const std::string& ptr) {
        if (s.contains("$ref")) {
          const std::string ref = s["$ref"].get<std::string>();
          check(resolve(ref), v, p, ref);
          return;
        }
        const auto bad = [&](const char* rule, std::string message) {
          problems.push_back({p, rule, std::move(message)});
        };
        const std::vector<std::string> types = types_of(s);
        if (!types.empty() && std::none_of(types.begin(), types.end(), [&](const std::string& t) { return has_type(v, t); })) {
          std::string want;
          for (const std::string& t : types) want += (want.empty() ? "" : " or ") + t;
          const std::string got = type_of(v) == "integer" ? "number" : type_of(v);
          bad("type", "expected " + want + ", got " + got + " " + shown(v));
          return;
        }
        if (s.contains("const") && !same(v, s["const"])) bad("const", "expected " + s["const"].dump() + ", got " + shown(v));
        if (s.contains("enum")) {
          bool found = false;
          std::string list;
          for (const auto& e : s["enum"]) {
            found = found || same(e, v);
            list += (list.empty() ? "" : ", ") + e.dump();
          }
          if (!found) bad("enum", shown(v) + " is not one of " + list);
        }
        if (v.is_number()) {
          const double x = v.get<double>();
          if (s.contains("minimum") && x < s["minimum"].get<double>())
            bad("minimum", v.dump() + " is below " + s["minimum"].dump());
          if (s.contains("maximum") && x > s["maximum"].get<double>())
            bad("maximum", v.dump() + " is above " + s["maximum"].dump());
        }
        if (s.contains("oneOf")) {
          const json& branches = s["oneOf"];
          const std::string key = s.value("x-discriminator", "type");
          // told apart by a member whose value each branch fixes (const)?
          std::vector<const json*> resolved;
          bool tagged = v.is_object();
          for (const auto& b : branches) {
            const json& r = b.contains("$ref") ? resolve(b["$ref"].get<std::string>()) : b;
            resolved.push_back(&r);
            tagged = tagged && r.contains("properties") && r["properties"].contains(key) &&
                     r["properties"][key].contains("const");
          }
          if (tagged) {
            std::size_t i = 0;
            std::string tags;
            for (; i < resolved.size(); ++i)
              if (v.contains(key) && same((*resolved[i])["properties"][key]["const"], v[key])) break;
            if (i == resolved.size()) {
              for (const json* r : resolved) tags += (tags.empty() ? "" : ", ") + (*r)["properties"][key]["const"].dump();
              bad("oneOf", key + " " + (v.contains(key) ? v[key].dump() : std::string("undefined")) + " is not one of " + tags);
            } else {
              const std::string bptr = branches[i].contains("$ref") ? branches[i]["$ref"].get<std::string>()
                                                                    : ptr + "/oneOf/" + std::to_string(i);
              check(*resolved[i], v, p, bptr);
            }
          } else {
            int ok = 0;
            std::size_t which = 0;
            std::vector<SchemaProblem> first;
            for (std::size_t i = 0; i < branches.size(); ++i) {
              const auto r = validate_node(branches[i], v, p, ptr, nullptr);
              if (r.empty()) {
                ++ok;
                which = i;
              } else if (i == 0) {
                first = r;
              }
            }
            if (ok != 1) {
              bad("oneOf", ok == 0 ? "matches none of " + std::to_string(branches.size()) + " choices (first: " +
                                         (first.empty() ? "" : first[0].path + ": " + first[0].message) + ")"
                                   : "matches " + std::to_string(ok) + " choices, expected one");
            } else if (seen) {
              const std::string bptr = branches[which].contains("$ref") ? branches[which]["$ref"].get<std::string>()
                                                                        : ptr + "/oneOf/" + std::to_string(which);
              check(branches[which], v, p, bptr);
            }
          }
        }
        if (v.is_object()) {
          if (s.contains("required"))
            for (const auto& r : s["required"])
              if (!v.contains(r.get<std::string>())) bad("required", "missing \"" + r.get<std::string>() + "\"");
          if (s.contains("minProperties") && v.size() < s["minProperties"].get<std::size_t>())
            bad("minProperties", "expected at least " + s["minProperties"].dump() + " members, got " + std::to_string(v.size()));
          for (const auto& [k, x] : v.items()) {
            const std::string at = p + "." + k;
            if (s.contains("properties") && s["properties"].contains(k)) {
              if (seen) seen->insert(ptr + "/properties/" + k);
              check(s["properties"][k], x, at, ptr + "/properties/" + k);
            } else if (s.contains("additionalProperties") && s["additionalProperties"] == false) {
              std::string has;
              if (s.contains("properties"))
                for (const auto& [name, unused] : s["properties"].items()) has += (has.empty() ? "" : ", ") + name;
              bad("additionalProperties", "\"" + k + "\" is not in the schema (it has: " + has + ")");
            } else if (s.contains("additionalProperties") && s["additionalProperties"].is_object()) {
              check(s["additionalProperties"], x, at, ptr + "/additionalProperties");
            }
          }
        }
        if (v.is_array()) {
          if (s.contains("minItems") && v.size() < s["minItems"].get<std::size_t>())
            bad("minItems", "expected at least " + s["minItems"].dump() + " items, got " + std::to_string(v.size()));
          if (s.contains("maxItems") && v.size() > s["maxItems"].get<std::size_t>())
            bad("maxItems", "expected at most " + s["maxItems"].dump() + " items, got " + std::to_string(v.size()));
          const std::size_t prefix = s.contains("prefixItems") ? s["prefixItems"].size() : 0;
          for (std::size_t i = 0; i < v.size(); ++i) {
            const std::string at = p + "[" + std::to_string(i) + "]";
            if (i < prefix) check(s["prefixItems"][i], v[i], at, ptr + "/prefixItems/" + std::to_string(i));
            else if (s.contains("items")) check(s["items"], v[i], at, ptr + "/items");
          }
        }
      };
  check(schema, value, path, pointer);
  return problems;
}

std::set<std::string> WireSchema::property_pointers(const std::string& ref) const {
  std::set<std::string> out, visited;
  std::function<void(const json&, const std::string&)> walk = [&](const json& s, const std::string& ptr) {
    if (s.contains("$ref")) {
      const std::string r = s["$ref"].get<std::string>();
      if (!visited.insert(r).second) return;
      walk(resolve(r), r);
      return;
    }
    if (s.contains("properties"))
      for (const auto& [k, v] : s["properties"].items()) {
        out.insert(ptr + "/properties/" + k);
        walk(v, ptr + "/properties/" + k);
      }
    if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
      walk(s["additionalProperties"], ptr + "/additionalProperties");
    if (s.contains("items")) walk(s["items"], ptr + "/items");
    if (s.contains("prefixItems"))
      for (std::size_t i = 0; i < s["prefixItems"].size(); ++i)
        walk(s["prefixItems"][i], ptr + "/prefixItems/" + std::to_string(i));
    if (s.contains("oneOf"))
      for (std::size_t i = 0; i < s["oneOf"].size(); ++i)
        walk(s["oneOf"][i], s["oneOf"][i].contains("$ref") ? s["oneOf"][i]["$ref"].get<std::string>()
                                                           : ptr + "/oneOf/" + std::to_string(i));
  };
  walk(json{{"$ref", ref}}, ref);
  return out;
}

std::vector<std::string> WireSchema::message_refs(const std::string& direction) const {
  std::vector<std::string> out;
  for (const auto& b : resolve("#/$defs/" + direction)["oneOf"]) out.push_back(b["$ref"].get<std::string>());
  return out;
}

std::string describe(const std::vector<SchemaProblem>& problems) {
  std::string s;
  for (const SchemaProblem& p : problems) s += (s.empty() ? "" : "\n") + p.path + ": " + p.rule + ": " + p.message;
  return s;
}

}  // namespace clamsim::testing
