// The bodies of GET /healthz (JSON), GET /metrics (Prometheus text format) and the
// instructor's overview: GET /api/sessions and GET /api/reports (JSON).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "session/registry.h"
#include "training/report_index.h"
#include "web/web_options.h"

namespace clamsim::web {

// {"status": "ok", "sessions": 3, "capacity": 250}; "shutting_down" once the registry closed.
std::string health_json(const session::SessionRegistry& registry);

// A probe's answer: the HTTP status and its JSON body.
struct Probe {
  int status = 200;
  std::string body;
};

// GET /livez (Kubernetes' liveness: "restart me if this fails"): 200 {"status":"ok"} while
// every session thread makes progress; 503 {"status":"stalled","sessions":[ids],...} when
// one has not for `stall_limit_s`. Checks nothing outside the process.
Probe liveness(const session::SessionRegistry& registry, double stall_limit_s);

// GET /readyz ("send me work"): 200 {"status":"ready",...} while new sessions are taken;
// 503 with status "draining", "full" or "stopping" and a reason otherwise.
Probe readiness(const session::SessionRegistry& registry);

// Session counters are the registry's (every transport, CORBA included); ws/http ones are
// this server's.
std::string metrics_text(const session::SessionRegistry& registry, const WebStats& web);

// Every live session (every transport): id, label, model, world, simulated time, frames,
// and its task's live score. Newest session last.
std::string sessions_json(const session::SessionRegistry& registry);

// Finished tasks' reports (report_list.h picks them: newest first, filtered), as the
// instructor page reads them. Figures are rounded as in the reports.
std::string reports_json(const std::vector<training::ReportSummary>& reports);

}  // namespace clamsim::web
