// Command line of clamsim-sim, the offline simulator.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "cli/args.h"

namespace clamsim::tools {

struct SimOptions {
  std::string model_path;               // --model: machine file (models/*.json)
  std::string controls_path;            // --controls: control script (config/scenarios/*.ctl)
  std::string csv_path;                 // --csv: output table, "-" for stdout
  std::optional<double> duration_s;     // --duration; else the script's "duration" line
  double rate_hz = 100.0;               // --rate: CSV rows per simulated second
  std::string plot_path;                // --plot: .svg or .png, empty for none
  std::string world;                    // --world: scenario name or file, empty for none
  std::string pick_place;               // --pick-place: a load the scripted operator takes
                                        // to the world's truck (instead of --controls)
  bool thesis_valve = false;            // --valve thesis: eq 2.23's linear bypass
  bool quiet = false;                   // --quiet: no progress, no summary
  bool help = false;                    // --help: print usage, run nothing
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
