// A replay over a WebSocket connection (the debrief; docs/websocket-protocol.md "Replays"):
// /ws?replay=NAME plays a recording through a session::ReplayPlayer on its own thread,
// which reaches this connection only by posting to its strand (as a session's sink does).
// Its "Take over from here" gives a ticket for /ws?takeover=TICKET, which a trainee's
// connection (websocket_trainee.cc) turns into a live session. Everything here runs on the
// strand.
#include <cassert>
#include <chrono>
#include <filesystem>

#include "web/auth_routes.h"
#include "web/frame_json.h"
#include "web/replay_json.h"
#include "web/replay_message.h"
#include "web/url.h"
#include "web/websocket_roles.h"

namespace clamsim::web {

namespace {

// What recorder.cc names its files: session-<digits>T<digits>Z-<digits>[-<digits>].mcap.
// Nothing else is opened: no paths, no dot files, no other kinds of file.
bool is_recording_name(std::string_view n) {
  constexpr std::string_view head = "session-", tail = ".mcap";
  if (n.size() > 80 || n.size() <= head.size() + tail.size() || n.substr(0, head.size()) != head ||
      n.substr(n.size() - tail.size()) != tail)
    return false;
  for (const char c : n.substr(head.size(), n.size() - head.size() - tail.size()))
    if (!((c >= '0' && c <= '9') || c == 'T' || c == 'Z' || c == '-')) return false;
  return true;
}

// The player's output, called on the player's thread: frames go through the connection's
// WebSocketSink (bounded, oldest display frames dropped), the rest is posted as messages.
class WebReplayListener final : public session::ReplayListener {
 public:
  WebReplayListener(std::shared_ptr<SharedState> state, net::any_io_executor strand,
                    std::weak_ptr<ReplaySession> ws, std::string name, std::string peer,
                    std::string client)
      : state_(std::move(state)), strand_(std::move(strand)), ws_(std::move(ws)),
        name_(std::move(name)), peer_(std::move(peer)), client_(std::move(client)) {}

  void opened(const session::RecordedSession& r, const session::MachineSetup& setup) override {
    setup_ = setup;
    const WebOptions& o = state_->options();
    const nlohmann::ordered_json& scene = setup.scenario ? setup.scenario->client_scene : state_->scene();
    sink_ = std::make_shared<WebSocketSink>(state_, strand_, ws_, o.write_stall_s, o.max_queued_bytes,
                                            o.send_queue_limit, scene_load_ids(scene), peer_, client_);
    HelloInfo hello;
    hello.session = std::stoull(r.meta_value("session"));
    hello.server = state_->server_name();
    hello.frame_period_s = r.frame_period_s();
    hello.model = setup.name;
    hello.scenario = setup.world_name;
    hello.max_message_bytes = o.max_message_bytes;
    hello.max_messages_per_s = o.max_messages_per_s;
    hello.replay = replay_hello_json(name_, r);
    auto text = std::make_shared<const std::string>(hello_json(hello, *setup.params, scene));
    post([sink = sink_, text](ReplaySession& s) { s.replay_opened(sink, text); });
  }

  void progress(std::uint64_t done, std::uint64_t of) override {
    const auto now = std::chrono::steady_clock::now();
    if (done < of && now - last_progress_ < std::chrono::milliseconds(200)) return;
    last_progress_ = now;
    message(replay_progress_json(done, of));
  }

  void ready(const session::ReplayRun& run) override {
    auto text = std::make_shared<const std::string>(replay_timeline_json(run));
    post([frames = run.frames(), text](ReplaySession& s) { s.replay_ready(frames, text); });
  }

  void frame(const session::Frame& f) override { sink_->deliver(f); }

  void state(const session::ReplayState& st) override { message(replay_state_json(st)); }

  void taken_over(std::shared_ptr<const session::SessionSeed> seed) override {
    session::MachineSetup setup = setup_;
    setup.seed = std::move(seed);
    const std::string ticket = state_->takeover_tickets().issue(std::move(setup));
    message(take_over_json(ticket));
  }

  void failed(const std::string& why) override {
    post([why](ReplaySession& s) { s.replay_failed(why); });
  }

 private:
  template <class Fn>
  void post(Fn fn) {
    state_->post(strand_, [ws = ws_, fn = std::move(fn)] {
      if (auto s = ws.lock()) fn(*s);
    });
  }
  void message(std::string text) {
    post([text = std::make_shared<const std::string>(std::move(text))](ReplaySession& s) {
      s.send_message(text);
    });
  }

