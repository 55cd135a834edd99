// A session recording read back for re-simulation (docs/recording.md): its metadata, its
// inputs and recorded frames by frame index; the machine and world it ran, checked against
// the recording's hashes and build; a frame's recorded inputs as the live session passed
// them to the FrameStepper; and the stepper a recording starts from (a fresh one, or, for a
// session taken over from a replay, the source recording re-simulated to that moment).
// Shared by clamsim-sim --replay and the server's debrief replay, so both re-simulate alike.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "session/frame_stepper.h"

namespace clamsim::session {

class Catalog;
struct MachineSetup;

struct RecordedSession {
  std::string path;
  std::map<std::string, std::string> meta;                     // the "session" metadata
  std::map<std::uint64_t, std::vector<nlohmann::json>> inputs; // /inputs by frame
  std::map<std::uint64_t, nlohmann::json> frames;              // /frames by frame
  std::uint64_t last_k = 0;                                    // the last frame it holds
  std::string trainee;     // the last name given at the controls ("" = none)
  std::string truncated;   // why the file ends early ("" = complete)

  // A metadata value; throws std::invalid_argument naming the key when it is missing.
  const std::string& meta_value(const std::string& key) const;
  double frame_period_s() const;
  // "" for a session that began at its start pose; else the recording (a file name in the
  // same directory) whose frame seed_k() it took over from.
  std::string seed_recording() const;
  std::uint64_t seed_k() const;
};

// Reads the file; throws record::McapError (not MCAP, unreadable) or std::invalid_argument
// (an MCAP file that is not a clamsim session recording, or a malformed message).
RecordedSession read_recording(const std::string& path);

// Fills *setup with the machine and world the recording names, from `catalog`. "" or why
// they cannot re-simulate it: another model or world file (their SHA-256 differ), another
// build, or names the catalog does not have.
std::string recorded_setup(const RecordedSession& r, const Catalog& catalog, MachineSetup* setup);

// One frame's recorded inputs applied as the live session passed them: control, faults
// and driver persist from the last change; notes belong to their frame. *restart is set
// when a new attempt begins with this frame.
void apply_recorded_inputs(const std::vector<nlohmann::json>& inputs, StepInputs& in,
                           bool* restart);

// What a re-simulation starts from: the stepper before frame 1 and the inputs in force.
struct ReplayStart {
  FrameStepper stepper;
  StepInputs inputs;
};
// For a session taken over from a replay, re-simulates its source (read from the same
// directory, itself possibly taken over, at most 16 deep) up to the seed frame and
// renumbers it; throws std::invalid_argument when the source is missing or does not match.
ReplayStart replay_start(const RecordedSession& r, const MachineSetup& setup,
                         const Catalog& catalog);

// The first place two JSON values differ, as "path: recorded A, re-simulated B"; nullopt
// when they are equal (numbers compared as the doubles they read back to). Used to verify
// a re-simulated frame against the recorded one.
std::optional<std::string> first_difference(const nlohmann::json& recorded,
                                            const nlohmann::json& resimulated,
                                            const std::string& path = "");

}  // namespace clamsim::session
