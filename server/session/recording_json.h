// The JSON of a session recording's messages (docs/recording.md): one function per
// channel, used by the recorder to write and by the re-simulation to rebuild and compare.
// Numbers are written at full precision (shortest text that reads back to the same
// double), so a re-simulated frame compares bit for bit.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/state.h"
#include "session/frame_stepper.h"
#include "training/task_score.h"

namespace clamsim::session {

// The channels, their topics and JSON Schemas.
struct RecordingChannel {
  const char* topic;
  const char* schema_name;
  const char* schema;   // JSON Schema (draft 2020-12) text
};
extern const RecordingChannel kInputsChannel;   // /inputs
extern const RecordingChannel kFramesChannel;   // /frames
extern const RecordingChannel kEventsChannel;   // /events
extern const RecordingChannel kScoreChannel;    // /score

// A frame of /frames: k (the frame's index from the session's start), seq, the attempt's
// time, the outputs and a CRC-32 of the whole continuous state.
nlohmann::json frame_record(std::uint64_t k, std::uint64_t seq, const core::Outputs& o,
                            const core::State& state);

// The physics faults in force, every slot (an input: what core::Environment gets).
nlohmann::json faults_json(const core::Faults& f);
// Back again; throws std::invalid_argument naming the field when it is not one.
core::Faults faults_from_json(const nlohmann::json& j);

// Every world event count, by kWorldEventFields.
nlohmann::json events_json(const core::WorldEvents& e);
// The task's score, by kTaskScoreFields.
nlohmann::json score_json(const training::TaskScore& s);

// The start pose at full precision, and back (throws std::invalid_argument).
nlohmann::json initial_json(const core::InitialConditions& c);
core::InitialConditions initial_from_json(const nlohmann::json& j);

// "trainee", "instructor", "both" back to the Driver; throws std::invalid_argument.
Driver driver_from_string(const std::string& name);

}  // namespace clamsim::session
