// The three roles of a /ws connection, each its own class over WebSocketSession (which
// owns the socket, the send queue, reading, writing and closing): each role owns its
// messages (docs/websocket-protocol.md).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/scenario_file.h"
#include "session/observers.h"
#include "session/replay_player.h"
#include "session/session.h"
#include "web/websocket_session.h"

namespace clamsim::web {

struct ObserverMessage;

// A trainee's live session (/ws?model=&scenario=&rate=&class_code=, or ?takeover=TICKET
// for the moment a replay's "Take over from here" asked for; websocket_trainee.cc): the
// connection owns the session, which sends its frames through the sink.
class TraineeSession final : public WebSocketSession {
 public:
  TraineeSession(WebStream&& stream, std::shared_ptr<SharedState> state, ConnectionSlot slot)
      : WebSocketSession(std::move(stream), std::move(state), std::move(slot)) {}
  ~TraineeSession() override;

  // On the strand, posted by the registry's reaper: the session was stopped because the
  // browser stopped reading.
  void on_reaped();

 private:
  bool start(std::string_view query) override;
  void handle_text(const std::string& text) override;
  void release_role() override;
  std::uint64_t own_session_id() const override { return session_ ? session_->id() : 0; }
  const char* role_name() const override { return "the trainee"; }

  // What start() asks for, step by step; each false once closed with why not.
  bool choose_setup(std::string_view query, session::MachineSetup* setup, HelloInfo* hello);
  bool choose_frame_period(std::string_view query, double step_s, HelloInfo* hello);
  bool open_session(session::MachineSetup setup, double period,
                    const nlohmann::ordered_json& scene);
  bool take_over_setup(std::string_view ticket, session::MachineSetup* setup);
  bool class_code_accepted(const std::string& given);  // else closes with 1008 and why
  void handle_control(const std::array<double, 5>& volts);
  void send_replay_ticket();

  std::shared_ptr<session::Session> session_;
  std::shared_ptr<const model::Scenario> world_;   // the session's world; null = empty space
  std::chrono::steady_clock::time_point last_clamp_report_{};
};

// An instructor observing a live session (/ws?observe=ID; websocket_observe.cc): the
// watched session pushes into this connection's own bounded queue and wakes it with a post.
class ObserverSession final : public WebSocketSession {
 public:
  ObserverSession(WebStream&& stream, std::shared_ptr<SharedState> state, ConnectionSlot slot)
      : WebSocketSession(std::move(stream), std::move(state), std::move(slot)) {}
  ~ObserverSession() override;

  // On the strand, posted by the watched session: sends what the queue holds.
  void drain_observed();

 private:
  bool start(std::string_view query) override;
  void handle_text(const std::string& text) override;
  void release_role() override;
  const char* role_name() const override { return "the observer"; }

  void send_hello(const session::Session& watched);
  void handle_fault_message(const ObserverMessage& m, session::Session& watched);

  // The queue the watched session pushes to, and that session (weak: the trainee's
  // connection owns it).
  std::shared_ptr<session::ObserverQueue> observer_;
  std::weak_ptr<session::Session> watched_;
  nlohmann::ordered_json watched_load_ids_;
  session::ClientId observer_id_ = 0;   // this connection, to the control arbiter
  std::array<double, 5> last_volts_{};
  bool volts_sent_ = false;
};

// A replay of a recording (/ws?replay=NAME[&ticket=T][&from=K]; websocket_replay.cc),
// played by a session::ReplayPlayer on its own thread, which reaches this connection only
// by posting to its strand.
class ReplaySession final : public WebSocketSession {
 public:
  ReplaySession(WebStream&& stream, std::shared_ptr<SharedState> state, ConnectionSlot slot)
      : WebSocketSession(std::move(stream), std::move(state), std::move(slot)) {}
  ~ReplaySession() override;

  // On the strand, posted by the player: the recording is open (hello, and the sink its
  // frames go through); it is prepared (the timeline); it cannot be replayed (closes with
  // why).
  void replay_opened(std::shared_ptr<WebSocketSink> sink, std::shared_ptr<const std::string> hello);
  void replay_ready(std::uint64_t frames, std::shared_ptr<const std::string> timeline);
  void replay_failed(const std::string& why);

 private:
  bool start(std::string_view query) override;
  void handle_text(const std::string& text) override;
  void release_role() override;
  const char* role_name() const override { return "the replay"; }

  bool take_place(const std::string& name, const std::string& dir, std::string_view query);
  std::string replay_refusal(const std::string& name, std::string_view ticket);

  // The player, the recording's frames once prepared (0 before), and whether this
  // connection holds one of the server's replay places.
  std::unique_ptr<session::ReplayPlayer> replay_;
  std::uint64_t replay_frames_ = 0;
  bool replay_counted_ = false;
  bool replay_instructor_ = false;   // the place is an instructor's (not a ticket's)
};

}  // namespace clamsim::web
