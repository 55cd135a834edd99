#include "model/scenario_file.h"

#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <set>
#include <utility>

#include "core/contact.h"
#include "core/loads.h"
#include "model/json_fields.h"
#include "model/machine_file.h"
#include "model/quantities.h"
#include "model/scenario_site.h"

namespace clamsim::model {

namespace {

namespace q = quantity;
using ojson = nlohmann::ordered_json;
using Vec3 = Eigen::Vector3d;

// Solids besides the intake walls: deck, rack, gate, floor, reservoir bed, truck (5 boxes).
constexpr std::size_t kFixedSolids = 10;
constexpr double kTruckWallM = 0.1;   // the dump body's side walls
constexpr double kBedSlabM = 2.0;     // the solid under the reservoir: thick enough that
                                      // nothing falls through it within one step
// A load may rest on a solid (touching, or sunk by rounding); deeper counts as inside.
constexpr double kOverlapToleranceM = 1e-3;

// Ranges of this file's own (the shared kinds are in model/quantities.h).
// a solid's yaw, kept in degrees as written for the browser
constexpr Quantity kYawAsWritten = Quantity::closed("deg", unit::one, -360.0, 360.0);
// a trash rack's bars and the gaps between them
constexpr Quantity kBarSize = Quantity::closed("m", unit::one, 0.001, 10.0);
// a load from a branch (0.1 kg) to the machine's heaviest lift, 25 t; nothing massless (contacts divide by it)
constexpr Quantity kLoadMass = Quantity::closed("kg", unit::one, 0.1, kMaxLoadMassKg);
// rolling resistance is a fraction of the normal force
constexpr Quantity kRollingResistance = Quantity::closed("", unit::one, 0.0, 1.0);

ojson vec(const std::array<double, 3>& v) { return ojson::array({v[0], v[1], v[2]}); }
Vec3 eig(const std::array<double, 3>& v) { return {v[0], v[1], v[2]}; }

Vec3 yawed(double yaw_rad, const Vec3& local) {
  return Eigen::AngleAxisd(yaw_rad, Vec3::UnitZ()) * local;
}

void check_schema(Section& root) {
  const std::string schema = root.text("schema");
  if (schema != kScenarioSchema) {
    root.fail("schema",
              std::string("expected \"") + kScenarioSchema + "\", got \"" + schema + "\"");
  }
}

// {"center_m": [x,y,z], "size_m": [x,y,z], "yaw_deg": a, "note": "..."}. The solid (kind
// and name from the caller) is in SI; the client's copy keeps the numbers as written.
struct Box {
  core::SolidBox solid;
  ojson client;
};

Box read_box(Section& s, core::SolidKind kind, std::string name) {
  const auto center = s.vec3("center_m", q::kSitePosition);
  const auto size = s.vec3("size_m", q::kSolidSize);
  // read as written: the browser gets the very number, the world its radians
  const double yaw_deg = s.number("yaw_deg", kYawAsWritten);
  Box b;
  b.solid.kind = kind;
  b.solid.name = std::move(name);
  b.solid.center_m = eig(center);
  b.solid.half_size_m = 0.5 * eig(size);
  b.solid.yaw = yaw_deg * unit::deg;
  b.client["center_m"] = vec(center);
  b.client["size_m"] = vec(size);
  b.client["yaw_deg"] = yaw_deg;
  if (s.has("note")) b.client["note"] = s.text("note");
  return b;
}

Box read_box_section(Section& parent, const std::string& key, core::SolidKind kind) {
  Section s = parent.child(key);
  Box b = read_box(s, kind, key);
  s.finish();
  return b;
}

// The reservoir is water; only its bed is solid: a slab under its bottom face, same footprint.
core::SolidBox reservoir_bed(const core::SolidBox& reservoir) {
  core::SolidBox bed = reservoir;
  bed.kind = core::SolidKind::Bed;
  bed.name = "reservoir_bed";
  const double bottom = reservoir.center_m.z() - reservoir.half_size_m.z();
  bed.center_m.z() = bottom - 0.5 * kBedSlabM;
  bed.half_size_m.z() = 0.5 * kBedSlabM;
  return bed;
}

// The truck around its load space: a chassis from the deck (z = 0) up to the bed's floor and
// four side walls around the load space, as high as it is; all yawed with it.
std::vector<core::SolidBox> truck_solids(const Section& s, const LoadSpace& space) {
  const Vec3& c = space.center_m;
  const Vec3& h = space.half_size_m;
  const double floor_z = c.z() - h.z();
  if (!(floor_z > 0.0)) {
    s.fail("center_m", "the load space's floor (z = " + format_number(floor_z) +
                           " m) must be above the deck (z = 0)");
  }
  const double t = kTruckWallM;
  auto part = [&](const char* name, const Vec3& local, const Vec3& half) {
    core::SolidBox b;
    b.kind = core::SolidKind::Truck;
    b.name = name;
    b.center_m = c + yawed(space.yaw_rad, local);
    b.half_size_m = half;
    b.yaw = space.yaw_rad;
    return b;
  };
  const double wall_z = 0.0;  // walls stand on the floor, as high as the load space
  return {
      part("truck_chassis", {0.0, 0.0, -h.z() - 0.5 * floor_z},
           {h.x() + t, h.y() + t, 0.5 * floor_z}),
      part("truck_side_front", {h.x() + 0.5 * t, 0.0, wall_z}, {0.5 * t, h.y() + t, h.z()}),
      part("truck_side_rear", {-h.x() - 0.5 * t, 0.0, wall_z}, {0.5 * t, h.y() + t, h.z()}),
      part("truck_side_left", {0.0, h.y() + 0.5 * t, wall_z}, {h.x(), 0.5 * t, h.z()}),
      part("truck_side_right", {0.0, -h.y() - 0.5 * t, wall_z}, {h.x(), 0.5 * t, h.z()}),
  };
}

core::WaterParams read_water(Section s, double level_m) {
  core::WaterParams w;
  w.level_m = level_m;
  w.density_kg_per_m3 = s.number("density_kg_per_m3", q::kWaterDensity);
  w.drag_coefficient = s.number("drag_coefficient", q::kDragCoefficient);
  w.angular_damping_s = s.number("angular_damping_s", q::kWaterDamping);
  w.heave_damping_s = s.number("heave_damping_s", q::kWaterDamping);
  s.note();
  s.finish();
  return w;
}

core::ContactParams read_contact(Section s) {
  core::ContactParams c;
  c.natural_frequency_rad_per_s = s.number("natural_frequency_rad_per_s", q::kContactFrequency);
  c.damping_ratio = s.number("damping_ratio", q::kDampingRatio);
  c.friction = s.number("friction", q::kFrictionCoefficient);
  // a smoothing velocity of zero would divide by zero in the friction law
  c.friction_velocity_m_per_s = s.number("friction_velocity_m_per_s", q::kSmoothingSpeed);
  if (s.has("rolling_resistance"))   // optional: older scenario files keep the default
    c.rolling_resistance = s.number("rolling_resistance", kRollingResistance);
  s.note();
  s.finish();
  return c;
}

// Names are used as ids in CSV headers and reports: keep them plain.
bool plain_name(const std::string& n) {
  if (n.empty() || n.size() > 32) return false;
  for (char ch : n) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
    if (!ok) return false;
  }
  return true;
}

core::LoadParams read_load(Section& s, ojson& client) {
  core::LoadParams l;
  l.name = s.text("name");
  if (!plain_name(l.name)) {
    s.fail("name", "expected 1 to 32 letters, digits, '_' or '-', got \"" + l.name + "\"");
  }
  const std::string shape = s.text("shape");
  client["name"] = l.name;
  client["shape"] = shape;
  l.mass_kg = s.number("mass_kg", kLoadMass);
  client["mass_kg"] = l.mass_kg;
  if (shape == "sphere" || shape == "cylinder") {
    l.shape = shape == "sphere" ? core::LoadShape::Sphere : core::LoadShape::Cylinder;
    l.radius_m = s.number("radius_m", q::kLoadSize);
    client["radius_m"] = l.radius_m;
    if (l.shape == core::LoadShape::Cylinder) {
      l.length_m = s.number("length_m", q::kLoadSize);
      client["length_m"] = l.length_m;
    }
  } else if (shape == "box") {
    l.shape = core::LoadShape::Box;
    const auto size = s.vec3("size_m", q::kLoadSize);
    l.box_size_m = eig(size);
    client["size_m"] = vec(size);
  } else {
    s.fail("shape", "expected \"cylinder\", \"sphere\" or \"box\", got \"" + shape + "\"");
  }
  const auto start = s.vec3("position_m", q::kSitePosition);
  l.position_m = eig(start);
  client["position_m"] = vec(start);   // where it starts: the browser frames the work with it
  l.yaw_rad = s.number("yaw_deg", q::kFullTurn);
  l.pitch_rad = s.number("pitch_deg", q::kFullTurn);
  s.note();
  s.finish();
  return l;
}

// A load must start clear of every solid. Checked on the shape the physics pushes on (its
// contact proxies, core/loads.h), so a long log may lie close along the rack.
void check_clear_of_solids(const Section& s, const core::LoadParams& load,
                           const std::vector<core::SolidBox>& solids) {
  const core::LoadGeometry g = core::load_geometry(load);
  const Eigen::Matrix3d r = (Eigen::AngleAxisd(load.yaw_rad, Vec3::UnitZ()) *
                             Eigen::AngleAxisd(load.pitch_rad, Vec3::UnitY()))
                                .toRotationMatrix();
  for (const core::SolidBox& solid : solids) {
    double deepest = 0.0;
    for (int i = 0; i < g.count; ++i) {
      const core::Sphere proxy{load.position_m + r * g.local[static_cast<std::size_t>(i)],
                               g.radius_m};
      const core::Penetration p = core::sphere_vs_box(proxy, solid);
      if (p.hit) deepest = std::max(deepest, p.depth_m);
    }
    if (deepest > kOverlapToleranceM) {
      s.fail("position_m", "load \"" + load.name + "\" starts inside " + solid.name + " (" +
                               format_number(std::round(deepest * 1000.0) / 1000.0) +
                               " m deep); move it clear");
    }
  }
}

TaskPenalties read_penalties(Section s) {
  TaskPenalties p;
  for (std::size_t k = 0; k < kPenaltyKinds; ++k)
    p.points[k] = s.number(std::string(kPenaltyNames[k]) + "_points", q::kPoints);
  s.note();
  s.finish();
  return p;
}

TaskSpec read_task(Section s, const std::vector<core::LoadParams>& loads) {
  TaskSpec t;
  t.enabled = true;
  t.title = s.text("title");
  const std::vector<std::string> names = s.texts("loads", 1, core::kMaxLoads);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string where = "loads[" + std::to_string(i) + "]";
    int index = -1;
    for (std::size_t k = 0; k < loads.size(); ++k)
      if (loads[k].name == names[i]) index = static_cast<int>(k);
    if (index < 0) s.fail(where, "no load named \"" + names[i] + "\" in loads");
    for (int seen : t.loads)
      if (seen == index) s.fail(where, "\"" + names[i] + "\" is named twice");
    t.loads.push_back(index);
  }
  t.optimum_s = s.number("optimum_s", q::kTaskTime);
  t.penalties = read_penalties(s.child("penalties"));
  if (s.has("lesson")) t.lesson = s.text("lesson");
  s.note();
  s.finish();
  return t;
}

