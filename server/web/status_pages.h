// The bodies of GET /healthz (JSON), GET /metrics (Prometheus text format) and the
// instructor's overview: GET /api/sessions and GET /api/reports (JSON).
#pragma once

#include <cstddef>
#include <string>

#include "session/registry.h"
#include "web/web_options.h"

namespace clamsim::web {

// {"status": "ok", "sessions": 3, "capacity": 250}; "shutting_down" once the registry closed.
std::string health_json(const session::SessionRegistry& registry);

// Session counters are the registry's (every transport, CORBA included); ws/http ones are
// this server's.
std::string metrics_text(const session::SessionRegistry& registry, const WebStats& web);

// Every live session (every transport): id, label, model, world, simulated time, frames,
// and its task's live score. Newest session last.
std::string sessions_json(const session::SessionRegistry& registry);

// The newest finished tasks' reports in the registry's report directory, newest first.
inline constexpr std::size_t kReportsListed = 200;
std::string reports_json(const session::SessionRegistry& registry);

}  // namespace clamsim::web
