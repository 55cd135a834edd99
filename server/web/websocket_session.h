// One WebSocket connection = one session::Session (docs/websocket-protocol.md). Everything
// here runs on the connection's strand; the session thread reaches it only through the
// sink, which posts (STYLE.md example 9). Writes go through a bounded queue that drops the
// oldest display frames (STYLE.md example 7), so a slow browser never slows its session.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "model/scenario_file.h"
#include "session/observers.h"
#include "session/replay_player.h"
#include "session/session.h"
#include "web/beast.h"
#include "web/frame_buffers.h"
#include "web/frame_json.h"
#include "web/guarded_stream.h"
#include "web/post_memory.h"
#include "web/rate_limit.h"
#include "web/send_queue.h"
#include "web/shared_state.h"

namespace clamsim::web {

class WebSocketSession;
struct ObserverMessage;

// The session's FrameSink: called on the session thread, it serialises the frame there and
// posts it to the connection's strand; it never touches the socket.
class WebSocketSink final : public session::FrameSink {
 public:
  // load_ids: the ids of the session's world's loads (display.loads[i].id)
  WebSocketSink(std::shared_ptr<SharedState> state, net::any_io_executor strand,
                std::weak_ptr<WebSocketSession> ws, double write_stall_s,
                std::size_t max_queued_bytes, std::size_t send_queue_limit,
                const nlohmann::ordered_json& load_ids, std::string peer,
                std::string client_address);
  // False once the connection is closing, while one write has been stuck longer than the
  // stall limit, or while more than max_queued_bytes wait for the browser (the registry
  // then reaps the session after its grace period).
  bool deliver(const session::Frame& frame) override;
  const char* transport() const override { return "websocket"; }
  std::string peer() const override { return peer_; }
  std::string client_address() const override { return client_address_; }

  // From the strand.
  void close() { closed_ = true; }
  void write_started();
  void write_finished() { write_started_ns_ = 0; }
  void set_queued(std::size_t bytes) { queued_bytes_ = bytes; }

 private:
  // Posts fn to the connection's strand; every frame's post takes its memory from
  // post_memory_ (post_memory.h) when the strand is the io_context's own kind, as the
  // listener makes it.
  template <class Fn>
  bool post_to_strand(Fn&& fn);

  const std::shared_ptr<SharedState> state_;
  const net::any_io_executor strand_;
  using TypedStrand = net::strand<net::io_context::executor_type>;
  const TypedStrand* const typed_strand_;   // strand_'s own, or null
  const std::shared_ptr<PostMemory> post_memory_ = std::make_shared<PostMemory>();
  const std::weak_ptr<WebSocketSession> ws_;
  const std::int64_t stall_ns_;
  const std::size_t max_queued_bytes_;
  const DisplayEncoder encoder_;   // knows the world's load ids
  FrameBuffers buffers_;           // the display texts (session thread only)
  std::atomic<std::size_t> queued_bytes_{0};
  const std::string peer_;
  const std::string client_address_;   // the connection's address (its ConnectionSlot's)
  long drain_notice_s_ = -1;   // whole seconds last announced (session thread only)
  std::atomic<bool> closed_{false};
  std::atomic<std::int64_t> write_started_ns_{0};   // 0 = no write in flight
};

class WebSocketSession : public std::enable_shared_from_this<WebSocketSession> {
 public:
  // stream: the HTTP session's connection (plain or TLS), handed over on upgrade
  WebSocketSession(WebStream&& stream, std::shared_ptr<SharedState> state, ConnectionSlot slot);
  ~WebSocketSession();

  // On the strand, with the upgrade request read by the HTTP session.
  void run(http::request<http::string_body> req);
  // From any thread: close with 1001 (server shutting down).
  void shutdown();
  // From any thread: look at the login that let this connection in now (a logout just
  // ended one; websocket_login.cc).
  void recheck_login();

