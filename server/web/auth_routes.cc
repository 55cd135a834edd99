#include "web/auth_routes.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "web/origin.h"

namespace clamsim::web {

namespace {

constexpr std::string_view kLogin = "/api/login";
constexpr std::string_view kLogout = "/api/logout";
constexpr std::string_view kMe = "/api/me";
constexpr std::string_view kClientConfig = "/api/client-config";
constexpr std::string_view kSessionsPrefix = "/api/sessions/";
constexpr std::string_view kObserveTicket = "/observe-ticket";  // after the session number
constexpr std::size_t kMaxField = 256;  // name or password, bytes

// The same words for a wrong name and a wrong password: an answer must not tell which.
constexpr const char* kWrongLogin = "wrong name or password";

HttpAnswer json_answer(http::status status, nlohmann::ordered_json body) {
  HttpAnswer a;
  a.status = status;
  a.body = body.dump() + "\n";
  return a;
}

HttpAnswer error(http::status status, const char* code, const std::string& message) {
  return json_answer(status, {{"error", code}, {"message", message}});
}

HttpAnswer method_not_allowed(const char* allow) {
  HttpAnswer a = error(http::status::method_not_allowed, "method_not_allowed",
                       std::string("use ") + allow);
  a.headers.emplace_back("Allow", allow);
  return a;
}

HttpAnswer locked_out(double retry_after_s) {
  const long s = std::max(1L, static_cast<long>(std::ceil(retry_after_s)));
  HttpAnswer a = error(http::status::too_many_requests, "locked_out",
                       "too many failed attempts from this address; try again in " +
                           std::to_string(s) + " s");
  a.headers.emplace_back("Retry-After", std::to_string(s));
  return a;
}

struct Credentials {
  std::string name, password;
  std::string problem;  // "" when well formed
};

Credentials read_credentials(const std::string& body) {
  Credentials c;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(body);
  } catch (const nlohmann::json::exception&) {
    c.problem = "the body is not JSON; send {\"name\": ..., \"password\": ...}";
    return c;
  }
  if (!j.is_object()) {
    c.problem = "the body must be a JSON object {\"name\": ..., \"password\": ...}";
    return c;
  }
  for (const char* key : {"name", "password"}) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string()) {
      c.problem = std::string("\"") + key + "\" must be a string";
      return c;
    }
    if (it->get_ref<const std::string&>().size() > kMaxField) {
      c.problem = std::string("\"") + key + "\" is longer than 256 bytes";
      return c;
    }
  }
  for (const auto& item : j.items())
    if (item.key() != "name" && item.key() != "password") {
      c.problem = "unexpected field \"" + item.key().substr(0, 40) +
                  "\" (login takes name and password)";
      return c;
    }
  c.name = j["name"].get<std::string>();
  c.password = j["password"].get<std::string>();
  return c;
}

HttpAnswer busy_address(double retry_after_s) {
  const long s = std::max(1L, static_cast<long>(std::ceil(retry_after_s)));
  HttpAnswer a = error(http::status::too_many_requests, "too_many_attempts",
                       "login attempts from this address are still being checked; try again "
                       "in " + std::to_string(s) + " s");
  a.headers.emplace_back("Retry-After", std::to_string(s));
  return a;
}

using Attempt = std::shared_ptr<auth::LoginThrottle::Attempt>;

// After the password check, on the connection's strand again. The attempt keeps its place
// in the throttle until the answer is sent (a slowed answer included): the address's
// attempts under way stay bounded.
void finish_login(SharedState& state, const std::string& client,
                  const std::optional<WebAuth::Verified>& who, Attempt attempt, const net::any_io_executor& strand,
                  std::function<void(HttpAnswer)> reply) {
  WebAuth& auth = state.auth();
  if (who) {
    attempt->succeeded();
    const std::string token = auth.logins().open(who->name, who->hash);
    HttpAnswer a = json_answer(http::status::ok, {{"name", who->name}});
    a.headers.emplace_back("Set-Cookie",
                           login_cookie(token, static_cast<long>(auth.options().login_max_s),
                                        auth.options().secure_cookie));
    return reply(std::move(a));
  }
  const auth::ThrottleVerdict v = attempt->failed("login");
  if (v.locked) {
    state.log("web: " + client + " locked out of login for " +
              std::to_string(static_cast<long>(v.retry_after_s)) + " s");
    return reply(locked_out(v.retry_after_s));
  }
  HttpAnswer wrong = error(http::status::unauthorized, "wrong_login", kWrongLogin);
  if (v.delay_s <= 0.0) return reply(std::move(wrong));
  // slowed down: the answer waits, so guessing from one address crawls
  auto timer = std::make_shared<net::steady_timer>(strand);
  timer->expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(v.delay_s)));
  timer->async_wait([timer, attempt, reply = std::move(reply), wrong = std::move(wrong)](
                        beast::error_code) mutable { reply(std::move(wrong)); });
}

