// clamsim-sim: the offline simulator. Loads a machine file and a control script (and with
// --world a scenario's world), runs the dynamics as fast as the machine allows and writes a
// CSV (and optionally a plot). With --pick-place a scripted operator drives instead of the
// script (experiment 5.1.3).
// With --replay it re-simulates a session recording instead (tools/replay.h).
// Exit status: 0 ok, 1 the run or the plot failed (a run that goes NaN or inf stops and
// fails), 2 bad arguments, 3 input files that do not load.
#include <algorithm>
#include <csignal>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/exit_codes.h"
#include "cli/version_flag.h"
#include "core/finite_outputs.h"
#include "core/hydraulics.h"
#include "core/machine.h"
#include "model/control_script.h"
#include "model/json_fields.h"
#include "model/machine_file.h"
#include "model/scenario_file.h"
#include "tools/batch.h"
#include "tools/chirp.h"
#include "tools/csv_writer.h"
#include "tools/pick_place_pilot.h"
#include "tools/plot.h"
#include "tools/progress.h"
#include "tools/replay.h"
#include "tools/sim_options.h"

namespace {

using namespace clamsim;

using cli::kExitBadModel;
using cli::kExitFailure;
using cli::kExitOk;
using cli::kExitUsage;

constexpr double kPickPlaceLimit_s = 600.0;   // --pick-place without --duration
constexpr double kSettle_s = 5.0;             // run on after the operator is done

struct Run {
  core::MachineParams machine;
  std::optional<model::ControlScript> script;   // --controls
  core::InitialConditions initial;
  double duration_s = 0.0;
  std::optional<model::Scenario> world;   // --world
  int pick_load = -1;                     // --pick-place: the load's index in the world
};

// Where the scripted operator takes the load: the middle of the truck's load space, the
// load lying on the bed's floor; it carries it 1 m above the sides.
struct Errand {
  tools::Point from, to;
  double carry_z = 0.0;
};

Errand errand_for(const Run& run) {
  const core::LoadParams& load = run.world->world.loads[static_cast<std::size_t>(run.pick_load)];
  const model::LoadSpace& truck = run.world->task.truck;
  const double rest = load.shape == core::LoadShape::Box ? 0.5 * load.box_size_m.z() : load.radius_m;
  const double floor_z = truck.center_m.z() - truck.half_size_m.z();
  return {{load.position_m.x(), load.position_m.y(), load.position_m.z()},
          {truck.center_m.x(), truck.center_m.y(), floor_z + rest},
          truck.center_m.z() + truck.half_size_m.z() + 1.0};
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A batch row's machine parameters: a {"value": ...} entry gets its value replaced, a bare
// number is replaced; the loader then checks the new value's range like any other.
void apply_overrides(nlohmann::json& doc, const tools::SimOptions& opt) {
  for (const auto& [pointer, value] : opt.model_overrides) {
    nlohmann::json::json_pointer at;
    try {
      at = nlohmann::json::json_pointer(pointer);
    } catch (const nlohmann::json::exception&) {
      throw model::ModelError(opt.model_path + ": '" + pointer + "' is not a JSON pointer");
    }
    if (!doc.contains(at))
      throw model::ModelError(opt.model_path + ": no parameter " + pointer);
    nlohmann::json& slot = doc[at];
    if (slot.is_object() && slot.contains("value") && slot["value"].is_number()) {
      slot["value"] = value;
    } else if (slot.is_number()) {
      slot = value;
    } else {
      throw model::ModelError(opt.model_path + ": " + pointer + " is not a number");
    }
  }
}

// Everything that can be wrong with the inputs, checked before the first step.
// Throws ModelError (files) or UsageError (flags that do not fit the files).
Run prepare(const tools::SimOptions& opt) {
  Run run;
  nlohmann::json doc = model::read_json_file(opt.model_path);
  apply_overrides(doc, opt);
  run.machine = model::parse_machine_json(doc, opt.model_path);
  if (opt.thesis_valve) core::use_thesis_valves(run.machine.hydraulics);
  if (!opt.controls_path.empty()) run.script = model::load_control_script(opt.controls_path);
  if (!opt.world.empty()) {
    run.world = model::load_scenario_file(tools::world_path(opt.world), run.machine);
  }
  if (!opt.pick_place.empty()) {
    const auto& loads = run.world->world.loads;
    std::string names;
    for (std::size_t i = 0; i < loads.size(); ++i) {
      if (loads[i].name == opt.pick_place) run.pick_load = static_cast<int>(i);
      names += (i ? ", " : "") + loads[i].name;
    }
    if (run.pick_load < 0)
      throw tools::UsageError("--pick-place: no load '" + opt.pick_place + "' in " + opt.world +
                              " (its loads: " + (names.empty() ? "none" : names) + ")");
    if (!run.world->task.enabled)
      throw tools::UsageError("--pick-place: " + opt.world +
                              " has no task, so no truck to put the load in");
  }

  // the script's pose first (a .ctl keeps its own pose in a world, as on the server)
  if (run.script && run.script->initial()) {
    run.script->check_initial(run.machine);
    run.initial = *run.script->initial();
  } else if (run.world) {
    run.initial = run.world->start;
  } else if (doc.contains("initial")) {
    run.initial = model::parse_initial_conditions(doc, opt.model_path);
  } else {
    throw model::ModelError("no initial pose: " + opt.controls_path +
                            " has no 'initial' line and " + opt.model_path +
                            " has no \"initial\" section (nor is there a --world)");
  }

  if (opt.duration_s) {
    run.duration_s = *opt.duration_s;
  } else if (!run.script) {
    run.duration_s = kPickPlaceLimit_s;   // ends when the operator is done
  } else if (run.script->duration_s()) {
    run.duration_s = *run.script->duration_s();
  } else {
    throw tools::UsageError("--duration is required: " + opt.controls_path +
                            " has no 'duration' line");
  }

  // a row per step at most, or rows would repeat the same state
  const double step_s = run.machine.integrator.step_s;
  if (1.0 / opt.rate_hz < step_s * (1.0 - 1e-9)) {
    throw tools::UsageError("--rate " + model::format_number(opt.rate_hz) +
                            " Hz is finer than the integrator step of " +
                            model::format_number(step_s * 1e3) + " ms (max " +
                            model::format_number(1.0 / step_s) + " Hz)");
  }
  return run;
}

// "  world: rack_gate_hits=0 ...": every event count, from core::kWorldEventFields.
void print_world_summary(const core::State& state) {
  std::string line = "  world:";
  for (const auto& f : core::kWorldEventFields)
    line += std::string(" ") + f.name + "=" + std::to_string(state.world.events.*f.member);
  std::fprintf(stderr, "%s\n", line.c_str());
}

void print_summary(const core::State& state, double simulated_s, double wall_s, long rows) {
  std::fprintf(stderr,
               "clamsim-sim: simulated %.3f s in %.3f s wall (%.1fx real time), %llu steps, "
               "%ld rows\n",
               simulated_s, wall_s, wall_s > 0.0 ? simulated_s / wall_s : INFINITY,
               static_cast<unsigned long long>(state.steps), rows);
  std::string line = "  health:";
  for (const auto& f : core::kHealthFields)
    line += std::string(" ") + f.name + "=" + std::to_string(state.health.*f.member);
  std::fprintf(stderr, "%s\n", line.c_str());
}

// Where the operator's load ended up; false when the errand failed.
bool report_errand(const Run& run, const tools::PickPlacePilot& pilot, const core::State& state) {
  const core::LoadBody& b = state.world.loads[static_cast<std::size_t>(run.pick_load)];
  const bool in_truck = !b.held && model::inside(run.world->task.truck, b.position_m);
  const bool done = pilot.phase() == tools::PickPlacePilot::Phase::Done;
  std::fprintf(stderr, "clamsim-sim: pick-and-place %s (operator: %s); %s at (%.2f, %.2f, %.2f) m, %s\n",
               done && in_truck ? "done" : "FAILED", pilot.phase_name(),
               run.world->world.loads[static_cast<std::size_t>(run.pick_load)].name.c_str(),
               b.position_m.x(), b.position_m.y(), b.position_m.z(),
               in_truck ? "in the truck's load space" : "not in the truck");
  return done && in_truck;
}

// The CSV's stream: standard output for "-", else the file (fully buffered either way);
// null, with a message, when it cannot be written.
std::FILE* open_csv(const std::string& path) {
  std::FILE* csv = path == "-" ? stdout : std::fopen(path.c_str(), "w");
  if (csv == nullptr) {
    std::fprintf(stderr, "clamsim-sim: --csv: cannot write '%s': %s\n", path.c_str(),
                 std::strerror(errno));
    return nullptr;
  }
  static char buffer[1 << 16];
  std::setvbuf(csv, buffer, _IOFBF, sizeof buffer);
  return csv;
}

struct Simulated {
  long rows = 0;        // CSV rows written
  double wall_s = 0.0;  // wall time the dynamics took
  std::string nonfinite;  // "t = 1.250 s: output tip[2]" where the run went NaN/inf, or ""
};

// What of the run is not finite, or "": a step the integrator had to undo (core counts it
// in nonfinite_resets and keeps the last good state, which is no result either), or an
// output about to be written.
std::string nonfinite_in(const core::State& state, const core::Outputs& out) {
  if (state.health.nonfinite_resets != 0)
    return "the integrated state (nonfinite_resets=" +
           std::to_string(state.health.nonfinite_resets) + ")";
  const std::string bad = core::first_nonfinite(out);
  return bad.empty() ? "" : "output " + bad;
}

// Runs the dynamics for the run's duration with a CSV row at every 1/rate. Each row
// interval is cut into chunks of at most one frame and the control is sampled at each
// chunk's start, as the live session samples once per frame. The controls are the script's
// timeline, or the scripted operator's answer to the frame (which ends the run kSettle_s
// after it is done).
Simulated simulate(const Run& run, double rate_hz, core::State& state, const core::Environment& env,
                   std::optional<tools::PickPlacePilot>& pilot, tools::CsvWriter& writer,
                   tools::Progress& progress) {
  const double frame_s = run.machine.integrator.frame_s;
  const long rows = static_cast<long>(std::floor(run.duration_s * rate_hz + 1e-9));
  const long chunks = std::max(1L, static_cast<long>(std::ceil(1.0 / (rate_hz * frame_s) - 1e-9)));
  const double chunk_rate = rate_hz * static_cast<double>(chunks);
  core::Control applied;
  const auto control_at = [&](double t) {
    applied = pilot ? pilot->next(core::outputs(run.machine, state, env), 1.0 / chunk_rate)
                    : run.script->at(t);
    return applied;
  };
  const auto pilot_finished = [&] {
    return pilot && (pilot->phase() == tools::PickPlacePilot::Phase::Done ||
                     pilot->phase() == tools::PickPlacePilot::Phase::Failed);
  };
  double finished_at_s = -1.0;
  Simulated out;
  // a row only when every number in it is finite: a NaN row is no result
  const auto write_row = [&](const core::Control& u) {
    const core::Outputs o = core::outputs(run.machine, state, env);
    const std::string bad = nonfinite_in(state, o);
    if (!bad.empty()) {
      out.nonfinite = "t = " + model::format_number(state.time_s) + " s: " + bad;
      return false;
    }
    writer.row(u, o);
    ++out.rows;
    return true;
  };
  const auto wall_start = std::chrono::steady_clock::now();
  bool finite = write_row(pilot ? applied : run.script->at(0.0));
  for (long k = 1; k <= rows && finite && writer.ok(); ++k) {
    for (long j = 1; j <= chunks; ++j) {
      const long n = (k - 1) * chunks + j;   // chunk number: exact times, no drift
      const core::Control control = control_at(static_cast<double>(n - 1) / chunk_rate);
      core::advance_to(run.machine, state, control, env, static_cast<double>(n) / chunk_rate);
    }
    // the volts that apply from this row on, so a step shows at its own time
    const double t_row = static_cast<double>(k * chunks) / chunk_rate;
    finite = write_row(pilot ? applied : run.script->at(t_row));
    progress.update(state.time_s);
    if (pilot_finished() && finished_at_s < 0.0) finished_at_s = state.time_s;
    if (finished_at_s >= 0.0 && state.time_s >= finished_at_s + kSettle_s) break;
  }
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return out;
}

// Runs `prepare` (which reads the files and the flags) and maps what it refuses to the exit
// status: a bad flag 2, a file that does not load 3 (docs/deploy.md, Exit status). 0 when it
// went through.
template <class Prepare>
int prepared(Prepare&& prepare) {
  try {
    prepare();
  } catch (const tools::UsageError& e) {
    std::fprintf(stderr, "clamsim-sim: %s\n", e.what());
    return kExitUsage;
  } catch (const model::ModelError& e) {
    std::fprintf(stderr, "clamsim-sim: %s\n", e.what());
    return kExitBadModel;
  }
  return 0;
}

// --plot: the figure of the CSV just written; the exit status.
int plot_run(const tools::SimOptions& opt, bool pick_place) {
  // the title names this run: what drove it, in which world, when
  const std::string world = opt.world.empty() ? "empty space" : base_name(opt.world);
  const std::string title =
      (pick_place ? "pick-and-place of " + opt.pick_place : base_name(opt.controls_path)) +
      " in " + world + ", " + tools::utc_minute(static_cast<long long>(std::time(nullptr)));
  const tools::PlotResult plot = tools::draw_plot(
      {opt.csv_path, opt.plot_path,
       "clamsim-sim: " +
           (pick_place ? "pick-and-place of " + opt.pick_place + " in " + base_name(opt.world)
                       : base_name(opt.controls_path)) +
           " on " + base_name(opt.model_path),
       title});
  if (!plot.ok && plot.gnuplot_missing && opt.plot_if_gnuplot) {
    if (!opt.quiet) std::fprintf(stderr, "clamsim-sim: no plot: %s\n", plot.message.c_str());
    return kExitOk;
  }
  if (!plot.ok) {
    std::fprintf(stderr, "clamsim-sim: --plot: %s (the CSV '%s' was written)\n",
                 plot.message.c_str(), opt.csv_path.c_str());
    return kExitFailure;
  }
  if (!opt.quiet) {
    if (!plot.message.empty()) std::fprintf(stderr, "%s\n", plot.message.c_str());
    std::fprintf(stderr, "clamsim-sim: plot written to %s\n", opt.plot_path.c_str());
  }
  return kExitOk;
}

// One run of `opt`; its facts (for a batch summary) in *facts. The exit status.
int run_once(const tools::SimOptions& opt, tools::RunFacts* facts) {
  Run run;
  if (const int status = prepared([&] { run = prepare(opt); }); status != 0) return status;
  std::FILE* csv = open_csv(opt.csv_path);
  if (csv == nullptr) return kExitUsage;

  // without --world: empty space, nothing between the jaws (the experiments of 5.1.1-5.1.2)
  core::Environment env{};
  std::vector<std::string> load_names;
  if (run.world) {
    env.world = &run.world->world;
    for (const core::LoadParams& l : run.world->world.loads) load_names.push_back(l.name);
  }
  core::State state = core::initial_state(run.machine, run.initial);
  if (env.world != nullptr) core::reset_world(*env.world, state.world);
  tools::CsvWriter writer(csv, load_names);
  writer.header();
  std::optional<tools::PickPlacePilot> pilot;
  if (run.pick_load >= 0) {
    const Errand e = errand_for(run);
    pilot.emplace(run.machine, e.from, e.to, e.carry_z);
  }
  tools::Progress progress(tools::Progress::detect(opt.quiet), run.duration_s);
  const Simulated done = simulate(run, opt.rate_hz, state, env, pilot, writer, progress);
  progress.finish();
  if (facts != nullptr) {
    facts->simulated_s = state.time_s;
    facts->wall_s = done.wall_s;
    facts->health.clear();
    for (const auto& f : core::kHealthFields)
      facts->health.emplace_back(f.name, state.health.*f.member);
  }

  bool ok = writer.ok() && std::fflush(csv) == 0;
  if (csv != stdout && std::fclose(csv) != 0) ok = false;
  if (!ok) {
    std::fprintf(stderr, "clamsim-sim: writing '%s' failed: %s\n", opt.csv_path.c_str(),
                 std::strerror(errno));
    return kExitFailure;
  }
  if (!done.nonfinite.empty()) {  // printed with --quiet too: the CSV stops short
    std::fprintf(stderr,
                 "clamsim-sim: the run went non-finite at %s; stopped, '%s' holds the %ld rows "
                 "before it (check the machine file's numbers)\n",
                 done.nonfinite.c_str(), opt.csv_path.c_str(), done.rows);
    return kExitFailure;
  }
  if (!opt.quiet) {
    print_summary(state, state.time_s, done.wall_s, done.rows);
    if (run.world) print_world_summary(state);
  }
  if (pilot && !report_errand(run, *pilot, state)) return kExitFailure;
  if (!opt.plot_path.empty()) return plot_run(opt, pilot.has_value());
  return kExitOk;
}

// What --chirp sweeps from: the machine, the --controls script that runs first (if any),
// the start pose, and how long the script runs before the sweep.
struct ChirpStart {
  core::MachineParams machine;
  std::optional<model::ControlScript> script;
  core::InitialConditions initial;
  double prelude_s = 0.0;
};

// The machine file and the --controls script read and checked into `c`; the exit status.
int prepare_chirp(const tools::SimOptions& opt, ChirpStart& c) {
  return prepared([&] {
    const nlohmann::json doc = model::read_json_file(opt.model_path);
    c.machine = model::parse_machine_json(doc, opt.model_path);
    if (opt.thesis_valve) core::use_thesis_valves(c.machine.hydraulics);
    if (!opt.controls_path.empty()) c.script = model::load_control_script(opt.controls_path);
    if (c.script && c.script->initial()) {
      c.script->check_initial(c.machine);
      c.initial = *c.script->initial();
    } else if (doc.contains("initial")) {
      c.initial = model::parse_initial_conditions(doc, opt.model_path);
    } else {
      throw model::ModelError("no initial pose: " + opt.model_path +
                              " has no \"initial\" section (nor a --controls 'initial' line)");
    }
    if (c.script) {
      if (opt.duration_s) {
        c.prelude_s = *opt.duration_s;
      } else if (c.script->duration_s()) {
        c.prelude_s = *c.script->duration_s();
      } else {
        throw tools::UsageError("--duration is required: " + opt.controls_path +
                                " has no 'duration' line (how long it runs before the sweep)");
      }
    }
  });
}

// The operating point: `state` moved on by the script, sampled once a frame as a run samples
// it; returns the script's last volts, which hold the channels the sweep leaves alone (none
// without a script).
core::Control operating_point(const ChirpStart& c, const core::Environment& env,
                              core::State& state) {
  core::Control hold;
  if (c.script) {
    const double frame_s = c.machine.integrator.frame_s;
    const long frames = static_cast<long>(std::ceil(c.prelude_s / frame_s - 1e-9));
    for (long k = 0; k < frames; ++k)
      core::advance_to(c.machine, state, c.script->at(static_cast<double>(k) * frame_s), env,
                       std::min(c.prelude_s, static_cast<double>(k + 1) * frame_s));
    hold = c.script->at(c.prelude_s);
  }
  return hold;
}

tools::ChirpRequest chirp_request(const tools::SimOptions& opt) {
  tools::ChirpRequest request;
  request.channel = *tools::chirp_channel(opt.chirp);
  request.amplitude_V = opt.chirp_amplitude_V;
  request.offset_V = opt.chirp_offset_V;
  request.from_Hz = opt.chirp_from_Hz;
  request.to_Hz = opt.chirp_to_Hz;
  request.tones = opt.chirp_tones;
  return request;
}

// The sweep on stderr: its tones and times, the lowest tone against the reference, and for
// a winch where the tension peaks against the grab's bounce on its rope.
void print_chirp_summary(const tools::SimOptions& opt, const tools::ChirpRequest& request,
                         const tools::ChirpResult& result, const tools::ChirpReference& ref,
                         double prelude_s, double wall_s, double bounce_Hz) {
  const tools::ChirpTone& low = result.tones.front();
  std::fprintf(stderr,
               "clamsim-sim: %s sweep, %zu tones %.3g-%.3g Hz, %.1f s simulated (%.1f s before "
               "it) in %.2f s wall\n"
               "  %s at %.3g Hz: gain %.4g %s (velocity source: %.4g), phase %.1f deg "
               "(spool lag %.2f s: %.1f deg)\n",
               opt.chirp.c_str(), result.tones.size(), request.from_Hz, request.to_Hz,
               result.simulated_s, prelude_s, wall_s, tools::chirp_response_name(request.channel).c_str(),
               low.frequency_Hz, low.gain, tools::chirp_gain_unit(request.channel),
               ref.low_frequency_gain, low.phase_deg, ref.spool_lag_s, low.reference_phase_deg);
  if (request.channel >= 3)
    std::fprintf(stderr,
                 "  tension per rope speed peaks at %.3g Hz; the grab on this rope alone "
                 "bounces at %.3g Hz (sqrt(EA/(L m))/2 pi)\n",
                 tools::tension_peak_Hz(result.tones), bounce_Hz);
}

// --plot: the Bode plot of the table just written; the exit status.
int plot_chirp(const tools::SimOptions& opt, int channel, bool after_script, double bounce_Hz) {
  const std::string note = "clamsim-sim --chirp " + opt.chirp + " on " + base_name(opt.model_path) +
                           ", " + model::format_number(opt.chirp_offset_V) + " +- " +
                           model::format_number(opt.chirp_amplitude_V) + " V" +
                           (after_script ? ", after " + base_name(opt.controls_path) : std::string());
  const tools::PlotResult plot = tools::run_gnuplot(
      tools::chirp_gnuplot_script(opt.csv_path, opt.plot_path, channel, note, bounce_Hz),
      opt.plot_path);
  if (!plot.ok) {
    std::fprintf(stderr, "clamsim-sim: --plot: %s (the CSV '%s' was written)\n",
                 plot.message.c_str(), opt.csv_path.c_str());
    return kExitFailure;
  }
  if (!opt.quiet) std::fprintf(stderr, "clamsim-sim: plot written to %s\n", opt.plot_path.c_str());
  return kExitOk;
}

// --chirp: the operating point (the machine file's start pose, or --controls run first),
// then the stepped sine; the Bode table and plot. The exit status.
int run_chirp_cli(const tools::SimOptions& opt) {
  ChirpStart c;
  const int status = prepare_chirp(opt, c);
  if (status != 0) return status;

  const auto wall_start = std::chrono::steady_clock::now();
  const core::Environment env{};
  core::State state = core::initial_state(c.machine, c.initial);
  const core::Control hold = operating_point(c, env, state);
  const tools::ChirpRequest request = chirp_request(opt);
  const bool winch = request.channel >= 3;
  const double bounce_Hz = winch ? tools::rope_bounce_Hz(c.machine, state, request.channel - 3) : NAN;
  const tools::ChirpReference ref =
      tools::chirp_reference(c.machine, request, state.x(core::ix::q + 1) - M_PI / 2.0);
  const tools::ChirpResult result = tools::run_chirp(c.machine, state, hold, request);
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (!result.finite) {
    std::fprintf(stderr, "clamsim-sim: the sweep went non-finite at %s; stopped, no table "
                         "written (check the machine file's numbers)\n", result.what.c_str());
    return kExitFailure;
  }
  if (!tools::write_chirp_csv(opt.csv_path, request.channel, result.tones)) {
    std::fprintf(stderr, "clamsim-sim: --csv: cannot write '%s': %s\n", opt.csv_path.c_str(),
                 std::strerror(errno));
    return kExitUsage;
  }
  if (!opt.quiet) print_chirp_summary(opt, request, result, ref, c.prelude_s, wall_s, bounce_Hz);
  if (opt.plot_path.empty()) return kExitOk;
  return plot_chirp(opt, request.channel, c.script.has_value(), bounce_Hz);
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text + ",") {
    if (c != ',') {
      item += c;
    } else if (!item.empty()) {
      out.push_back(item);
      item.clear();
    }
  }
  return out;
}

// --batch: row N of the table into OUT/run-NNNN/, with its summary.json; or --merge.
int run_batch(const tools::SimOptions& opt) {
  std::optional<tools::BatchTable> table;
  std::size_t index = 0;
  try {
    table = tools::BatchTable::read(opt.batch_path);
    if (opt.merge) return tools::merge_batch(*table, opt.out_dir, split_commas(*opt.merge));
    index = tools::batch_index(opt.batch_index, table->rows());
  } catch (const tools::UsageError& e) {
    std::fprintf(stderr, "clamsim-sim: %s\n", e.what());
    return kExitUsage;
  }
  const std::string dir = tools::run_dir(opt.out_dir, index);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "clamsim-sim: --out: cannot create %s: %s\n", dir.c_str(),
                 ec.message().c_str());
    return kExitUsage;
  }
  tools::RunFacts facts;
  facts.exit_status = run_once(table->options(index, opt, dir), &facts);
  if (!tools::write_summary(*table, index, dir, facts)) return kExitFailure;
  if (!opt.quiet)
    std::fprintf(stderr, "clamsim-sim: row %zu of %s: exit %d, %s\n", index,
                 opt.batch_path.c_str(), facts.exit_status, dir.c_str());
  return facts.exit_status;
}

int run_main(int argc, char** argv) {
  tools::SimOptions opt;
  try {
    opt = tools::parse_sim_options(argc, argv);
  } catch (const tools::UsageError& e) {
    std::fprintf(stderr, "clamsim-sim: %s\n", e.what());
    return kExitUsage;
  }
  if (opt.help) {
    std::fputs(tools::sim_usage(), stdout);
    std::fputs(("\n" + cli::exit_codes_help()).c_str(), stdout);
    return kExitOk;
  }
  if (!opt.batch_path.empty()) return run_batch(opt);
  if (!opt.chirp.empty()) return run_chirp_cli(opt);
  if (!opt.replay_path.empty())
    return tools::run_replay({opt.replay_path, opt.verify, opt.csv_path, opt.plot_path,
                              opt.models_dir, opt.scenarios_dir, opt.quiet});
  return run_once(opt, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  // a closed pipe (| head) must fail a write, not kill the process mid-file
  std::signal(SIGPIPE, SIG_IGN);
  if (cli::print_version_if_asked(argc, argv, "clamsim-sim")) return kExitOk;
  try {
    return run_main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clamsim-sim: %s\n", e.what());
    return kExitFailure;
  }
}
