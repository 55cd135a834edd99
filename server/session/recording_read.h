// A session recording read back for re-simulation (docs/recording.md): its metadata, its
// inputs and recorded frames by frame index; the machine and world it ran, checked against
// the recording's hashes and build; a frame's recorded inputs as the live session passed
// them to the FrameStepper; and the stepper a recording starts from (a fresh one, or, for a
// session taken over from a replay, the source recording re-simulated to that moment).
// Shared by clamsim-sim --replay and the server's debrief replay, so both re-simulate alike.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "session/frame_stepper.h"
#include "session/instructor_desk.h"
#include "session/recorder.h"

namespace clamsim::session {

class Catalog;
struct MachineSetup;

// One /inputs message as the live session applied it, checked whole when the file is read
// (every field's type and range), so that applying it cannot fail.
struct RecordedInput {
  enum class Kind : std::uint8_t { Restart, Control, Faults, Driver, Note, Message, Trainee };
  Kind kind = Kind::Restart;
  core::Control control;            // Control: the volts that drove the machine
  core::Faults faults;              // Faults: every physics fault slot in force
  Driver driver = Driver::Trainee;  // Driver
  std::string instructor;           // Driver: the instructor driving
  DeskNote note;                    // Note
  bool practice = false;            // Restart: a practice attempt (no time limit)
};

// The bounds a recording must keep to be re-simulated (docs/recording.md, "What a replay
// refuses"): they keep a replay's work and memory proportional to a real session.
inline constexpr double kMaxRecordedHours = 24.0;     // frames of a recording and its sources
inline constexpr double kMinFramePeriod_s = 0.001;    // the frame period, 1 ms ..
inline constexpr double kMaxFramePeriod_s = 1.0;      // .. 1 s
inline constexpr std::size_t kMaxRecordedText = 4096;    // a name, note or message [bytes]

struct RecordedSession {
  std::string path;
  std::map<std::string, std::string> meta;                     // the "session" metadata
  std::map<std::uint64_t, std::vector<RecordedInput>> inputs;  // /inputs by frame
  std::map<std::uint64_t, nlohmann::json> frames;              // /frames by frame
  std::uint64_t last_k = 0;                                    // the last frame it holds
  std::string trainee;     // the last name given at the controls ("" = none)
  std::string truncated;   // why the file ends early ("" = complete)

  // A metadata value; throws std::invalid_argument naming the key when it is missing.
  const std::string& meta_value(const std::string& key) const;
  double frame_period_s() const;   // throws std::invalid_argument outside 1 ms .. 1 s
  std::uint64_t frame_every() const;   // /frames every Nth frame; throws outside 1 .. 10000
  // "" for a session that began at its start pose; else the recording (a file name in the
  // same directory) whose frame seed_k() it took over from.
  std::string seed_recording() const;
  std::uint64_t seed_k() const;
};

// The most frames a recording (with the sources it was taken over from) may hold.
std::uint64_t max_recorded_frames(double frame_period_s);

// Reads the file and checks all of it before any work starts: throws record::McapError (not
// MCAP, unreadable, not a regular file, too large; naming the path) or std::invalid_argument
// naming the problem but not the file (the caller names it) (not a clamsim session recording; a metadata value or an /inputs message that is
// malformed or out of range; frames past the recording's bounds).
RecordedSession read_recording(const std::string& path);

// Fills *setup with the machine and world the recording names, from `catalog`. "" or why
// they cannot re-simulate it: another model or world file (their SHA-256 differ), another
// build, or names the catalog does not have. Throws std::invalid_argument for a start pose
// that is malformed or outside the machine's ranges.
std::string recorded_setup(const RecordedSession& r, const Catalog& catalog, MachineSetup* setup);

// e.what() of a refusal with `path` shortened to its file name and a leading "name: " left
// out, for a caller that names the file itself.
std::string without_path(std::string what, const std::string& path);

// One frame's recorded inputs applied as the live session passed them: control, faults
// and driver persist from the last change; notes belong to their frame. *restart is set
// when a new attempt begins with this frame, and *practice (when given) when it is a
// practice attempt.
void apply_recorded_inputs(const std::vector<RecordedInput>& inputs, StepInputs& in,
                           bool* restart, bool* practice = nullptr);
// The inputs of frame k (none: an empty list).
const std::vector<RecordedInput>& recorded_inputs(const RecordedSession& r, std::uint64_t k);

// What a re-simulation starts from: the stepper before frame 1 and the inputs in force.
struct ReplayStart {
  FrameStepper stepper;
  StepInputs inputs;
};
// For a session taken over from a replay, re-simulates its source (read from the same
// directory, itself possibly taken over, at most 16 deep) up to the seed frame and
// renumbers it; throws std::invalid_argument when the source is missing, is not a regular
// file, does not match, or the chain holds more than max_recorded_frames. Every file of the
// chain is read and checked before the first frame is stepped. keep_going (if set) is asked
// every 100 frames stepped; false ends the work with ReplayCancelled.
struct ReplayCancelled : std::runtime_error {
  ReplayCancelled() : std::runtime_error("cancelled") {}
};
ReplayStart replay_start(const RecordedSession& r, const MachineSetup& setup,
                         const Catalog& catalog, const std::function<bool()>& keep_going = {});

// The first place two JSON values differ, as "path: recorded A, re-simulated B"; nullopt
// when they are equal (numbers compared as the doubles they read back to). Used to verify
// a re-simulated frame against the recorded one.
std::optional<std::string> first_difference(const nlohmann::json& recorded,
                                            const nlohmann::json& resimulated,
                                            const std::string& path = "");

}  // namespace clamsim::session
