// The precision a person reads each figure of a task report at, in one table: the report
// file, the instructor's list and its CSV all round through it, so a report says 60.0 and
// never 60.00000000000001 (sums of 50 ms frames are not exact in binary).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace clamsim::training {

struct FigurePrecision {
  const char* field;   // the report's key, wherever it appears (top level, penalties, timeline)
  int decimals;
};

// Times to 0.01 s (a frame is 0.05 s), points to 0.1.
inline constexpr FigurePrecision kReportFigures[] = {
    {"elapsed_s", 2},   {"optimum_s", 2},      {"limit_s", 2},     {"sim_time_s", 2},
    {"task_time_s", 2}, {"time_points", 1},    {"points_each", 1}, {"points", 1},
    {"penalty_points", 1}, {"total", 1},
};

// The decimals of `field`; -1 when it is not a figure of the table.
int figure_decimals(std::string_view field);  // no allocation: runs every frame

// v rounded to `decimals` places; -0 becomes 0, and a value that is not finite 0.
double round_figure(double v, int decimals);

// v rounded as `field` is, as text with exactly its decimals ("60.00"); throws
// std::out_of_range for a field the table does not have.
std::string figure_text(const std::string& field, double v);

// Rounds every number in `report` whose key is in the table, at any depth.
void round_report_figures(nlohmann::ordered_json& report);

}  // namespace clamsim::training
