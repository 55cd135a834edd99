#include "web/scene_file.h"

#include "model/json_fields.h"

namespace clamsim::web {

namespace {

using model::Bounds;
using model::Section;
using model::unit::one;

nlohmann::ordered_json vec(const std::array<double, 3>& v) { return {v[0], v[1], v[2]}; }

// {"center_m": [x,y,z], "size_m": [x,y,z], "yaw_deg": a}
nlohmann::ordered_json read_box(Section& s) {
  nlohmann::ordered_json b;
  b["center_m"] = vec(s.vec3("center_m", one, Bounds::finite()));
  b["size_m"] = vec(s.vec3("size_m", one, Bounds::positive()));
  b["yaw_deg"] = s.has("yaw_deg") ? s.number("yaw_deg", one, Bounds::closed(-360, 360)) : 0.0;
  if (s.has("note")) b["note"] = s.text("note");
  return b;
}

}  // namespace

nlohmann::ordered_json parse_scene_json(const nlohmann::json& doc, const std::string& origin) {
  Section root(doc, origin);
  const std::string schema = root.text("schema");
  if (schema != kSceneSchema)
    root.fail("schema", "expected \"" + std::string(kSceneSchema) + "\", got \"" + schema + "\"");
  nlohmann::ordered_json out;
  out["schema"] = schema;
  out["name"] = root.text("name");
  if (root.has("note")) out["note"] = root.text("note");
  out["water_level_m"] = root.number("water_level_m", one, Bounds::finite());
  for (const char* key : {"reservoir", "deck", "gate", "intake_floor", "truck_bed"}) {
    Section box = root.child(key);
    out[key] = read_box(box);
    box.finish();
  }

  // a box plus its bars (vertical bars across the box's y extent)
  Section rack = root.child("trash_rack");
  out["trash_rack"] = read_box(rack);
  out["trash_rack"]["bar_spacing_m"] = rack.number("bar_spacing_m", one, Bounds::positive());
  out["trash_rack"]["bar_width_m"] = rack.number("bar_width_m", one, Bounds::positive());
  rack.finish();

  const auto walls = doc.find("intake_walls");
  if (walls == doc.end() || !walls->is_array() || walls->empty())
    root.fail("intake_walls", "expected a non-empty array of boxes");
  root.allow("intake_walls");
  out["intake_walls"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < walls->size(); ++i) {
    const nlohmann::json& w = (*walls)[i];
    if (!w.is_object()) root.fail("intake_walls[" + std::to_string(i) + "]", "expected a box");
    Section box(w, origin + ": intake_walls[" + std::to_string(i) + "]");
    out["intake_walls"].push_back(read_box(box));
    box.finish();
  }
  root.finish();
  return out;
}

nlohmann::ordered_json load_scene_file(const std::string& path) {
  return parse_scene_json(model::read_json_file(path), path);
}

}  // namespace clamsim::web
