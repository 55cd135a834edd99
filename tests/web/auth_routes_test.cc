// Instructor logins, the role check, the cross-site check and the class code, end to end:
// a real WebServer on 127.0.0.1 (port 0), raw HTTP over loopback, a real WebSocket client.
// A second client address is real too: Linux answers on all of 127.0.0.0/8, so a client
// bound to 127.0.0.2 is another address to the server.
#include "web/auth_routes.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <atomic>
#include <condition_variable>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "auth/accounts_file.h"
#include "auth/password_hash.h"
#include "model/keyboard_file.h"
#include "session/clock.h"
#include "test_client.h"
#include "web/web_server.h"

namespace clamsim::web {
namespace {

namespace fs = std::filesystem;
using testing::RawConnection;
using testing::Seconds;
using testing::WsClient;

const std::string kSource = CLAMSIM_SOURCE_DIR;
const std::string kPassword = "correct horse battery";

struct Reply {
  int status = 0;
  std::string head;   // status line and headers
  std::string body;
  std::string header(const std::string& name) const {
    const std::string key = "\r\n" + name + ": ";
    const auto at = head.find(key);
    if (at == std::string::npos) return "";
    const auto start = at + key.size();
    return head.substr(start, head.find("\r\n", start) - start);
  }
  nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
};

struct Req {
  std::string method = "GET";
  std::string target;
  std::string body;
  std::string origin;        // "" = none
  std::string content_type = "application/json";
  std::string cookie;        // the login token, "" = none
  const char* from = "127.0.0.1";
};

// A folder with an accounts file holding "ada" (cheap scrypt cost: the same code path).
struct Accounts {
  fs::path dir = fs::temp_directory_path() /
                 ("clamsim_auth_web_" + std::to_string(::getpid()) + "_" +
                  std::to_string(reinterpret_cast<std::uintptr_t>(this)));
  std::string file = (dir / "accounts.json").string();
  Accounts() {
    fs::create_directories(dir);
    auth::save_accounts(file, {{"ada", auth::hash_password(kPassword, {10, 8, 1}),
                                "2026-11-24T10:00:00Z"}});
  }
  ~Accounts() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

struct Server {
  explicit Server(const std::function<void(WebOptions&)>& tweak,
                  const base::EventLog* log = nullptr)
      : registry(registry_options(), clock),
        catalog(kSource + "/models", kSource + "/config/scenarios", "t250", ""),
        server(options(tweak, log), registry, catalog) {
    server.start();
  }
  static session::RegistryOptions registry_options() {
    session::RegistryOptions o;
    o.max_sessions = 8;
    o.report_dir = "";
    return o;
  }
  static WebOptions options(const std::function<void(WebOptions&)>& tweak,
                            const base::EventLog* log) {
    WebOptions o;
    o.port = 0;
    o.threads = 2;
    o.access.event_log = log;
    if (tweak) tweak(o);
    return o;
  }
  std::string origin() const { return "http://127.0.0.1:" + std::to_string(server.port()); }

  Reply send(Req r) const {
    const std::string host = "127.0.0.1:" + std::to_string(server.port());
    std::string text = r.method + " " + r.target + " HTTP/1.1\r\nHost: " + host +
                       "\r\nConnection: close\r\n";
    if (!r.origin.empty()) text += "Origin: " + r.origin + "\r\n";
    if (!r.cookie.empty()) text += std::string("Cookie: theme=dark; ") + kLoginCookie + "=" + r.cookie + "\r\n";
    if (r.method == "POST")
      text += "Content-Type: " + r.content_type + "\r\nContent-Length: " +
              std::to_string(r.body.size()) + "\r\n";
    text += "\r\n" + r.body;
    RawConnection c;
    Reply reply;
    if (!c.connect(server.port(), r.from) || !c.send(text)) return reply;
    c.closed_by_peer(Seconds(10));
    const std::string& in = c.received();
    const auto end = in.find("\r\n\r\n");
    if (end == std::string::npos) return reply;
    reply.status = c.status();
    reply.head = in.substr(0, end);
    reply.body = in.substr(end + 4);
    return reply;
  }
  Reply login(const std::string& name, const std::string& password,
              const char* from = "127.0.0.1") const {
    Req r;
    r.method = "POST";
    r.target = "/api/login";
    r.origin = origin();
    r.from = from;
    r.body = nlohmann::json{{"name", name}, {"password", password}}.dump();
    return send(r);
  }
  Reply get(const std::string& target, const std::string& cookie = "") const {
    Req r;
    r.target = target;
    r.cookie = cookie;
    return send(r);
  }

