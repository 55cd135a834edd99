// The bodies of GET /healthz (JSON) and GET /metrics (Prometheus text format).
#pragma once

#include <string>

#include "session/registry.h"
#include "web/web_options.h"

namespace clamsim::web {

// {"status": "ok", "sessions": 3, "capacity": 250}; "shutting_down" once the registry closed.
std::string health_json(const session::SessionRegistry& registry);

// Session counters are the registry's (every transport, CORBA included); ws/http ones are
// this server's.
std::string metrics_text(const session::SessionRegistry& registry, const WebStats& web);

}  // namespace clamsim::web
