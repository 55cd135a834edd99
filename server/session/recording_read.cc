#include "session/recording_read.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "model/machine_file.h"
#include "record/mcap_reader.h"
#include "session/catalog.h"
#include "session/control_input.h"
#include "session/fault_catalog.h"
#include "session/recording_json.h"
#include "session/session.h"
#include "version/version.h"

namespace clamsim::session {

using json = nlohmann::json;

// The file is named by the caller; a viewer of the server's replay has no business with
// its directory.
std::string without_path(std::string what, const std::string& path) {
  for (std::size_t at; !path.empty() && (at = what.find(path)) != std::string::npos;)
    what.replace(at, path.size(), std::filesystem::path(path).filename().string());
  const std::string name = std::filesystem::path(path).filename().string();
  if (what.rfind(name + ": ", 0) == 0) what.erase(0, name.size() + 2);
  return what;
}

namespace {

constexpr int kMaxSeedDepth = 16;

// A value quoted in an error, cut to a readable length.
std::string cut(const std::string& text) {
  return text.size() <= 40 ? text : text.substr(0, 40) + "...";
}

std::uint64_t parse_count(const std::string& key, const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_number_unsigned())
    throw std::invalid_argument("the recording's metadata '" + key + "' is not a count: " + cut(text));
  return j.get<std::uint64_t>();
}

// Checks of one /inputs message, each throwing std::invalid_argument that names the field.
class InputCheck {
 public:
  InputCheck(const json& j, std::uint64_t k)
      : j_(j), where_("/inputs at frame " + std::to_string(k)) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw std::invalid_argument(where_ + ": " + why);
  }
  const json& field(const char* name) const {
    if (!j_.contains(name)) fail("no \"" + std::string(name) + "\"");
    return j_.at(name);
  }
  std::string text(const char* name) const {
    const json& v = field(name);
    if (!v.is_string()) fail("\"" + std::string(name) + "\" is not a string");
    if (v.get_ref<const std::string&>().size() > kMaxRecordedText)
      fail("\"" + std::string(name) + "\" is longer than " + std::to_string(kMaxRecordedText) + " bytes");
    return v.get<std::string>();
  }
  std::string choice(const char* name, const std::vector<std::string>& choices) const {
    const std::string v = text(name);
    if (std::find(choices.begin(), choices.end(), v) != choices.end()) return v;
    std::string list;
    for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
    fail("\"" + std::string(name) + "\" is \"" + cut(v) + "\", not one of " + list);
  }
  // Five finite volts within the stick's range (ControlSignal order).
  core::Control volts(const char* name) const {
    const json& v = field(name);
    core::Control c;
    if (!v.is_array() || v.size() != c.volts.size())
      fail("\"" + std::string(name) + "\" is not an array of " + std::to_string(c.volts.size()) + " numbers");
    for (std::size_t i = 0; i < c.volts.size(); ++i) {
      if (!v[i].is_number() || !(std::abs(v[i].get<double>()) <= kMaxVolts))
        fail("\"" + std::string(name) + "\"[" + std::to_string(i) + "] is not a voltage from -" +
             json(kMaxVolts).dump() + " to +" + json(kMaxVolts).dump() + " V");
      c.volts[i] = v[i].get<double>();
    }
    return c;
  }
  core::Faults faults() const {
    core::Faults f;
    try {
      f = faults_from_json(field("faults"));
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
    if (const std::string why = check_physics_faults(f); !why.empty()) fail("faults: " + why);
    return f;
  }

 private:
  const json& j_;
  const std::string where_;
};

// One /inputs message, checked whole (recording_json.cc's schema, with each value's range).
RecordedInput parse_input(const json& j, std::uint64_t k) {
  const InputCheck c(j, k);
  using Kind = RecordedInput::Kind;
  static const std::vector<std::pair<std::string, Kind>> kKinds{
      {"restart", Kind::Restart}, {"control", Kind::Control}, {"faults", Kind::Faults},
      {"driver", Kind::Driver},   {"note", Kind::Note},       {"message", Kind::Message},
      {"trainee", Kind::Trainee}};
  std::vector<std::string> names;
  for (const auto& [name, kind] : kKinds) names.push_back(name);
  const std::string kind = c.choice("kind", names);
  RecordedInput i;
  for (const auto& [name, k2] : kKinds)
    if (name == kind) i.kind = k2;
  switch (i.kind) {
    case Kind::Restart:
      if (const auto p = j.find("practice"); p != j.end()) {
        if (!p->is_boolean()) c.fail("\"practice\" is not true or false");
        i.practice = p->get<bool>();
      }
      break;
    case Kind::Control:
      i.control = c.volts("volts");
      if (j.contains("trainee_volts")) c.volts("trainee_volts");
      break;
    case Kind::Faults: i.faults = c.faults(); break;
    case Kind::Driver:
      i.driver = driver_from_string(c.choice("driver", {"trainee", "instructor", "both"}));
      i.instructor = c.text("instructor");
      break;
    case Kind::Note:
      i.note = {c.choice("note", {"control", "message", "fault", "fault_cleared"}), c.text("detail"),
                c.text("by")};
      break;
    case Kind::Message:
      c.text("from");
      c.text("text");
      break;
    case Kind::Trainee: c.text("name"); break;
  }
  return i;
}

// The recorder writes /frames at frames 1, 1 + N, 1 + 2N, ... (N = frame_every), each frame's
// inputs before it: a recording whose frames run further than N past the last recorded one,
// or with a longer gap, was not written by a session.
void check_frames_cover(const RecordedSession& r, std::uint64_t every) {
  std::uint64_t before = 0;   // frame 0, before the first
  for (const auto& [k, frame] : r.frames) {
    if (k - before > every)
      throw std::invalid_argument("not a session's recording: no recorded frame between " +
                                  std::to_string(before) + " and " + std::to_string(k) + " (one every " +
                                  std::to_string(every) + ")");
    before = k;
  }
  if (r.last_k > before + every)
    throw std::invalid_argument("not a session's recording: inputs up to frame " + std::to_string(r.last_k) +
                                ", its last recorded frame " + std::to_string(before) + " (one every " +
                                std::to_string(every) + ")");
}

// The work of re-simulating a chain of take-overs: frames left to step, and whether to go on.
struct ChainWork {
  std::uint64_t budget;                    // frames the chain may still step
  const std::function<bool()>& keep_going;
  std::uint64_t stepped = 0;
};

ReplayStart start_of(const RecordedSession& r, const MachineSetup& setup, const Catalog& catalog,
                     int depth, ChainWork& work);

// The source of a taken-over session, read and checked, with its own sources before it.
RecordedSession seed_source(const RecordedSession& r, const MachineSetup& setup, const Catalog& catalog,
                            int depth, ChainWork& work) {
  if (depth >= kMaxSeedDepth)
    throw std::invalid_argument("taken over from a replay more than " + std::to_string(kMaxSeedDepth) +
                                " times in a row: not re-simulated");
  const std::string name = r.seed_recording();
  if (name.find('/') != std::string::npos || name.empty() || name[0] == '.')
    throw std::invalid_argument("the recording's seed_recording is not a file name: " + cut(name));
  const std::string source_path = (std::filesystem::path(r.path).parent_path() / name).string();
  if (std::error_code ec; !std::filesystem::exists(source_path, ec))
    throw std::invalid_argument("taken over from " + name + " at frame " + std::to_string(r.seed_k()) +
                                ", which is not beside it (removed by retention?): cannot re-simulate");
  RecordedSession source;
  try {
    source = read_recording(source_path);
  } catch (const std::exception& e) {   // McapError names the path: this names the file only
    throw std::invalid_argument("its source " + name + ": " + without_path(e.what(), source_path));
  }
  MachineSetup source_setup;
  if (const std::string why = recorded_setup(source, catalog, &source_setup); !why.empty())
    throw std::invalid_argument("its source " + name + ": " + why);
  if (source_setup.model_sha256 != setup.model_sha256 || source_setup.world_sha256 != setup.world_sha256)
    throw std::invalid_argument("its source " + name + " ran another model or world");
  const std::uint64_t seed_k = r.seed_k();
  if (seed_k == 0 || seed_k > source.last_k)
    throw std::invalid_argument("its source holds " + std::to_string(source.last_k) +
                                " frames, not the frame " + std::to_string(seed_k) + " taken over (" + name + ")");
  if (seed_k > work.budget)
    throw std::invalid_argument("its chain of take-overs re-simulates more than " +
                                json(kMaxRecordedHours).dump() + " h of frames: not re-simulated");
  work.budget -= seed_k;
  return source;
}

// The source of a taken-over session re-simulated up to the seed frame, renumbered so that
// the next frame is the new session's frame 1. Every file of the chain is read and checked
// (seed_source, down the chain) before the first frame is stepped.
ReplayStart seeded_start(const RecordedSession& r, const MachineSetup& setup,
                         const Catalog& catalog, int depth, ChainWork& work) {
  const RecordedSession source = seed_source(r, setup, catalog, depth, work);
  ReplayStart s = start_of(source, setup, catalog, depth + 1, work);
  const std::uint64_t seed_k = r.seed_k();
  for (std::uint64_t k = 1; k <= seed_k; ++k) {
    if (++work.stepped % 100 == 0 && work.keep_going && !work.keep_going()) throw ReplayCancelled();
    bool restart = false, practice = false;
    apply_recorded_inputs(recorded_inputs(source, k), s.inputs, &restart, &practice);
    if (restart) s.stepper.restart(k, practice);
    s.stepper.step(k, &s.inputs);
  }
  s.stepper.renumber(seed_k);
  s.inputs = StepInputs{};   // the new session's own inputs start with its frame 1
  return s;
}

ReplayStart start_of(const RecordedSession& r, const MachineSetup& setup, const Catalog& catalog,
                     int depth, ChainWork& work) {
  if (!r.seed_recording().empty()) return seeded_start(r, setup, catalog, depth, work);
  return ReplayStart{FrameStepper(*setup.params, setup.scenario.get(), setup.initial,
                                  r.frame_period_s()),
                     StepInputs{}};
}

}  // namespace

