// The offline simulator's CSV table: one column list shared by the writer and the plot,
// so a column's name and its number can never disagree.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

#include "core/state.h"

namespace clamsim::tools {

// Names carry their unit ("swing_deg", "T1_N"); the full list is in docs/offline-simulator.md.
std::size_t csv_column_count();
const char* csv_column_name(std::size_t index);
// 1-based column number as gnuplot counts; throws std::out_of_range for an unknown name.
int csv_column_number(const std::string& name);
// The header line, without the newline.
std::string csv_header();

// Writes rows to a C stream (buffered; the caller owns and closes it).
class CsvWriter {
 public:
  explicit CsvWriter(std::FILE* out) : out_(out) {}
  void header();
  void row(const core::Control& control, const core::Outputs& out);
  // False once any write failed (disk full, closed pipe).
  bool ok() const { return ok_; }

 private:
  std::FILE* out_;
  bool ok_ = true;
};

}  // namespace clamsim::tools
