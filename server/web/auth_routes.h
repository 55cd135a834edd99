// Instructor login over HTTP (docs/security.md, "Instructor accounts"): POST /api/login,
// POST /api/logout, GET /api/me, the public GET /api/client-config, the one check every
// instructor route makes, and the cross-site check of every state-changing request.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "web/beast.h"
#include "web/shared_state.h"

namespace clamsim::web {

// What to answer; HttpSession writes it (keep-alive, Server header, HEAD).
struct HttpAnswer {
  http::status status = http::status::ok;
  std::string body;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;  // Set-Cookie, Retry-After, ...
};

using AuthRequest = http::request<http::string_body>;

// /api/login, /api/logout, /api/me, /api/client-config, and the instructor's
// POST /api/sessions/ID/observe-ticket (a native observer's ticket, auth/observe_tickets.h).
bool is_auth_route(std::string_view path);
// Paths whose data needs the instructor role: /api/sessions, /api/reports, /api/reports/*.
bool is_instructor_route(std::string_view path);

// Answers an auth route. `reply` is called once, on `strand` (a login's password check
// runs on the hashing thread and comes back). `client`: the peer's address, the key of
// the failed-login tracker.
void serve_auth_route(const AuthRequest& req, std::string_view path, const std::string& client,
                      SharedState& state, const net::any_io_executor& strand,
                      std::function<void(HttpAnswer)> reply);

// Nothing when the request may read instructor data (a live login, or no accounts
// configured); else the 401 naming what is needed.
std::optional<HttpAnswer> require_instructor(const AuthRequest& req, SharedState& state);

// Nothing when a state-changing request comes from this server's own pages (an Origin
// the WebSocket rules allow, origin.h) with a JSON body; else the 403 naming why.
std::optional<HttpAnswer> refuse_cross_site(const AuthRequest& req, const SharedState& state);

// The login cookie's Set-Cookie value; max_age_s 0 ends it.
std::string login_cookie(const std::string& token, long max_age_s, bool secure);
// The login token of the request's Cookie header, "" when none.
std::string login_token(const AuthRequest& req);

}  // namespace clamsim::web