void login(const AuthRequest& req, const std::string& client, SharedState& state,
           const net::any_io_executor& strand, std::function<void(HttpAnswer)> reply) {
  if (auto refused = refuse_cross_site(req, state)) return reply(std::move(*refused));
  WebAuth& auth = state.auth();
  if (!auth.login_required())
    return reply(error(http::status::not_found, "no_accounts",
                       "this server has no instructor accounts (--accounts); its instructor "
                       "pages need no login"));
  Credentials c = read_credentials(req.body());
  if (!c.problem.empty())
    return reply(error(http::status::bad_request, "bad_login", "login: " + c.problem));
  // the attempt's place is taken before its password is checked (login_throttle.h)
  auth::ThrottleVerdict refused;
  Attempt attempt = auth.throttle().reserve(client, &refused);
  if (!attempt) {
    return reply(refused.locked ? locked_out(refused.retry_after_s)
                                : busy_address(refused.retry_after_s));
  }
  auto shared_reply = std::make_shared<std::function<void(HttpAnswer)>>(std::move(reply));
  const bool queued = auth.hash(client, [&state, client, strand, c = std::move(c), attempt,
                                         shared_reply] {
    // locked out while this attempt waited for its turn: its guess is not checked
    if (const auth::ThrottleVerdict v = attempt->check(); v.locked) {
      state.post(strand, [attempt, shared_reply, v] { (*shared_reply)(locked_out(v.retry_after_s)); });
      return;
    }
    std::optional<WebAuth::Verified> who = state.auth().check_password(c.name, c.password);
    state.post(strand, [&state, client, strand, who = std::move(who), attempt, shared_reply] {
      finish_login(state, client, who, attempt, strand, std::move(*shared_reply));
    });
  });
  if (!queued)
    (*shared_reply)(error(http::status::service_unavailable, "busy",
                          "too many logins at once; try again in a moment"));
}

void logout(const AuthRequest& req, SharedState& state, std::function<void(HttpAnswer)> reply) {
  if (auto refused = refuse_cross_site(req, state)) return reply(std::move(*refused));
  const std::string token = login_token(req);
  const bool ended = !token.empty() && state.auth().logins().close(token);
  // the open connections this login let in (observers, replays) are closed now, not at
  // their next look
  if (ended) state.recheck_logins();
  HttpAnswer a = json_answer(http::status::ok, {{"logged_out", ended}});
  a.headers.emplace_back("Set-Cookie", login_cookie("", 0, state.auth().options().secure_cookie));
  reply(std::move(a));
}

HttpAnswer me(const AuthRequest& req, SharedState& state) {
  if (!state.auth().login_required())
    return json_answer(http::status::ok, {{"name", nullptr}, {"login_required", false}});
  if (auto denied = require_instructor(req, state)) return std::move(*denied);
  const std::string who = state.auth().check_login(login_token(req), /*touch=*/false).name;
  return json_answer(http::status::ok, {{"name", who}, {"login_required", true}});
}

// "/api/sessions/.../observe-ticket"
bool is_ticket_path(std::string_view path) {
  return path.size() > kSessionsPrefix.size() + kObserveTicket.size() &&
         path.substr(0, kSessionsPrefix.size()) == kSessionsPrefix &&
         path.substr(path.size() - kObserveTicket.size()) == kObserveTicket;
}

// "/api/sessions/ID/observe-ticket" -> ID; 0 when ID is not a session number.
std::uint64_t ticket_session(std::string_view path) {
  const std::string_view digits = path.substr(
      kSessionsPrefix.size(), path.size() - kSessionsPrefix.size() - kObserveTicket.size());
  if (digits.empty() || digits.size() > 19 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos)
    return 0;
  return std::stoull(std::string(digits));
}

// A ticket for a native observer (clamsim-receiver --observe ID --ticket T; docs/corba.md
// "Observers"): an instructor asks, the CORBA admin redeems it once within its lifetime.
HttpAnswer observe_ticket(const AuthRequest& req, std::string_view path, SharedState& state) {
  if (auto refused = refuse_cross_site(req, state)) return std::move(*refused);
  if (auto denied = require_instructor(req, state)) return std::move(*denied);
  const auto& tickets = state.auth().options().observe_tickets;
  if (!tickets)
    return error(http::status::not_found, "no_corba",
                 "this server has no CORBA transport: watch in the browser instead");
  const std::uint64_t id = ticket_session(path);
  if (id == 0)
    return error(http::status::bad_request, "bad_session",
                 "expected /api/sessions/ID/observe-ticket with ID a session number (as "
                 "GET /api/sessions lists them)");
  if (!state.registry().find(id))
    return error(http::status::not_found, "no_session",
                 "no live session " + std::to_string(id) +
                     " (it ended or never started; see GET /api/sessions)");
  const std::string who = state.auth().login_required()
                              ? state.auth().check_login(login_token(req), false).name
                              : std::string("instructor (no accounts)");
  const std::string ticket = tickets->issue(id, who);
  // the command line to run on a classroom PC, complete but for a TLS server's CA file
  const std::string at = tickets->redeem_at();
  std::string command = "clamsim-receiver";
  if (!at.empty()) command += " --server " + at;
  if (at.rfind("corbaloc:ssliop:", 0) == 0) command += " --tls-ca SERVER_CA.pem";
  command += " --observe " + std::to_string(id) + " --ticket " + ticket;
  return json_answer(http::status::ok, {{"session", id},
                                        {"ticket", ticket},
                                        {"expires_in_s", tickets->limits().ttl_s},
                                        {"server", at},
                                        {"command", command}});
}

