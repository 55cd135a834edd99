#include "training/report_figures.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace clamsim::training {

int figure_decimals(std::string_view field) {
  for (const FigurePrecision& f : kReportFigures)
    if (field == f.field) return f.decimals;
  return -1;
}

double round_figure(double v, int decimals) {
  if (!std::isfinite(v)) return 0.0;
  const double scale = std::pow(10.0, decimals);
  return std::round(v * scale) / scale + 0.0;   // + 0.0: no "-0"
}

std::string figure_text(const std::string& field, double v) {
  const int decimals = figure_decimals(field);
  if (decimals < 0) throw std::out_of_range("no report figure '" + field + "'");
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, round_figure(v, decimals));
  return text;
}

void round_report_figures(nlohmann::ordered_json& report) {
  if (report.is_array()) {
    for (auto& item : report) round_report_figures(item);
    return;
  }
  if (!report.is_object()) return;
  for (auto it = report.begin(); it != report.end(); ++it) {
    const int decimals = figure_decimals(it.key());
    if (decimals >= 0 && it.value().is_number_float()) {
      it.value() = round_figure(it.value().get<double>(), decimals);
    } else {
      round_report_figures(it.value());
    }
  }
}

}  // namespace clamsim::training