const std::string& RecordedSession::meta_value(const std::string& key) const {
  const auto it = meta.find(key);
  if (it == meta.end())
    throw std::invalid_argument("the recording's metadata has no '" + key + "'");
  return it->second;
}

double RecordedSession::frame_period_s() const {
  const json j = json::parse(meta_value("frame_period_s"), nullptr, false);
  if (!j.is_number() || !(j.get<double>() >= kMinFramePeriod_s && j.get<double>() <= kMaxFramePeriod_s))
    throw std::invalid_argument("the recording's frame_period_s is not a frame period between " +
                                json(kMinFramePeriod_s).dump() + " and " + json(kMaxFramePeriod_s).dump() +
                                " s: " + cut(meta_value("frame_period_s")));
  return j.get<double>();
}

std::uint64_t RecordedSession::frame_every() const {
  const std::uint64_t n = parse_count("frame_every", meta_value("frame_every"));
  if (n == 0 || n > kMaxFrameEvery)
    throw std::invalid_argument("the recording's frame_every is " + std::to_string(n) +
                                ", not 1 to " + std::to_string(kMaxFrameEvery));
  return n;
}

std::string RecordedSession::seed_recording() const {
  const auto it = meta.find("seed_recording");
  return it == meta.end() ? std::string() : it->second;
}