  session::SteadyClock clock;
  session::SessionRegistry registry;
  session::Catalog catalog;
  WebServer server;
};

// The token of a Set-Cookie value.
std::string token_of(const Reply& r) {
  const std::string c = r.header("Set-Cookie");
  const std::string key = std::string(kLoginCookie) + "=";
  if (c.rfind(key, 0) != 0) return "";
  return c.substr(key.size(), c.find(';') - key.size());
}

const std::vector<std::string> kInstructorPaths = {"/api/sessions", "/api/reports", "/api/reports.csv",
                                                   "/api/reports/20261124T100000Z-s1.json"};

TEST(AuthRoutes, EveryInstructorEndpointNeedsTheLogin) {
  Accounts acc;
  Server s([&](WebOptions& o) { o.access.accounts_file = acc.file; });
  for (const auto& path : kInstructorPaths) {
    const Reply r = s.get(path);
    EXPECT_EQ(r.status, 401) << path;
    EXPECT_EQ(r.json()["error"], "login_required") << r.body;
    EXPECT_EQ(r.json()["login"], "/login.html");
  }
  EXPECT_EQ(s.get("/api/me").status, 401);

  const Reply in = s.login("ada", kPassword);
  ASSERT_EQ(in.status, 200) << in.body;
  EXPECT_EQ(in.json()["name"], "ada");
  const std::string cookie = in.header("Set-Cookie");
  EXPECT_NE(cookie.find("; HttpOnly"), std::string::npos) << cookie;
  EXPECT_NE(cookie.find("; SameSite=Strict"), std::string::npos) << cookie;
  EXPECT_NE(cookie.find("; Path=/"), std::string::npos) << cookie;
  EXPECT_NE(cookie.find("; Max-Age=43200"), std::string::npos) << cookie;
  EXPECT_EQ(cookie.find("Secure"), std::string::npos) << "plain HTTP: " << cookie;
  const std::string token = token_of(in);
  ASSERT_EQ(token.size(), 64u);

  EXPECT_EQ(s.get("/api/sessions", token).status, 200);
  EXPECT_EQ(s.get("/api/reports", token).status, 200);
  EXPECT_EQ(s.get("/api/reports.csv", token).status, 200);
  // past the role check: the report simply does not exist
  EXPECT_EQ(s.get(kInstructorPaths[3], token).status, 404);
  const Reply me = s.get("/api/me", token);
  EXPECT_EQ(me.status, 200);
  EXPECT_EQ(me.json()["name"], "ada");
  // static pages stay public, the instructor page included
  EXPECT_NE(s.get("/instructor.html").status, 401);
  EXPECT_EQ(s.get("/healthz").status, 200);
  // a forged token is no login
  EXPECT_EQ(s.get("/api/sessions", std::string(64, 'a')).status, 401);
}

TEST(AuthRoutes, SecureCookieFollowsTheSetting) {
  Accounts acc;
  Server s([&](WebOptions& o) {
    o.access.accounts_file = acc.file;
    o.access.secure_cookie = true;
  });
  const Reply in = s.login("ada", kPassword);
  ASSERT_EQ(in.status, 200);
  EXPECT_NE(in.header("Set-Cookie").find("; Secure"), std::string::npos) << in.header("Set-Cookie");
}

TEST(AuthRoutes, WrongPasswordAndUnknownNameAnswerAlike) {
  Accounts acc;
  Server s([&](WebOptions& o) { o.access.accounts_file = acc.file; });
  const Reply wrong = s.login("ada", "not the password");
  const Reply unknown = s.login("nobody", kPassword);
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(unknown.status, 401);
  EXPECT_EQ(wrong.body, unknown.body);
  EXPECT_EQ(wrong.json()["message"], "wrong name or password");
  EXPECT_EQ(wrong.header("Set-Cookie"), "");
}

TEST(AuthRoutes, LockoutAfterRepeatedFailuresHitsOnlyThatAddress) {
  Accounts acc;
  std::FILE* log_file = std::tmpfile();
  ASSERT_NE(log_file, nullptr);
  const base::EventLog log(base::LogFormat::Json, log_file);
  Server s(
      [&](WebOptions& o) {
        o.access.accounts_file = acc.file;
        o.access.failures_before_lockout = 3;  // slowed from the second failure on
        o.access.lockout_s = 120;
      },
      &log);
  EXPECT_EQ(s.login("ada", "guess-1").status, 401);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(s.login("ada", "guess-2").status, 401);
  // slowed down: the answer waited its second (a lower bound, never a speed assertion)
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(900));
  const Reply locked = s.login("ada", "guess-3");
  EXPECT_EQ(locked.status, 429) << locked.body;
  EXPECT_EQ(locked.header("Retry-After"), "120");
  EXPECT_EQ(locked.json()["error"], "locked_out");
  // now even the right password is refused from that address...
  const Reply still = s.login("ada", kPassword);
  EXPECT_EQ(still.status, 429);
  EXPECT_NE(still.header("Retry-After"), "");
  // ...while another address logs in
  const Reply other = s.login("ada", kPassword, "127.0.0.2");
  EXPECT_EQ(other.status, 200) << other.body;

