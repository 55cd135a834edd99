// Command line of clamsim-sim, the offline simulator.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli/args.h"
#include "core/params.h"

namespace clamsim::tools {

struct SimOptions {
  std::string model_path;               // --model: machine file (models/*.json)
  std::string controls_path;            // --controls: control script (config/scenarios/*.ctl)
  std::string csv_path;                 // --csv: output table, "-" for stdout
  std::optional<double> duration_s;     // --duration; else the script's "duration" line
  double rate_hz = 100.0;               // --rate: CSV rows per simulated second
  std::string plot_path;                // --plot: .svg or .png, empty for none
  bool plot_if_gnuplot = false;         // a missing gnuplot is no failure (a batch run
                                        // in the image, which has none)
  std::string world;                    // --world: scenario name or file, empty for none
  std::string pick_place;               // --pick-place: a load the scripted operator takes
                                        // to the world's truck (instead of --controls)
  bool thesis_valve = false;            // --valve thesis: eq 2.23's linear bypass
  bool quiet = false;                   // --quiet: no progress, no summary
  bool help = false;                    // --help: print usage, run nothing
  // machine-file parameters replaced before loading: JSON pointer, value (a batch row)
  std::vector<std::pair<std::string, double>> model_overrides;

  // --batch TABLE (tools/batch.h): the run comes from a row of TABLE
  std::string batch_path;
  std::optional<long> batch_index;      // --index; else JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID
  std::string out_dir;                  // --out: where run-NNNN/ go
  std::optional<std::string> merge;     // --merge METRIC[,METRIC]: merge the runs' summaries

  // --replay FILE (tools/replay.h): re-simulate a session recording
  std::string replay_path;
  bool verify = false;                  // --verify: every recorded frame bit for bit
  std::string models_dir = "models";    // --models-dir: where the recording's model is
  std::string scenarios_dir = "config/scenarios";   // --scenarios-dir: and its world

  // --chirp CHANNEL (tools/chirp.h): a stepped-sine frequency response of one channel; the
  // CSV is its Bode table, --plot its Bode plot. --controls, if given, runs first and sets
  // the operating point (its last volts hold the other channels during the sweep).
  std::string chirp;                    // a machine-file channel name (model::kChannelNames)
  double chirp_amplitude_V = core::kFullStick_V;       // --chirp-amplitude
  double chirp_offset_V = 0.0;          // --chirp-offset
  double chirp_from_Hz = 0.05;          // --chirp-from
  double chirp_to_Hz = 5.0;             // --chirp-to
  int chirp_tones = 20;                 // --chirp-tones: log-spaced dwell tones
};

using cli::UsageError;   // a bad command line (the one reader's, cli/args.h)

// Accepts "--flag value" and "--flag=value" (cli::Args). Throws UsageError.
// (--world is kept as given; world_path() resolves it.)
SimOptions parse_sim_options(int argc, const char* const* argv);

const char* sim_usage();

// --world's file: NAME means config/scenarios/NAME.json under the working directory (as
// the server's catalog names them); anything with a '/' or ending in .json is a path.
std::string world_path(const std::string& world);

}  // namespace clamsim::tools
