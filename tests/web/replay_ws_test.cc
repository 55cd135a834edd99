// The debrief over a real WebServer on 127.0.0.1 (port 0) and real WebSocket clients
// (docs/websocket-protocol.md "Replays"): a trainee's recorded session is replayed
// with its ticket and by an instructor: hello.replay, progress, the timeline, frames as
// live ones, seeking, playing to the end at 16x; "Take over from here" starts a live
// session at the shown frame; bad names, tickets, logins and messages are refused with
// their reasons.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <thread>

#include "auth/accounts_file.h"
#include "auth/password_hash.h"
#include "session/clock.h"
#include "test_client.h"
#include "web/replay_message.h"
#include "web/web_auth.h"
#include "web/web_server.h"
#include "../support/crafted_recordings.h"

namespace clamsim::web {
namespace {

namespace fs = std::filesystem;
using testing::Seconds;
using testing::WsClient;
using json = nlohmann::json;

const std::string kSource = CLAMSIM_SOURCE_DIR;

struct Server {
  explicit Server(const fs::path& dir, std::string accounts_file = "",
                  const std::function<void(WebOptions&)>& tweak = nullptr)
      : registry(registry_options(dir), clock),
        catalog(kSource + "/models", kSource + "/config/scenarios", "t250", "dam_intake"),
        server(options(std::move(accounts_file), tweak), registry, catalog) {
    server.start();
  }
  static session::RegistryOptions registry_options(const fs::path& dir) {
    session::RegistryOptions o;
    o.max_sessions = 8;
    o.report_dir = "";
    o.recording.enabled = true;
    o.recording.dir = (dir / "recordings").string();
    o.recording.frame_every = 1;
    return o;
  }
  static WebOptions options(std::string accounts_file,
                            const std::function<void(WebOptions&)>& tweak) {
    WebOptions o;
    o.port = 0;
    o.threads = 2;
    o.access.accounts_file = std::move(accounts_file);
    o.max_replays = 2;
    if (tweak) tweak(o);
    return o;
  }
  std::uint16_t port() const { return server.port(); }