  std::fflush(log_file);
  std::rewind(log_file);
  std::string text;
  char buf[1024];
  while (std::fgets(buf, sizeof buf, log_file)) text += buf;
  std::fclose(log_file);
  EXPECT_NE(text.find("\"event\":\"login_lockout\",\"client\":\"127.0.0.1\",\"failures\":3"),
            std::string::npos)
      << text;
}

TEST(AuthRoutes, CrossSiteAndMalformedRequestsAreRefused) {
  Accounts acc;
  Server s([&](WebOptions& o) { o.access.accounts_file = acc.file; });
  const std::string body = nlohmann::json{{"name", "ada"}, {"password", kPassword}}.dump();
  Req r;
  r.method = "POST";
  r.target = "/api/login";
  r.body = body;
  r.origin = "http://evil.example";
  Reply a = s.send(r);
  EXPECT_EQ(a.status, 403);
  EXPECT_EQ(a.json()["error"], "cross_site");
  EXPECT_NE(a.json()["message"].get<std::string>().find("evil.example"), std::string::npos);
  EXPECT_EQ(a.header("Set-Cookie"), "");
  r.origin = "";
  EXPECT_EQ(s.send(r).status, 403) << "no Origin";
  r.origin = s.origin();
  r.content_type = "text/plain";  // what a cross-site form may send without a preflight
  a = s.send(r);
  EXPECT_EQ(a.status, 403);
  EXPECT_NE(a.body.find("application/json"), std::string::npos) << a.body;

  r.content_type = "application/json; charset=utf-8";
  for (const auto& [bad, expect] : std::vector<std::pair<std::string, std::string>>{
           {"not json", "not JSON"},
           {"[1]", "JSON object"},
           {R"({"name":"ada"})", "\"password\" must be a string"},
           {R"({"name":3,"password":"x"})", "\"name\" must be a string"},
           {R"({"name":"ada","password":"x","admin":true})", "unexpected field \"admin\""}}) {
    r.body = bad;
    a = s.send(r);
    EXPECT_EQ(a.status, 400) << bad;
    EXPECT_NE(a.json()["message"].get<std::string>().find(expect), std::string::npos)
        << bad << " -> " << a.body;
  }
  r.body = std::string(2000, 'x');  // bodies are capped small
  EXPECT_EQ(s.send(r).status, 400);
  EXPECT_EQ(s.get("/api/login").status, 405);

  // logout is state-changing too
  const std::string token = token_of(s.login("ada", kPassword));
  Req out;
  out.method = "POST";
  out.target = "/api/logout";
  out.cookie = token;
  out.origin = "http://evil.example";
  EXPECT_EQ(s.send(out).status, 403);
  EXPECT_EQ(s.get("/api/sessions", token).status, 200) << "a refused logout ends nothing";
}

TEST(AuthRoutes, LogoutEndsTheCookie) {
  Accounts acc;
  Server s([&](WebOptions& o) { o.access.accounts_file = acc.file; });
  const std::string token = token_of(s.login("ada", kPassword));
  ASSERT_EQ(s.get("/api/sessions", token).status, 200);
  Req out;
  out.method = "POST";
  out.target = "/api/logout";
  out.cookie = token;
  out.origin = s.origin();
  const Reply r = s.send(out);
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.header("Set-Cookie").find("Max-Age=0"), std::string::npos) << r.head;
  EXPECT_EQ(s.get("/api/sessions", token).status, 401);
  EXPECT_EQ(s.get("/api/me", token).status, 401);
}

TEST(AuthRoutes, WithoutAccountsInstructorDataIsOpen) {
  Server s(nullptr);
  for (const auto& path : {"/api/sessions", "/api/reports"}) EXPECT_EQ(s.get(path).status, 200);
  const Reply me = s.get("/api/me");
  EXPECT_EQ(me.status, 200);
  EXPECT_EQ(me.json()["login_required"], false);
  const Reply cfg = s.get("/api/client-config");
  EXPECT_EQ(cfg.json()["instructor_login_required"], false);
  EXPECT_EQ(cfg.json()["class_code_required"], false);
  EXPECT_TRUE(cfg.json()["keyboard"].is_null()) << "no layout configured";
}

// The page's keys come from the server: the layout it read, as it read it.
TEST(AuthRoutes, ClientConfigCarriesTheKeyboardLayout) {
  const nlohmann::ordered_json layout = model::to_json(
      model::load_keyboard_layout(std::string(CLAMSIM_SOURCE_DIR) + "/config/keyboard.json"));
  Server s([&](WebOptions& o) { o.keyboard = layout; });
  const Reply cfg = s.get("/api/client-config");
  EXPECT_EQ(cfg.status, 200);
  EXPECT_EQ(cfg.json()["keyboard"], nlohmann::json(layout));
  EXPECT_EQ(cfg.json()["keyboard"]["signals"]["boom"]["plus"]["key"], "ArrowUp");
}

TEST(AuthRoutes, ClassCodeOverARealWebSocket) {
  Server s([](WebOptions& o) {
    o.access.class_code = "crane-42";
    o.access.failures_before_lockout = 3;
  });
  EXPECT_EQ(s.get("/api/client-config").json()["class_code_required"], true);
  {
    WsClient c;
    ASSERT_TRUE(c.connect(s.server.port(), "/ws"));
    EXPECT_EQ(c.read(Seconds(3)).kind, WsClient::Message::Kind::Closed);
    EXPECT_EQ(c.close_reason(), "class code required: ask your instructor");
  }
  {
    WsClient c;
    ASSERT_TRUE(c.connect(s.server.port(), "/ws?class_code=crane-41"));
    EXPECT_EQ(c.read(Seconds(3)).kind, WsClient::Message::Kind::Closed);
    EXPECT_EQ(c.close_reason(), "class code: wrong code");
  }
  {
    WsClient c;
    ASSERT_TRUE(c.connect(s.server.port(), "/ws?model=t250&class_code=crane-42"));
    const auto hello = c.read_json(Seconds(3));
    ASSERT_TRUE(hello.has_value());
    EXPECT_EQ((*hello)["type"], "hello");
    EXPECT_EQ(s.registry.size(), 1u) << "only the right code started a session";
  }
}

// ---- a login's powers end with it, everywhere, at once ----

Reply logout(const Server& s, const std::string& token) {
  Req out;
  out.method = "POST";
  out.target = "/api/logout";
  out.cookie = token;
  out.origin = s.origin();
  out.body = "{}";
  return s.send(out);
}

// A trainee's session, and an observer of it with `token`'s login: both open.
struct Watched {
  WsClient trainee, observer;
  bool open(const Server& s, const std::string& token) {
    if (!trainee.connect(s.server.port(), "/ws")) return false;
    const auto hello = trainee.read_type("hello");
    if (!hello) return false;
    observer.set_cookie(std::string(kLoginCookie) + "=" + token);
    if (!observer.connect(s.server.port(), "/ws?observe=" + std::to_string((*hello)["session"].get<std::uint64_t>())))
      return false;
    const auto ohello = observer.read_type("hello");
    return ohello && (*ohello).contains("observing");
  }
};

// Polls `done` (every millisecond, to leave the machine's two cores to the server) until it
// holds (true) or `timeout` passes on the test's clock (false): a bound that only says
// "never", not a measurement.
bool wait_until(const std::function<bool()>& done, Seconds timeout) {
  const auto end = std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));   // the poll's interval
  }
  return true;
}

