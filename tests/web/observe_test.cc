// Observers over a real WebServer on 127.0.0.1 (port 0), real WebSocket clients (docs/instructor.md
// "Watching a trainee"): /ws?observe=ID gets the trainee's frames with the same seq and the
// trainee's inputs; control from an observer is refused and the session goes on; an unknown or
// ended session gets a clear close reason; with an accounts file, observing needs the login.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "auth/accounts_file.h"
#include "auth/password_hash.h"
#include "session/clock.h"
#include "test_client.h"
#include "web/web_auth.h"
#include "web/web_server.h"

namespace clamsim::web {
namespace {

namespace fs = std::filesystem;
using testing::RawConnection;
using testing::Seconds;
using testing::WsClient;

const std::string kSource = CLAMSIM_SOURCE_DIR;
const std::string kPassword = "correct horse battery";

struct Server {
  explicit Server(std::string accounts_file = "")
      : registry(registry_options(), clock),
        catalog(kSource + "/models", kSource + "/config/scenarios", "t250", ""),
        server(options(std::move(accounts_file)), registry, catalog) {
    server.start();
  }
  static session::RegistryOptions registry_options() {
    session::RegistryOptions o;
    o.max_sessions = 8;
    o.report_dir = "";
    return o;
  }
  static WebOptions options(std::string accounts_file) {
    WebOptions o;
    o.port = 0;
    o.threads = 2;
    o.access.accounts_file = std::move(accounts_file);
    return o;
  }
  std::uint16_t port() const { return server.port(); }
  // The trainee's connection: its hello's session number.
  std::uint64_t trainee(WsClient& c) const {
    if (!c.connect(port())) return 0;
    const auto hello = c.read_type("hello");
    return hello ? (*hello)["session"].get<std::uint64_t>() : 0;
  }

