// The JSON an observer's connection gets besides the trainee's own messages (hello,
// display, report): `inputs` (the five voltages that drove a frame) and `events` (what
// happened in it), docs/websocket-protocol.md "Observers". Pure functions, run on the
// observer connection's strand.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "session/observers.h"

namespace clamsim::web {

// {"type":"inputs","seq":N,"volts":[swing, boom, telescope, main hoist, aux hoist]}
std::string inputs_json(const session::ObservedFrame& f);
// {"type":"events","seq":N,"t":sim s,"events":[{"kind":"grip","load":"log-1"},...]};
// load_ids as in display (frame_json.h scene_load_ids).
std::string events_json(const session::ObservedFrame& f, const nlohmann::ordered_json& load_ids);
// hello.observing: who is watched, and how that session is connected.
nlohmann::ordered_json observing_json(std::uint64_t session, const std::string& trainee,
                                      const std::string& transport, const std::string& label);

}  // namespace clamsim::web
