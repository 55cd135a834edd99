// A run's CSV read back for plotting: clamsim-sim's table or the receiver's frame record.
// Columns are found by their header name, never by position, so the two files (and older
// or newer column sets) plot through the same code.
#pragma once

#include <string>
#include <vector>

namespace clamsim::tools {

class CsvTable {
 public:
  // Reads a comma-separated file whose first line names the columns. Cells are not
  // quoted (neither writer quotes). Throws std::runtime_error naming the file and line
  // when it cannot be read, has no header, or a row has more cells than the header.
  static CsvTable read(const std::string& path);
  // The same from text (tests); `source` names it in errors.
  static CsvTable parse(const std::string& text, const std::string& source);

  const std::vector<std::string>& header() const { return header_; }
  std::size_t rows() const { return rows_.size(); }
  // 1-based column number as gnuplot counts; 0 when there is no such column.
  int column(const std::string& name) const;
  bool has(const std::string& name) const { return column(name) > 0; }
  // A cell's text ("" when the row is short); `name` must exist.
  const std::string& text(std::size_t row, const std::string& name) const;
  // A cell as a number; NaN when empty or not a number.
  double number(std::size_t row, const std::string& name) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace clamsim::tools
