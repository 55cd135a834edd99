// The offline simulator's CSV table: one column list shared by the writer and the plot,
// so a column's name and its number can never disagree.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/state.h"

namespace clamsim::tools {

// Names carry their unit ("swing_deg", "T1_N"); the full list is in docs/offline-simulator.md.
// These are the fixed columns; a run in a world appends four per load (csv_load_columns).
std::size_t csv_column_count();
const char* csv_column_name(std::size_t index);
// 1-based column number as gnuplot counts; throws std::out_of_range for an unknown name.
int csv_column_number(const std::string& name);
// The header line of the fixed columns, without the newline.
std::string csv_header();
// A load's columns, after the fixed ones: "<name>_x_m,<name>_y_m,<name>_z_m,<name>_held".
std::string csv_load_columns(const std::string& load_name);

// Writes rows to a C stream (buffered; the caller owns and closes it).
class CsvWriter {
 public:
  // load_names: the world's loads, in order (none without a world).
  explicit CsvWriter(std::FILE* out, std::vector<std::string> load_names = {})
      : out_(out), load_names_(std::move(load_names)) {}
  void header();
  void row(const core::Control& control, const core::Outputs& out);
  // False once any write failed (disk full, closed pipe).
  bool ok() const { return ok_; }

 private:
  std::FILE* out_;
  std::vector<std::string> load_names_;
  bool ok_ = true;
};

}  // namespace clamsim::tools
