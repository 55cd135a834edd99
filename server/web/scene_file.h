// The working world the browser draws around the machine: config/scene.json, schema
// "clamsim-scene/1" (docs/websocket-protocol.md, `hello.scene`). Coordinates are the
// crane's base frame: z up, origin at the swing axis on the deck, boom along +x at swing 0.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace clamsim::web {

inline constexpr const char* kSceneSchema = "clamsim-scene/1";

// Reads and validates a scene file; returns it with {value, source} leaves reduced to plain
// numbers, ready to send. Throws model::ModelError naming the file and the field.
nlohmann::ordered_json load_scene_file(const std::string& path);

// The same for an already parsed document; origin names it in messages.
nlohmann::ordered_json parse_scene_json(const nlohmann::json& doc, const std::string& origin);

}  // namespace clamsim::web
