#include "web/frame_rate.h"

#include <charconv>
#include <cmath>

namespace clamsim::web {

std::vector<int> offered_frame_rates(double max_rate_hz) {
  std::vector<int> rates;
  for (int hz : kFrameRatesHz)
    if (hz <= max_rate_hz || hz == kFrameRatesHz[0]) rates.push_back(hz);
  return rates;
}

std::optional<int> parse_frame_rate(std::string_view text, const std::vector<int>& offered,
                                    std::string* error) {
  int hz = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), hz);
  const bool number = ec == std::errc() && end == text.data() + text.size();
  for (int r : offered)
    if (number && hz == r) return hz;
  std::string choices;
  for (int r : offered) choices += (choices.empty() ? "" : ", ") + std::to_string(r);
  *error = "rate: '" + std::string(text.substr(0, 16)) + "' is not a frame rate this server " +
           "offers; choose one of " + choices + " (frames per second)";
  return std::nullopt;
}

double frame_period_for(int rate_hz, double step_s) {
  const double steps = std::ceil(1.0 / (rate_hz * step_s) - 1e-9);
  return std::max(1.0, steps) * step_s;
}

}  // namespace clamsim::web
