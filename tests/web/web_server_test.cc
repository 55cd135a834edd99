// The web front end end to end: a real WebServer on 127.0.0.1 (port 0) with a real session
// registry and catalog, talked to by a real Beast client over loopback. Every loop is
// bounded in count and time.
#include "web/web_server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/parts.h"
#include "session/clock.h"
#include "test_client.h"
#include "web/shared_state.h"

namespace clamsim::web {
namespace {

namespace fs = std::filesystem;
using testing::HttpReply;
using testing::Seconds;
using testing::WsClient;

const std::string kSource = CLAMSIM_SOURCE_DIR;

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A web root with an index, a script, a hidden file, a symlink out of the root, and a
// vendor directory standing in for node_modules/three.
struct TempSite {
  fs::path base;
  TempSite() {
    base = fs::temp_directory_path() /
           ("clamsim_web_test_" + std::to_string(::getpid()) + "_" +
            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::remove_all(base);
    write_file(base / "root/index.html", "<!doctype html><title>clamsim</title>\n");
    write_file(base / "root/app.js", "export const x = 1;\n");
    write_file(base / "root/sub/style.css", "body { margin: 0 }\n");
    write_file(base / "root/.env", "secret\n");
    write_file(base / "secret.txt", "outside the root\n");
    fs::create_symlink(base / "secret.txt", base / "root/leak.txt");
    write_file(base / "three/build/three.module.js", "export const REVISION = '0';\n");
  }
  ~TempSite() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
};

// A client scene as the scenario gives it (model::Scenario::client_scene): sent as it is.
nlohmann::ordered_json test_scene() {
  return nlohmann::ordered_json::parse(R"({
    "water_level_m": -2.5,
    "water": {"density_kg_per_m3": 1000},
    "deck": {"center_m": [-3, 0, -12.5], "size_m": [24, 80, 25], "yaw_deg": 0},
    "intake_walls": [{"center_m": [11.5, 3, -11.5], "size_m": [5, 1, 23]},
                     {"center_m": [11.5, -3, -11.5], "size_m": [5, 1, 23]}],
    "loads": [{"id": "log-1", "name": "log", "shape": "cylinder", "mass_kg": 900,
               "radius_m": 0.25, "length_m": 6}],
    "task": {"title": "Clear the rack", "loads": ["log-1"], "optimum_s": 300, "limit_s": 450}
  })");
}

struct Harness {
  explicit Harness(std::size_t max_sessions = 16,
                   std::function<void(WebOptions&)> tweak = nullptr,
                   std::function<void(session::RegistryOptions&)> registry_tweak = nullptr,
                   const std::string& world = "")
      : registry(registry_options(max_sessions, registry_tweak), clock),
        catalog(kSource + "/models", kSource + "/config/scenarios", "t250", world),
        server(options(tweak), registry, catalog) {
    server.start();
  }

  static session::RegistryOptions registry_options(
      std::size_t max_sessions, const std::function<void(session::RegistryOptions&)>& tweak) {
    session::RegistryOptions o;
    o.max_sessions = max_sessions;
    o.report_dir = "";  // no report files from the tests
    if (tweak) tweak(o);
    return o;
  }
  WebOptions options(const std::function<void(WebOptions&)>& tweak) {
    WebOptions o;
    o.port = 0;
    o.threads = 2;
    o.web_root = (site.base / "root").string();
    o.vendor_three_dir = (site.base / "three").string();
    o.scene = test_scene();
    // tests connect far faster than browsers do; the rate limit has tests of its own
    o.connection_rate_per_client = 0.0;
    if (tweak) tweak(o);
    return o;
  }
  std::uint16_t port() const { return server.port(); }

  TempSite site;
  session::SteadyClock clock;
  session::SessionRegistry registry;
  session::Catalog catalog;
  WebServer server;   // declared last: stopped before the registry goes
};

// Connects and reads the hello.
nlohmann::json open_session(WsClient& c, std::uint16_t port, int rcvbuf = 0) {
  EXPECT_TRUE(c.connect(port, "/ws", "", rcvbuf));
  auto hello = c.read_json(Seconds(3));
  EXPECT_TRUE(hello.has_value());
  return hello ? *hello : nlohmann::json{};
}

TEST(WebServer, HelloComesFirstWithTheMachineGeometryAndTheScene) {
  Harness h;
  ASSERT_NE(h.port(), 0);
  WsClient c;
  const nlohmann::json hello = open_session(c, h.port());
  ASSERT_EQ(hello["type"], "hello");
  EXPECT_EQ(hello["protocol"], 2);
  EXPECT_EQ(hello["model"], "t250");
  EXPECT_DOUBLE_EQ(hello["frame_period_s"].get<double>(), 0.05);
  EXPECT_EQ(hello["display_fields"].size(), 8u);
  const auto& crane = hello["machine"]["crane"];
  EXPECT_DOUBLE_EQ(crane["d1_m"].get<double>(), 2.4);
  EXPECT_DOUBLE_EQ(crane["telescope_max_m"].get<double>(), 24.4);
  // the base section is a 9.7 m box (models/t250.json), recovered from its inertias
  EXPECT_NEAR(crane["links"]["boom_base"]["box_m"][2].get<double>(), 9.7, 0.01);
  EXPECT_EQ(hello["machine"]["cables"].size(), 2u);
  EXPECT_EQ(hello["scene"], nlohmann::json::parse(test_scene().dump()))
      << "the client scene as it is";
  EXPECT_EQ(h.registry.size(), 1u);
  const auto first = c.read_type("display");
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ((*first)["display"].size(), 8u);
}

TEST(WebServer, DisplayCarriesTheWorldFields) {
  Harness h;
  WsClient c;
  open_session(c, h.port());
  const auto d = c.read_type("display");
  ASSERT_TRUE(d.has_value());
  const nlohmann::json& j = *d;
  EXPECT_EQ(j["clam_swing_deg"].size(), 2u);
  ASSERT_EQ(j["clam_orientation"].size(), 4u);
  double q2 = 0;
  for (const auto& x : j["clam_orientation"]) q2 += x.get<double>() * x.get<double>();
  EXPECT_NEAR(q2, 1.0, 1e-3) << "a unit quaternion w, x, y, z";
  EXPECT_TRUE(j["clam_contact_force_N"].is_number());
  EXPECT_TRUE(j["clam_submerged"].is_number());
  ASSERT_TRUE(j["loads"].is_array());
  for (const auto& l : j["loads"]) {
    for (const char* k : {"id", "position_m", "orientation", "held", "in_contact", "submerged"})
      EXPECT_TRUE(l.contains(k)) << k << " in " << l;
  }
  EXPECT_TRUE(j["held_load"].is_null() || j["held_load"].is_number_integer());
  EXPECT_TRUE(j["contacts"].is_array());
  for (const char* k : {"rack_gate_hits", "structure_hits", "load_impacts",
                        "slack_cables", "overloads", "grips", "releases"})
    EXPECT_TRUE(j["events"][k].is_number_unsigned()) << k;
  ASSERT_TRUE(j["score"].is_object());
  EXPECT_TRUE(j["score"]["enabled"].is_boolean());
}

// The instructor's overview: every live session with its task's live score, the finished
// reports newest first, and one report by name; nothing outside the report directory.
TEST(WebServer, InstructorApiListsLiveSessionsAndFinishedReports) {
  const std::filesystem::path reports =
      std::filesystem::temp_directory_path() / ("clamsim-web-reports-" + std::to_string(getpid()));
  std::filesystem::remove_all(reports);
  std::filesystem::create_directories(reports);
  const std::string report_text =
      R"j({"schema": "clamsim-report/1", "session": "session 4 (t250, dam_intake)", "outcome": "completed", "total": 85.0})j";
  std::ofstream(reports / "report-4-20261121T215001Z.json") << report_text;
  std::ofstream(reports.parent_path() / "report-4-20261121T215001Z.json.secret") << "TOP-SECRET";
  {
    Harness h(16, nullptr, [&](session::RegistryOptions& o) { o.report_dir = reports.string(); },
              "dam_intake");
    HttpReply r = testing::http_request(h.port(), "/api/sessions");
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.content_type, "application/json");
    EXPECT_EQ(nlohmann::json::parse(r.body)["sessions"].size(), 0u);

    WsClient trainee;
    const nlohmann::json hello = open_session(trainee, h.port());
    // the task's clock starts at the first moved control
    ASSERT_TRUE(trainee.write(R"({"type":"control","volts":[0,0,0.5,0,0]})"));
    for (int i = 0; i < 60; ++i) {  // until the task clock has run half a second
      const auto f = trainee.read_type("display");
      ASSERT_TRUE(f.has_value());
      if ((*f)["score"]["elapsed_s"].get<double>() > 0.5) break;
    }
    r = testing::http_request(h.port(), "/api/sessions");
    ASSERT_EQ(r.status, 200);
    const nlohmann::json live = nlohmann::json::parse(r.body);
    ASSERT_EQ(live["sessions"].size(), 1u);
    const auto& s = live["sessions"][0];
    EXPECT_EQ(s["id"], hello["session"]);
    EXPECT_EQ(s["model"], "t250");
    EXPECT_EQ(s["world"], "dam_intake");
    EXPECT_NE(s["label"].get<std::string>().find("t250"), std::string::npos);
    EXPECT_GT(s["sim_time_s"].get<double>(), 0.5);
    EXPECT_EQ(s["task"]["running"], true);
    EXPECT_GT(s["task"]["elapsed_s"].get<double>(), 0.5);
    EXPECT_DOUBLE_EQ(s["task"]["total"].get<double>(), 100.0) << "no penalty yet, within the optimum";
    EXPECT_EQ(s["task"]["required"], hello["scene"]["task"]["loads"].size());
    EXPECT_EQ(live["capacity"], 16);
    EXPECT_TRUE(s["trainee"].is_null()) << "no name given yet";

    // the trainee gives a name: acknowledged trimmed, shown to the instructor; a bad one
    // is an error naming why and changes nothing
    ASSERT_TRUE(trainee.write(R"({"type":"trainee","name":"  Ada Lovelace "})"));
    const auto ack = trainee.read_type("trainee");
    ASSERT_TRUE(ack.has_value());
    EXPECT_EQ((*ack)["name"], "Ada Lovelace");
    ASSERT_TRUE(trainee.write(R"({"type":"trainee","name":"   "})"));
    const auto refused = trainee.read_type("error");
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ((*refused)["code"], "bad_trainee");
    EXPECT_NE((*refused)["message"].get<std::string>().find("empty"), std::string::npos);
    r = testing::http_request(h.port(), "/api/sessions");
    EXPECT_EQ(nlohmann::json::parse(r.body)["sessions"][0]["trainee"], "Ada Lovelace");

    r = testing::http_request(h.port(), "/api/reports");
    ASSERT_EQ(r.status, 200);
    const nlohmann::json list = nlohmann::json::parse(r.body);
    ASSERT_EQ(list["reports"].size(), 1u);
    EXPECT_EQ(list["reports"][0]["name"], "report-4-20261121T215001Z.json");
    EXPECT_EQ(list["reports"][0]["outcome"], "completed");
    EXPECT_DOUBLE_EQ(list["reports"][0]["total"].get<double>(), 85.0);

    r = testing::http_request(h.port(), "/api/reports/report-4-20261121T215001Z.json");
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.body, report_text);
    for (const char* bad : {"/api/reports/report-5-20261121T215001Z.json",
                            "/api/reports/../report-4-20261121T215001Z.json.secret",
                            "/api/reports/%2e%2e/report-4-20261121T215001Z.json.secret",
                            "/api/reports/", "/api/reports/passwd"}) {
      r = testing::http_request(h.port(), bad);
      EXPECT_TRUE(r.status == 404 || r.status == 400) << bad << ": " << r.status;
      EXPECT_EQ(r.body.find("TOP-SECRET"), std::string::npos) << bad;
    }
  }
  std::filesystem::remove(reports.parent_path() / "report-4-20261121T215001Z.json.secret");
  std::filesystem::remove_all(reports);
}

