#include "web/websocket_session.h"

#include <linux/sockios.h>
#include <sys/ioctl.h>

#include <cassert>
#include <cmath>

#include "web/auth_routes.h"
#include "web/frame_json.h"
#include "web/instructor_json.h"
#include "web/origin.h"
#include "web/url.h"
#include "web/websocket_roles.h"

namespace clamsim::web {

namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(s));
}

}  // namespace

// ---- sink (session thread) ----

WebSocketSink::WebSocketSink(std::shared_ptr<SharedState> state, net::any_io_executor strand,
                             std::weak_ptr<WebSocketSession> ws, double write_stall_s,
                             std::size_t max_queued_bytes, std::size_t send_queue_limit,
                             const nlohmann::ordered_json& load_ids, std::string peer,
                             std::string client_address)
    : state_(std::move(state)), strand_(std::move(strand)),
      typed_strand_(strand_.target<TypedStrand>()), ws_(std::move(ws)),
      stall_ns_(static_cast<std::int64_t>(write_stall_s * 1e9)),
      max_queued_bytes_(max_queued_bytes), encoder_(load_ids),
      // the queue, the one on the wire, and frames posted but not yet queued
      buffers_(send_queue_limit + 4),
      peer_(std::move(peer)), client_address_(std::move(client_address)) {}

bool WebSocketSink::deliver(const session::Frame& frame) {
  if (closed_) return false;
  const std::int64_t started = write_started_ns_.load();
  if (started != 0 && now_ns() - started > stall_ns_) return false;
  // the browser is not reading: what waits for it passed the bound. The strand measures
  // again (nothing else would once no write is in flight), so a browser that reads again
  // gets frames again before the registry's grace runs out.
  if (max_queued_bytes_ > 0 && queued_bytes_.load() > max_queued_bytes_) {
    state_->post(strand_, [ws = ws_] {
      if (auto s = ws.lock()) s->update_queued();
    });
    return false;
  }
  std::shared_ptr<std::string> buffer = buffers_.take();
  encoder_.encode(frame, *buffer);
  buffers_.written(*buffer);
  std::shared_ptr<const std::string> text = std::move(buffer);
  // the task's report rides on the one frame where the task ended; queued as a message
  // that is never dropped for a slow reader, right after its frame
  std::shared_ptr<const std::string> report;
  if (frame.report) report = std::make_shared<const std::string>(report_json(frame));
  // a drain notice once a second while the server drains, queued like a report
  std::shared_ptr<const std::string> notice;
  const long drain_s = session::drain_whole_seconds(frame.drain_s_left);
  if (drain_s >= 0 && drain_s != drain_notice_s_)
    notice = std::make_shared<const std::string>(drain_json(frame.drain_s_left));
  drain_notice_s_ = drain_s;
  // what an instructor changed (who drives, a message), queued like a report
  std::vector<std::string> notices;
  if (frame.notices) notices = notices_json(*frame.notices, 0);
  // only a weak reference crosses: the connection is never destroyed on this thread
  return post_to_strand([ws = ws_, text = std::move(text), report = std::move(report),
                         notice = std::move(notice), notices = std::move(notices)]() mutable {
    if (auto s = ws.lock()) {
      s->send_display(std::move(text));
      if (report) s->send_message(std::move(report));
      if (notice) s->send_message(std::move(notice));
      for (std::string& n : notices)
        s->send_message(std::make_shared<const std::string>(std::move(n)));
    }
  });
}

template <class Fn>
bool WebSocketSink::post_to_strand(Fn&& fn) {
  if (typed_strand_ == nullptr) return state_->post(strand_, std::forward<Fn>(fn));
  return state_->post(*typed_strand_,
                      WithPostMemory<std::decay_t<Fn>>(std::forward<Fn>(fn),
                                                       PostAllocator<void>(post_memory_)));
}

void WebSocketSink::write_started() {
  const std::int64_t t = now_ns();
  write_started_ns_ = t != 0 ? t : 1;
}

// ---- connection (its strand) ----

std::shared_ptr<WebSocketSession> make_websocket_session(WebStream&& stream,
                                                         std::shared_ptr<SharedState> state,
                                                         ConnectionSlot slot,
                                                         std::string_view target) {
  // only picks the class: run() checks the query's form before the role starts
  const std::string_view query = split_target(target).query;
  if (query_value(query, "observe"))
    return std::make_shared<ObserverSession>(std::move(stream), std::move(state), std::move(slot));
  if (query_value(query, "replay"))
    return std::make_shared<ReplaySession>(std::move(stream), std::move(state), std::move(slot));
  return std::make_shared<TraineeSession>(std::move(stream), std::move(state), std::move(slot));
}

