// The replay's messages to the browser (docs/websocket-protocol.md "Replays"): hello.replay,
// replay_progress, replay_timeline, replay_state, take_over; and the trainee's
// replay_ticket. The frames themselves are live display messages (frame_json.h).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "session/replay_player.h"

namespace clamsim::web {

// hello.replay: what is replayed (the file, the session's label, the trainee, its frames,
// its frame period, when it was recorded) and the speeds allowed.
nlohmann::ordered_json replay_hello_json(const std::string& name,
                                         const session::RecordedSession& recording);
std::string replay_progress_json(std::uint64_t done, std::uint64_t of);
// The events (k, t, kind, value, text) and the plots' series (k, t, tension_N,
// joint_velocity), times in seconds from the recording's start.
std::string replay_timeline_json(const session::ReplayRun& run);
std::string replay_state_json(const session::ReplayState& state);
std::string take_over_json(const std::string& ticket);
std::string replay_ticket_json(const std::string& recording, const std::string& ticket);

}  // namespace clamsim::web
