// Instructor logins, the role check, the cross-site check and the class code, end to end:
// a real WebServer on 127.0.0.1 (port 0), raw HTTP over loopback, a real WebSocket client.
// A second client address is real too: Linux answers on all of 127.0.0.0/8, so a client
// bound to 127.0.0.2 is another address to the server.
#include "web/auth_routes.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

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
                  const session::EventLog* log = nullptr)
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
                            const session::EventLog* log) {
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
  const session::EventLog log(session::LogFormat::Json, log_file);
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

}  // namespace
}  // namespace clamsim::web
