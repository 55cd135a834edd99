// The frame rates a browser may ask for (/ws?rate=HZ): 20 Hz as the thesis's
// receivers (section 4.3), 30 or 60 Hz for a smoother view, within the server's limit
// (--web-max-frame-rate). A rate becomes a period of whole model steps, rounded up so no
// browser gets more frames than it asked for.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clamsim::web {

inline constexpr std::array<int, 3> kFrameRatesHz = {20, 30, 60};

// kFrameRatesHz up to max_rate_hz (20 Hz always: the thesis's rate).
std::vector<int> offered_frame_rates(double max_rate_hz);

// One of `offered` from the query's text; nullopt and *error naming the choices otherwise.
std::optional<int> parse_frame_rate(std::string_view text, const std::vector<int>& offered,
                                    std::string* error);

// The period for rate_hz in whole steps of step_s, rounded up (60 Hz at 2.5 ms: 17.5 ms).
double frame_period_for(int rate_hz, double step_s);

}  // namespace clamsim::web