ojson client_task(const TaskSpec& t) {
  ojson j;
  j["title"] = t.title;
  j["loads"] = t.loads;
  j["optimum_s"] = t.optimum_s;
  j["limit_s"] = t.limit_s();
  // the penalty kinds in the report's order, each with its points: the browser's one list of them
  ojson penalties = ojson::array();
  for (std::size_t k = 0; k < kPenaltyKinds; ++k)
    penalties.push_back({{"kind", kPenaltyNames[k]}, {"points", t.penalties.points[k]}});
  j["penalties"] = std::move(penalties);
  // the rule behind a rack/gate penalty: a slower touch is allowed (core/world.h)
  j["hit_speed_m_per_s"] = core::kHitSpeed_m_per_s;
  if (!t.lesson.empty()) j["lesson"] = t.lesson;
  return j;
}

}  // namespace

namespace {

// The site's solids in the file's order: reservoir, deck, rack with its bars, gate, intake
// floor and walls, the reservoir's bed, the truck; each also as the browser draws it.
void read_structures(Section& root, Scenario& sc) {
  ojson& client = sc.client_scene;
  std::vector<core::SolidBox>& solids = sc.world.solids;

  const Box reservoir = read_box_section(root, "reservoir", core::SolidKind::Bed);
  client["reservoir"] = reservoir.client;
  const Box deck = read_box_section(root, "deck", core::SolidKind::Deck);
  client["deck"] = deck.client;
  solids.push_back(deck.solid);

  {  // a box plus its bars (vertical bars across the box's y extent), for the browser
    Section rack = root.child("trash_rack");
    Box b = read_box(rack, core::SolidKind::Rack, "trash_rack");
    b.client["bar_spacing_m"] = rack.number("bar_spacing_m", kBarSize);
    b.client["bar_width_m"] = rack.number("bar_width_m", kBarSize);
    rack.finish();
    client["trash_rack"] = b.client;
    solids.push_back(b.solid);
  }
  const Box gate = read_box_section(root, "gate", core::SolidKind::Gate);
  client["gate"] = gate.client;
  solids.push_back(gate.solid);
  const Box floor = read_box_section(root, "intake_floor", core::SolidKind::Floor);
  client["intake_floor"] = floor.client;
  solids.push_back(floor.solid);

  client["intake_walls"] = ojson::array();
  for (Section& wall : root.objects("intake_walls", 1, kMaxSolids - kFixedSolids)) {
    Box b = read_box(wall, core::SolidKind::Wall, wall.path());
    wall.finish();
    client["intake_walls"].push_back(b.client);
    solids.push_back(b.solid);
  }
  solids.push_back(reservoir_bed(reservoir.solid));

  {
    Section truck = root.child("truck_bed");
    const Box bed = read_box(truck, core::SolidKind::Truck, "truck_bed");
    sc.task.truck = {bed.solid.center_m, bed.solid.half_size_m, bed.solid.yaw.rad()};
    for (core::SolidBox& b : truck_solids(truck, sc.task.truck)) solids.push_back(std::move(b));
    truck.finish();
    client["truck_bed"] = bed.client;
  }
}

// The loads, each clear of the solids and named once.
void read_loads(Section& root, Scenario& sc) {
  ojson& client = sc.client_scene;
  const std::vector<core::SolidBox>& solids = sc.world.solids;
  client["loads"] = ojson::array();
  std::set<std::string> names;
  for (Section& s : root.objects("loads", 0, core::kMaxLoads)) {
    ojson entry;
    entry["id"] = sc.world.loads.size();
    core::LoadParams load = read_load(s, entry);
    if (!names.insert(load.name).second) {
      s.fail("name", "\"" + load.name + "\" is the name of an earlier load");
    }
    check_clear_of_solids(s, load, solids);
    sc.world.loads.push_back(std::move(load));
    client["loads"].push_back(std::move(entry));
  }
}

}  // namespace