  session::SteadyClock clock;
  session::SessionRegistry registry;
  session::Catalog catalog;
  WebServer server;
};

struct Scratch {
  Scratch() : dir(fs::temp_directory_path() / ("clamsim_replay_ws_" + std::to_string(::getpid()))) {
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
  fs::path dir;
};

// A trainee's recorded session of `frames` frames with the stick moving; returns its
// recording's name and the trainee's replay ticket.
std::pair<std::string, std::string> trainee_run(Server& s, int frames) {
  WsClient trainee;
  EXPECT_TRUE(trainee.connect(s.port()));
  EXPECT_TRUE(trainee.read_type("hello"));
  EXPECT_TRUE(trainee.write(R"({"type":"trainee","name":"Ada"})"));
  for (int i = 0; i < frames; ++i) {
    const double v = i < frames / 2 ? 3.0 : -2.0;
    EXPECT_TRUE(trainee.write(json{{"type", "control"}, {"volts", {v, 1.0, 0, 0, 0}}}.dump()));
    EXPECT_TRUE(trainee.read_type("display"));
  }
  EXPECT_TRUE(trainee.write(R"({"type":"replay_ticket","extra":1})"));
  const auto refused = trainee.read_type("error");
  EXPECT_TRUE(refused && (*refused)["message"].get<std::string>().find("unexpected field") != std::string::npos);
  EXPECT_TRUE(trainee.write(R"({"type":"replay_ticket"})"));
  const auto ticket = trainee.read_type("replay_ticket");
  EXPECT_TRUE(ticket);
  if (!ticket) return {};
  return {(*ticket)["recording"].get<std::string>(), (*ticket)["ticket"].get<std::string>()};
}

std::pair<std::string, std::string> recorded_run(Server& s, int frames) {
  std::pair<std::string, std::string> got = trainee_run(s, frames);
  // the trainee has left: wait (bounded) until the session ended and closed its recording.
  // size() drops as the session starts stopping, before its thread has finished the
  // recording (read then, it held 40 of 60 frames once in five runs under ASan).
  for (int i = 0; i < 200 && !s.registry.all_stopped(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  EXPECT_TRUE(s.registry.all_stopped());
  return got;
}

// Reads until a message of `type` whose `key` equals `value` (bounded).
std::optional<json> read_until(WsClient& c, const std::string& type, const std::string& key,
                               const json& value, int max_messages = 400) {
  for (int i = 0; i < max_messages; ++i) {
    const auto j = c.read_json(Seconds(5));
    if (!j) return std::nullopt;
    if ((*j)["type"] == type && (*j)[key] == value) return j;
  }
  return std::nullopt;
}

TEST(ReplayWs, ATraineesTicketReplaysTheirRunWithTimelineSeekAndPlay) {
  Scratch scratch;
  Server s(scratch.dir);
  const auto [name, ticket] = recorded_run(s, 60);
  ASSERT_FALSE(name.empty());
  WsClient viewer;
  ASSERT_TRUE(viewer.connect(s.port(), "/ws?replay=" + name + "&ticket=" + ticket));
  const auto hello = viewer.read_json(Seconds(5));
  ASSERT_TRUE(hello) << "hello first";
  EXPECT_EQ((*hello)["type"], "hello");
  EXPECT_EQ((*hello)["model"], "t250");
  EXPECT_TRUE((*hello)["scene"].is_object());
  const json& r = (*hello)["replay"];
  EXPECT_EQ(r["recording"], name);
  EXPECT_EQ(r["trainee"], "Ada");
  const std::uint64_t frames = r["frames"].get<std::uint64_t>();
  EXPECT_GE(frames, 55u);
  EXPECT_EQ(r["speeds"], json::array({0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0}));
  const auto timeline = viewer.read_type("replay_timeline", Seconds(20));
  ASSERT_TRUE(timeline);
  EXPECT_EQ((*timeline)["frames"], frames);
  const json& series = (*timeline)["series"];
  EXPECT_EQ(series["k"].size(), series["tension_N"][0].size());
  EXPECT_EQ(series["t"].size(), series["joint_velocity"][2].size());
  EXPECT_EQ(series["k"].back(), frames);
  // the first frame, then the state
  const auto first = viewer.read_type("display");
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["seq"], 0);
  const auto state = viewer.read_type("replay_state");
  ASSERT_TRUE(state);
  EXPECT_EQ((*state)["playing"], false);
  EXPECT_EQ((*state)["k"], 1);

  // seek: the frame shown is the recording's, numbered as live (seq = k - 1)
  ASSERT_TRUE(viewer.write(R"({"type":"replay","seek_k":30})"));
  const auto seeked = read_until(viewer, "display", "seq", 29);
  ASSERT_TRUE(seeked);
  EXPECT_GT((*seeked)["joint_velocity"][0].get<double>(), 0.0) << "the swing was moving then";
  ASSERT_TRUE(read_until(viewer, "replay_state", "k", 30));

  // play at 16x to the end: frames go forwards, and the state says it stopped at the end
  ASSERT_TRUE(viewer.write(R"({"type":"replay","speed":16,"play":true})"));
  const auto end = read_until(viewer, "replay_state", "k", frames);
  ASSERT_TRUE(end);
  EXPECT_EQ((*end)["playing"], false);
  EXPECT_EQ((*end)["speed"], 16.0);

  // garbage is answered with what is allowed, and the replay goes on
  ASSERT_TRUE(viewer.write(R"({"type":"replay","speed":3})"));
  auto e = viewer.read_type("error");
  ASSERT_TRUE(e);
  EXPECT_NE((*e)["message"].get<std::string>().find("0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0"), std::string::npos) << *e;
  ASSERT_TRUE(viewer.write(R"({"type":"replay","seek_k":0})"));
  e = viewer.read_type("error");
  ASSERT_TRUE(e);
  EXPECT_NE((*e)["message"].get<std::string>().find("1 to " + std::to_string(frames)), std::string::npos) << *e;
  ASSERT_TRUE(viewer.write(R"({"type":"control","volts":[1,0,0,0,0]})"));
  e = viewer.read_type("error");
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)["code"], "replay_refused");
  ASSERT_TRUE(viewer.write(R"({"type":"ping","id":4})"));
  EXPECT_TRUE(viewer.read_type("pong"));
}

TEST(ReplayWs, TakingOverStartsALiveSessionAtTheShownFrame) {
  Scratch scratch;
  Server s(scratch.dir);
  const auto [name, ticket] = recorded_run(s, 40);
  ASSERT_FALSE(name.empty());
  WsClient viewer;
  ASSERT_TRUE(viewer.connect(s.port(), "/ws?replay=" + name + "&ticket=" + ticket + "&from=25"));
  ASSERT_TRUE(viewer.read_type("replay_timeline", Seconds(20)));
  const auto shown = viewer.read_type("display");
  ASSERT_TRUE(shown);
  EXPECT_EQ((*shown)["seq"], 24) << "?from=25 starts at frame 25";
  ASSERT_TRUE(viewer.write(R"({"type":"take_over"})"));
  const auto over = viewer.read_type("take_over", Seconds(5));
  ASSERT_TRUE(over);
  const std::string t = (*over)["ticket"].get<std::string>();
  EXPECT_EQ(t.size(), 64u);

  WsClient live;
  ASSERT_TRUE(live.connect(s.port(), "/ws?takeover=" + t));
  const auto hello = live.read_json(Seconds(5));
  ASSERT_TRUE(hello);
  EXPECT_EQ((*hello)["type"], "hello");
  EXPECT_EQ((*hello)["taken_over"]["recording"], name);
  EXPECT_EQ((*hello)["taken_over"]["k"], 25);
  const auto f = live.read_type("display");
  ASSERT_TRUE(f);
  // the attempt's time goes on from the replayed moment (frame 25 = 1.25 s)
  EXPECT_GT((*f)["t"].get<double>(), 1.25);
  EXPECT_LT((*f)["t"].get<double>(), 1.25 + 1.0);
  // a ticket is used once
  WsClient again;
  ASSERT_TRUE(again.connect(s.port(), "/ws?takeover=" + t));
  EXPECT_EQ(again.read(Seconds(3)).kind, WsClient::Message::Kind::Closed);
  EXPECT_NE(again.close_reason().find("takeover: unknown ticket"), std::string::npos) << again.close_reason();
}

TEST(ReplayWs, BadNamesTicketsAndLoginsAreRefusedWithTheirReasons) {
  Scratch scratch;
  const std::string accounts = (scratch.dir / "accounts.json").string();
  auth::save_accounts(accounts, {{"ada", auth::hash_password("correct horse battery", {10, 8, 1}),
                                  "2026-11-24T10:00:00Z"}});
  Server s(scratch.dir, accounts);
  const auto [name, ticket] = recorded_run(s, 10);
  ASSERT_FALSE(name.empty());
  const auto refused = [&](const std::string& target) {
    WsClient c;
    EXPECT_TRUE(c.connect(s.port(), target));
    const auto m = c.read(Seconds(5));
    EXPECT_EQ(m.kind, WsClient::Message::Kind::Closed) << target << ": nothing is sent first: " << m.text;
    return c.close_reason();
  };
  EXPECT_NE(refused("/ws?replay=" + name).find("replay: instructor login required"), std::string::npos);
  EXPECT_NE(refused("/ws?replay=" + name + "&ticket=" + std::string(64, 'a')).find("unknown ticket"),
            std::string::npos);
  EXPECT_NE(refused("/ws?replay=..%2Faccounts.json&ticket=" + ticket).find("expected a recording's file name"),
            std::string::npos);
  EXPECT_NE(refused("/ws?replay=session-20261125T000000Z-99.mcap&ticket=" + ticket)
                .find("the ticket is for another recording"),
            std::string::npos);
  EXPECT_NE(refused("/ws?takeover=nonsense").find("takeover: unknown ticket"), std::string::npos);
  // the right ticket still works
  WsClient ok;
  ASSERT_TRUE(ok.connect(s.port(), "/ws?replay=" + name + "&ticket=" + ticket));
  const auto hello = ok.read_json(Seconds(5));
  ASSERT_TRUE(hello);
  EXPECT_EQ((*hello)["replay"]["recording"], name);
}

// The close reason of a local instructor's replay of `name` that is refused; a refusal for
// want of a free place (the last replay's player still being joined) is tried again.
std::string replay_refusal(Server& s, const std::string& name) {
  std::string reason;
  for (int attempt = 0; attempt < 100; ++attempt) {
    WsClient viewer;   // loopback, no accounts: a local instructor
    EXPECT_TRUE(viewer.connect(s.port(), "/ws?replay=" + name));
    for (int m = 0; m < 50; ++m)
      if (viewer.read(Seconds(10)).kind != WsClient::Message::Kind::Text) break;
    reason = viewer.close_reason();
    if (reason.find("try again later") == std::string::npos) return reason;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return reason;
}

// Crafted recordings in the recordings directory used to end the whole server when
// replayed (an exception on the player's thread), and two replays whose preparation never
// ended (a source whose last frame is 10^12, a FIFO as the source) froze the web front end
// once closed (each I/O thread joined its player). Now each is refused with its reason,
// closing a replay never blocks, and a trainee streaming beside them misses no frame.
TEST(ReplayWs, CraftedRecordingsAreRefusedAndNobodyElseNotices) {
  Scratch scratch;
  Server s(scratch.dir);
  const auto [name, ticket] = recorded_run(s, 30);
  ASSERT_FALSE(name.empty());
  const fs::path dir = scratch.dir / "recordings";
  ASSERT_EQ(::mkfifo((dir / "crafted.fifo").c_str(), 0600), 0);
  const auto crafted_name = [](int i) {
    return "session-20260101T000000Z-" + std::to_string(100 + i) + ".mcap";
  };
  const std::vector<testing::Crafted> attacks =
      testing::crafted_recordings("crafted.fifo", crafted_name(17));
  for (std::size_t i = 0; i < attacks.size(); ++i)
    testing::rewrite_recording((dir / name).string(), (dir / crafted_name(static_cast<int>(i))).string(),
                               attacks[i].edit, attacks[i].meta);
  ASSERT_EQ(attacks[17].name, "seed-self-far");

  WsClient trainee;   // streams on beside every attack
  ASSERT_TRUE(trainee.connect(s.port()));
  ASSERT_TRUE(trainee.read_type("hello"));
  std::int64_t last_seq = -1, gaps = 0;
  const auto stream = [&](int frames) {
    for (int n = 0; n < frames; ++n) {
      const auto d = trainee.read_type("display", Seconds(5));
      ASSERT_TRUE(d) << "the trainee's stream stopped";
      const std::int64_t seq = (*d)["seq"].get<std::int64_t>();
      if (last_seq >= 0 && seq != last_seq + 1) ++gaps;
      last_seq = seq;
    }
  };
  for (std::size_t i = 0; i < attacks.size(); ++i) {
    if (attacks[i].name == "note-not-string") continue;   // this run has no instructor's note
    const std::string reason = replay_refusal(s, crafted_name(static_cast<int>(i)));
    EXPECT_NE(reason.find("replay: "), std::string::npos) << attacks[i].name;
    EXPECT_NE(reason.find(attacks[i].reason), std::string::npos) << attacks[i].name << ": " << reason;
    stream(2);
  }
  // the replay places (2 here) were each given back once their player had ended
  for (int i = 0; i < 3; ++i) {
    bool shown = false;
    for (int attempt = 0; attempt < 100 && !shown; ++attempt) {
      WsClient ok;
      ASSERT_TRUE(ok.connect(s.port(), "/ws?replay=" + name));
      shown = ok.read_type("replay_timeline", Seconds(20)).has_value();
      if (!shown) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_TRUE(shown) << "replay " << i << " after the attacks";
  }
  stream(10);
  EXPECT_EQ(gaps, 0) << "the trainee's frames came without a gap";
  EXPECT_EQ(testing::http_request(s.port(), "/healthz").status, 200);
}

// A replay whose preparation takes long (a real recording of many frames, played from a
// seed chain) is closed by its viewer at once, twice: the I/O threads are not held and the
// server answers; the reaper frees both places when their players stop.
TEST(ReplayWs, ClosingReplaysThatArePreparingNeverBlocksTheServer) {
  Scratch scratch;
  Server s(scratch.dir);
  const auto [name, ticket] = recorded_run(s, 30);
  ASSERT_FALSE(name.empty());
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 2; ++i) {
      WsClient viewer;
      ASSERT_TRUE(viewer.connect(s.port(), "/ws?replay=" + name));
    }   // closed by the destructors, at once
    EXPECT_EQ(testing::http_request(s.port(), "/healthz", testing::http::verb::get, Seconds(5)).status, 200)
        << "round " << round;
  }
  // both places come back (bounded wait)
  bool opened = false;
  for (int i = 0; i < 40 && !opened; ++i) {
    WsClient c;
    ASSERT_TRUE(c.connect(s.port(), "/ws?replay=" + name));
    const auto m = c.read(Seconds(5));
    opened = m.kind == WsClient::Message::Kind::Text;
    if (!opened) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(opened);
}

// A trainee's ticket opened eight replays of its own run and the
// instructor's replay got 1013. Tickets are capped per client address and never take the
// places kept for instructors.
TEST(ReplayWs, TraineesTicketsAreCappedPerAddressAndNeverStarveAnInstructor) {
  Scratch scratch;
  Server s(scratch.dir, "", [](WebOptions& o) {
    o.max_replays = 8;             // 2 kept for instructors: 6 for tickets
    o.max_replays_per_client = 2;
  });
  const auto [name, ticket] = recorded_run(s, 10);
  ASSERT_FALSE(name.empty());
  const std::string target = "/ws?replay=" + name + "&ticket=" + ticket;
  std::vector<std::unique_ptr<WsClient>> held;
  const auto try_open = [&](const std::string& from, const std::string& t) {
    auto c = std::make_unique<WsClient>();
    c->connect_from(from);
    EXPECT_TRUE(c->connect(s.port(), t));
    const auto hello = c->read_json(Seconds(5));
    const bool ok = hello && (*hello)["type"] == "hello";
    if (ok) held.push_back(std::move(c));
    return ok ? std::string() : std::to_string(c->close_code()) + " " + c->close_reason();
  };
  EXPECT_EQ(try_open("127.0.0.1", target), "");
  EXPECT_EQ(try_open("127.0.0.1", target), "");
  const std::string third = try_open("127.0.0.1", target);
  EXPECT_EQ(third.substr(0, 5), "1013 ") << third;
  EXPECT_NE(third.find("too many replays from 127.0.0.1: 2 allowed per client address"), std::string::npos)
      << third;
  // other addresses fill the places tickets may use, and no more
  for (const char* from : {"127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3"}) EXPECT_EQ(try_open(from, target), "") << from;
  const std::string pool = try_open("127.0.0.4", target);
  EXPECT_EQ(pool.substr(0, 5), "1013 ") << pool;
  EXPECT_NE(pool.find("6 replays on trainees' tickets are running"), std::string::npos) << pool;
  EXPECT_NE(pool.find("2 of 8 kept for instructors"), std::string::npos) << pool;
  // the instructor (no accounts: a loopback server's local instructor) still debriefs
  EXPECT_EQ(try_open("127.0.0.5", "/ws?replay=" + name), "");
  EXPECT_EQ(try_open("127.0.0.5", "/ws?replay=" + name), "");
  const std::string full = try_open("127.0.0.5", "/ws?replay=" + name);
  EXPECT_NE(full.find("1013 replay: 8 replays are running"), std::string::npos) << full;
  // a place given back is a place again
  held.front()->close();
  held.erase(held.begin());
  bool reopened = false;
  for (int i = 0; i < 50 && !reopened; ++i) {
    reopened = try_open("127.0.0.1", target).empty();
    if (!reopened) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(reopened);
}

TEST(ReplayMessage, EachFieldIsCheckedAndNamed) {
  auto m = parse_replay_message(R"({"type":"replay","play":true,"speed":0.25,"seek_k":5})", 10);
  ASSERT_EQ(m.type, ReplayMessage::Type::Replay) << m.error_message;
  EXPECT_EQ(*m.play, true);
  EXPECT_EQ(*m.speed, 0.25);
  EXPECT_EQ(*m.seek_k, 5u);
  m = parse_replay_message(R"({"type":"replay"})", 10);
  EXPECT_NE(m.error_message.find("expected play, speed or seek_k"), std::string::npos);
  m = parse_replay_message(R"({"type":"replay","play":"yes"})", 10);
  EXPECT_NE(m.error_message.find("play is a string, expected true or false"), std::string::npos);
  m = parse_replay_message(R"({"type":"replay","seek_k":11})", 10);
  EXPECT_NE(m.error_message.find("not a frame of this recording (1 to 10)"), std::string::npos);
  m = parse_replay_message(R"({"type":"replay","seek_k":2})", 0);
  EXPECT_EQ(m.error_code, "not_ready");
  m = parse_replay_message(R"({"type":"replay","rewind":1})", 10);
  EXPECT_NE(m.error_message.find("unexpected field \"rewind\""), std::string::npos);
  m = parse_replay_message(R"({"type":"take_over"})", 10);
  EXPECT_EQ(m.type, ReplayMessage::Type::TakeOver);
  m = parse_replay_message(R"({"type":"dance"})", 10);
  EXPECT_NE(m.error_message.find("a replay may send: ping, replay, take_over"), std::string::npos);
  m = parse_replay_message("{not json", 10);
  EXPECT_EQ(m.error_code, "bad_json");
  m = parse_replay_message(R"({"type":"restart"})", 10);
  EXPECT_EQ(m.error_code, "replay_refused");
}

}  // namespace
}  // namespace clamsim::web