// The list filtered by trainee and end time, and the same list as CSV for a spreadsheet;
// a malformed filter is 400 naming the parameter.
TEST(WebServer, ReportListFiltersAndExportsCsv) {
  const fs::path reports =
      fs::temp_directory_path() / ("clamsim-web-report-list-" + std::to_string(getpid()));
  fs::remove_all(reports);
  fs::create_directories(reports);
  const auto write = [&](const char* name, const char* trainee, const char* ended) {
    std::ofstream(reports / name)
        << R"j({"schema": "clamsim-report/1", "session": "session 1 (t250, dam_intake)", "trainee": ")j"
        << trainee << R"j(", "task": "Clear", "ended_utc": ")j" << ended
        << R"j(", "outcome": "completed", "elapsed_s": 60.00000000000001, "total": 84.96,)j"
        << R"j( "delivered": 3, "required": 3})j";
  };
  write("report-1-20261120T090000Z.json", "Ada Lovelace", "2026-11-20T09:00:00Z");
  write("report-2-20261121T090000Z.json", "Grace Hopper", "2026-11-21T09:00:00Z");
  write("report-3-20261122T090000Z.json", "=1+1", "2026-11-22T09:00:00Z");
  {
    Harness h(16, nullptr, [&](session::RegistryOptions& o) { o.report_dir = reports.string(); });
    const auto names = [&](const std::string& target) {
      const HttpReply r = testing::http_request(h.port(), target);
      EXPECT_EQ(r.status, 200) << target << ": " << r.body;
      std::vector<std::string> out;
      const nlohmann::json body = nlohmann::json::parse(r.body);  // outlives the loop
      for (const auto& e : body["reports"]) out.push_back(e["trainee"].get<std::string>());
      return out;
    };
    EXPECT_EQ(names("/api/reports"), (std::vector<std::string>{"=1+1", "Grace Hopper", "Ada Lovelace"}));
    EXPECT_EQ(names("/api/reports?trainee=HOPPER"), (std::vector<std::string>{"Grace Hopper"}));
    EXPECT_EQ(names("/api/reports?from=2026-11-21&to=2026-11-22"),
              (std::vector<std::string>{"Grace Hopper"}));
    EXPECT_EQ(names("/api/reports?from=2026-11-20T09:00:01Z"),
              (std::vector<std::string>{"=1+1", "Grace Hopper"}));
    const HttpReply list = testing::http_request(h.port(), "/api/reports?trainee=ada");
    EXPECT_EQ(nlohmann::json::parse(list.body)["reports"][0]["elapsed_s"].dump(), "60.0");

    HttpReply r = testing::http_request(h.port(), "/api/reports.csv?to=2026-11-21");
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.content_type, "text/csv; charset=utf-8");
    EXPECT_EQ(r.body,
              "ended_utc,trainee,task,session,outcome,elapsed_s,total,delivered,required,report\r\n"
              "\"2026-11-20T09:00:00Z\",\"Ada Lovelace\",\"Clear\",\"session 1 (t250, dam_intake)\","
              "\"completed\",60.00,85.0,3,3,\"report-1-20261120T090000Z.json\"\r\n");
    r = testing::http_request(h.port(), "/api/reports.csv?trainee=%3D");
    EXPECT_NE(r.body.find("\"'=1+1\""), std::string::npos) << r.body;

    r = testing::http_request(h.port(), "/api/reports?from=last+week");
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("from: 'last week' is not a UTC date or time"), std::string::npos) << r.body;
    r = testing::http_request(h.port(), "/api/reports.csv?sort=name");
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("unknown parameter 'sort'"), std::string::npos) << r.body;
  }
  fs::remove_all(reports);
}

// Files in the report folder that once ended the process (a `schema` of another
// type, a 20-digit session number), a link out of the folder and a directory named like
// a report. The server answers every request and serves neither the link nor the directory.
TEST(WebServer, ReportFolderOddFilesNeverEndTheServerNorLeakThroughLinks) {
  const fs::path reports =
      fs::temp_directory_path() / ("clamsim-web-bad-reports-" + std::to_string(getpid()));
  fs::remove_all(reports);
  fs::create_directories(reports);
  std::ofstream(reports / "report-1-20261121T215001Z.json") << R"({"schema": 5})";
  std::ofstream(reports / "report-99999999999999999999-20261121T215001Z.json")
      << R"({"schema": "clamsim-report/1", "outcome": "completed"})";
  fs::create_symlink("/etc/passwd", reports / "report-2-20261121T215001Z.json");
  fs::create_directory(reports / "report-3-20261121T215001Z.json");
  {
    Harness h(16, nullptr, [&](session::RegistryOptions& o) { o.report_dir = reports.string(); });
    for (int round = 0; round < 3; ++round) {  // the instructor page polls
      HttpReply r = testing::http_request(h.port(), "/api/reports");
      ASSERT_EQ(r.status, 200) << "round " << round;
      const nlohmann::json list = nlohmann::json::parse(r.body)["reports"];
      ASSERT_EQ(list.size(), 2u) << r.body;
      EXPECT_EQ(list[0]["name"], "report-99999999999999999999-20261121T215001Z.json");
      EXPECT_EQ(list[0]["outcome"], "completed");
      EXPECT_EQ(list[1]["outcome"], "unreadable");
    }
    HttpReply link = testing::http_request(h.port(), "/api/reports/report-2-20261121T215001Z.json");
    EXPECT_EQ(link.status, 404);
    EXPECT_EQ(link.body.find("root:"), std::string::npos) << "the link was followed";
    HttpReply dir = testing::http_request(h.port(), "/api/reports/report-3-20261121T215001Z.json");
    EXPECT_EQ(dir.status, 404) << "a directory is not a report";
    EXPECT_EQ(testing::http_request(h.port(), "/healthz").status, 200);
  }
  fs::remove_all(reports);
}