// Reads `ws` until its display frames' simulated time has gone `s` seconds past the first
// one read: the session's own clock paces the test, not the test's. `each` (may be null)
// runs at every display frame with its t. The close code when the server closes first
// (0 when this reader reached `s`), -1 when the connection fails or stays silent (5 s).
int read_sim_seconds(WsClient& ws, double s, const std::function<void(double)>& each = nullptr) {
  double t0 = -1.0;
  for (;;) {
    const WsClient::Message m = ws.read(Seconds(5));
    if (m.kind == WsClient::Message::Kind::Closed) return ws.close_code();
    if (m.kind != WsClient::Message::Kind::Text) return -1;
    const auto j = nlohmann::json::parse(m.text, nullptr, false);
    if (!j.is_object() || j.value("type", "") != "display" || !j.contains("t") || !j["t"].is_number()) continue;
    const double t = j["t"].get<double>();
    if (t0 < 0) t0 = t;
    if (each) each(t);
    if (t >= t0 + s) return 0;
  }
}

TEST(AuthRoutes, RemovedAccountsAndChangedPasswordsEndTheirLoginsAtOnce) {
  Accounts acc;
  auth::save_accounts(acc.file, {{"ada", auth::hash_password(kPassword, {10, 8, 1}), "2026-11-24T10:00:00Z"},
                                 {"grace", auth::hash_password(kPassword, {10, 8, 1}), "2026-11-24T10:00:00Z"}});
  Server s([&](WebOptions& o) { o.access.accounts_file = acc.file; });
  const std::string ada = token_of(s.login("ada", kPassword));
  const std::string grace = token_of(s.login("grace", kPassword));
  ASSERT_FALSE(ada.empty());
  ASSERT_FALSE(grace.empty());
  Watched watched;
  ASSERT_TRUE(watched.open(s, grace));
  for (const auto& path : {"/api/me", "/api/sessions", "/api/reports"}) {
    EXPECT_EQ(s.get(path, ada).status, 200) << path;
    EXPECT_EQ(s.get(path, grace).status, 200) << path;
  }
  // clamsim-accounts passwd ada; clamsim-accounts remove grace (the same atomic rewrite)
  auth::save_accounts(acc.file, {{"ada", auth::hash_password("a new password", {10, 8, 1}),
                                  "2026-11-24T10:00:00Z"}});
  for (const auto& path : {"/api/me", "/api/sessions", "/api/reports"}) {
    const Reply a = s.get(path, ada), g = s.get(path, grace);
    EXPECT_EQ(a.status, 401) << path;
    EXPECT_EQ(a.json()["ended"], "password changed") << a.body;
    EXPECT_EQ(g.status, 401) << path;
    EXPECT_EQ(g.json()["ended"], "account removed") << g.body;
  }
  // grace's open observer is closed too, within its once-a-second look
  EXPECT_EQ(watched.observer.read_until_closed(Seconds(10)), 1008);
  EXPECT_EQ(watched.observer.close_reason(), "login ended: account removed");
  // the new password logs in
  const std::string again = token_of(s.login("ada", "a new password"));
  EXPECT_EQ(s.get("/api/me", again).status, 200);
}