Scenario parse_scenario_json(const nlohmann::json& doc, const std::string& origin,
                             const core::MachineParams& machine) {
  Section root(doc, origin);
  check_schema(root);  // first: a file of another kind should say so, not list missing keys
  Scenario sc;
  sc.name = root.text("name");
  ojson& client = sc.client_scene;
  client["schema"] = "clamsim-scene/1";  // the browser's scene format (hello.scene)
  client["name"] = sc.name;
  if (root.has("note")) client["note"] = root.text("note");

  const double level = root.number("water_level_m", q::kSitePosition);
  client["water_level_m"] = level;
  read_structures(root, sc);
  sc.world.water = read_water(root.child("water"), level);
  client["water"] = {{"density_kg_per_m3", sc.world.water.density_kg_per_m3}};
  sc.world.contact = read_contact(root.child("contact"));

  {
    Section start = root.child("start");
    start.note();
    sc.start = parse_initial_section(start, machine);
  }

  read_loads(root, sc);

  if (root.has("task")) {
    const LoadSpace truck = sc.task.truck;
    sc.task = read_task(root.child("task"), sc.world.loads);
    sc.task.truck = truck;
    client["task"] = client_task(sc.task);
  }
  if (root.has("lesson")) {
    sc.lesson = read_lesson(root.child("lesson"));
    client["lesson"] = client_lesson(sc.lesson);
  }
  root.finish();
  return sc;
}

Scenario load_scenario_file(const std::string& path, const core::MachineParams& machine) {
  SitedDocument sited = with_site(read_json_file(path), path);
  Scenario sc = parse_scenario_json(sited.doc, path, machine);
  sc.site_file = std::move(sited.site_file);
  return sc;
}

bool over_footprint(const LoadSpace& space, double x, double y) {
  const double dx = x - space.center_m.x(), dy = y - space.center_m.y();
  const double c = std::cos(space.yaw_rad), s = std::sin(space.yaw_rad);
  return std::abs(c * dx + s * dy) <= space.half_size_m.x() &&   // in the box's own axes
         std::abs(-s * dx + c * dy) <= space.half_size_m.y();
}

bool inside(const LoadSpace& space, const Eigen::Vector3d& p, double above_sides_m) {
  const double floor_z = space.center_m.z() - space.half_size_m.z();
  const double top_z = space.center_m.z() + space.half_size_m.z() + above_sides_m;
  return over_footprint(space, p.x(), p.y()) && p.z() >= floor_z && p.z() <= top_z;
}

}  // namespace clamsim::model