// Sessions in the shipped dam world: hello.scene is that world's scene, every frame poses
// its loads (ids from the scene), the task is scored, and a restart starts it over.
TEST(WebServer, AWorldSessionDrawsItsLoadsAndRestartsItsTask) {
  Harness h(16, nullptr, nullptr, "dam_intake");
  const auto world = h.catalog.world();
  ASSERT_NE(world, nullptr);
  WsClient c;
  const nlohmann::json hello = open_session(c, h.port());
  EXPECT_EQ(hello["scene"], nlohmann::json::parse(world->client_scene.dump()))
      << "the session's world, not WebOptions::scene";
  const auto& scene_loads = hello["scene"]["loads"];
  ASSERT_GT(scene_loads.size(), 0u);
  ASSERT_TRUE(hello["scene"].contains("task"));

  nlohmann::json d;
  // the task's clock waits for the first moved control
  const auto idle = c.read_type("display");
  ASSERT_TRUE(idle.has_value());
  EXPECT_EQ((*idle)["score"]["running"], false);
  EXPECT_EQ((*idle)["score"]["elapsed_s"], 0.0);
  ASSERT_TRUE(c.write(R"({"type":"control","volts":[0,0,0.5,0,0]})"));
  for (int i = 0; i < 60; ++i) {  // until the task clock has run a second
    const auto f = c.read_type("display");
    ASSERT_TRUE(f.has_value());
    d = *f;
    if (d["score"]["elapsed_s"].get<double>() > 1.0) break;
  }
  ASSERT_EQ(d["loads"].size(), scene_loads.size());
  for (std::size_t i = 0; i < scene_loads.size(); ++i) {
    EXPECT_EQ(d["loads"][i]["id"], scene_loads[i]["id"]) << i;
    EXPECT_EQ(d["loads"][i]["position_m"].size(), 3u);
    EXPECT_EQ(d["loads"][i]["orientation"].size(), 4u);
  }
  const auto& score = d["score"];
  EXPECT_EQ(score["enabled"], true);
  EXPECT_EQ(score["running"], true);
  EXPECT_GT(score["elapsed_s"].get<double>(), 1.0);
  EXPECT_EQ(score["required"], hello["scene"]["task"]["loads"].size());
  EXPECT_DOUBLE_EQ(score["optimum_s"].get<double>(),
                   hello["scene"]["task"]["optimum_s"].get<double>());

  ASSERT_TRUE(c.write(R"({"type":"restart","id":9})"));
  const auto reply = c.read_type("restarting");
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ((*reply)["id"], 9);
  // within a few frames: the new attempt, its clock and sim time near 0
  bool restarted = false;
  for (int i = 0; i < 10 && !restarted; ++i) {
    const auto f = c.read_type("display");
    ASSERT_TRUE(f.has_value());
    restarted = (*f)["t"].get<double>() < 0.5 && (*f)["score"]["elapsed_s"].get<double>() < 0.5;
    EXPECT_GT((*f)["seq"].get<int>(), d["seq"].get<int>()) << "seq goes on";
  }
  EXPECT_TRUE(restarted);

  // a practice attempt: no limit, marked in every frame's score
  ASSERT_TRUE(c.write(R"({"type":"restart","id":10,"practice":true})"));
  ASSERT_TRUE(c.read_type("restarting").has_value());
  bool practice = false;
  for (int i = 0; i < 10 && !practice; ++i) {
    const auto f = c.read_type("display");
    ASSERT_TRUE(f.has_value());
    practice = (*f)["score"]["practice"] == true && (*f)["score"]["limit_s"] == 0.0;
  }
  EXPECT_TRUE(practice);
}

// A connection may name another world scenario: it gets that world's scene, not the
// server's.
TEST(WebServer, AConnectionThatNamesAWorldGetsItsScene) {
  Harness h;  // the server's scene is test_scene(); sessions start in empty space
  WsClient plain;
  EXPECT_EQ(open_session(plain, h.port())["scene"], nlohmann::json::parse(test_scene().dump()));
  WsClient dam;
  ASSERT_TRUE(dam.connect(h.port(), "/ws?scenario=dam_intake"));
  const auto hello = dam.read_json(Seconds(3));
  ASSERT_TRUE(hello.has_value());
  ASSERT_EQ((*hello)["type"], "hello");
  EXPECT_EQ((*hello)["scene"],
            nlohmann::json::parse(h.catalog.world("dam_intake")->client_scene.dump()));
  const auto d = dam.read_type("display");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ((*d)["loads"].size(), (*hello)["scene"]["loads"].size());
}

// restart: the session is asked to start over, the browser is told, frames go on.
TEST(WebServer, RestartRoundTrip) {
  Harness h;
  WsClient c;
  open_session(c, h.port());
  ASSERT_TRUE(c.read_type("display").has_value());
  ASSERT_TRUE(c.write(R"({"type":"restart","id":"r1"})"));
  const auto reply = c.read_type("restarting");
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ((*reply)["id"], "r1");
  ASSERT_TRUE(c.write(R"({"type":"restart"})"));
  const auto plain = c.read_type("restarting");
  ASSERT_TRUE(plain.has_value());
  EXPECT_TRUE((*plain)["id"].is_null());
  // a malformed restart changes nothing and says why
  ASSERT_TRUE(c.write(R"({"type":"restart","id":[1]})"));
  const auto e = c.read_type("error");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ((*e)["code"], "bad_message");
  EXPECT_NE((*e)["message"].get<std::string>().find("restart"), std::string::npos);
  const auto a = c.read_type("display");
  const auto b = c.read_type("display");
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_GT((*b)["seq"].get<int>(), (*a)["seq"].get<int>());
  EXPECT_EQ(h.registry.size(), 1u) << "the same session";
  EXPECT_EQ(h.server.stats().ws_errors_sent, 1u);
}

TEST(WebServer, ASceneThatIsNotAnObjectIsRefusedAtConstruction) {
  session::SteadyClock clock;
  session::SessionRegistry registry(session::RegistryOptions{}, clock);
  session::Catalog catalog(kSource + "/models", kSource + "/config/scenarios", "t250");
  WebOptions o;
  o.port = 0;
  o.scene = nlohmann::ordered_json::array({1, 2});
  const auto make = [&] { WebServer server(o, registry, catalog); };
  EXPECT_THROW(make(), std::invalid_argument);
  o.scene = nullptr;  // no scene: an empty world
  EXPECT_NO_THROW(make());
}

// 20 Hz is the simulated period each frame carries (t against seq), not a count per
// wall-clock second: how fast a loaded machine delivers them is the benchmarks' figure.
TEST(WebServer, SendsFramesAtTwentyHertzWithContinuousSequence) {
  Harness h;
  WsClient c;
  const nlohmann::json hello = open_session(c, h.port());
  const auto session = h.registry.find(hello["session"].get<std::uint64_t>());
  ASSERT_NE(session, nullptr);
  int frames = 0;
  std::int64_t last_seq = -1, missing = 0;
  for (int i = 0; i < 400 && frames < 20; ++i) {
    auto j = c.read_json(Seconds(10));
    ASSERT_TRUE(j.has_value()) << "the frames stopped after " << frames;
    if ((*j)["type"] != "display") continue;
    const auto seq = (*j)["seq"].get<std::int64_t>();
    ASSERT_GT(seq, last_seq) << "in order";
    // frame seq k carries the state after k + 1 periods of 50 ms (t rounded to 0.1 ms)
    EXPECT_NEAR((*j)["t"].get<double>(), 0.05 * static_cast<double>(seq + 1), 1e-4) << seq;
    if (last_seq >= 0) missing += seq - last_seq - 1;
    last_seq = seq;
    ++frames;
  }
  ASSERT_EQ(frames, 20);
  // A reader that keeps up sees every frame its session sent: the only holes allowed are
  // frames the session itself skipped because the machine was short of CPU (counted).
  EXPECT_EQ(h.server.stats().ws_frames_dropped, 0u);
  EXPECT_LE(missing, static_cast<std::int64_t>(session->counters().skipped_frames));
}