TEST(AuthRoutes, ALogoutClosesItsObserversAndTheyCannotActAfterIt) {
  Accounts acc;
  Server s([&](WebOptions& o) { o.access.accounts_file = acc.file; });
  const std::string token = token_of(s.login("ada", kPassword));
  const std::string other = token_of(s.login("ada", kPassword));   // a second login: stays
  Watched mine, theirs;
  ASSERT_TRUE(mine.open(s, token));
  ASSERT_TRUE(theirs.open(s, other));
  ASSERT_TRUE(mine.observer.write(R"({"type":"take_control"})"));
  const auto took = mine.observer.read_type("control_answer", Seconds(5));
  ASSERT_TRUE(took) << "the observer acts while logged in";
  EXPECT_EQ(logout(s, token).status, 200);
  // closed at the logout, not at its next action: whatever it sends after is not read
  mine.observer.write(R"({"type":"fault","name":"axis_dead","params":{"axis":"swing"}})");
  mine.observer.write(R"({"type":"message","text":"still here"})");
  bool acted_after = false;
  int code = -1;
  for (int i = 0; i < 2000; ++i) {
    const WsClient::Message m = mine.observer.read(Seconds(5));
    if (m.kind == WsClient::Message::Kind::Closed) {
      code = 1008;
      break;
    }
    if (m.kind != WsClient::Message::Kind::Text) break;
    const auto j = nlohmann::json::parse(m.text, nullptr, false);
    if (j.is_object() && j.value("type", "") == "faults" && !j["active"].empty()) acted_after = true;
  }
  EXPECT_EQ(code, 1008);
  EXPECT_EQ(mine.observer.close_reason(), "login ended: logged out");
  EXPECT_FALSE(acted_after) << "no fault was injected after the logout";
  // nor did the trainee get the message (a second of its frames and notices)
  for (int i = 0; i < 60; ++i) {
    const auto j = mine.trainee.read_json(Seconds(2));
    if (!j) break;
    EXPECT_NE((*j).value("text", ""), "still here") << *j;
  }
  // the other login's observer goes on
  ASSERT_TRUE(theirs.observer.write(R"({"type":"message","text":"hello"})"));
  EXPECT_TRUE(theirs.observer.read_type("display", Seconds(3)));
  EXPECT_EQ(s.get("/api/me", other).status, 200);
}