std::uint64_t RecordedSession::seed_k() const {
  return seed_recording().empty() ? 0 : parse_count("seed_k", meta_value("seed_k"));
}

RecordedSession read_recording(const std::string& path) {
  const record::McapFile f = record::read_mcap_file(path);
  RecordedSession r;
  r.path = path;
  r.truncated = f.truncated;
  for (const record::McapMetadata& m : f.metadata)
    if (m.name == "session") r.meta = m.values;
  const record::McapChannel* in = f.channel(kInputsChannel.topic);
  const record::McapChannel* fr = f.channel(kFramesChannel.topic);
  if (r.meta.empty() || in == nullptr || fr == nullptr)
    throw std::invalid_argument("an MCAP file but not a clamsim session recording "
                                "(no 'session' metadata, /inputs or /frames)");
  const std::uint64_t max_k = max_recorded_frames(r.frame_period_s());
  const std::uint64_t every = r.frame_every();
  for (const record::McapMessage& m : f.messages) {
    if (m.channel_id != in->id && m.channel_id != fr->id) continue;
    const char* topic = m.channel_id == in->id ? "/inputs" : "/frames";
    json j = json::parse(m.data, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("k") || !j["k"].is_number_unsigned() ||
        j["k"].get<std::uint64_t>() == 0)
      throw std::invalid_argument("a message on " + std::string(topic) +
                                  " is not a JSON object with a frame index k (1, 2, ...)");
    const auto k = j["k"].get<std::uint64_t>();
    if (k > max_k)
      throw std::invalid_argument("a message on " + std::string(topic) + " at frame " + std::to_string(k) +
                                  ", past the " + std::to_string(max_k) + " frames (" +
                                  json(kMaxRecordedHours).dump() + " h) a recording may hold");
    r.last_k = std::max(r.last_k, k);
    if (m.channel_id == in->id) {
      RecordedInput input = parse_input(j, k);
      if (input.kind == RecordedInput::Kind::Trainee) r.trainee = j["name"].get<std::string>();
      r.inputs[k].push_back(std::move(input));
    } else {
      r.frames[k] = std::move(j);
    }
  }
  check_frames_cover(r, every);
  return r;
}