WebSocketSession::WebSocketSession(WebStream&& stream, std::shared_ptr<SharedState> state,
                                   ConnectionSlot slot)
    : ws_(std::move(stream)), state_(std::move(state)), slot_(std::move(slot)),
      queue_(state_->options().send_queue_limit),
      rate_(state_->options().max_messages_per_s, std::chrono::seconds(1)) {}

// Runs on an I/O thread, or on the thread destroying the io_context after stop(); never on
// a session thread, which holds only weak references to this object. The role's destructor
// has let go of what it held.
WebSocketSession::~WebSocketSession() {
  if (login_timer_) login_timer_->cancel();
  if (sink_) sink_->close();
  state_->leave(this);
}

void WebSocketSession::run(http::request<http::string_body> req) {
  assert(on_strand(ws_.get_executor()));
  req_ = std::move(req);
  if (!state_->join(this, weak_from_this())) {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);  // the server is stopping
    return;
  }
  const WebOptions& o = state_->options();
  websocket::stream_base::timeout t = websocket::stream_base::timeout::suggested(
      beast::role_type::server);
  t.idle_timeout = seconds(o.idle_timeout_s);
  t.keep_alive_pings = true;
  // the handshake and the closing handshake: as long as an HTTP request may take
  t.handshake_timeout = seconds(o.http_timeout_s);
  ws_.set_option(t);
  // every frame that arrives, of any kind, counts against the rate limit (guarded_stream.h)
  ws_.next_layer().on_frames([this](std::size_t n) { on_frames(n); });
  ws_.set_option(websocket::stream_base::decorator(
      [state = state_, tls = ws_.next_layer().next_layer().tls()](
          websocket::response_type& res) {
        if (!state->server_header().empty()) res.set(http::field::server, state->server_header());
        state->security_headers().apply(res, tls);
      }));
  ws_.read_message_max(o.max_message_bytes);
  ws_.text(true);
  ws_.async_accept(req_, beast::bind_front_handler(&WebSocketSession::on_accept,
                                                   shared_from_this()));
}

void WebSocketSession::shutdown() {
  net::post(ws_.get_executor(), [self = shared_from_this()] {
    if (self->accepted_) {
      self->close_with(websocket::close_code::going_away, "server shutting down");
    } else {
      self->closing_ = true;
      beast::get_lowest_layer(self->ws_).close();  // still in the handshake
    }
  });
}

void WebSocketSession::on_accept(beast::error_code ec) {
  assert(on_strand(ws_.get_executor()));
  if (ec) {
    finish();
    return;
  }
  if (closing_) return;  // shut down during the handshake
  accepted_ = true;
  state_->counters().ws_connections.fetch_add(1);
  const std::string target = to_std(req_.target());
  const std::string_view query = split_target(target).query;
  if (!admit(query) || !start(query)) return;
  do_read();
}

// What every role needs: an allowed origin, and a query of the right form.
bool WebSocketSession::admit(std::string_view query) {
  WebCounters& c = state_->counters();
  const std::string origin = to_std(req_[http::field::origin]);
  if (!origin_allowed(origin, to_std(req_[http::field::host]), state_->options().allowed_origins)) {
    c.ws_closed_policy.fetch_add(1);
    state_->log("web: refused WebSocket from origin " + origin);
    close_with(websocket::close_code::policy_error, "origin not allowed: " + origin);
    return false;
  }
  if (const std::string problem = query_problem(query); !problem.empty()) {
    c.ws_closed_policy.fetch_add(1);
    close_with(websocket::close_code::policy_error, problem);
    return false;
  }
  return true;
}

std::string WebSocketSession::peer_text() {
  beast::error_code ec;
  const tcp::endpoint peer = beast::get_lowest_layer(ws_).socket().remote_endpoint(ec);
  if (ec) return "";
  const std::string host = peer.address().to_string();
  return (peer.address().is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(peer.port());
}

std::optional<std::string> WebSocketSession::instructor_refusal() {
  const auto denied = require_instructor(req_, *state_);
  if (!denied) return std::nullopt;
  const auto body = nlohmann::json::parse(denied->body, nullptr, false);
  return body.is_object() && body.contains("message") && body["message"].is_string()
             ? body["message"].get<std::string>()
             : std::string("instructor login required");
}

void WebSocketSession::do_read() {
  ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read,
                                                    shared_from_this()));
}

void WebSocketSession::on_read(beast::error_code ec, std::size_t) {
  assert(on_strand(ws_.get_executor()));
  WebCounters& c = state_->counters();
  if (ec) {
    if (ec == websocket::error::message_too_big) {
      // Beast has already sent close 1009 (read_message_max)
      c.ws_closed_too_big.fetch_add(1);
    }
    finish();
    return;
  }
  if (closing_) return;
  c.ws_messages_received.fetch_add(1);
  if (ws_.got_binary()) {
    c.ws_closed_binary.fetch_add(1);
    close_with(websocket::close_code::unknown_data, "binary messages are not supported");
    return;
  }
  const std::string text = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  handle_text(text);
  do_read();
}

