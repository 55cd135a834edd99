// The JSON text of the server's messages (docs/websocket-protocol.md): `hello` from the
// machine parameters and the scene, `display` (and `report`) from one session frame,
// `pong`, `restarting`, `error`. Pure functions; display_json and report_json run on the
// session thread, the rest on the connection's.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/params.h"
#include "session/frame_sink.h"

namespace clamsim::web {

inline constexpr int kProtocolVersion = 2;
inline constexpr int kReportVersion = 1;   // `report.v`: the layout of the report message

// The uniform box with a link's mass and principal inertias about its centre of gravity:
// side a along the axis of I_a satisfies a^2 = 6 (I_b + I_c - I_a) / m. A side whose
// inertias violate the triangle inequality comes out 0.
std::array<double, 3> box_from_inertia(double mass_kg, const std::array<double, 3>& inertia_kgm2);

// Every dimension the browser draws: crane, clam, cables (hello.machine).
nlohmann::ordered_json machine_json(const core::MachineParams& p);

struct HelloInfo {
  std::uint64_t session = 0;
  std::string server;          // "clamsim 0.1.0"
  double frame_period_s = core::kFramePeriod_s;
  std::vector<int> frame_rates_hz{20};   // what /ws?rate= may ask for (frame_rate.h)
  std::string model;           // e.g. "t250"
  std::string scenario;        // "" = the model's own initial pose
  std::size_t max_message_bytes = 4096;
  std::size_t max_messages_per_s = 200;
  // An observer's hello (/ws?observe=ID): whom it watches (observer_json.h); null for the
  // trainee's own connection, whose hello has no "observing".
  nlohmann::ordered_json observing;
  // A replay's hello (/ws?replay=NAME): what it replays (replay_json.h); a session taken
  // over from a replay: {"recording", "k"} it goes on from. Null otherwise.
  nlohmann::ordered_json replay;
  nlohmann::ordered_json taken_over;
};

std::string hello_json(const HelloInfo& info, const core::MachineParams& machine,
                       const nlohmann::ordered_json& scene);

// The ids of the scene's loads in their order (hello.scene.loads[i].id), a JSON array;
// empty when the scene has none. display.loads[i].id comes from here (i when missing).
nlohmann::ordered_json scene_load_ids(const nlohmann::ordered_json& scene);

// The display message of one frame, written into a string the caller keeps, so that the
// session thread's send path takes nothing from the heap once warm: a sink encodes every frame into the same few buffers, and once they have grown to a
// frame's size, encoding allocates nothing. load_ids: hello.scene.loads[i].id, each
// encoded once here (display.loads[i].id; i when missing).
class DisplayEncoder {
 public:
  explicit DisplayEncoder(const nlohmann::ordered_json& load_ids = nlohmann::ordered_json::array());
  // out is cleared first; its capacity is kept.
  void encode(const session::Frame& frame, std::string& out) const;

 private:
  std::vector<std::string> load_ids_;   // JSON text
};

// The same in a new string (hello-time, observers, tests).
std::string display_json(const session::Frame& frame,
                         const nlohmann::ordered_json& load_ids = nlohmann::ordered_json::array());
// {"type":"report",...} when the frame carries the task's report, else "".
std::string report_json(const session::Frame& frame);
std::string restarting_json(const nlohmann::json& id);
// {"type": "trainee", "name": ...}: the name the session took (trimmed).
std::string trainee_json(const std::string& name);
std::string pong_json(const nlohmann::json& id, const nlohmann::json& t, double sim_t);
std::string error_json(const std::string& code, const std::string& message);
// {"type":"drain","seconds_left":N,"message":...}: the server is draining (SIGTERM) and
// stops this session in N whole seconds (rounded up) unless it ends first.
std::string drain_json(double seconds_left);

}  // namespace clamsim::web