TEST(WebServer, ControlSwingsTheCrane) {
  Harness h;
  WsClient c;
  open_session(c, h.port());
  const auto first = c.read_type("display");
  ASSERT_TRUE(first.has_value());
  const double swing0 = (*first)["display"][0].get<double>();
  ASSERT_TRUE(c.write(R"({"type":"control","volts":[5,0,0,0,0]})"));
  double swing = swing0;
  for (int i = 0; i < 80 && std::fabs(swing - swing0) < 0.5; ++i) {
    const auto d = c.read_type("display");
    ASSERT_TRUE(d.has_value());
    swing = (*d)["display"][0].get<double>();
  }
  EXPECT_GT(swing - swing0, 0.5) << "+5 V swings counter-clockwise (display[0] grows)";
  const auto totals = h.registry.totals();
  EXPECT_EQ(totals.controls_received, 1u);
  EXPECT_EQ(totals.controls_rejected, 0u);
}

// The frame carries what the browser draws (every part's pose, in the hello's
// order, and the world's flags) and which of the browser's controls it reflects.
TEST(WebServer, FramesCarryThePartsTheFlagsAndTheControlsTheyReflect) {
  Harness h;
  WsClient c;
  const nlohmann::json hello = open_session(c, h.port());
  ASSERT_EQ(hello["parts"].size(), static_cast<std::size_t>(core::kParts));
  EXPECT_EQ(hello["parts"][0], "carrier");
  EXPECT_EQ(hello["frame_rates_hz"], nlohmann::json::parse("[20, 30, 60]"));
  const auto first = c.read_type("display");
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ((*first)["control_seq"], 0u);
  ASSERT_EQ((*first)["parts"].size(), static_cast<std::size_t>(core::kParts));
  for (const auto& p : (*first)["parts"]) ASSERT_EQ(p.size(), 7u) << "x, y, z, qw, qx, qy, qz";
  // the fly's origin is the tip (to the 0.1 mm the frame rounds to)
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR((*first)["parts"][3][k].get<double>(), (*first)["tip_m"][k].get<double>(), 1e-4);
  const auto& flags = (*first)["flags"];
  EXPECT_EQ(flags["slack"].size(), 2u);
  EXPECT_TRUE(flags["overload"].is_boolean());
  EXPECT_TRUE(flags["two_block"].is_boolean());
  // two controls: a frame computed after both reflects both
  ASSERT_TRUE(c.write(R"({"type":"control","volts":[1,0,0,0,0]})"));
  ASSERT_TRUE(c.write(R"({"type":"control","volts":[2,0,0,0,0]})"));
  std::uint64_t seen = 0;
  for (int i = 0; i < 40 && seen < 2; ++i) {
    const auto d = c.read_type("display");
    ASSERT_TRUE(d.has_value());
    const auto seq = (*d)["control_seq"].get<std::uint64_t>();
    EXPECT_GE(seq, seen) << "never goes back";
    seen = seq;
  }
  EXPECT_EQ(seen, 2u);
}

// /ws?rate=: 20, 30 or 60 frames per second within the server's limit, in whole model steps
// rounded up; anything else is refused with the choices.
TEST(WebServer, ABrowserMayAskForAFasterFrameRateWithinTheServersLimit) {
  Harness h(16, [](WebOptions& o) { o.max_frame_rate_hz = 30; });
  WsClient fast;
  ASSERT_TRUE(fast.connect(h.port(), "/ws?rate=30"));
  const auto hello = fast.read_json(Seconds(3));
  ASSERT_TRUE(hello.has_value());
  EXPECT_NEAR((*hello)["frame_period_s"].get<double>(), 0.035, 1e-12)
      << "1/30 s is 13.3 steps of 2.5 ms: 14 steps";
  EXPECT_EQ((*hello)["frame_rates_hz"], nlohmann::json::parse("[20, 30]"));
  const auto a = fast.read_type("display");
  const auto b = fast.read_type("display");
  ASSERT_TRUE(a && b);
  EXPECT_NEAR((*b)["t"].get<double>() - (*a)["t"].get<double>(), 0.035, 1e-9);

  for (const char* bad : {"60", "25", "fast", ""}) {
    WsClient c;
    ASSERT_TRUE(c.connect(h.port(), std::string("/ws?rate=") + bad));
    EXPECT_EQ(c.read_until_closed(), 1008) << bad;
    EXPECT_NE(c.close_reason().find("choose one of 20, 30"), std::string::npos)
        << c.close_reason();
  }
  EXPECT_EQ(h.registry.size(), 1u) << "no session for a refused rate";
}

TEST(WebServer, MalformedMessagesGetAnErrorAndTheSessionKeepsSending) {
  Harness h;
  WsClient c;
  open_session(c, h.port());
  struct Case {
    const char* text;
    const char* code;
    const char* mentions;
  };
  const Case cases[] = {
      {"this is not json", "bad_json", "not JSON"},
      {"[1, 2, 3]", "bad_json", "array"},
      {R"({"volts": [0, 0, 0, 0, 0]})", "bad_message", "type"},
      {R"({"type": "warp"})", "unknown_type", "warp"},
      {R"({"type": "control"})", "bad_message", "volts"},
      {R"({"type": "control", "volts": [1, 2, 3, 4]})", "bad_control", "4 values"},
      {R"({"type": "control", "volts": ["5", 0, 0, 0, 0]})", "bad_control", "volts[0] (swing)"},
      {R"({"type": "control", "volts": [0, 0, null, 0, 0]})", "bad_control", "volts[2]"},
      {R"({"type": "control", "volts": [0, 0, 0, 1e999, 0]})", "bad_json", "not JSON"},
      {R"({"type": "control", "volts": {"a": 1}})", "bad_control", "not an array"},
      {R"({"type": "ping", "id": [1]})", "bad_message", "id"},
      {R"({"type": "control", "volts": [9, 0, 0, 0, 0]})", "clamped", "[0] 9 V"},
  };
  for (const Case& k : cases) {
    ASSERT_TRUE(c.write(k.text)) << k.text;
    const auto e = c.read_type("error");
    ASSERT_TRUE(e.has_value()) << k.text;
    EXPECT_EQ((*e)["code"], k.code) << k.text;
    EXPECT_NE((*e)["message"].get<std::string>().find(k.mentions), std::string::npos)
        << k.text << " -> " << (*e)["message"];
  }
  // still alive: frames keep coming and a ping is answered
  const auto before = c.read_type("display");
  ASSERT_TRUE(before.has_value());
  const auto after = c.read_type("display");
  ASSERT_TRUE(after.has_value());
  EXPECT_GT((*after)["seq"].get<int>(), (*before)["seq"].get<int>());
  ASSERT_TRUE(c.write(R"({"type":"ping","id":7,"t":1234.5})"));
  const auto pong = c.read_type("pong");
  ASSERT_TRUE(pong.has_value());
  EXPECT_EQ((*pong)["id"], 7);
  EXPECT_DOUBLE_EQ((*pong)["t"].get<double>(), 1234.5);
  EXPECT_GT((*pong)["sim_t"].get<double>(), 0.0);
  EXPECT_EQ(h.registry.size(), 1u);
  EXPECT_GE(h.server.stats().ws_errors_sent, 11u);
}

