#include "tools/sim_options.h"

#include <charconv>
#include <cmath>

#include "model/machine_file.h"

namespace clamsim::tools {
namespace {

double any_number(const std::string& flag, const std::string& text) {
  double v = 0.0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr != last || !std::isfinite(v)) {
    throw UsageError(flag + ": '" + text + "' is not a number");
  }
  return v;
}

double positive_number(const std::string& flag, const std::string& text) {
  const double v = any_number(flag, text);
  if (v <= 0.0) throw UsageError(flag + ": must be positive, got " + text);
  return v;
}

std::string channel_names() {
  std::string out;
  for (const char* n : model::kChannelNames) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// --batch takes the run from the table: the flags that say what to run do not go with it.
void check_batch(const cli::Args& a, const SimOptions& o) {
  if (o.batch_path.empty()) throw UsageError("--index, --out and --merge go with --batch TABLE");
  if (o.out_dir.empty()) throw UsageError("--batch needs --out DIR");
  if (o.merge && o.batch_index) throw UsageError("--merge reads every run: no --index");
  for (const char* f : {"--model", "--controls", "--csv", "--duration", "--plot", "--world",
                        "--pick-place", "--valve", "--chirp"})
    if (a.has(f)) throw UsageError(std::string(f) + " comes from the table's row with --batch");
}

// --replay takes the machine, world and inputs from the recording.
void check_replay(const cli::Args& a, const SimOptions& o) {
  for (const char* f : {"--model", "--controls", "--duration", "--rate", "--world",
                        "--pick-place", "--valve", "--batch", "--index", "--out", "--merge",
                        "--chirp"})
    if (a.has(f)) throw UsageError(std::string(f) + " does not go with --replay (the recording names its machine, world and inputs)");
  if (!o.verify && o.csv_path.empty()) throw UsageError("--replay needs --verify or --csv OUT (or both)");
  if (!o.plot_path.empty() && (o.csv_path.empty() || o.csv_path == "-"))
    throw UsageError("--plot needs --csv to name a file");
}

// --chirp: its own flags fit together; the flags of a timed run do not go with it.
void check_chirp(const cli::Args& a, const SimOptions& o) {
  constexpr const char* kChirpFlags[] = {"--chirp-amplitude", "--chirp-offset", "--chirp-from",
                                         "--chirp-to", "--chirp-tones"};
  if (o.chirp.empty()) {
    for (const char* f : kChirpFlags)
      if (a.has(f)) throw UsageError(std::string(f) + " goes with --chirp CHANNEL");
    return;
  }
  for (const char* f : {"--pick-place", "--world", "--rate", "--batch", "--index", "--out",
                        "--merge", "--replay"})
    if (a.has(f))
      throw UsageError(std::string(f) + " does not go with --chirp (the sweep runs in empty "
                       "space, a row per tone)");
  if (a.has("--duration") && o.controls_path.empty())
    throw UsageError("--duration with --chirp is the length of the --controls script run "
                     "before the sweep: give --controls FILE");
  const double peak = std::abs(o.chirp_offset_V) + o.chirp_amplitude_V;
  if (peak > 5.0 + 1e-12)
    throw UsageError("--chirp-offset and --chirp-amplitude reach " + model::format_number(peak) +
                     " V, past full stick: |offset| + amplitude must be at most 5 V");
  if (!(o.chirp_from_Hz < o.chirp_to_Hz))
    throw UsageError("--chirp-from must be below --chirp-to");
  if (o.chirp_to_Hz > 50.0)
    throw UsageError("--chirp-to: at most 50 Hz (the 20 Hz frames and the integrator's "
                     "steps resolve no more)");
  if (o.csv_path.empty()) throw UsageError("--chirp needs --csv OUT for its Bode table");
  if (!o.plot_path.empty() && o.csv_path == "-")
    throw UsageError("--plot needs --csv to name a file, not '-'");
}

// One valued flag as given on the command line, into its field (checked as it goes).
void read_value(const cli::Args& a, const std::string& arg, const std::string& value,
                SimOptions& o) {
  if (value.empty()) throw UsageError(arg + " needs a value");
  if (arg == "--model") {
    o.model_path = value;
  } else if (arg == "--controls") {
    o.controls_path = value;
  } else if (arg == "--csv") {
    o.csv_path = value;
  } else if (arg == "--duration") {
    o.duration_s = positive_number(arg, value);
  } else if (arg == "--rate") {
    o.rate_hz = positive_number(arg, value);
  } else if (arg == "--plot") {
    if (!ends_with(value, ".svg") && !ends_with(value, ".png")) {
      throw UsageError("--plot: '" + value + "' must end in .svg or .png");
    }
    o.plot_path = value;
  } else if (arg == "--world") {
    o.world = value;
  } else if (arg == "--pick-place") {
    o.pick_place = value;
  } else if (arg == "--batch") {
    o.batch_path = value;
  } else if (arg == "--index") {
    o.batch_index = a.integer("--index", 0, 1000000000);
  } else if (arg == "--out") {
    o.out_dir = value;
  } else if (arg == "--merge") {
    o.merge = value;
  } else if (arg == "--replay") {
    o.replay_path = value;
  } else if (arg == "--models-dir") {
    o.models_dir = value;
  } else if (arg == "--scenarios-dir") {
    o.scenarios_dir = value;
  } else if (arg == "--chirp") {
    bool known = false;
    for (const char* n : model::kChannelNames) known = known || value == n;
    if (!known)
      throw UsageError("--chirp: '" + value + "' is not a channel (" + channel_names() + ")");
    o.chirp = value;
  } else if (arg == "--chirp-amplitude") {
    o.chirp_amplitude_V = positive_number(arg, value);
  } else if (arg == "--chirp-offset") {
    o.chirp_offset_V = any_number(arg, value);
  } else if (arg == "--chirp-from") {
    o.chirp_from_Hz = positive_number(arg, value);
  } else if (arg == "--chirp-to") {
    o.chirp_to_Hz = positive_number(arg, value);
  } else if (arg == "--chirp-tones") {
    o.chirp_tones = static_cast<int>(a.integer("--chirp-tones", 2, 200).value());
  } else if (arg == "--valve") {
    if (value != "model" && value != "thesis")
      throw UsageError("--valve: '" + value + "' is not a valve law (model, thesis)");
    o.thesis_valve = value == "thesis";
  }
}

// What a run needs, by its kind (a replay, a sweep, a batch, a timed or scripted run); the
// kind's own check says what does not go with it.
void check_run(const cli::Args& a, const SimOptions& o) {
  if (!o.replay_path.empty()) {
    check_replay(a, o);
    return;
  }
  if (o.verify) throw UsageError("--verify goes with --replay FILE");
  check_chirp(a, o);
  if (!o.chirp.empty()) {
    if (o.model_path.empty()) throw UsageError("--model is required (see --help)");
    return;
  }
  if (!o.batch_path.empty() || !o.out_dir.empty() || o.batch_index || o.merge) {
    check_batch(a, o);
    return;
  }
  if (o.model_path.empty()) throw UsageError("--model is required (see --help)");
  if (!o.pick_place.empty()) {
    if (!o.controls_path.empty()) throw UsageError("--pick-place replaces --controls: give one");
    if (o.world.empty()) throw UsageError("--pick-place needs --world (where the load is)");
  } else if (o.controls_path.empty()) {
    throw UsageError("--controls is required (see --help)");
  }
  if (o.csv_path.empty()) throw UsageError("--csv is required (see --help)");
  if (!o.plot_path.empty() && o.csv_path == "-") {
    throw UsageError("--plot needs --csv to name a file, not '-'");
  }
}

}  // namespace

const char* sim_usage() {
  return R"(Usage: clamsim-sim --model FILE --controls FILE --csv OUT [options]
       clamsim-sim --model FILE --world NAME --pick-place LOAD --csv OUT [options]

Runs the crane and clam dynamics offline, as fast as the machine allows, driven by a
timed control script (or by a scripted operator: --pick-place), and writes one CSV row
per output interval.

Required:
  --model FILE       machine file, e.g. models/t250.json
  --controls FILE    control script, e.g. config/scenarios/exp_5_1_1_clam_steps.ctl
                     (format: docs/control-script.md)
  --csv OUT          CSV output file; '-' writes to standard output

Options:
  --duration SEC     simulated time [s]; default: the script's 'duration' line
  --rate HZ          CSV rows per simulated second (default 100); at most one row per
                     integrator step
  --plot OUT         also draw the run with gnuplot; OUT ends in .svg or .png
  --world NAME|FILE  run in a scenario's world (the dam, the water, the loads; format:
                     docs/scenario-file.md): NAME is config/scenarios/NAME.json; the
                     CSV gains each load's position and whether it is held
  --pick-place LOAD  experiment 5.1.3 without a joystick: a scripted operator, who sees
                     only the frames, takes the world's load LOAD (e.g. log3) into the
                     truck of the world's task; needs --world, replaces --controls; the
                     run ends 5 s after the operator is done (or at --duration)
  --valve LAW        'model' (default): the machine file's valves; 'thesis': the
                     valves as the thesis published them, every centre bypass linear
                     in the stroke (eq 2.23) and no counterbalance valves; the 5.1.1
                     script's steps were tuned on them
  --quiet            no progress and no summary on stderr
  --help             this text

Batch runs (docs/scaling.md): one row of a run table per run, the same entry point for a
Kubernetes Indexed Job, a Slurm job array and scripts/batch-run.sh:
  --batch TABLE      a CSV of runs: columns name, model, controls | world + pick_place,
                     duration, valve, and /json/pointer machine-file parameters
  --index N          the row to run (0-based); default JOB_COMPLETION_INDEX, else
                     SLURM_ARRAY_TASK_ID
  --out DIR          the run writes DIR/run-NNNN/run.csv, run.png and summary.json
  --merge M[,M...]   instead of a run: every run's summary into DIR/summary.csv and a
                     plot, DIR/summary.png, of each metric M (a run CSV column with
                     _min, _max or _final, e.g. T1_N_max) against the
                     table's first parameter
  --version          print the version and exit

Session recordings (docs/recording.md):
  --replay FILE      re-simulate a server's recording (.mcap) from its inputs, with the
                     model and world files it names (their SHA-256 and the build must
                     match); with --csv OUT (and --plot OUT) its table and figures
  --verify           compare every recorded frame bit for bit: prints 'verified N
                     frames', or names the first frame and field that differ (exit 1)
  --models-dir DIR   where the recording's model file is (default models)
  --scenarios-dir DIR  where its world file is (default config/scenarios)

Frequency response (docs/validation.md):
  --chirp CHANNEL    instead of a timed run, a logarithmic sine sweep on one channel
                     (swing, boom, telescope, main_hoist, aux_hoist) as stepped dwell
                     tones; --csv OUT gets gain and phase against frequency, --plot OUT
                     the Bode plot. The response: the swing or boom rate, the telescope
                     rate, the rope speed (and for a winch the rope tension per rope
                     speed). --controls FILE, if given, runs first (the operating point;
                     its last volts hold the other channels)
  --chirp-amplitude V  the sine's amplitude (default 5)
  --chirp-offset V   its centre (default 0); |offset| + amplitude <= 5
  --chirp-from HZ    lowest tone (default 0.05)
  --chirp-to HZ      highest tone (default 5, at most 50)
  --chirp-tones N    tones, log-spaced, both ends included (default 20, 2..200)

The initial pose comes from the script's 'initial' line, else the world's "start"
(with --world), else the machine file's "initial" section.
)";
}

SimOptions parse_sim_options(int argc, const char* const* argv) {
  cli::FlagSet flags;
  flags.valued = {"--model", "--controls", "--csv",        "--duration", "--rate",
                  "--plot",  "--world",    "--pick-place", "--valve",
                  "--batch", "--index",    "--out",        "--merge",
                  "--replay", "--models-dir", "--scenarios-dir",
                  "--chirp", "--chirp-amplitude", "--chirp-offset", "--chirp-from",
                  "--chirp-to", "--chirp-tones"};
  flags.switches = {"--help", "-h", "--quiet", "-q", "--verify"};
  const cli::Args a(argc, argv, flags);
  SimOptions o;
  o.help = a.has("--help") || a.has("-h");
  o.quiet = a.has("--quiet") || a.has("-q");
  o.verify = a.has("--verify");
  for (const auto& [arg, value] : a.given()) read_value(a, arg, value, o);
  if (o.help) return o;
  check_run(a, o);
  return o;
}

std::string world_path(const std::string& world) {
  if (world.find('/') != std::string::npos || ends_with(world, ".json")) return world;
  return "config/scenarios/" + world + ".json";
}

}  // namespace clamsim::tools