  // On the strand (posted by the sink / the registry's reaper).
  void send_display(std::shared_ptr<const std::string> text);
  void send_message(std::shared_ptr<const std::string> text);   // a report: dropped only
                                                                // after every display frame
  void on_reaped();
  // Measures what waits for the browser and tells the sink (WebOptions::max_queued_bytes).
  void update_queued();
  // An observer's connection: sends what its queue holds (websocket_observe.cc).
  void drain_observed();
  // A replay's connection (websocket_replay.cc), posted by its player: the recording is
  // open (hello, and the sink its frames go through); it is prepared (the timeline); it
  // cannot be replayed (closes with why).
  void replay_opened(std::shared_ptr<WebSocketSink> sink, std::shared_ptr<const std::string> hello);
  void replay_ready(std::uint64_t frames, std::shared_ptr<const std::string> timeline);
  void replay_failed(const std::string& why);

 private:
  void on_accept(beast::error_code ec);
  bool start_session();
  // /ws?observe=ID (issue 11, "Watch"; websocket_observe.cc): instructor role, a live
  // session, then its hello marked as observing and its frames.
  bool start_observing(std::string_view observe);
  void handle_observer_text(const std::string& text);
  void handle_fault_message(const ObserverMessage& m, session::Session& watched);
  void stop_observing();
  // /ws?replay=NAME[&ticket=T][&from=K] (issue 12, debrief; websocket_replay.cc).
  bool start_replaying(std::string_view replay);
  std::string replay_refusal(const std::string& name, std::string_view ticket);
  void handle_replay_text(const std::string& text);
  void stop_replaying();
  // The login behind an observer or an instructor's replay (websocket_login.cc): looked at
  // once a second and before every instructor action; an ended login closes the
  // connection with 1008 "login ended: WHY".
  void watch_login(std::string token);
  bool login_valid(bool touch);   // else closes
  void look_at_login_later();
  // /ws?takeover=TICKET: the setup (with its seed) the ticket stands for; else closes.
  bool take_over_setup(std::string_view ticket, session::MachineSetup* setup);
  void send_replay_ticket();
  bool class_code_accepted(const std::string& given);  // else closes with 1008 and why
  std::string peer_text();   // "127.0.0.1:40312" of the browser; "" once it is gone
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_frames(std::size_t n);
  void handle_text(const std::string& text);
  void send(std::shared_ptr<const std::string> text, SendQueue::Kind kind);
  void send_error(const std::string& code, const std::string& message);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void close_with(websocket::close_code code, std::string reason);
  void release_session();
  void finish();

  websocket::stream<GuardedStream> ws_;  // guarded_stream.h: every frame counted, close reasons
  const std::shared_ptr<SharedState> state_;
  ConnectionSlot slot_;
  http::request<http::string_body> req_;
  beast::flat_buffer buffer_;
  SendQueue queue_;
  RateLimit rate_;
  std::shared_ptr<WebSocketSink> sink_;
  std::shared_ptr<session::Session> session_;
  std::shared_ptr<const model::Scenario> world_;   // the session's world; null = empty space
  // Observer mode: the queue the watched session pushes to, and that session (weak: the
  // trainee's connection owns it).
  std::shared_ptr<session::ObserverQueue> observer_;
  std::weak_ptr<session::Session> watched_;
  nlohmann::ordered_json watched_load_ids_;
  session::ClientId observer_id_ = 0;   // this connection, to the control arbiter
  std::string instructor_name_;         // the login watching ("" without accounts)
  // Replay mode: the player, the recording's frames once prepared (0 before), and whether
  // this connection holds one of the server's replay places.
  std::unique_ptr<session::ReplayPlayer> replay_;
  std::uint64_t replay_frames_ = 0;
  bool replay_counted_ = false;
  bool replay_instructor_ = false;   // the place is an instructor's (not a ticket's)
  // The login that let this connection in ("" = none: a trainee, a ticket, no accounts)
  // and the timer of its next look.
  std::string login_token_;
  std::unique_ptr<net::steady_timer> login_timer_;
  std::array<double, 5> last_volts_{};
  bool volts_sent_ = false;
  std::chrono::steady_clock::time_point last_clamp_report_{};
  bool accepted_ = false;   // WebSocket handshake done
  bool open_ = false;       // and the session running
  bool closing_ = false;    // a close was started: nothing more is queued
  bool finished_ = false;
  bool flooded_ = false;        // more frames than the rate limit allows
  bool flood_posted_ = false;   // and its close is on its way
};

}  // namespace clamsim::web