TEST(AuthRoutes, AnIdleOrOutlivedLoginClosesItsObserver) {
  Accounts acc;
  Server s([&](WebOptions& o) {
    o.access.accounts_file = acc.file;
    o.access.login_idle_s = 2.0;
  });
  const std::string token = token_of(s.login("ada", kPassword));
  Watched watched;
  ASSERT_TRUE(watched.open(s, token));
  // watching alone does not keep the login alive: after 2 s without a request it ends
  EXPECT_EQ(watched.observer.read_until_closed(Seconds(15)), 1008);
  EXPECT_EQ(watched.observer.close_reason(), "login ended: expired");
  const Reply me = s.get("/api/me", token);
  EXPECT_EQ(me.status, 401);
  EXPECT_EQ(me.json()["ended"], "expired");

  Server lifetime([&](WebOptions& o) {
    o.access.accounts_file = acc.file;
    o.access.login_max_s = 2.0;
  });
  const std::string busy = token_of(lifetime.login("ada", kPassword));
  Watched acting;
  ASSERT_TRUE(acting.open(lifetime, busy));
  // requests keep an idle login alive, never past its lifetime: one request and one action
  // every 0.1 s of the session's simulated time, for up to ten lifetimes
  double next = -1.0;
  const int code = read_sim_seconds(acting.observer, 20.0, [&](double t) {
    if (t < next) return;
    next = t + 0.1;
    lifetime.get("/api/sessions", busy);
    acting.observer.write(R"({"type":"message","text":"go on"})");
  });
  EXPECT_EQ(code, 1008) << "the busy login did not end within ten times its 2 s lifetime "
                           "(0: still open; -1: the connection failed)";
  EXPECT_EQ(acting.observer.close_reason(), "login ended: expired");
}

