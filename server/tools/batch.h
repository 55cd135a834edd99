// clamsim-sim --batch: one row of a run table is one offline run, so any engine (a
// Kubernetes Indexed Job, a Slurm job array, scripts/batch-run.sh on one machine) fans a
// sweep out by the row index alone (docs/scaling.md, "Batch runs").
//
// The table is a CSV whose header names its columns:
//   name       a label for the run (optional)
//   model      machine file (required)
//   controls   control script, or
//   world, pick_place   a world and the load the scripted operator takes (--pick-place)
//   world      also alone, with controls
//   duration   simulated seconds (optional; else the script's)
//   valve      model | thesis (optional)
//   /a/b/c     a JSON pointer into the machine file: that parameter's value for this run
//              (a {"value": ...} entry gets its value replaced), e.g.
//              /hydraulics/winches/main_hoist/rope_EA_N
// Run N writes OUT/run-NNNN/: run.csv, run.png and summary.json (the row, the exit status,
// the health counters and min/max/final of every numeric column of run.csv).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tools/csv_table.h"
#include "tools/sim_options.h"

namespace clamsim::tools {

class BatchTable {
 public:
  // Reads and checks the whole table (every row, so a bad row fails the first task, not
  // the one that draws it). Throws UsageError naming the file, the line and the column.
  static BatchTable read(const std::string& path);

  std::size_t rows() const { return table_.rows(); }
  const std::vector<std::string>& header() const { return table_.header(); }
  const std::string& cell(std::size_t row, const std::string& column) const {
    return table_.text(row, column);
  }
  // The options of row `index`: `base`'s --rate and --quiet, the rest from the row; the
  // outputs in `dir`.
  SimOptions options(std::size_t index, const SimOptions& base, const std::string& dir) const;
  // The JSON-pointer columns, in table order.
  std::vector<std::string> parameters() const;

 private:
  std::string path_;
  CsvTable table_;
};

// The row to run: --index when given, else JOB_COMPLETION_INDEX (Kubernetes Indexed Job),
// else SLURM_ARRAY_TASK_ID. Throws UsageError when none is set, or it is not a row.
std::size_t batch_index(std::optional<long> flag, std::size_t rows);

// OUT/run-0007 for index 7.
std::string run_dir(const std::string& out, std::size_t index);

// What a run leaves beside its CSV, for the merge.
struct RunFacts {
  int exit_status = 0;
  double simulated_s = 0.0;
  double wall_s = 0.0;
  std::vector<std::pair<std::string, unsigned long long>> health;  // name, count
};

// Writes dir/summary.json from the row, the facts and dir/run.csv (when it was written).
// False, with a message on stderr, when it cannot.
bool write_summary(const BatchTable& table, std::size_t index, const std::string& dir,
                   const RunFacts& facts);

// Every row's summary into OUT/summary.csv (index, name, status, the parameters, then
// COLUMN_min/_max/_final of each run's CSV) and OUT/summary.png: each metric in `metrics`
// (e.g. "T1_N_max") against the table's first parameter. Runs that left no
// summary are listed with status "missing". Returns the exit status: 0 every run there
// and ok, 1 some missing or failed or the plot failed.
int merge_batch(const BatchTable& table, const std::string& out,
                const std::vector<std::string>& metrics);

}  // namespace clamsim::tools