  session::SteadyClock clock;
  session::SessionRegistry registry;
  session::Catalog catalog;
  WebServer server;
};

std::string observe(std::uint64_t id) { return "/ws?observe=" + std::to_string(id); }

TEST(Observe, TheObserverGetsAnObservingHelloAndTheTraineesFramesWithTheSameSeq) {
  Server s;
  WsClient trainee;
  const std::uint64_t id = s.trainee(trainee);
  ASSERT_NE(id, 0u);
  ASSERT_TRUE(trainee.write(R"({"type":"trainee","name":"Ada"})"));
  ASSERT_TRUE(trainee.read_type("trainee"));
  WsClient watcher;
  ASSERT_TRUE(watcher.connect(s.port(), observe(id)));
  const auto hello = watcher.read_json();
  ASSERT_TRUE(hello) << "hello first";
  EXPECT_EQ((*hello)["type"], "hello");
  EXPECT_EQ((*hello)["session"], id);
  EXPECT_EQ((*hello)["model"], "t250");
  EXPECT_TRUE((*hello)["machine"].is_object());
  EXPECT_TRUE((*hello)["scene"].is_object());
  EXPECT_EQ((*hello)["observing"]["trainee"], "Ada");
  EXPECT_EQ((*hello)["observing"]["transport"], "websocket");
  EXPECT_EQ((*hello)["observing"]["may_send"],
            nlohmann::json::array({"ping", "take_control", "share_control", "release_control",
                                   "control", "message", "fault", "clear_fault"}));
  // the watcher's seqs are the trainee's: collect a second of each, compare what both saw
  std::set<std::uint64_t> seen_by_trainee, seen_by_watcher;
  for (int i = 0; i < 20; ++i) {
    if (const auto d = trainee.read_type("display")) seen_by_trainee.insert((*d)["seq"].get<std::uint64_t>());
    if (const auto d = watcher.read_type("display")) seen_by_watcher.insert((*d)["seq"].get<std::uint64_t>());
  }
  std::size_t common = 0;
  for (const std::uint64_t seq : seen_by_watcher) common += seen_by_trainee.count(seq);
  EXPECT_GE(seen_by_watcher.size(), 15u);
  EXPECT_GE(common, 10u) << "the same frames, numbered alike";
}

TEST(Observe, TheObserverSeesTheTraineesVoltsAndCannotDriveWithoutTakingControl) {
  Server s;
  WsClient trainee;
  const std::uint64_t id = s.trainee(trainee);
  ASSERT_NE(id, 0u);
  WsClient watcher;
  ASSERT_TRUE(watcher.connect(s.port(), observe(id)));
  ASSERT_TRUE(watcher.read_type("hello"));
  ASSERT_TRUE(trainee.write(R"({"type":"control","volts":[3,0,0,-1.5,0]})"));
  bool saw = false;
  for (int i = 0; i < 60 && !saw; ++i) {
    const auto in = watcher.read_type("inputs");
    ASSERT_TRUE(in);
    saw = (*in)["volts"] == nlohmann::json::array({3.0, 0.0, 0.0, -1.5, 0.0});
  }
  EXPECT_TRUE(saw) << "the watcher sees the five volts the trainee's stick applies";

  // the observer tries to drive without taking the controls: refused with the reason
  ASSERT_TRUE(watcher.write(R"({"type":"control","volts":[-5,0,0,0,0]})"));
  const auto error = watcher.read_type("error");
  ASSERT_TRUE(error);
  EXPECT_EQ((*error)["code"], "not_in_control");
  EXPECT_NE((*error)["message"].get<std::string>().find("take_control or share_control first"),
            std::string::npos) << *error;
  ASSERT_TRUE(watcher.write(R"({"type":"take_the_wheel"})"));
  const auto unknown = watcher.read_type("error");
  ASSERT_TRUE(unknown);
  EXPECT_EQ((*unknown)["code"], "unknown_type");
  EXPECT_NE((*unknown)["message"].get<std::string>().find("take_control"), std::string::npos);
  ASSERT_TRUE(watcher.write(R"({"type":"ping","id":7})"));
  const auto pong = watcher.read_type("pong");
  ASSERT_TRUE(pong) << "the observer's connection stays open";
  EXPECT_EQ((*pong)["id"], 7);
  for (int i = 0; i < 10; ++i) {
    const auto in = watcher.read_type("inputs", Seconds(0.3));
    if (in) {
      EXPECT_EQ((*in)["volts"][0], 3.0) << "the observer's control never reached the machine";
    }
  }
  EXPECT_TRUE(trainee.read_type("display")) << "the trainee's session goes on";
}

// Taking the controls (docs/instructor.md), over real sockets: an instructor takes exclusive
// control, drives while the trainee's stick is ignored, a second instructor is refused and then
// waits in line, the first one's disconnect hands the controls on; the trainee is told each change
// in words and gets the instructor's message.
TEST(Observe, InstructorsTakeWaitForAndHandOverTheControlsAndTheTraineeIsTold) {
  Server s;
  WsClient trainee;
  const std::uint64_t id = s.trainee(trainee);
  ASSERT_NE(id, 0u);
  auto ann = std::make_unique<WsClient>();
  ASSERT_TRUE(ann->connect(s.port(), observe(id)));
  ASSERT_TRUE(ann->read_type("hello"));
  const auto initial = ann->read_type("control");
  ASSERT_TRUE(initial) << "the observer is told who drives on arrival";
  EXPECT_EQ((*initial)["mode"], "trainee");
  EXPECT_EQ((*initial)["you"], false);
  ASSERT_TRUE(trainee.write(R"({"type":"control","volts":[2,0,0,0,0]})"));

  ASSERT_TRUE(ann->write(R"({"type":"take_control"})"));
  const auto granted = ann->read_type("control_answer");
  ASSERT_TRUE(granted);
  EXPECT_EQ((*granted)["result"], "granted") << *granted;
  const auto told = trainee.read_type("control");
  ASSERT_TRUE(told) << "the trainee is told";
  EXPECT_EQ((*told)["mode"], "exclusive");
  EXPECT_EQ((*told)["holder"], "instructor") << "no accounts: the role is the name";
  EXPECT_EQ((*told)["text"], "The instructor is driving: your stick is ignored");
  EXPECT_FALSE(told->contains("you")) << "the trainee's copy has no observer's field";
  const auto ann_told = ann->read_type("control");
  ASSERT_TRUE(ann_told);
  EXPECT_EQ((*ann_told)["you"], true);

  // ann drives: the machine's inputs are ann's, the trainee's swing is ignored
  ASSERT_TRUE(ann->write(R"({"type":"control","volts":[0,3,0,0,0]})"));
  bool ann_drives = false;
  for (int i = 0; i < 60 && !ann_drives; ++i) {
    const auto in = ann->read_type("inputs");
    ASSERT_TRUE(in);
    ann_drives = (*in)["volts"] == nlohmann::json::array({0.0, 3.0, 0.0, 0.0, 0.0});
  }
  EXPECT_TRUE(ann_drives) << "the frames are driven by the instructor's volts alone";

  // bob is refused with the reason, then waits in line
  WsClient bob;
  ASSERT_TRUE(bob.connect(s.port(), observe(id)));
  ASSERT_TRUE(bob.write(R"({"type":"share_control"})"));
  const auto refused = bob.read_type("control_answer");
  ASSERT_TRUE(refused);
  EXPECT_EQ((*refused)["result"], "refused");
  EXPECT_NE((*refused)["message"].get<std::string>().find("has exclusive control"),
            std::string::npos) << *refused;
  ASSERT_TRUE(bob.write(R"({"type":"share_control","wait":true})"));
  const auto waiting = bob.read_type("control_answer");
  ASSERT_TRUE(waiting);
  EXPECT_EQ((*waiting)["result"], "waiting");

  // a message for the trainee's screen
  ASSERT_TRUE(ann->write(R"({"type":"message","text":"Watch the boom angle"})"));
  const auto message = trainee.read_type("instructor_message");
  ASSERT_TRUE(message);
  EXPECT_EQ((*message)["text"], "Watch the boom angle");
  ASSERT_TRUE(ann->write(R"({"type":"message","text":""})"));
  const auto empty = ann->read_type("error");
  ASSERT_TRUE(empty);
  EXPECT_EQ((*empty)["message"], "message: the message is empty");

  // ann's connection drops: bob, next in line, has dual control
  ann->close();
  ann.reset();
  bool bob_holds = false;
  for (int i = 0; i < 10 && !bob_holds; ++i) {
    const auto c = bob.read_type("control");
    ASSERT_TRUE(c);
    bob_holds = (*c)["you"] == true && (*c)["mode"] == "shared";
  }
  EXPECT_TRUE(bob_holds) << "the line moves on when the holder disconnects";
  bool trainee_told = false;
  for (int i = 0; i < 10 && !trainee_told; ++i) {
    const auto c = trainee.read_type("control");
    ASSERT_TRUE(c);
    trainee_told = (*c)["mode"] == "shared";
  }
  EXPECT_TRUE(trainee_told);
  // dual control with bob's stick centred: the trainee's swing drives again
  bool trainee_drives = false;
  for (int i = 0; i < 60 && !trainee_drives; ++i) {
    const auto in = bob.read_type("inputs");
    ASSERT_TRUE(in);
    trainee_drives = (*in)["volts"][0] == 2.0;
  }
  EXPECT_TRUE(trainee_drives);
  ASSERT_TRUE(bob.write(R"({"type":"release_control"})"));
  const auto released = bob.read_type("control_answer");
  ASSERT_TRUE(released);
  EXPECT_EQ((*released)["result"], "released");
}

// Faults over the wire: the catalog in the observer's hello, a bad fault named
// with the valid choices, a good one listed to every observer on the frame where it takes
// effect; the trainee is not told.
TEST(Observe, AnInstructorInjectsAndClearsAFaultAndOnlyObserversAreTold) {
  Server s;
  WsClient trainee;
  const std::uint64_t id = s.trainee(trainee);
  ASSERT_NE(id, 0u);
  WsClient ann, bob;
  ASSERT_TRUE(ann.connect(s.port(), observe(id)));
  const auto hello = ann.read_type("hello");
  ASSERT_TRUE(hello);
  const auto& catalog = (*hello)["observing"]["faults"];
  ASSERT_TRUE(catalog.is_array());
  std::set<std::string> names;
  for (const auto& f : catalog) names.insert(f["name"].get<std::string>());
  EXPECT_EQ(names, (std::set<std::string>{"burst_hose", "sticking_spool", "brake_slip", "axis_drift",
                                          "axis_dead", "turbidity", "current",
                                          "anti_two_block_override", "lmi_override"}));
  const auto none = ann.read_type("faults");
  ASSERT_TRUE(none);
  EXPECT_TRUE((*none)["active"].empty());
  ASSERT_TRUE(bob.connect(s.port(), observe(id)));
  ASSERT_TRUE(bob.read_type("faults"));

  ASSERT_TRUE(ann.write(R"({"type":"fault","name":"burst_hose","params":{"function":"jib"}})"));
  const auto bad = ann.read_type("error");
  ASSERT_TRUE(bad);
  EXPECT_EQ((*bad)["code"], "bad_fault");
  EXPECT_NE((*bad)["message"].get<std::string>().find("swing, boom, telescope"), std::string::npos)
      << *bad;

  ASSERT_TRUE(ann.write(R"({"type":"fault","name":"turbidity","params":{"level":0.9}})"));
  for (WsClient* c : {&ann, &bob}) {
    const auto f = c->read_type("faults");
    ASSERT_TRUE(f);
    ASSERT_EQ((*f)["active"].size(), 1u) << *f;
    EXPECT_EQ((*f)["active"][0]["name"], "turbidity");
    EXPECT_EQ((*f)["active"][0]["text"], "turbidity: level 0.9");
  }
  bool murky = false;
  for (int i = 0; i < 40 && !murky; ++i) {
    const auto d = trainee.read_type("display");
    ASSERT_TRUE(d);
    murky = (*d)["turbidity"] == 0.9;
  }
  EXPECT_TRUE(murky) << "the trainee's frames carry the murky water";
  ASSERT_TRUE(bob.write(R"({"type":"clear_fault","name":"all"})"));
  const auto cleared = ann.read_type("faults");
  ASSERT_TRUE(cleared);
  EXPECT_TRUE((*cleared)["active"].empty());
  EXPECT_FALSE(trainee.read_type("faults", Seconds(0.5))) << "the trainee is not told the cause";
}

TEST(Observe, UnknownSessionsAndBadNumbersGetAClearCloseReason) {
  Server s;
  WsClient nobody;
  ASSERT_TRUE(nobody.connect(s.port(), observe(999)));
  EXPECT_EQ(nobody.read_until_closed(), 1008);
  EXPECT_NE(nobody.close_reason().find("no live session 999"), std::string::npos)
      << nobody.close_reason();
  WsClient bad;
  ASSERT_TRUE(bad.connect(s.port(), "/ws?observe=abc"));
  EXPECT_EQ(bad.read_until_closed(), 1008);
  EXPECT_NE(bad.close_reason().find("expected a session number"), std::string::npos)
      << bad.close_reason();
  // a malformed escape is refused, not read as absent (which started a session)
  WsClient escaped;
  ASSERT_TRUE(escaped.connect(s.port(), "/ws?observe=19%00"));
  EXPECT_EQ(escaped.read_until_closed(), 1008);
  EXPECT_NE(escaped.close_reason().find("\"observe\" has a malformed %-escape"), std::string::npos)
      << escaped.close_reason();
}

TEST(Observe, WhenTheTraineeLeavesTheObserverIsToldAndClosed) {
  Server s;
  auto trainee = std::make_unique<WsClient>();
  const std::uint64_t id = s.trainee(*trainee);
  ASSERT_NE(id, 0u);
  WsClient watcher;
  ASSERT_TRUE(watcher.connect(s.port(), observe(id)));
  ASSERT_TRUE(watcher.read_type("display"));
  trainee->close();
  trainee.reset();
  EXPECT_EQ(watcher.read_until_closed(Seconds(10)), 1000);
  EXPECT_NE(watcher.close_reason().find("session " + std::to_string(id)), std::string::npos)
      << watcher.close_reason();
  EXPECT_NE(watcher.close_reason().find("ended"), std::string::npos) << watcher.close_reason();
}

TEST(Observe, AStalledObserverStopsNeitherTheTraineeNorAnotherObserver) {
  Server s;
  WsClient trainee;
  const std::uint64_t id = s.trainee(trainee);
  ASSERT_NE(id, 0u);
  WsClient stalled;   // a tiny receive buffer, never read
  ASSERT_TRUE(stalled.connect(s.port(), observe(id), "", 4096));
  WsClient reader;
  ASSERT_TRUE(reader.connect(s.port(), observe(id)));
  int trainee_frames = 0, reader_frames = 0;
  for (int i = 0; i < 80; ++i) {   // about 4 s of frames, bounded
    trainee_frames += trainee.read_type("display") ? 1 : 0;
    reader_frames += reader.read_type("display") ? 1 : 0;
  }
  EXPECT_GE(trainee_frames, 75);
  EXPECT_GE(reader_frames, 75);
  EXPECT_EQ(s.registry.find(id)->counters().send_failures, 0u);
}

// With an accounts file, observing is the instructor's, exactly like /api/sessions.
TEST(Observe, WithAccountsObservingNeedsAnInstructorLogin) {
  const fs::path dir = fs::temp_directory_path() / ("clamsim_observe_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string file = (dir / "accounts.json").string();
  auth::save_accounts(file, {{"ada", auth::hash_password(kPassword, {10, 8, 1}),
                              "2026-11-24T10:00:00Z"}});
  {
    Server s(file);
    WsClient trainee;
    const std::uint64_t id = s.trainee(trainee);
    ASSERT_NE(id, 0u);
    WsClient anonymous;
    ASSERT_TRUE(anonymous.connect(s.port(), observe(id)));
    const auto first = anonymous.read(Seconds(3));
    EXPECT_EQ(first.kind, WsClient::Message::Kind::Closed) << "nothing about the trainee: " << first.text;
    EXPECT_NE(anonymous.close_reason().find("instructor login required"), std::string::npos)
        << anonymous.close_reason();
    WsClient forged;
    forged.set_cookie(std::string(kLoginCookie) + "=0123456789abcdef");
    ASSERT_TRUE(forged.connect(s.port(), observe(id)));
    EXPECT_EQ(forged.read(Seconds(3)).kind, WsClient::Message::Kind::Closed);

    // log in over HTTP, then observe with the cookie
    const std::string body = nlohmann::json{{"name", "ada"}, {"password", kPassword}}.dump();
    const std::string origin = "http://127.0.0.1:" + std::to_string(s.port());
    RawConnection http;
    ASSERT_TRUE(http.connect(s.port()));
    ASSERT_TRUE(http.send("POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(s.port()) +
                          "\r\nOrigin: " + origin + "\r\nContent-Type: application/json\r\n"
                          "Content-Length: " + std::to_string(body.size()) +
                          "\r\nConnection: close\r\n\r\n" + body));
    http.closed_by_peer(Seconds(10));
    const std::string& in = http.received();
    const std::string key = std::string(kLoginCookie) + "=";
    const auto at = in.find(key);
    ASSERT_NE(at, std::string::npos) << in;
    const std::string token = in.substr(at + key.size(), in.find(';', at) - at - key.size());
    WsClient instructor;
    instructor.set_cookie(key + token);
    ASSERT_TRUE(instructor.connect(s.port(), observe(id)));
    const auto hello = instructor.read_json(Seconds(3));
    ASSERT_TRUE(hello);
    EXPECT_EQ((*hello)["observing"]["session"], id);
    EXPECT_TRUE(instructor.read_type("display"));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace clamsim::web