bool is_get(const AuthRequest& req) {
  return req.method() == http::verb::get || req.method() == http::verb::head;
}

}  // namespace

bool is_auth_route(std::string_view path) {
  return path == kLogin || path == kLogout || path == kMe || path == kClientConfig ||
         is_ticket_path(path);
}

bool is_instructor_route(std::string_view path) {
  return path == "/api/sessions" || path == "/api/reports" || path == "/api/reports.csv" ||
         path.rfind("/api/reports/", 0) == 0;
}

void serve_auth_route(const AuthRequest& req, std::string_view path, const std::string& client,
                      SharedState& state, const net::any_io_executor& strand,
                      std::function<void(HttpAnswer)> reply) {
  const bool post = req.method() == http::verb::post;
  if (path == kLogin) return post ? login(req, client, state, strand, std::move(reply))
                                  : reply(method_not_allowed("POST"));
  if (path == kLogout) return post ? logout(req, state, std::move(reply))
                                   : reply(method_not_allowed("POST"));
  if (is_ticket_path(path))
    return reply(post ? observe_ticket(req, path, state) : method_not_allowed("POST"));
  if (!is_get(req)) return reply(method_not_allowed("GET, HEAD"));
  if (path == kMe) return reply(me(req, state));
  // what a trainee's page must know before it connects (the browser learns the rules here)
  const WebAuth& auth = state.auth();
  reply(json_answer(http::status::ok,
                    {{"class_code_required", !auth.options().class_code.empty()},
                     {"instructor_login_required", auth.login_required()},
                     {"keyboard", state.options().keyboard},
                     // the names a page may ask for (?scenario=, ?model=), offered when the
                     // server refuses one it does not have
                     {"scenarios", state.catalog().scenarios()},
                     {"models", state.catalog().models()}}));
}

std::optional<HttpAnswer> require_instructor(const AuthRequest& req, SharedState& state) {
  WebAuth& auth = state.auth();
  if (!auth.login_required()) return std::nullopt;
  const std::string token = login_token(req);
  if (token.empty())
    return json_answer(http::status::unauthorized,
                       {{"error", "login_required"},
                        {"message", "instructor login required (POST /api/login)"},
                        {"login", "/login.html"}});
  // every instructor request checks the login again: logged out, expired, its account
  // removed or its password changed all count at once
  const WebAuth::LoginCheck check = auth.check_login(token, /*touch=*/true);
  if (check.ended.empty()) return std::nullopt;
  return json_answer(http::status::unauthorized,
                     {{"error", "login_required"},
                      {"message", "instructor login ended (" + check.ended + "); log in again"},
                      {"ended", check.ended},
                      {"login", "/login.html"}});
}

std::optional<HttpAnswer> refuse_cross_site(const AuthRequest& req, const SharedState& state) {
  const std::string origin = to_std(req[http::field::origin]);
  if (origin.empty())
    return error(http::status::forbidden, "cross_site",
                 "refused: a state-changing request must carry an Origin header");
  if (req.count(http::field::origin) != 1 ||
      !origin_allowed(origin, to_std(req[http::field::host]), state.options().allowed_origins))
    return error(http::status::forbidden, "cross_site",
                 "refused: origin " + origin.substr(0, 100) + " is not this server's");
  const std::string type = to_std(req[http::field::content_type]);
  const std::string media = type.substr(0, type.find(';'));
  if (media != "application/json")
    return error(http::status::forbidden, "cross_site",
                 "refused: the body must be application/json (got \"" + type.substr(0, 60) +
                     "\")");
  return std::nullopt;
}

std::string login_cookie(const std::string& token, long max_age_s, bool secure) {
  return std::string(kLoginCookie) + "=" + token + "; Path=/; Max-Age=" +
         std::to_string(max_age_s) + "; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
}

std::string login_token(const AuthRequest& req) {
  const std::string cookies = to_std(req[http::field::cookie]);
  const std::string key = std::string(kLoginCookie) + "=";
  std::size_t at = 0;
  while (at < cookies.size()) {
    while (at < cookies.size() && (cookies[at] == ' ' || cookies[at] == ';')) ++at;
    const std::size_t end = std::min(cookies.find(';', at), cookies.size());
    if (cookies.compare(at, key.size(), key) == 0)
      return cookies.substr(at + key.size(), end - at - key.size());
    at = end;
  }
  return "";
}

}  // namespace clamsim::web