TEST(AuthRoutes, WithoutAccountsALocalObserverNeedsNoLogin) {
  Server s(nullptr);
  WsClient trainee, observer;
  ASSERT_TRUE(trainee.connect(s.server.port(), "/ws"));
  const auto hello = trainee.read_type("hello");
  ASSERT_TRUE(hello);
  ASSERT_TRUE(observer.connect(s.server.port(), "/ws?observe=" + std::to_string((*hello)["session"].get<std::uint64_t>())));
  ASSERT_TRUE(observer.read_type("hello"));
  ASSERT_TRUE(observer.write(R"({"type":"take_control"})"));
  const auto answer = observer.read_type("control_answer", Seconds(5));
  ASSERT_TRUE(answer);
  // still open and acting after more than one look's time (a logged-in connection looks at
  // its login once a second): 1.5 s of the session's simulated time, which never runs ahead
  // of the real clock
  ASSERT_EQ(read_sim_seconds(observer, 1.5), 0) << "closed (its code) or silent (-1): " << observer.close_reason();
  ASSERT_TRUE(observer.write(R"({"type":"message","text":"hi"})"));
  EXPECT_TRUE(observer.read_type("display", Seconds(3)));
}

// ---- no guess is checked past the lockout, and one address's flood
// never refuses another address's login ----

TEST(AuthRoutes, GuessesSentWithoutWaitingNeverPassTheLockout) {
  Accounts acc;
  Server s([&](WebOptions& o) {
    o.access.accounts_file = acc.file;
    o.access.failures_before_lockout = 4;
    o.access.lockout_s = 120;
  });
  // the probe's pattern: 22 attempts one after another without waiting for answers, the
  // right password among the last. Each is sent once the server has read the one before (its
  // request counter), so they arrive in order whatever the machine's speed
  std::vector<Reply> replies(22);
  std::vector<std::thread> senders;
  int unread = -1;
  for (int i = 0; i < 22 && unread < 0; ++i) {
    const std::uint64_t read_before = s.server.stats().http_requests;
    senders.emplace_back([&, i] { replies[i] = s.login("ada", i == 20 ? kPassword : "guess-" + std::to_string(i)); });
    if (!wait_until([&] { return s.server.stats().http_requests > read_before; }, Seconds(30))) unread = i;
  }
  for (auto& t : senders) t.join();
  ASSERT_LT(unread, 0) << "the server did not read login attempt " << unread << " within 30 s";
  std::map<std::string, int> outcomes;
  for (const Reply& r : replies) {
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.status, 503) << "the queue is not full: " << r.body;
    if (r.status == 429) {
      EXPECT_NE(r.header("Retry-After"), "") << r.body;
    }
    const nlohmann::json j = r.json();
    outcomes[std::to_string(r.status) + " " + (j.is_object() ? j.value("error", "ok") : "?")] += 1;
  }
  std::string seen;
  for (const auto& [k, n] : outcomes) seen += k + " x" + std::to_string(n) + "; ";
  std::cout << "[ measured ] 22 logins one after another, lockout after 4: " << seen << "\n";
  // every guess checked was answered 401 or was the one that locked the address
  EXPECT_LE(outcomes["401 wrong_login"], 3) << seen;
  // until the lockout, more guesses: each is checked only while the budget lasts
  int locked = outcomes["429 locked_out"];
  for (int i = 0; i < 10 && locked == 0; ++i)
    if (const nlohmann::json j = s.login("ada", "later-" + std::to_string(i)).json();
        j.is_object() && j.value("error", "") == "locked_out")
      locked = 1;
  ASSERT_GT(locked, 0);
  EXPECT_EQ(s.login("ada", kPassword).status, 429) << "locked: the right password waits too";
  EXPECT_EQ(s.login("ada", kPassword, "127.0.0.2").status, 200);
}

