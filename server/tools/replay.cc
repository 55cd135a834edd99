#include "tools/replay.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <vector>

#include "cli/exit_codes.h"
#include "record/mcap_reader.h"
#include "session/catalog.h"
#include "session/frame_stepper.h"
#include "session/recording_json.h"
#include "session/session.h"
#include "tools/csv_writer.h"
#include "tools/plot.h"
#include "version/version.h"

namespace clamsim::tools {

using json = nlohmann::json;

namespace {

struct Recording {
  std::map<std::string, std::string> meta;            // the "session" metadata
  std::map<std::uint64_t, std::vector<json>> inputs;   // by frame
  std::map<std::uint64_t, json> frames;               // by frame
  std::uint64_t last_k = 0;
  std::string truncated;
};

// Parses the recording's channels; throws record::McapError or std::invalid_argument.
Recording load(const std::string& path) {
  const record::McapFile f = record::read_mcap_file(path);
  Recording r;
  r.truncated = f.truncated;
  for (const record::McapMetadata& m : f.metadata)
    if (m.name == "session") r.meta = m.values;
  const record::McapChannel* in = f.channel(session::kInputsChannel.topic);
  const record::McapChannel* fr = f.channel(session::kFramesChannel.topic);
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
    if (m.channel_id == in->id)
      r.inputs[k].push_back(std::move(j));
    else
      r.frames[k] = std::move(j);
  }
  return r;
}

std::string meta(const Recording& r, const std::string& key) {
  const auto it = r.meta.find(key);
  if (it == r.meta.end())
    throw std::invalid_argument("the recording's metadata has no '" + key + "'");
  return it->second;
}

// The machine and world the session ran: the catalog's files, checked against the
// recording's hashes and build. "" or why they do not match.
std::string rebuild(const Recording& r, const ReplayOptions& o, session::MachineSetup* setup) {
  const std::string model = meta(r, "model"), world = meta(r, "world");
  const session::Catalog catalog(o.models_dir, o.scenarios_dir, model, world);
  std::string error;
  if (!catalog.resolve(model, "", setup, &error)) return error;
  setup->initial = session::initial_from_json(json::parse(meta(r, "initial")));
  if (setup->model_sha256 != meta(r, "model_sha256"))
    return "recorded with another model file: " + model + " had SHA-256 " +
           meta(r, "model_sha256") + ", " + o.models_dir + "/" + model + ".json has " +
           setup->model_sha256;
  if (setup->world_sha256 != meta(r, "world_sha256"))
    return "recorded in another world file: " + world + " had SHA-256 " +
           meta(r, "world_sha256") + ", the scenarios directory's has " + setup->world_sha256;
  if (meta(r, "build") != kVersion)
    return "recorded by clamsim " + meta(r, "build") + ", this is clamsim " + kVersion +
           ": its dynamics may differ";
  return "";
}

// A frame's inputs as the live session passed them: control, faults and driver persist
// from the last change; notes belong to their frame.
void apply(const std::vector<json>& inputs, session::StepInputs& in, bool* restart) {
  in.notes.clear();
  for (const json& j : inputs) {
    const std::string kind = j.at("kind").get<std::string>();
    if (kind == "restart") {
      *restart = true;
    } else if (kind == "control") {
      const json& v = j.at("volts");
      for (std::size_t i = 0; i < in.control.volts.size(); ++i) in.control.volts[i] = v.at(i).get<double>();
    } else if (kind == "faults") {
      in.faults = session::faults_from_json(j.at("faults"));
    } else if (kind == "driver") {
      in.driver = session::driver_from_string(j.at("driver").get<std::string>());
      in.instructor = j.at("instructor").get<std::string>();
    } else if (kind == "note") {
      in.notes.push_back({j.at("note").get<std::string>(), j.at("detail").get<std::string>(),
                          j.at("by").get<std::string>()});
    }
  }
}

std::string number_text(const json& v) { return v.dump(); }

int fail(const std::string& message, int status) {
  std::fprintf(stderr, "clamsim-sim: %s\n", message.c_str());
  return status;
}

}  // namespace

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
  return path + ": recorded " + number_text(a) + ", re-simulated " + number_text(b);
}