  const std::shared_ptr<SharedState> state_;
  const net::any_io_executor strand_;
  const std::weak_ptr<ReplaySession> ws_;
  const std::string name_, peer_, client_;
  session::MachineSetup setup_;                  // player thread only
  std::shared_ptr<WebSocketSink> sink_;          // made in opened()
  std::chrono::steady_clock::time_point last_progress_{};
};

}  // namespace

ReplaySession::~ReplaySession() { release_role(); }

// Who may replay: a logged-in instructor (any recording), or whoever holds the ticket a
// trainee's own connection got for its recording (replay_ticket). "" or why not.
std::string ReplaySession::replay_refusal(const std::string& name, std::string_view ticket) {
  if (!ticket.empty()) {
    std::string why;
    const auto allowed = state_->replay_tickets().find(ticket, /*use_up=*/false, &why);
    if (!allowed) return why;
    if (*allowed != name) return "the ticket is for another recording";
    return "";
  }
  return instructor_refusal().value_or("");
}

// A recording this connection may replay, and one of the server's replay places for it;
// else closes with why not.
bool ReplaySession::take_place(const std::string& name, const std::string& dir,
                               std::string_view query) {
  WebCounters& c = state_->counters();
  std::string refusal;
  if (!is_recording_name(name)) {
    refusal = "expected a recording's file name (session-<UTC>-<id>.mcap, as a report's "
              "\"recording\" gives it), got \"" + cut_for_error(name) + "\"";
  } else if (refusal = replay_refusal(name, query_value(query, "ticket").value_or("")); !refusal.empty()) {
    state_->log("web: refused to let " + peer_text() + " replay " + name + ": " + refusal);
  } else if (std::error_code ec; !std::filesystem::is_regular_file(std::filesystem::path(dir) / name, ec)) {
    refusal = "no recording " + name + " (removed by retention, or never made)";
  } else if (std::string full = state_->begin_replay(slot_.client(), !query_value(query, "ticket"));
             !full.empty()) {
    c.ws_closed_full.fetch_add(1);
    state_->log("web: refused a replay to " + peer_text() + ": " + full);
    close_with(websocket::close_code::try_again_later, "replay: " + full);
    return false;
  }
  if (!refusal.empty()) {
    c.ws_closed_policy.fetch_add(1);
    close_with(websocket::close_code::policy_error, "replay: " + refusal);
    return false;
  }
  return true;
}

bool ReplaySession::start(std::string_view query) {
  const std::string name = query_value(query, "replay").value_or("");
  const std::string dir = state_->registry().recording().dir;
  if (!take_place(name, dir, query)) return false;
  std::uint64_t start_k = 0;
  if (const auto from = query_value(query, "from")) {
    const nlohmann::json k = nlohmann::json::parse(*from, nullptr, false);
    if (k.is_number_unsigned()) start_k = k.get<std::uint64_t>();   // else the first frame
  }
  // a debrief of someone's run is an instructor's action: logged with who asked
  replay_instructor_ = !query_value(query, "ticket");
  if (replay_instructor_ && state_->auth().login_required()) {
    instructor_name_ = state_->auth().check_login(login_token(req_), /*touch=*/false).name;
    watch_login(login_token(req_));   // the replay ends with the login
  } else if (replay_instructor_) {
    instructor_name_ = "(local)";
  }
  const std::string who = replay_instructor_ ? "instructor " + instructor_name_
                                             : std::string("the trainee's ticket");
  state_->log("web: " + peer_text() + " replays " + name + " (" + who + ")");
  replay_counted_ = true;
  open_ = true;
  auto listener = std::make_shared<WebReplayListener>(state_, ws_.get_executor(), weak_role<ReplaySession>(),
                                                      name, peer_text(), slot_.client());
  replay_ = std::make_unique<session::ReplayPlayer>((std::filesystem::path(dir) / name).string(),
                                                    start_k, state_->catalog(), listener);
  replay_->start();
  return true;
}

void ReplaySession::replay_opened(std::shared_ptr<WebSocketSink> sink,
                                  std::shared_ptr<const std::string> hello) {
  assert(on_strand(ws_.get_executor()));
  sink_ = std::move(sink);
  if (closing()) sink_->close();
  send(std::move(hello), SendQueue::Kind::Other);
}

void ReplaySession::replay_ready(std::uint64_t frames, std::shared_ptr<const std::string> timeline) {
  assert(on_strand(ws_.get_executor()));
  replay_frames_ = frames;
  send(std::move(timeline), SendQueue::Kind::Other);
}

void ReplaySession::replay_failed(const std::string& why) {
  assert(on_strand(ws_.get_executor()));
  state_->counters().ws_closed_policy.fetch_add(1);
  close_with(websocket::close_code::policy_error, "replay: " + why);
}

void ReplaySession::handle_text(const std::string& text) {
  const ReplayMessage m = parse_replay_message(text, replay_frames_);
  switch (m.type) {
    case ReplayMessage::Type::Ping:
      send(std::make_shared<const std::string>(pong_json(m.parsed.id, m.parsed.ping_t, 0.0)),
           SendQueue::Kind::Other);
      return;
    case ReplayMessage::Type::Replay: {
      session::ReplayCommand cmd;
      cmd.play = m.play;
      cmd.speed = m.speed;
      cmd.seek_k = m.seek_k;
      replay_->command(cmd);
      return;
    }
    case ReplayMessage::Type::TakeOver: {
      session::ReplayCommand cmd;
      cmd.take_over = true;
      replay_->command(cmd);
      return;
    }
    case ReplayMessage::Type::Invalid:
      send_error(m.error_code, m.error_message);
      return;
  }
}

void ReplaySession::release_role() {
  if (!replay_) return;
  // joined on the reaper's thread, never on this I/O thread; the replay's place is freed once
  // the player's thread has ended (the state is kept alive for that)
  std::function<void()> after;
  if (replay_counted_)
    after = [state = state_, client = slot_.client(), instructor = replay_instructor_] {
      state->end_replay(client, instructor);
    };
  state_->player_reaper().retire(std::move(replay_), std::move(after));
  replay_counted_ = false;
}

}  // namespace clamsim::web
