// A WebSocket connection (docs/websocket-protocol.md). Everything here runs on the
// connection's strand; a session thread reaches it only through the sink, which posts, so
// the socket is only ever touched from one thread. Writes go through a bounded queue that
// drops the oldest display frames (send_queue.h), so a slow browser never slows its session.
//
// The base class below is the connection whatever its role; each role is its own class
// (websocket_roles.h): a trainee's live session, an instructor observing one, a replay.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

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

// What every /ws connection does, whatever its role: the socket and its handshake, the
// origin and query checks, the bounded send queue, reading and writing, the frame rate
// limit, closing, and the login that let an instructor's connection in. A role class owns
// its messages: what it starts with, what the browser may send it, what it lets go of.
class WebSocketSession : public std::enable_shared_from_this<WebSocketSession> {
 public:
  virtual ~WebSocketSession();
  WebSocketSession(const WebSocketSession&) = delete;
  WebSocketSession& operator=(const WebSocketSession&) = delete;

  // On the strand, with the upgrade request read by the HTTP session.
  void run(http::request<http::string_body> req);
  // From any thread: close with 1001 (server shutting down).
  void shutdown();
  // From any thread: look at the login that let this connection in now (a logout just
  // ended one; websocket_login.cc).
  void recheck_login();

  // On the strand (posted by the sink).
  void send_display(std::shared_ptr<const std::string> text);
  void send_message(std::shared_ptr<const std::string> text);   // a report: dropped only
                                                                // after every display frame
  // Measures what waits for the browser and tells the sink (WebOptions::max_queued_bytes).
  void update_queued();

 protected:
  // stream: the HTTP session's connection (plain or TLS), handed over on upgrade
  WebSocketSession(WebStream&& stream, std::shared_ptr<SharedState> state, ConnectionSlot slot);

  // The role begins, the handshake done and the origin and query (req_'s) found good: its
  // hello, or a close saying why not (false).
  virtual bool start(std::string_view query) = 0;
  // A text message from the browser.
  virtual void handle_text(const std::string& text) = 0;
  // Lets go of what the role holds (a session, a watched session, a player) at once.
  // Idempotent; on the strand, or from the role's destructor.
  virtual void release_role() = 0;
  // The connection's own session, for the log (0: it has none).
  virtual std::uint64_t own_session_id() const { return 0; }
  // How the log names the connection when its login ends ("the observer").
  virtual const char* role_name() const = 0;

  // This connection as its role's class, for the posts that come back to it.
  template <class Role>
  std::weak_ptr<Role> weak_role() {
    return std::static_pointer_cast<Role>(shared_from_this());
  }

  void send(std::shared_ptr<const std::string> text, SendQueue::Kind kind);
  void send_error(const std::string& code, const std::string& message);
  void close_with(websocket::close_code code, std::string reason);
  bool closing() const { return closing_; }   // a close was started, or the socket is gone
  bool finished() const { return finished_; }   // the socket is gone
  // Stops the role and closes the socket without a close frame (one would not get through).
  void drop();
  std::string peer_text();   // "127.0.0.1:40312" of the browser; "" once it is gone
  // Nothing when the upgrade request may read instructor data (the same check as every
  // /api/ instructor route), else why not, as the route's 401 says it.
  std::optional<std::string> instructor_refusal();
  // Stops the role at once (no more frames), on the strand, never a session thread.
  void release_session();
  // The login behind an observer or an instructor's replay (websocket_login.cc): looked at
  // once a second and before every instructor action; an ended login closes the
  // connection with 1008 "login ended: WHY".
  void watch_login(std::string token);
  bool login_valid(bool touch);   // else closes

  websocket::stream<GuardedStream> ws_;  // guarded_stream.h: every frame counted, close reasons
  const std::shared_ptr<SharedState> state_;
  ConnectionSlot slot_;
  http::request<http::string_body> req_;
  // The sink a trainee's session or a replay's player sends frames through (null for an
  // observer): told when writes start and end, what waits, and when the connection closes.
  std::shared_ptr<WebSocketSink> sink_;
  std::string instructor_name_;   // the login watching or replaying ("" without accounts)
  bool open_ = false;             // the role has started: send() queues from now on

 private:
  void on_accept(beast::error_code ec);
  bool admit(std::string_view query);   // the origin and the query's form; else closes
  void look_at_login_later();
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_frames(std::size_t n);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void finish();

  beast::flat_buffer buffer_;
  SendQueue queue_;
  RateLimit rate_;
  // The login that let this connection in ("" = none: a trainee, a ticket, no accounts)
  // and the timer of its next look.
  std::string login_token_;
  std::unique_ptr<net::steady_timer> login_timer_;
  bool accepted_ = false;   // WebSocket handshake done
  bool closing_ = false;    // a close was started: nothing more is queued
  bool finished_ = false;
  bool flooded_ = false;        // more frames than the rate limit allows
  bool flood_posted_ = false;   // and its close is on its way
};

// The connection an upgrade to /ws asks for, in its role: ?observe=ID an instructor
// observing, else ?replay=NAME a replay, else a trainee's live session (websocket_roles.h).
std::shared_ptr<WebSocketSession> make_websocket_session(WebStream&& stream,
                                                         std::shared_ptr<SharedState> state,
                                                         ConnectionSlot slot,
                                                         std::string_view target);

}  // namespace clamsim::web
