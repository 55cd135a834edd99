#include "tools/csv_table.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace clamsim::tools {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    cells.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return cells;
    start = comma + 1;
  }
}

}  // namespace

CsvTable CsvTable::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path);
}

CsvTable CsvTable::parse(const std::string& text, const std::string& source) {
  CsvTable t;
  std::istringstream in(text);
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> cells = split(line);
    if (t.header_.empty()) {
      t.header_ = std::move(cells);
      continue;
    }
    if (cells.size() > t.header_.size())
      throw std::runtime_error(source + ":" + std::to_string(number) + ": " +
                               std::to_string(cells.size()) + " cells, the header names " +
                               std::to_string(t.header_.size()));
    t.rows_.push_back(std::move(cells));
  }
  if (t.header_.empty()) throw std::runtime_error(source + ": empty, no header line");
  return t;
}

int CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return static_cast<int>(i) + 1;
  return 0;
}

const std::string& CsvTable::text(std::size_t row, const std::string& name) const {
  static const std::string empty;
  const int c = column(name);
  if (c == 0) throw std::out_of_range("no CSV column '" + name + "'");
  const auto& cells = rows_.at(row);
  return static_cast<std::size_t>(c) <= cells.size() ? cells[static_cast<std::size_t>(c) - 1] : empty;
}

double CsvTable::number(std::size_t row, const std::string& name) const {
  const std::string& s = text(row, name);
  if (s.empty()) return NAN;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() ? v : NAN;
}

}  // namespace clamsim::tools
