// Which browser pages may open the WebSocket (the Origin header of the upgrade request).
// Browsers always send Origin; native clients (tools, tests) send none and are allowed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clamsim::web {

// allowed empty: the page must come from this server (Origin's host:port equals the Host
// header) or from any localhost origin. Otherwise Origin must equal one entry
// (case-insensitive, trailing '/' ignored); "*" allows every origin.
bool origin_allowed(std::string_view origin, std::string_view host_header,
                    const std::vector<std::string>& allowed);

}  // namespace clamsim::web
