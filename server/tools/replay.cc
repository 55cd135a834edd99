#include "tools/replay.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <vector>

#include "cli/exit_codes.h"
#include "record/mcap_reader.h"
#include "session/catalog.h"
#include "session/frame_stepper.h"
#include "session/recording_json.h"
#include "session/recording_read.h"
#include "session/session.h"
#include "tools/csv_writer.h"
#include "tools/plot.h"
#include "version/version.h"

namespace clamsim::tools {

using json = nlohmann::json;

namespace {

int fail(const std::string& message, int status) {
  std::fprintf(stderr, "clamsim-sim: %s\n", message.c_str());
  return status;
}

// The recording, read and checked, and the machine and world it names, set up as they were
// (their files must be the ones it was made with); kExitOk, or the status after saying why.
int load_replay(const ReplayOptions& o, session::RecordedSession& r, session::MachineSetup& setup,
                std::optional<session::ReplayStart>& start) {
  try {
    r = session::read_recording(o.path);
    const session::Catalog catalog(o.models_dir, o.scenarios_dir, r.meta_value("model"),
                                   r.meta_value("world"));
    if (const std::string problem = session::recorded_setup(r, catalog, &setup);
        !problem.empty())
      return fail(o.path + ": " + problem + " (not re-simulated: it would diverge)", cli::kExitFailure);
    start.emplace(session::replay_start(r, setup, catalog));
  } catch (const record::McapError& e) {
    return fail(e.what(), cli::kExitBadModel);
  } catch (const model::ModelError& e) {
    return fail(e.what(), cli::kExitBadModel);
  } catch (const std::exception& e) {
    return fail(o.path + ": " + e.what(), cli::kExitBadModel);
  }
  return cli::kExitOk;
}

// Every frame again from its recorded inputs, each a row of the CSV when there is one; with
// --verify each recorded frame compared bit for bit, counted in *verified. kExitOk, or
// kExitFailure at the first frame that differs. Throws what the stepper throws.
int resimulate(const ReplayOptions& o, const session::RecordedSession& r,
               session::ReplayStart& start, std::optional<CsvWriter>& writer,
               std::uint64_t* verified) {
  session::FrameStepper& stepper = start.stepper;
  session::StepInputs& in = start.inputs;
  for (std::uint64_t k = 1; k <= r.last_k; ++k) {
    bool restart = false, practice = false;
    session::apply_recorded_inputs(session::recorded_inputs(r, k), in, &restart, &practice);
    if (restart) stepper.restart(k, practice);
    const core::Outputs& out = stepper.step(k, &in);
    if (writer) writer->row(in.control, out);
    const auto f = r.frames.find(k);
    if (!o.verify || f == r.frames.end()) continue;
    const json again = session::frame_record(k, k - 1, out, stepper.state());
    if (auto d = session::first_difference(f->second, again)) {
      std::fprintf(stderr, "clamsim-sim: frame %llu (t = %.3f s) differs: %s\n",
                   static_cast<unsigned long long>(k), out.time_s, d->c_str());
      return cli::kExitFailure;
    }
    ++*verified;
  }
  return cli::kExitOk;
}

// --plot: the chapter-5 figures from the CSV, titled with the session: its world, who was
// at the controls, when, which file.
int plot_replay(const ReplayOptions& o, const session::RecordedSession& r) {
  const std::string world = r.meta.count("world") && !r.meta.at("world").empty() ? r.meta.at("world") : "empty space";
  const std::string when = r.meta.count("start_utc") ? ", " + utc_minute(r.meta.at("start_utc")) : "";
  const std::string title = world + ", " +
                            (r.trainee.empty() ? "no trainee name" : "trainee " + r.trainee) + when +
                            " (" + std::filesystem::path(o.path).filename().string() + ")";
  const PlotResult plot = draw_plot({o.csv_path, o.plot_path, "clamsim-sim --replay " + o.path, title});
  if (!plot.ok) return fail("--plot: " + plot.message, cli::kExitFailure);
  return cli::kExitOk;
}

}  // namespace

int run_replay(const ReplayOptions& o) {
  session::RecordedSession r;
  session::MachineSetup setup;
  std::optional<session::ReplayStart> start;
  if (const int status = load_replay(o, r, setup, start); status != cli::kExitOk) return status;
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
  const double period = r.frame_period_s();
  std::uint64_t verified = 0;
  int status = cli::kExitOk;
  const auto wall_start = std::chrono::steady_clock::now();
  try {
    status = resimulate(o, r, *start, writer, &verified);
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
  if (!o.plot_path.empty()) return plot_replay(o, r);
  return cli::kExitOk;
}

}  // namespace clamsim::tools