std::uint64_t max_recorded_frames(double frame_period_s) {
  return static_cast<std::uint64_t>(std::llround(kMaxRecordedHours * 3600.0 / frame_period_s));
}

const std::vector<RecordedInput>& recorded_inputs(const RecordedSession& r, std::uint64_t k) {
  static const std::vector<RecordedInput> kNone;
  const auto it = r.inputs.find(k);
  return it == r.inputs.end() ? kNone : it->second;
}

std::string recorded_setup(const RecordedSession& r, const Catalog& catalog, MachineSetup* setup) {
  const std::string& model = r.meta_value("model");
  const std::string& world = r.meta_value("world");
  std::string error;
  if (!catalog.resolve(model, world, setup, &error)) return error;
  if (world.empty()) {   // empty space, whatever the catalog's default world is
    setup->scenario.reset();
    setup->world_name.clear();
    setup->world_sha256.clear();
  }
  const json initial = json::parse(r.meta_value("initial"), nullptr, false);
  if (!initial.is_object()) throw std::invalid_argument("the recording's initial pose is not a JSON object");
  setup->initial = initial_from_json(initial);
  if (const std::string why = model::initial_out_of_range(setup->initial, *setup->params); !why.empty())
    throw std::invalid_argument("the recording's initial pose: " + why);
  if (setup->model_sha256 != r.meta_value("model_sha256"))
    return "recorded with another model file: " + model + " had SHA-256 " +
           r.meta_value("model_sha256") + ", " + catalog.models_dir() + "/" + model + ".json has " +
           setup->model_sha256;
  if (setup->world_sha256 != r.meta_value("world_sha256"))
    return "recorded in another world file: " + world + " had SHA-256 " +
           r.meta_value("world_sha256") + ", the scenarios directory's has " + setup->world_sha256;
  if (r.meta_value("build") != kVersion)
    return "recorded by clamsim " + r.meta_value("build") + ", this is clamsim " + kVersion +
           ": its dynamics may differ";
  return "";
}

void apply_recorded_inputs(const std::vector<RecordedInput>& inputs, StepInputs& in, bool* restart,
                           bool* practice) {
  in.notes.clear();
  for (const RecordedInput& i : inputs) {
    switch (i.kind) {
      case RecordedInput::Kind::Restart:
        *restart = true;
        if (practice != nullptr) *practice = i.practice;
        break;
      case RecordedInput::Kind::Control: in.control = i.control; break;
      case RecordedInput::Kind::Faults: in.faults = i.faults; break;
      case RecordedInput::Kind::Driver:
        in.driver = i.driver;
        in.instructor = i.instructor;
        break;
      case RecordedInput::Kind::Note: in.notes.push_back(i.note); break;
      case RecordedInput::Kind::Message:
      case RecordedInput::Kind::Trainee: break;   // shown, not simulated
    }
  }
}

ReplayStart replay_start(const RecordedSession& r, const MachineSetup& setup,
                         const Catalog& catalog, const std::function<bool()>& keep_going) {
  const std::uint64_t max = max_recorded_frames(r.frame_period_s());
  ChainWork work{max > r.last_k ? max - r.last_k : 0, keep_going};
  return start_of(r, setup, catalog, 0, work);
}

std::optional<std::string> first_difference(const json& a, const json& b, const std::string& path) {
  if (a.is_object() && b.is_object()) {
    for (const auto& [key, value] : a.items()) {
      const std::string at = path.empty() ? key : path + "." + key;
      if (!b.contains(key)) return at + ": recorded " + value.dump() + ", re-simulated none";
      if (auto d = first_difference(value, b.at(key), at)) return d;
    }
    for (const auto& [key, value] : b.items())
      if (!a.contains(key))
        return (path.empty() ? key : path + "." + key) + ": recorded none, re-simulated " + value.dump();
    return std::nullopt;
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (auto d = first_difference(a[i], b[i], path + "[" + std::to_string(i) + "]")) return d;
    return std::nullopt;
  }
  if (a == b) return std::nullopt;
  return path + ": recorded " + a.dump() + ", re-simulated " + b.dump();
}

}  // namespace clamsim::session