TEST(WebServer, OversizedMessageClosesWith1009) {
  Harness h;
  WsClient c;
  open_session(c, h.port());
  ASSERT_TRUE(c.write(std::string(5000, ' ')));
  EXPECT_EQ(c.read_until_closed(), 1009);
  // the server counts once its side of the close is done
  for (int i = 0; i < 100 && (h.server.stats().ws_closed_too_big == 0 || h.registry.size() > 0);
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(h.server.stats().ws_closed_too_big, 1u);
  EXPECT_EQ(h.registry.size(), 0u);
}

TEST(WebServer, FloodingClosesWith1008) {
  Harness h;
  WsClient c;
  open_session(c, h.port());
  int sent = 0;
  for (int i = 0; i < 300; ++i) {
    if (!c.write(R"({"type":"control","volts":[0,0,0,0,0]})")) break;
    ++sent;
  }
  EXPECT_GT(sent, 200);
  EXPECT_EQ(c.read_until_closed(), 1008);
  EXPECT_NE(c.close_reason().find("flooding"), std::string::npos) << c.close_reason();
  EXPECT_EQ(h.server.stats().ws_closed_flood, 1u);
}

TEST(WebServer, BinaryMessageClosesWith1003) {
  Harness h;
  WsClient c;
  open_session(c, h.port());
  ASSERT_TRUE(c.write("\x01\x02", /*binary=*/true));
  EXPECT_EQ(c.read_until_closed(), 1003);
}

TEST(WebServer, FullServerClosesWith1013AndTheRegistrysReason) {
  Harness h(/*max_sessions=*/2);
  WsClient a, b, c;
  open_session(a, h.port());
  open_session(b, h.port());
  ASSERT_TRUE(c.connect(h.port()));
  EXPECT_EQ(c.read_until_closed(), 1013);
  EXPECT_EQ(c.close_reason(), "server full: 2 of 2 sessions in use");
  EXPECT_EQ(h.registry.size(), 2u);
  a.close();
  // the slot comes back once the first connection has gone
  for (int i = 0; i < 100 && h.registry.size() > 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  WsClient d;
  EXPECT_EQ(open_session(d, h.port())["type"], "hello");
}

TEST(WebServer, ForeignOriginIsRefusedLocalhostAllowed) {
  Harness h;
  WsClient evil;
  ASSERT_TRUE(evil.connect(h.port(), "/ws", "http://evil.example"));
  EXPECT_EQ(evil.read_until_closed(), 1008);
  WsClient dev;
  ASSERT_TRUE(dev.connect(h.port(), "/ws", "http://localhost:5173"));
  const auto hello = dev.read_json();
  ASSERT_TRUE(hello.has_value());
  EXPECT_EQ((*hello)["type"], "hello");
}

TEST(WebServer, UnknownModelIsRefusedByName) {
  Harness h;
  WsClient c;
  ASSERT_TRUE(c.connect(h.port(), "/ws?model=nosuch"));
  EXPECT_EQ(c.read_until_closed(), 1008);
  EXPECT_NE(c.close_reason().find("nosuch"), std::string::npos);
}

// A browser that stops reading for 3 s: the server drops its oldest frames instead of
// slowing its session; another browser keeps every frame.
TEST(WebServer, SlowReaderDropsFramesWithoutStallingItsSessionOrOthers) {
  Harness h(16, [](WebOptions& o) { o.socket_send_buffer_bytes = 4096; });
  WsClient slow, fast;
  const nlohmann::json hello = open_session(slow, h.port(), /*rcvbuf=*/4096);
  const auto slow_session = h.registry.find(hello["session"].get<std::uint64_t>());
  ASSERT_NE(slow_session, nullptr);
  const nlohmann::json fast_hello = open_session(fast, h.port());
  const auto fast_session = h.registry.find(fast_hello["session"].get<std::uint64_t>());
  ASSERT_NE(fast_session, nullptr);

  const auto sent_before = slow_session->counters().frames_sent;
  // `slow` reads nothing while `fast` reads for 3 s
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  int fast_frames = 0;
  std::int64_t last = -1, fast_missing = 0;
  for (int i = 0; i < 400 && std::chrono::steady_clock::now() < end; ++i) {
    auto j = fast.read_json(Seconds(1));
    ASSERT_TRUE(j.has_value());
    if ((*j)["type"] != "display") continue;
    const auto seq = (*j)["seq"].get<std::int64_t>();
    ASSERT_GT(seq, last) << "in order";
    if (last >= 0) fast_missing += seq - last - 1;
    last = seq;
    ++fast_frames;
  }
  const auto slow_counters = slow_session->counters();
  EXPECT_GE(slow_counters.frames_sent - sent_before, 40u) << "the session kept its pace";
  EXPECT_EQ(slow_counters.send_failures, 0u);
  EXPECT_GT(h.server.stats().ws_frames_dropped, 0u) << "the oldest frames were dropped";
  EXPECT_GE(fast_frames, 45);
  // the other browser is unaffected: it misses only what its own session skipped for want
  // of CPU (a loaded machine), nothing its connection dropped
  EXPECT_LE(fast_missing, static_cast<std::int64_t>(fast_session->counters().skipped_frames));
  EXPECT_TRUE(slow_session->running());

  // reading again: a gap in seq, then current frames
  std::int64_t prev = -1;
  bool gap = false;
  std::int64_t newest = -1;
  for (int i = 0; i < 200; ++i) {
    auto j = slow.read_json(Seconds(1));
    ASSERT_TRUE(j.has_value());
    if ((*j)["type"] != "display") continue;
    const auto seq = (*j)["seq"].get<std::int64_t>();
    if (prev >= 0 && seq > prev + 1) gap = true;
    prev = newest = seq;
    if (gap && i > 40) break;
  }
  EXPECT_TRUE(gap);
  EXPECT_GE(newest, 60) << "frames kept being produced through the stall";
  const std::string metrics = h.server.metrics_text();
  EXPECT_NE(metrics.find("clamsim_ws_dropped_frames_total "), std::string::npos);
}

// A browser that never reads again: once a write has been stuck longer than write_stall_s
// its frames count as failed, the registry reaps the session, and the connection is dropped.
TEST(WebServer, ABrowserThatNeverReadsIsReapedAndDropped) {
  Harness h(
      16,
      [](WebOptions& o) {
        o.socket_send_buffer_bytes = 4096;
        o.write_stall_s = 0.3;
      },
      [](session::RegistryOptions& r) {
        r.send_grace_s = 0.3;
        r.reap_interval_s = 0.05;
      });
  WsClient dead;
  open_session(dead, h.port(), /*rcvbuf=*/4096);
  ASSERT_EQ(h.registry.size(), 1u);
  // the reaper counts once the session has stopped
  for (int i = 0; i < 800 && h.registry.sessions_reaped() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(h.registry.sessions_reaped(), 1u) << "reaped within 8 s";
  EXPECT_EQ(h.registry.size(), 0u);
  for (int i = 0; i < 100 && h.server.stats().ws_open > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(h.server.stats().ws_closed_stalled, 1u);
  EXPECT_EQ(h.server.stats().ws_open, 0u);
}

TEST(WebServer, ServesStaticFilesWithTypesAndNeverOutsideTheRoot) {
  Harness h;
  const auto port = h.port();
  HttpReply r = testing::http_request(port, "/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_NE(r.body.find("<title>clamsim</title>"), std::string::npos);
  r = testing::http_request(port, "/app.js?v=3");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/javascript; charset=utf-8");
  r = testing::http_request(port, "/sub/style.css");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/css; charset=utf-8");
  r = testing::http_request(port, "/vendor/three/build/three.module.js");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("REVISION"), std::string::npos);
  r = testing::http_request(port, "/app.js", testing::http::verb::head);
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(r.body.empty());

  EXPECT_EQ(testing::http_request(port, "/missing.html").status, 404);
  EXPECT_EQ(testing::http_request(port, "/.env").status, 404);
  EXPECT_EQ(testing::http_request(port, "/leak.txt").status, 404) << "symlink out of the root";
  for (const char* t : {"/../secret.txt", "/%2e%2e/secret.txt", "/sub/..%2F..%2Fsecret.txt",
                        "/vendor/three/../../secret.txt", "/%2E%2E%5Csecret.txt", "/%zz"}) {
    const HttpReply bad = testing::http_request(port, t);
    EXPECT_TRUE(bad.status == 400 || bad.status == 404) << t << " -> " << bad.status;
    EXPECT_EQ(bad.body.find("outside the root"), std::string::npos) << t;
  }
  EXPECT_EQ(testing::http_request(port, "/", testing::http::verb::post).status, 405);
  EXPECT_EQ(testing::http_request(port, "/ws").status, 400) << "/ws without an upgrade";
}

TEST(WebServer, HealthzAndMetrics) {
  Harness h(7);
  WsClient c;
  open_session(c, h.port());
  HttpReply r = testing::http_request(h.port(), "/healthz");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json");
  const auto j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["sessions"], 1);
  EXPECT_EQ(j["capacity"], 7);
  r = testing::http_request(h.port(), "/metrics");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type.rfind("text/plain", 0), 0u);
  for (const char* name : {"clamsim_sessions{transport=\"websocket\"} 1\n", "clamsim_session_capacity 7\n",
                           "clamsim_frames_sent_total ", "clamsim_send_failures_total ",
                           "clamsim_controls_received_total ", "clamsim_controls_rejected_total ",
                           "clamsim_ws_dropped_frames_total ", "clamsim_ws_connections 1\n"})
    EXPECT_NE(r.body.find(name), std::string::npos) << name;
}

TEST(WebServer, StopClosesConnectionsWith1001AndEndsTheirSessions) {
  Harness h;
  WsClient c;
  open_session(c, h.port());
  ASSERT_EQ(h.registry.size(), 1u);
  std::thread stopper([&] { h.server.stop(); });
  EXPECT_EQ(c.read_until_closed(), 1001);
  stopper.join();
  EXPECT_EQ(h.registry.size(), 0u);
  EXPECT_EQ(testing::http_request(h.port(), "/healthz", testing::http::verb::get, Seconds(1)).status,
            0)
      << "nothing listens after stop()";
  h.server.stop();  // idempotent
}

TEST(WebServer, ClosingTheBrowserEndsItsSession) {
  Harness h;
  {
    WsClient c;
    open_session(c, h.port());
    EXPECT_EQ(h.registry.size(), 1u);
    c.close();
  }
  for (int i = 0; i < 200 && h.registry.size() > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(h.registry.size(), 0u);
}

// ---- hardening (docs/security.md) ----

using testing::RawConnection;

struct RawReply {
  int status = 0;     // 0: no answer
  std::string text;   // the response as received (headers at least)
};

// An HTTP request as given, read until the answer's headers are in.
RawReply raw_request(std::uint16_t port, const std::string& request,
                     const char* from = "127.0.0.1") {
  RawConnection c;
  EXPECT_TRUE(c.connect(port, from));
  EXPECT_TRUE(c.send(request));
  c.read_until([](const std::string& in) { return in.find("\r\n\r\n") != std::string::npos; },
               Seconds(5));
  return {c.status(), c.received()};
}

std::string get_with_host(const std::string& path, const std::string& host) {
  return "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
}

// DNS rebinding: a page on another domain reaches us under its own name in Host.
TEST(WebServer, OnlyKnownHostNamesAreAnswered) {
  Harness h(16, [](WebOptions& o) { o.allowed_hosts = {"sim.school.example"}; });
  const std::uint16_t port = h.port();
  const std::string p = ":" + std::to_string(port);
  for (const std::string& host : std::vector<std::string>{"127.0.0.1" + p, "localhost" + p, "LOCALHOST", "[::1]" + p,
                                  "sim.school.example" + p, "SIM.School.Example.", "127.0.0.1"}) {
    RawReply c = raw_request(port, get_with_host("/api/sessions", host));
    EXPECT_EQ(c.status, 200) << host << ": " << c.text.substr(0, 200);
  }
  for (const std::string& host : std::vector<std::string>{"evil.example", "evil.example" + p, "sim.school.example.evil",
                                  "192.0.2.1" + p, "[2001:db8::1]" + p}) {
    RawReply c = raw_request(port, get_with_host("/api/sessions", host));
    EXPECT_EQ(c.status, 421) << host;
    EXPECT_EQ(c.text.find("\"sessions\""), std::string::npos) << host;
  }
  // the WebSocket too, even with an Origin that matches the forged Host
  RawReply ws = raw_request(
      port, testing::ws_upgrade_request(port, "evil.example" + p, "Origin: http://evil.example" + p + "\r\n"));
  EXPECT_EQ(ws.status, 421) << ws.text.substr(0, 200);
  EXPECT_EQ(h.registry.size(), 0u) << "no session for a rebinding page";
  // no Host, an empty one, two of them, or garbage: 400
  for (const std::string& req : std::vector<std::string>{
        std::string("GET /api/sessions HTTP/1.1\r\nConnection: close\r\n\r\n"),
        std::string("GET /api/sessions HTTP/1.0\r\n\r\n"),
        std::string("GET /api/sessions HTTP/1.1\r\nHost:\r\n\r\n"),
        "GET /api/sessions HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n",
        get_with_host("/api/sessions", "local host"), get_with_host("/", "[::1"),
        get_with_host("/", "localhost:80x")}) {
    RawReply c = raw_request(port, req);
    EXPECT_EQ(c.status, 400) << req;
  }
  EXPECT_EQ(testing::http_request(port, "/healthz").status, 200);
}

TEST(WebServer, AConfiguredHostThatIsNotANameIsRefusedAtConstruction) {
  session::SteadyClock clock;
  session::SessionRegistry registry(session::RegistryOptions{}, clock);
  session::Catalog catalog(kSource + "/models", kSource + "/config/scenarios", "t250", "");
  WebOptions o;
  o.port = 0;
  o.allowed_hosts = {"http://evil/"};
  EXPECT_THROW(WebServer(o, registry, catalog), std::invalid_argument);
}

// The Server header names the version only on loopback unless configured otherwise.
TEST(WebServer, ServerHeaderIsConfigurableAndOffBeyondLoopback) {
  const auto server_header = [](std::uint16_t port) {
    RawReply c = raw_request(port, get_with_host("/healthz", "127.0.0.1"));
    const std::string& in = c.text;
    const auto at = in.find("\r\nServer: ");
    return at == std::string::npos ? std::string()
                                   : in.substr(at + 10, in.find("\r\n", at + 2) - at - 10);
  };
  {
    Harness h;
    EXPECT_EQ(server_header(h.port()).rfind("clamsim ", 0), 0u) << "loopback: the version";
  }
  {
    Harness h(16, [](WebOptions& o) { o.server_header = ServerHeader::Off; });
    EXPECT_EQ(server_header(h.port()), "");
  }
  {
    Harness h(16, [](WebOptions& o) { o.all_interfaces = true; });
    EXPECT_EQ(server_header(h.port()), "") << "every interface: no version by default";
  }
  {
    Harness h(16, [](WebOptions& o) {
      o.all_interfaces = true;
      o.server_header = ServerHeader::Version;
    });
    EXPECT_EQ(server_header(h.port()).rfind("clamsim ", 0), 0u);
  }
}

// Beast's own closes for protocol errors carry a reason now.
TEST(WebServer, ProtocolErrorClosesCarryAReason) {
  Harness h;
  struct Case {
    std::string frame;
    int code;
    const char* mentions;
  };
  const Case cases[] = {
      {testing::ws_frame(0x3, true, "x"), 1002, "protocol"},                       // reserved opcode
      {testing::ws_frame(0x1, true, "{}", /*masked=*/false), 1002, "protocol"},    // unmasked
      {testing::ws_frame(0x1, true, "{}", true, /*rsv1=*/0x40), 1002, "protocol"},
      {testing::ws_frame(0x1, true, "\xff\xfe"), 1007, "UTF-8"},
      {testing::ws_frame(0x1, true, std::string(5000, ' ')), 1009, "too big"},
  };
  for (const Case& k : cases) {
    RawConnection c;
    ASSERT_TRUE(c.connect(h.port()));
    ASSERT_TRUE(c.send(testing::ws_upgrade_request(h.port())));
    ASSERT_TRUE(c.read_until([](const std::string& in) { return in.find("\"hello\"") != std::string::npos; },
                             Seconds(5)));
    ASSERT_TRUE(c.send(k.frame));
    c.read_until([](const std::string& in) { return testing::find_close_frame(in).has_value(); },
                 Seconds(5));
    const auto close = testing::find_close_frame(c.received());
    ASSERT_TRUE(close.has_value()) << k.code;
    EXPECT_EQ(close->code, k.code);
    EXPECT_NE(close->reason.find(k.mentions), std::string::npos) << k.code << ": " << close->reason;
  }
}

// 555,250 pings in 5 s were answered and 6.9 million empty fragments accepted: every frame
// counts against max_messages_per_s now.
TEST(WebServer, PingsAndEmptyFragmentsCountAgainstTheRateLimit) {
  Harness h;
  std::string pings, fragments = testing::ws_frame(0x1, false, "{");
  for (int i = 0; i < 1000; ++i) {
    pings += testing::ws_frame(0x9, true, "p");
    fragments += testing::ws_frame(0x0, false, "");
  }
  for (const std::string* flood : {&pings, &fragments}) {
    RawConnection c;
    ASSERT_TRUE(c.connect(h.port()));
    ASSERT_TRUE(c.send(testing::ws_upgrade_request(h.port())));
    ASSERT_TRUE(c.read_until([](const std::string& in) { return in.find("\"hello\"") != std::string::npos; },
                             Seconds(5)));
    c.send(*flood);  // the server may close before it has all
    c.read_until([](const std::string& in) { return testing::find_close_frame(in).has_value(); },
                 Seconds(5));
    const auto close = testing::find_close_frame(c.received());
    ASSERT_TRUE(close.has_value()) << (flood == &pings ? "pings" : "fragments");
    EXPECT_EQ(close->code, 1008);
    EXPECT_NE(close->reason.find("flooding"), std::string::npos) << close->reason;
  }
  EXPECT_EQ(h.server.stats().ws_closed_flood, 2u);
}

TEST(WebServer, DuplicateKeysGetAnErrorAndAreNotActedOn) {
  Harness h;
  WsClient c;
  open_session(c, h.port());
  ASSERT_TRUE(c.write(R"({"type":"control","type":"ping","id":1})"));
  const auto e = c.read_type("error");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ((*e)["code"], "bad_json");
  EXPECT_NE((*e)["message"].get<std::string>().find("duplicate key \"type\""), std::string::npos);
}

// One address holds at most its share of connections; others still get in. Half-sent
// requests are dropped after http_timeout_s.
TEST(WebServer, ConnectionCapsPerClientAndInTotalAndPartialRequestsTimeOut) {
  Harness h(16, [](WebOptions& o) {
    o.max_connections = 6;
    o.max_connections_per_client = 4;
    o.http_timeout_s = 2.0;
  });
  const std::uint16_t port = h.port();
  const auto refused = [&] { return h.server.stats().connections_refused; };
  // slowloris from 127.0.0.1: four half-sent requests, then more connections
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(std::make_unique<RawConnection>());
    ASSERT_TRUE(held.back()->connect(port));
    ASSERT_TRUE(held.back()->send("GET / HTTP/1.1\r\nHo"));
  }
  RawConnection fifth;
  ASSERT_TRUE(fifth.connect(port));
  EXPECT_TRUE(fifth.closed_by_peer(Seconds(1))) << "the fifth from one address";
  EXPECT_EQ(refused(), 1u);
  // another address is not affected
  RawReply other = raw_request(port, get_with_host("/healthz", "127.0.0.1"), "127.0.0.2");
  EXPECT_EQ(other.status, 200);
  // the half-sent requests are dropped after the timeout, and their slots come back
  for (auto& c : held) EXPECT_TRUE(c->closed_by_peer(Seconds(10))) << "partial request held";
  held.clear();
  int status = 0;
  for (int i = 0; i < 100 && status != 200; ++i) {
    status = raw_request(port, get_with_host("/healthz", "127.0.0.1")).status;
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(status, 200);
  // the total: 4 idle from .3 and 2 from .4 fill it, then .5 is refused
  std::vector<std::unique_ptr<RawConnection>> many;
  for (const char* from : {"127.0.0.3", "127.0.0.3", "127.0.0.3", "127.0.0.3", "127.0.0.4",
                           "127.0.0.4"}) {
    many.push_back(std::make_unique<RawConnection>());
    ASSERT_TRUE(many.back()->connect(port, from));
  }
  const auto before = refused();
  for (int i = 0; i < 50 && refused() == before; ++i) {
    RawConnection over;  // retried while the last answered connections are still closing
    ASSERT_TRUE(over.connect(port, "127.0.0.5"));
    over.closed_by_peer(Seconds(0.2));
  }
  EXPECT_GT(refused(), before) << "over the total";
}

// Abuse is logged, and an attacker cannot flood the log.
TEST(WebServer, AbuseIsLoggedAtABoundedRate) {
  std::mutex mutex;
  std::vector<std::string> lines;
  Harness h(16, [&](WebOptions& o) {
    o.log = [&](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.push_back(line);
    };
  });
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 100; ++i) raw_request(h.port(), get_with_host("/", "evil.example"));
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::lock_guard<std::mutex> lock(mutex);
  std::size_t refusals = 0;
  for (const std::string& l : lines) refusals += l.find("evil.example") != std::string::npos;
  EXPECT_GE(refusals, 1u) << "the refusal names the host";
  // a burst per window that began (one more line each for the count of the suppressed)
  const std::size_t windows = 1 + static_cast<std::size_t>(elapsed / kLogWindow.count());
  EXPECT_LE(lines.size(), windows * (kLogBurst + 1) + 1) << "bounded: " << lines.size() << " lines";
  EXPECT_LT(lines.size(), 100u);
}

// A browser that sends controls but never reads: detected by what is queued for it, long
// before any single write has been stuck for write_stall_s.
TEST(WebServer, ABrowserThatNeverReadsIsDetectedByWhatIsQueued) {
  Harness h(
      16,
      [](WebOptions& o) {
        o.socket_send_buffer_bytes = 16384;
        o.max_queued_bytes = 8192;
        o.write_stall_s = 3600;  // the old rule never fires here
      },
      [](session::RegistryOptions& r) {
        r.send_grace_s = 0.3;
        r.reap_interval_s = 0.05;
      });
  WsClient dead;
  open_session(dead, h.port(), /*rcvbuf=*/4096);
  for (int i = 0; i < 800 && h.registry.sessions_reaped() == 0; ++i) {
    dead.write(R"({"type":"control","volts":[0,0,0,0,0]})", false, Seconds(0.05));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(h.registry.sessions_reaped(), 1u) << "reaped within about 16 s";
  for (int i = 0; i < 100 && h.server.stats().ws_open > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(h.server.stats().ws_closed_stalled, 1u);
}

// A browser that falls behind past the bound and then reads again gets frames again
// before the registry's grace runs out: its session is not reaped.
TEST(WebServer, ABrowserThatReadsAgainAfterAStallKeepsItsSession) {
  Harness h(
      16,
      [](WebOptions& o) {
        o.socket_send_buffer_bytes = 16384;
        o.max_queued_bytes = 4096;
        o.write_stall_s = 3600;
      },
      [](session::RegistryOptions& r) {
        r.send_grace_s = 5.0;
        r.reap_interval_s = 0.05;
      });
  WsClient slow;
  const nlohmann::json hello = open_session(slow, h.port(), /*rcvbuf=*/4096);
  const auto s = h.registry.find(hello["session"].get<std::uint64_t>());
  ASSERT_NE(s, nullptr);
  // not reading until the server counts this browser as stalled
  for (int i = 0; i < 500 && s->counters().send_failures == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_GT(s->counters().send_failures, 0u) << "the stall was never detected";
  // reading again: frames resume, newer than any sent before the stall
  const auto failures = s->counters().send_failures;
  const auto sent = s->counters().frames_sent;
  std::int64_t newest = -1;
  for (int i = 0; i < 400 && s->counters().frames_sent < sent + 10; ++i) {
    auto j = slow.read_json(Seconds(1));
    ASSERT_TRUE(j.has_value());
    if ((*j)["type"] == "display") newest = (*j)["seq"].get<std::int64_t>();
  }
  EXPECT_GE(s->counters().frames_sent, sent + 10) << "frames did not resume";
  EXPECT_GT(newest, 0);
  EXPECT_EQ(h.registry.sessions_reaped(), 0u);
  EXPECT_TRUE(s->running());
  EXPECT_GE(s->counters().send_failures, failures);
}

// Stopping with many browsers: every one gets its close frame (95 of 100 did not under
// load), because the sessions are all asked to stop first and the close frames go out
// before any join.
TEST(WebServer, StopSendsEveryBrowserItsCloseFrame) {
  constexpr int kClients = 30;
  Harness h(kClients + 2);
  std::vector<std::unique_ptr<WsClient>> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.push_back(std::make_unique<WsClient>());
    open_session(*clients.back(), h.port());
  }
  ASSERT_EQ(h.registry.size(), static_cast<std::size_t>(kClients));
  // every browser reads (and answers the close) on its own thread, as browsers do
  std::vector<int> codes(kClients, 0);
  std::vector<std::thread> readers;
  for (int i = 0; i < kClients; ++i)
    readers.emplace_back([&, i] { codes[i] = clients[i]->read_until_closed(Seconds(10), 100000); });
  h.server.stop();
  for (auto& t : readers) t.join();
  int closed_1001 = 0;
  for (int code : codes) closed_1001 += code == 1001;
  EXPECT_EQ(closed_1001, kClients);
  EXPECT_EQ(h.registry.size(), 0u);
}


// Reads display frames until `stop` is set; counts them and the gaps in their sequence
// numbers (a frame the session did not deliver). Bounded by 600 frames.
struct FrameWatch {
  int frames = 0;
  int gaps = 0;
  void watch(WsClient& c, const std::atomic<bool>& stop) {
    long last = -1;
    while (!stop && frames < 600) {
      const auto f = c.read_type("display");
      if (!f) break;
      const long seq = (*f)["seq"].get<long>();
      if (last >= 0 && seq != last + 1) ++gaps;
      last = seq;
      ++frames;
    }
  }
};

// A client opening connections in a loop is refused past its rate; another address still
// gets in, and a browser's session elsewhere misses no frame.
TEST(WebServer, ConnectionRatePerClientStopsALoopAndNoOneElse) {
  constexpr double kRate = 0.2, kBurst = 5;
  Harness h(16, [&](WebOptions& o) {
    o.connection_rate_per_client = kRate;
    o.connection_burst_per_client = kBurst;
  });
  const std::uint16_t port = h.port();
  WsClient browser;
  browser.connect_from("127.0.0.9");
  open_session(browser, port);
  std::atomic<bool> stop{false};
  FrameWatch watch;
  std::thread reader([&] { watch.watch(browser, stop); });

  const auto start = std::chrono::steady_clock::now();
  int answered = 0, refused = 0;
  double elapsed = 0.0;
  // a reconnect loop for a second (at most 2000 attempts) while the browser plays on
  for (int i = 0; i < 2000 && elapsed < 1.0; ++i) {
    (raw_request(port, get_with_host("/healthz", "127.0.0.1")).status == 200 ? answered
                                                                             : refused)++;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  EXPECT_EQ(raw_request(port, get_with_host("/healthz", "127.0.0.1"), "127.0.0.2").status, 200)
      << "another address is not limited";
  stop = true;
  reader.join();

  EXPECT_GE(answered, static_cast<int>(kBurst)) << "the burst is let through";
  EXPECT_LE(answered, static_cast<int>(kBurst + kRate * elapsed) + 1) << "then the rate";
  EXPECT_EQ(static_cast<int>(h.server.stats().refused_rate), refused);
  EXPECT_GT(refused, 0);
  EXPECT_GT(watch.frames, 0);
  EXPECT_EQ(watch.gaps, 0) << "the other client's session lost frames";
  const RawReply metrics = raw_request(port, get_with_host("/metrics", "127.0.0.1"), "127.0.0.3");
  EXPECT_NE(metrics.text.find("clamsim_connections_refused_total{reason=\"rate\"} " +
                              std::to_string(refused)),
            std::string::npos);
}

// One address runs at most its share of sessions: the next is refused with the reason,
// another address still starts one, and a freed slot is taken again.
TEST(WebServer, SessionsPerClientAreCappedAndOthersUnaffected) {
  Harness h(16, nullptr, [](session::RegistryOptions& r) { r.max_sessions_per_client = 2; });
  const std::uint16_t port = h.port();
  WsClient a1, a2, a3, b1;
  open_session(a1, port);
  open_session(a2, port);
  ASSERT_TRUE(a3.connect(port));
  EXPECT_EQ(a3.read_until_closed(), 1013);
  EXPECT_NE(a3.close_reason().find("too many sessions from 127.0.0.1"), std::string::npos)
      << a3.close_reason();
  b1.connect_from("127.0.0.2");
  const auto hello = open_session(b1, port);
  EXPECT_EQ(hello.value("type", ""), "hello") << "another address";
  EXPECT_TRUE(b1.read_type("display").has_value());
  EXPECT_EQ(h.registry.sessions_refused(session::Refusal::PerClient), 1u);

  a1.close();
  bool started = false;
  for (int i = 0; i < 50 && !started; ++i) {   // the registry forgets a1's session promptly
    WsClient again;
    if (again.connect(port) && again.read_type("hello").has_value()) started = true;
    if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(started) << "a freed slot is taken again";
}

// Slowloris: headers or a body sent a byte at a time are cut at http_timeout_s, however
// steadily the bytes come; a browser's session meanwhile misses no frame.
TEST(WebServer, SlowHeadersAndSlowBodiesAreCutAtTheRequestTimeout) {
  Harness h(16, [](WebOptions& o) { o.http_timeout_s = 1.0; });
  const std::uint16_t port = h.port();
  WsClient browser;
  browser.connect_from("127.0.0.9");
  open_session(browser, port);
  std::atomic<bool> stop{false};
  FrameWatch watch;
  std::thread reader([&] { watch.watch(browser, stop); });

  const std::vector<std::pair<std::string, std::string>> attacks = {
      {"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
      {"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 900\r\n\r\n",
       std::string(900, 'b')}};
  for (const auto& [head, trickle] : attacks) {
    RawConnection c;
    ASSERT_TRUE(c.connect(port, "127.0.0.4"));
    ASSERT_TRUE(c.send(head));
    // a byte every 100 ms would take 3.4 s or 90 s; the server cuts it after about 1 s
    std::size_t sent = 0;
    bool cut = false;
    for (; sent < trickle.size() && !cut; ++sent) {
      cut = !c.send(trickle.substr(sent, 1)) || c.closed_by_peer(Seconds(0.1));
    }
    EXPECT_TRUE(cut || c.closed_by_peer(Seconds(3))) << "still open after " << sent << " bytes";
    EXPECT_LT(sent, trickle.size()) << head;
  }
  stop = true;
  reader.join();
  EXPECT_GT(watch.frames, 0);
  EXPECT_EQ(watch.gaps, 0) << "the other client's session lost frames";
}

// A chunked body is refused before any of it is parsed: Boost 1.74's parser asserts on chunk
// trailers fed a few bytes at a time (clamsim-fuzz found it). Sent a byte at a time.
TEST(WebServer, ChunkedBodiesAreRefusedBeforeTheirChunksAreParsed) {
  Harness h;
  RawConnection c;
  ASSERT_TRUE(c.connect(h.port()));
  const std::string request =
      "POST /api/logout HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
      "0\r\n{ chunked\r\n\r\n";
  for (char byte : request) ASSERT_TRUE(c.send(std::string(1, byte)) || c.status() == 411);
  c.read_until([](const std::string& in) { return in.find("\r\n\r\n") != std::string::npos; },
               Seconds(5));
  EXPECT_EQ(c.status(), 411);
  EXPECT_NE(c.received().find("send Content-Length"), std::string::npos) << c.received();
  EXPECT_EQ(raw_request(h.port(), get_with_host("/healthz", "127.0.0.1")).status, 200);
}

}  // namespace
}  // namespace clamsim::web

namespace clamsim::web {
namespace {

// docs/security.md, "Security headers": on every answer of the plain port too - pages,
// probes, metrics, errors, refusals, the WebSocket upgrade - and HSTS only under TLS
// (tls_web_test.cc).
TEST(WebServer, EveryAnswerCarriesTheSecurityHeaders) {
  Harness h;
  const std::uint16_t port = h.port();
  const std::string host = "127.0.0.1:" + std::to_string(port);
  const std::pair<std::string, int> requests[] = {
      {get_with_host("/", host), 200},
      {get_with_host("/livez", host), 200},
      {get_with_host("/metrics", host), 200},
      {get_with_host("/no-such-file", host), 404},
      {"POST / HTTP/1.1\r\nHost: " + host + "\r\nContent-Length: 0\r\n\r\n", 405},
      {get_with_host("/", "evil.example"), 421},
      {"GET /%zz HTTP/1.1\r\nHost: " + host + "\r\n\r\n", 400},
      {testing::ws_upgrade_request(port), 101},
  };
  for (const auto& [request, status] : requests) {
    const RawReply r = raw_request(port, request);
    SCOPED_TRACE(request);
    EXPECT_EQ(r.status, status) << r.text;
    EXPECT_NE(r.text.find("Content-Security-Policy: default-src 'none'; script-src 'self'"),
              std::string::npos) << r.text;
    EXPECT_NE(r.text.find("frame-ancestors 'none'"), std::string::npos);
    EXPECT_NE(r.text.find("X-Content-Type-Options: nosniff\r\n"), std::string::npos);
    EXPECT_NE(r.text.find("Referrer-Policy: no-referrer\r\n"), std::string::npos);
    EXPECT_EQ(r.text.find("Strict-Transport-Security"), std::string::npos);
  }
}

}  // namespace
}  // namespace clamsim::web
