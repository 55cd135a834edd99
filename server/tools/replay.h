// clamsim-sim --replay FILE: re-simulates a session recording (docs/recording.md) from its
// inputs, its model file and its world, through the live session's own FrameStepper.
// --verify compares every recorded frame bit for bit; --csv/--plot write the run's table
// and the chapter-5 figures.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace clamsim::tools {

struct ReplayOptions {
  std::string path;                          // the recording
  bool verify = false;
  std::string csv_path, plot_path;           // "" = none
  std::string models_dir = "models";
  std::string scenarios_dir = "config/scenarios";
  bool quiet = false;
};

// The exit status: 0 verified (or written), 1 a frame differs or the recording was made
// by another model file, world or build, 3 the recording cannot be read.
int run_replay(const ReplayOptions& options);

}  // namespace clamsim::tools