// On the strand, inside a read: n frames just arrived (guarded_stream.h). Over the limit,
// the close is posted rather than started inside Beast's read operation.
void WebSocketSession::on_frames(std::size_t n) {
  const auto now = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < n && !flooded_; ++i) flooded_ = !rate_.allow(now);
  if (!flooded_ || flood_posted_) return;
  flood_posted_ = true;
  net::post(ws_.get_executor(), [self = shared_from_this()] {
    if (self->closing_ || self->finished_) return;
    self->state_->counters().ws_closed_flood.fetch_add(1);
    const std::string limit = std::to_string(self->state_->options().max_messages_per_s);
    self->state_->log("web: session " + std::to_string(self->own_session_id()) +
                      " flooding (more than " + limit + " frames in one second), closed");
    self->close_with(websocket::close_code::policy_error,
                     "flooding: more than " + limit + " frames in one second");
  });
}

void WebSocketSession::send_error(const std::string& code, const std::string& message) {
  state_->counters().ws_errors_sent.fetch_add(1);
  send(std::make_shared<const std::string>(error_json(code, message)), SendQueue::Kind::Other);
}

void WebSocketSession::send_display(std::shared_ptr<const std::string> text) {
  assert(on_strand(ws_.get_executor()));
  send(std::move(text), SendQueue::Kind::Display);
}

void WebSocketSession::send_message(std::shared_ptr<const std::string> text) {
  assert(on_strand(ws_.get_executor()));
  send(std::move(text), SendQueue::Kind::Other);
}

void WebSocketSession::send(std::shared_ptr<const std::string> text, SendQueue::Kind kind) {
  if (!open_ || closing_) return;
  if (const auto dropped = queue_.push({std::move(text), kind})) {
    WebCounters& c = state_->counters();
    (*dropped == SendQueue::Kind::Display ? c.ws_frames_dropped : c.ws_messages_dropped)
        .fetch_add(1);
  }
  if (!queue_.writing()) do_write();
  update_queued();
}

// What waits for the browser: the kernel's unsent bytes (SIOCOUTQ) and our send queue.
// Published to the sink, which fails frames above WebOptions::max_queued_bytes.
void WebSocketSession::update_queued() {
  assert(on_strand(ws_.get_executor()));
  if (!sink_) return;
  int kernel = 0;
  const int fd = beast::get_lowest_layer(ws_).socket().native_handle();
  if (fd < 0 || ::ioctl(fd, SIOCOUTQ, &kernel) != 0) kernel = 0;
  sink_->set_queued(static_cast<std::size_t>(kernel) + queue_.pending_bytes());
}

void WebSocketSession::do_write() {
  queue_.begin_write();
  if (sink_) sink_->write_started();   // an observer has no sink
  ws_.async_write(net::buffer(*queue_.front().text),
                  beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
}

void WebSocketSession::on_write(beast::error_code ec, std::size_t) {
  assert(on_strand(ws_.get_executor()));
  if (sink_) sink_->write_finished();
  queue_.end_write();
  if (ec) {
    finish();
    return;
  }
  if (!closing_ && !queue_.empty()) do_write();
  update_queued();
}

void WebSocketSession::close_with(websocket::close_code code, std::string reason) {
  assert(on_strand(ws_.get_executor()));
  if (closing_ || finished_) return;
  closing_ = true;
  queue_.clear_pending();
  if (sink_) sink_->close();  // no more frames are queued from here
  // a close frame's reason is at most 123 bytes, and must stay valid UTF-8
  if (reason.size() > 123) {
    std::size_t n = 123;
    while (n > 0 && (static_cast<unsigned char>(reason[n]) & 0xC0) == 0x80) --n;
    reason.resize(n);
  }
  // the close frame is started first, so the browser hears why even when stopping the
  // session below takes a frame's time (with many sessions stopping at once, each waits
  // for its session thread's frame)
  ws_.async_close(websocket::close_reason(code, reason),
                  [self = shared_from_this()](beast::error_code) { self->finish(); });
  release_session();
}

void WebSocketSession::drop() {
  closing_ = true;
  release_session();
  beast::get_lowest_layer(ws_).close();
}

void WebSocketSession::release_session() {
  if (login_timer_) login_timer_->cancel();
  release_role();
  if (sink_) sink_->close();
}

void WebSocketSession::finish() {
  if (finished_) return;
  finished_ = true;
  closing_ = true;
  release_session();
  state_->leave(this);
}

}  // namespace clamsim::web
