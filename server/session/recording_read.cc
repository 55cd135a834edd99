#include "session/recording_read.h"

#include <filesystem>
#include <stdexcept>

#include "record/mcap_reader.h"
#include "session/catalog.h"
#include "session/recording_json.h"
#include "session/session.h"
#include "version/version.h"

namespace clamsim::session {

using json = nlohmann::json;

namespace {

constexpr int kMaxSeedDepth = 16;

std::uint64_t parse_count(const std::string& key, const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_number_unsigned())
    throw std::invalid_argument("the recording's metadata '" + key + "' is not a frame number: " + text);
  return j.get<std::uint64_t>();
}

ReplayStart start_of(const RecordedSession& r, const MachineSetup& setup, const Catalog& catalog,
                     int depth);

// The source of a taken-over session re-simulated up to the seed frame, renumbered so that
// the next frame is the new session's frame 1.
ReplayStart seeded_start(const RecordedSession& r, const MachineSetup& setup,
                         const Catalog& catalog, int depth) {
  if (depth >= kMaxSeedDepth)
    throw std::invalid_argument("taken over from a replay more than " + std::to_string(kMaxSeedDepth) +
                                " times in a row: not re-simulated");
  const std::string name = r.seed_recording();
  if (name.find('/') != std::string::npos || name.empty() || name[0] == '.')
    throw std::invalid_argument("the recording's seed_recording is not a file name: " + name);
  const std::string source_path =
      (std::filesystem::path(r.path).parent_path() / name).string();
  if (!std::filesystem::exists(source_path))
    throw std::invalid_argument("taken over from " + name + " at frame " + std::to_string(r.seed_k()) +
                                ", which is not beside it (removed by retention?): cannot re-simulate");
  const RecordedSession source = read_recording(source_path);
  MachineSetup source_setup;
  if (const std::string why = recorded_setup(source, catalog, &source_setup); !why.empty())
    throw std::invalid_argument("its source " + name + ": " + why);
  if (source_setup.model_sha256 != setup.model_sha256 || source_setup.world_sha256 != setup.world_sha256)
    throw std::invalid_argument("its source " + name + " ran another model or world");
  const std::uint64_t seed_k = r.seed_k();
  if (seed_k == 0 || seed_k > source.last_k)
    throw std::invalid_argument("taken over at frame " + std::to_string(seed_k) + " of " + name +
                                ", which holds " + std::to_string(source.last_k) + " frames");
  ReplayStart s = start_of(source, setup, catalog, depth + 1);
  for (std::uint64_t k = 1; k <= seed_k; ++k) {
    bool restart = false;
    const auto it = source.inputs.find(k);
    apply_recorded_inputs(it == source.inputs.end() ? std::vector<json>{} : it->second, s.inputs,
                          &restart);
    if (restart) s.stepper.restart(k);
    s.stepper.step(k, &s.inputs);
  }
  s.stepper.renumber(seed_k);
  s.inputs = StepInputs{};   // the new session's own inputs start with its frame 1
  return s;
}

ReplayStart start_of(const RecordedSession& r, const MachineSetup& setup, const Catalog& catalog,
                     int depth) {
  if (!r.seed_recording().empty()) return seeded_start(r, setup, catalog, depth);
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
  if (!j.is_number() || !(j.get<double>() > 0.0))
    throw std::invalid_argument("the recording's frame_period_s is not a period: " +
                                meta_value("frame_period_s"));
  return j.get<double>();
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
    throw std::invalid_argument(path + " is an MCAP file but not a clamsim session recording "
                                "(no 'session' metadata, /inputs or /frames)");
  for (const record::McapMessage& m : f.messages) {
    if (m.channel_id != in->id && m.channel_id != fr->id) continue;
    json j = json::parse(m.data, nullptr, false);
    if (j.is_discarded() || !j.contains("k") || !j["k"].is_number_unsigned())
      throw std::invalid_argument(path + ": a message on " +
                                  (m.channel_id == in->id ? "/inputs" : "/frames") +
                                  " is not JSON with a frame index k");
    const auto k = j["k"].get<std::uint64_t>();
    r.last_k = std::max(r.last_k, k);
    if (m.channel_id == in->id) {
      if (j.value("kind", "") == "trainee" && j.contains("name") && j["name"].is_string())
        r.trainee = j["name"].get<std::string>();
      r.inputs[k].push_back(std::move(j));
    }
    else
      r.frames[k] = std::move(j);
  }
  return r;
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
  setup->initial = initial_from_json(json::parse(r.meta_value("initial")));
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

void apply_recorded_inputs(const std::vector<json>& inputs, StepInputs& in, bool* restart) {
  in.notes.clear();
  for (const json& j : inputs) {
    const std::string kind = j.at("kind").get<std::string>();
    if (kind == "restart") {
      *restart = true;
    } else if (kind == "control") {
      const json& v = j.at("volts");
      for (std::size_t i = 0; i < in.control.volts.size(); ++i)
        in.control.volts[i] = v.at(i).get<double>();
    } else if (kind == "faults") {
      in.faults = faults_from_json(j.at("faults"));
    } else if (kind == "driver") {
      in.driver = driver_from_string(j.at("driver").get<std::string>());
      in.instructor = j.at("instructor").get<std::string>();
    } else if (kind == "note") {
      in.notes.push_back({j.at("note").get<std::string>(), j.at("detail").get<std::string>(),
                          j.at("by").get<std::string>()});
    }
  }
}

ReplayStart replay_start(const RecordedSession& r, const MachineSetup& setup,
                         const Catalog& catalog) {
  return start_of(r, setup, catalog, 0);
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