int run_replay(const ReplayOptions& o) {
  Recording r;
  session::MachineSetup setup;
  double period = 0.0;
  try {
    r = load(o.path);
    period = json::parse(meta(r, "frame_period_s")).get<double>();
    if (const std::string problem = rebuild(r, o, &setup); !problem.empty())
      return fail(o.path + ": " + problem + " (not re-simulated: it would diverge)", cli::kExitFailure);
  } catch (const record::McapError& e) {
    return fail(e.what(), cli::kExitBadModel);
  } catch (const model::ModelError& e) {
    return fail(e.what(), cli::kExitBadModel);
  } catch (const std::exception& e) {
    return fail(o.path + ": " + e.what(), cli::kExitBadModel);
  }
  if (!r.truncated.empty() && !o.quiet)
    std::fprintf(stderr, "clamsim-sim: %s is incomplete (%s): replaying the %llu frames it holds\n",
                 o.path.c_str(), r.truncated.c_str(), static_cast<unsigned long long>(r.last_k));

  std::FILE* csv = nullptr;
  std::optional<CsvWriter> writer;
  if (!o.csv_path.empty()) {
    csv = std::fopen(o.csv_path.c_str(), "w");
    if (csv == nullptr) return fail("--csv: cannot write " + o.csv_path, cli::kExitUsage);
    std::vector<std::string> names;
    if (setup.scenario)
      for (const core::LoadParams& l : setup.scenario->world.loads) names.push_back(l.name);
    writer.emplace(csv, names);
    writer->header();
  }
  session::FrameStepper stepper(*setup.params, setup.scenario.get(), setup.initial, period);
  session::StepInputs in;
  std::uint64_t verified = 0;
  int status = cli::kExitOk;
  const auto wall_start = std::chrono::steady_clock::now();
  try {
    for (std::uint64_t k = 1; k <= r.last_k; ++k) {
      bool restart = false;
      const auto it = r.inputs.find(k);
      apply(it == r.inputs.end() ? std::vector<json>{} : it->second, in, &restart);
      if (restart) stepper.restart(k);
      const core::Outputs& out = stepper.step(k, &in);
      if (writer) writer->row(in.control, out);
      const auto f = r.frames.find(k);
      if (!o.verify || f == r.frames.end()) continue;
      const json again = session::frame_record(k, k - 1, out, stepper.state());
      if (auto d = first_difference(f->second, again)) {
        std::fprintf(stderr, "clamsim-sim: frame %llu (t = %.3f s) differs: %s\n",
                     static_cast<unsigned long long>(k), out.time_s, d->c_str());
        status = cli::kExitFailure;
        break;
      }
      ++verified;
    }
  } catch (const std::exception& e) {
    return fail(o.path + ": " + e.what(), cli::kExitBadModel);
  }
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double sim_s = static_cast<double>(r.last_k) * period;
  if (csv != nullptr && std::fclose(csv) != 0) return fail("writing " + o.csv_path + " failed", cli::kExitFailure);
  if (status != cli::kExitOk) return status;
  if (o.verify) std::printf("verified %llu frames\n", static_cast<unsigned long long>(verified));
  if (!o.quiet)
    std::fprintf(stderr, "clamsim-sim: re-simulated %llu frames (%.1f s of session) in %.2f s wall (%.1fx real time)\n",
                 static_cast<unsigned long long>(r.last_k), sim_s, wall_s,
                 wall_s > 0.0 ? sim_s / wall_s : 0.0);
  if (!o.plot_path.empty()) {
    const PlotResult plot = draw_plot({o.csv_path, o.plot_path, "clamsim-sim --replay " + o.path});
    if (!plot.ok) return fail("--plot: " + plot.message, cli::kExitFailure);
  }
  return cli::kExitOk;
}

}  // namespace clamsim::tools