TEST(AuthRoutes, AFloodFromManyAddressesNeverRefusesAnotherAddressesLogin) {
  Accounts acc;
  Server s([&](WebOptions& o) { o.access.accounts_file = acc.file; });
  // twelve addresses, each sending wrong logins two at a time without pause: names without
  // an account, so each costs a full-cost dummy check on the hashing thread
  // An address answered 429 "busy" (its two attempts still under way) tries again once some
  // flood request has been answered; one answered "locked_out" stops: the server refuses it
  // without a check until the lockout ends, so it no longer weighs on anyone.
  std::mutex progress_mutex;
  std::condition_variable progress;
  bool stop = false;
  std::atomic<int> flood_sent{0}, flood_503{0}, flood_429{0};
  const std::uint64_t read_before = s.server.stats().http_requests;
  std::vector<std::thread> flood;
  for (int a = 0; a < 12; ++a)
    for (int k = 0; k < 2; ++k)
      flood.emplace_back([&, a, k] {
        const std::string from = "127.0.0." + std::to_string(10 + a);
        for (int i = 0; i < 40; ++i) {
          const int answered = flood_sent.load();
          {
            std::lock_guard<std::mutex> lock(progress_mutex);
            if (stop) break;
          }
          const Reply r = s.login("nobody-" + std::to_string(k), "guess", from.c_str());
          {
            std::lock_guard<std::mutex> lock(progress_mutex);
            flood_sent += 1;
          }
          progress.notify_all();
          if (r.status == 503) flood_503 += 1;
          if (r.status != 429) continue;
          flood_429 += 1;
          const nlohmann::json j = r.json();
          if (j.is_object() && j.value("error", "") == "locked_out") break;
          std::unique_lock<std::mutex> lock(progress_mutex);
          progress.wait(lock, [&] { return stop || flood_sent.load() > answered + 1; });
        }
      });
  // the flood under way: the server has read as many of its logins as there are flooding
  // connections
  const bool under_way =
      wait_until([&] { return s.server.stats().http_requests >= read_before + 24; }, Seconds(30));
  int ok = 0, busy = 0;
  for (int i = 0; i < 5; ++i) {
    const Reply r = s.login("ada", kPassword, "127.0.0.2");
    if (r.status == 200) ok += 1;
    if (r.status == 503) busy += 1;
    EXPECT_EQ(r.status, 200) << r.body;
  }
  {
    std::lock_guard<std::mutex> lock(progress_mutex);
    stop = true;
  }
  progress.notify_all();
  for (auto& t : flood) t.join();
  EXPECT_TRUE(under_way) << "the server did not read the 24 flooding connections' first logins within 30 s";
  std::cout << "[ measured ] 12 flooding addresses x2 in flight: another address's logins "
            << ok << "/5 answered 200, " << busy << " 503; the flood sent " << flood_sent
            << ", got 503 " << flood_503 << ", 429 " << flood_429 << "\n";
  EXPECT_EQ(flood_503.load(), 0) << "2 per address x 12 addresses fit the queue";
}

}  // namespace
}  // namespace clamsim::web
