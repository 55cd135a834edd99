#include "tools/csv_writer.h"

#include <array>
#include <stdexcept>

namespace clamsim::tools {
namespace {

struct Sample {
  const core::Control& control;
  const core::Outputs& out;
};

// A column is a number or a text; exactly one of the two readers is set.
struct Column {
  const char* name;
  double (*number)(const Sample&);
  const char* (*text)(const Sample&);
};

// clang-format off
const std::array<Column, 34> kColumns = {{
  {"time_s",             [](const Sample& s) { return s.out.time_s; }, nullptr},
  {"swing_V",            [](const Sample& s) { return s.control.volts[0]; }, nullptr},
  {"boom_V",             [](const Sample& s) { return s.control.volts[1]; }, nullptr},
  {"telescope_V",        [](const Sample& s) { return s.control.volts[2]; }, nullptr},
  {"hoist1_V",           [](const Sample& s) { return s.control.volts[3]; }, nullptr},
  {"hoist2_V",           [](const Sample& s) { return s.control.volts[4]; }, nullptr},
  // DisplayData, Table 4.1 order
  {"swing_deg",          [](const Sample& s) { return s.out.display[0]; }, nullptr},
  {"boom_deg",           [](const Sample& s) { return s.out.display[1]; }, nullptr},
  {"telescope_m",        [](const Sample& s) { return s.out.display[2]; }, nullptr},
  {"clam_to_tip_m",      [](const Sample& s) { return s.out.display[3]; }, nullptr},
  {"opening_deg",        [](const Sample& s) { return s.out.display[4]; }, nullptr},
  {"cable1_m",           [](const Sample& s) { return s.out.display[5]; }, nullptr},
  {"cable2_m",           [](const Sample& s) { return s.out.display[6]; }, nullptr},
  {"load_kg",            [](const Sample& s) { return s.out.display[7]; }, nullptr},
  // extended fields
  {"swing_rate_deg_s",   [](const Sample& s) { return s.out.joint_vel[0]; }, nullptr},
  {"boom_rate_deg_s",    [](const Sample& s) { return s.out.joint_vel[1]; }, nullptr},
  {"telescope_rate_m_s", [](const Sample& s) { return s.out.joint_vel[2]; }, nullptr},
  {"T1_N",               [](const Sample& s) { return s.out.tensions_N[0]; }, nullptr},
  {"T2_N",               [](const Sample& s) { return s.out.tensions_N[1]; }, nullptr},
  {"theta1_clam_deg",    [](const Sample& s) { return s.out.theta1_clam_deg; }, nullptr},
  {"theta2_clam_deg",    [](const Sample& s) { return s.out.theta2_clam_deg; }, nullptr},
  {"vA_up_m_s",          [](const Sample& s) { return s.out.clam_vel_m_per_s[0]; }, nullptr},
  {"vC_up_m_s",          [](const Sample& s) { return s.out.clam_vel_m_per_s[1]; }, nullptr},
  {"working",            nullptr, [](const Sample& s) { return core::to_string(s.out.working); }},
  {"geo",                nullptr, [](const Sample& s) { return core::to_string(s.out.geo); }},
  {"load",               nullptr, [](const Sample& s) { return core::to_string(s.out.load); }},
  {"jaw_gap_m",          [](const Sample& s) { return s.out.jaw_gap_m; }, nullptr},
  {"squeeze_N",          [](const Sample& s) { return s.out.squeeze_N; }, nullptr},
  {"energy_J",           [](const Sample& s) { return s.out.energy_J; }, nullptr},
  // stability (docs/model.md, Stability): the load moment indicator and the tilt
  {"hook_load_kg",       [](const Sample& s) { return s.out.hook_load_kg; }, nullptr},
  {"radius_m",           [](const Sample& s) { return s.out.radius_m; }, nullptr},
  {"load_moment_pct",    [](const Sample& s) { return s.out.load_moment_pct; }, nullptr},
  {"tilt_deg",           [](const Sample& s) { return s.out.tilt_deg; }, nullptr},
  // health: speeds past what the machine can reach so far (core/plausibility.h)
  {"nonphysical_warnings", [](const Sample& s) { return static_cast<double>(s.out.nonphysical_warnings); }, nullptr},
}};
// clang-format on

}  // namespace

std::size_t csv_column_count() { return kColumns.size(); }

const char* csv_column_name(std::size_t index) { return kColumns.at(index).name; }

int csv_column_number(const std::string& name) {
  for (std::size_t i = 0; i < kColumns.size(); ++i) {
    if (name == kColumns[i].name) return static_cast<int>(i) + 1;
  }
  throw std::out_of_range("no CSV column '" + name + "'");
}

std::string csv_header() {
  std::string line;
  for (const Column& c : kColumns) {
    if (!line.empty()) line += ',';
    line += c.name;
  }
  return line;
}

std::string csv_load_columns(const std::string& n) {
  return n + "_x_m," + n + "_y_m," + n + "_z_m," + n + "_held";
}

void CsvWriter::header() {
  std::string line = csv_header();
  for (const std::string& name : load_names_) line += "," + csv_load_columns(name);
  if (std::fprintf(out_, "%s\n", line.c_str()) < 0) ok_ = false;
}

void CsvWriter::row(const core::Control& control, const core::Outputs& out) {
  const Sample s{control, out};
  for (std::size_t i = 0; i < kColumns.size(); ++i) {
    const Column& c = kColumns[i];
    const char* sep = i == 0 ? "" : ",";
    int n = 0;
    if (c.text != nullptr) {
      n = std::fprintf(out_, "%s%s", sep, c.text(s));
    } else if (i == 0) {
      n = std::fprintf(out_, "%.6f", c.number(s));   // time: fixed, so rows line up
    } else {
      // + 0.0 turns -0 into 0: "-0" in a table reads like a sign error
      n = std::fprintf(out_, "%s%.7g", sep, c.number(s) + 0.0);
    }
    if (n < 0) ok_ = false;
  }
  // the names come from the world whose loads these are (at most kMaxLoads)
  for (std::size_t i = 0; i < load_names_.size() && i < out.loads.size(); ++i) {
    const core::Outputs::Load& l = out.loads[i];
    const auto& p = l.position_m;
    if (std::fprintf(out_, ",%.7g,%.7g,%.7g,%d", p[0] + 0.0, p[1] + 0.0, p[2] + 0.0,
                     l.held ? 1 : 0) < 0)
      ok_ = false;
  }
  if (std::fputc('\n', out_) == EOF) ok_ = false;
}

}  // namespace clamsim::tools
