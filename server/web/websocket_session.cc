#include "web/websocket_session.h"

#include <linux/sockios.h>
#include <sys/ioctl.h>

#include <cassert>
#include <cmath>

#include "training/trainee_name.h"
#include "web/client_message.h"
#include "web/frame_json.h"
#include "web/frame_rate.h"
#include "web/instructor_json.h"
#include "web/origin.h"
#include "web/replay_json.h"
#include "web/url.h"

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

WebSocketSession::WebSocketSession(WebStream&& stream, std::shared_ptr<SharedState> state,
                                   ConnectionSlot slot)
    : ws_(std::move(stream)), state_(std::move(state)), slot_(std::move(slot)),
      queue_(state_->options().send_queue_limit),
      rate_(state_->options().max_messages_per_s, std::chrono::seconds(1)) {}

// Runs on an I/O thread, or on the thread destroying the io_context after stop(); never on
// a session thread, which holds only weak references to this object.
WebSocketSession::~WebSocketSession() {
  release_session();  // only if stop() raced a session that was just starting
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
  if (!start_session()) return;
  do_read();
}

// Checks the origin, resolves the model, asks the registry for a session and sends hello.
// Hello is queued in this same strand handler, before any frame the new session posts.
bool WebSocketSession::start_session() {
  WebCounters& c = state_->counters();
  const WebOptions& o = state_->options();
  const std::string origin = to_std(req_[http::field::origin]);
  if (!origin_allowed(origin, to_std(req_[http::field::host]), o.allowed_origins)) {
    c.ws_closed_policy.fetch_add(1);
    state_->log("web: refused WebSocket from origin " + origin);
    close_with(websocket::close_code::policy_error, "origin not allowed: " + origin);
    return false;
  }
  const std::string target = to_std(req_.target());
  const std::string_view query = split_target(target).query;
  if (const std::string problem = query_problem(query); !problem.empty()) {
    c.ws_closed_policy.fetch_add(1);
    close_with(websocket::close_code::policy_error, problem);
    return false;
  }
  if (const auto observe = query_value(query, "observe")) return start_observing(*observe);
  if (const auto replay = query_value(query, "replay")) return start_replaying(*replay);
  const std::string model = query_value(query, "model").value_or("");
  std::string scenario = query_value(query, "scenario").value_or("");
  session::MachineSetup setup;
  std::string why;
  nlohmann::ordered_json taken_over;
  if (const auto takeover = query_value(query, "takeover")) {
    // the ticket came from a replay its holder was allowed to see: no class code needed
    if (!take_over_setup(*takeover, &setup)) return false;
    scenario = setup.world_name;
    taken_over = {{"recording", setup.seed->recording}, {"k", setup.seed->k}};
  } else {
    if (!class_code_accepted(query_value(query, "class_code").value_or(""))) return false;
    if (!state_->catalog().resolve(model, scenario, &setup, &why)) {
      c.ws_closed_policy.fetch_add(1);
      // a mistyped ?scenario= is the usual cause: the operator sees it without a browser
      state_->log("web: refused WebSocket: " + why);
      close_with(websocket::close_code::policy_error, why);
      return false;
    }
  }
  auto params = setup.params;
  const std::string model_name = setup.name;
  // a browser may ask for more frames per second than the thesis's 20 (issue 14)
  const std::vector<int> rates = offered_frame_rates(o.max_frame_rate_hz);
  double period = o.frame_period_s;
  if (const auto rate = query_value(query, "rate")) {
    const std::optional<int> hz = parse_frame_rate(*rate, rates, &why);
    if (!hz) {
      c.ws_closed_policy.fetch_add(1);
      close_with(websocket::close_code::policy_error, why);
      return false;
    }
    period = frame_period_for(*hz, params->integrator.step_s);
  }
  // the browser draws the world this session works in: the server's (WebOptions::scene)
  // unless the connection chose another world scenario
  world_ = setup.scenario;
  const nlohmann::ordered_json& scene = world_ ? world_->client_scene : state_->scene();
  sink_ = std::make_shared<WebSocketSink>(state_, ws_.get_executor(), weak_from_this(),
                                          o.write_stall_s, o.max_queued_bytes,
                                          o.send_queue_limit, scene_load_ids(scene),
                                          peer_text(), slot_.client());
  std::weak_ptr<WebSocketSession> weak = weak_from_this();
  session::ReapHandler on_reap = [state = state_, ex = ws_.get_executor(),
                                  weak](const std::shared_ptr<session::Session>&) {
    state->post(ex, [weak] {
      if (auto s = weak.lock()) s->on_reaped();
    });
  };
  session_ = state_->registry().create(std::move(setup), sink_, period,
                                       std::move(on_reap), &why);
  if (!session_) {
    c.ws_closed_full.fetch_add(1);
    state_->log("web: refused a session: " + why);
    close_with(websocket::close_code::try_again_later, why);
    return false;
  }
  state_->own_session(session_->id());
  open_ = true;
  HelloInfo hello;
  hello.session = session_->id();
  hello.server = state_->server_name();
  hello.frame_period_s = period;
  hello.frame_rates_hz = rates;
  hello.model = model_name;
  hello.scenario = scenario;
  hello.max_message_bytes = o.max_message_bytes;
  hello.max_messages_per_s = o.max_messages_per_s;
  hello.taken_over = std::move(taken_over);
  send(std::make_shared<const std::string>(hello_json(hello, *params, scene)),
       SendQueue::Kind::Other);
  return true;
}

// With --class-code, a session starts only with the right code. Wrong codes count as
// failed logins of the peer's address (auth/login_throttle.h), so it cannot be guessed.
bool WebSocketSession::class_code_accepted(const std::string& given) {
  WebAuth& auth = state_->auth();
  if (auth.options().class_code.empty()) return true;
  std::string address = peer_text();
  address = address.substr(0, address.rfind(':'));  // the tracker's key, as for logins
  if (address.size() > 2 && address.front() == '[') address = address.substr(1, address.size() - 2);
  std::string refusal;
  if (const auth::ThrottleVerdict v = auth.throttle().check(address); v.locked) {
    refusal = "class code: too many wrong codes from this address; try again in " +
              std::to_string(static_cast<long>(v.retry_after_s)) + " s";
  } else if (given.empty()) {
    refusal = "class code required: ask your instructor";
  } else if (!auth.class_code_matches(given)) {
    const auth::ThrottleVerdict after = auth.throttle().failed(address, "class code");
    refusal = after.locked ? "class code: wrong code; too many wrong codes from this address, "
                             "try again in " + std::to_string(static_cast<long>(after.retry_after_s)) + " s"
                           : std::string("class code: wrong code");
  } else {
    // not succeeded(): the code is shared by a class, and must not clear the address's
    // failed logins
    return true;
  }
  state_->counters().ws_closed_policy.fetch_add(1);
  state_->log("web: refused a session from " + address + ": " + refusal);
  close_with(websocket::close_code::policy_error, refusal);
  return false;
}

std::string WebSocketSession::peer_text() {
  beast::error_code ec;
  const tcp::endpoint peer = beast::get_lowest_layer(ws_).socket().remote_endpoint(ec);
  if (ec) return "";
  const std::string host = peer.address().to_string();
  return (peer.address().is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(peer.port());
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
    self->state_->log("web: session " +
                      std::to_string(self->session_ ? self->session_->id() : 0) +
                      " flooding (more than " + limit + " frames in one second), closed");
    self->close_with(websocket::close_code::policy_error,
                     "flooding: more than " + limit + " frames in one second");
  });
}

void WebSocketSession::handle_text(const std::string& text) {
  if (observer_) return handle_observer_text(text);
  if (replay_) return handle_replay_text(text);
  const ClientMessage m = parse_client_message(text);
  switch (m.type) {
    case ClientMessage::Type::Control: {
      const session::ControlVerdict v = session_->submit_control(m.volts.data(), m.volts.size());
      if (v.kind == session::ControlVerdict::Kind::Rejected) {
        send_error("bad_control", v.reason);
      } else if (v.kind == session::ControlVerdict::Kind::Clamped) {
        // a joystick a hair past 5 V would otherwise get an error at 20 Hz
        const auto now = std::chrono::steady_clock::now();
        if (now - last_clamp_report_ >= std::chrono::seconds(1)) {
          last_clamp_report_ = now;
          send_error("clamped", v.reason);
        }
      }
      break;
    }
    case ClientMessage::Type::Ping:
      send(std::make_shared<const std::string>(
               pong_json(m.id, m.ping_t, session_->sim_time_s())),
           SendQueue::Kind::Other);
      break;
    case ClientMessage::Type::Restart:
      // the session resets the world and the task before its next frame
      session_->request_restart(m.practice);
      send(std::make_shared<const std::string>(restarting_json(m.id)), SendQueue::Kind::Other);
      break;
    case ClientMessage::Type::Trainee: {
      std::string why;
      if (const auto name = training::normalise_trainee_name(m.trainee, &why)) {
        session_->set_trainee(*name);
        send(std::make_shared<const std::string>(trainee_json(*name)), SendQueue::Kind::Other);
      } else {
        send_error("bad_trainee", why);
      }
      break;
    }
    case ClientMessage::Type::ReplayTicket:
      send_replay_ticket();
      break;
    case ClientMessage::Type::Invalid:
      send_error(m.error_code, m.error_message);
      break;
  }
}

// The trainee's ticket to replay this session's own recording (issue 12): reusable for an
// hour, for that file only.
void WebSocketSession::send_replay_ticket() {
  const std::string name = session_->recording_name();
  if (name.empty()) {
    send_error("not_recorded", "this session is not recorded (the server runs with --record no, "
                               "or its recording could not be opened)");
    return;
  }
  send(std::make_shared<const std::string>(
           replay_ticket_json(name, state_->replay_tickets().issue(name))),
       SendQueue::Kind::Other);
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
  // session below takes a frame's time (many sessions stopping at once, issue 18)
  ws_.async_close(websocket::close_reason(code, reason),
                  [self = shared_from_this()](beast::error_code) { self->finish(); });
  release_session();
}

void WebSocketSession::on_reaped() {
  assert(on_strand(ws_.get_executor()));
  if (finished_) return;
  // the registry has already stopped the session: the browser stopped reading for longer
  // than write_stall_s plus the registry's grace; a close frame would not get through
  state_->counters().ws_closed_stalled.fetch_add(1);
  state_->log("web: session " + std::to_string(session_ ? session_->id() : 0) +
              " reaped (browser not reading), connection dropped");
  closing_ = true;
  release_session();
  beast::get_lowest_layer(ws_).close();
}

// Stops the session at once (no more frames), on the strand, never the session thread.
void WebSocketSession::release_session() {
  if (login_timer_) login_timer_->cancel();
  stop_observing();
  stop_replaying();
  if (sink_) sink_->close();
  if (!session_) return;
  const std::uint64_t id = session_->id();
  session_.reset();
  state_->disown_session(id);
  state_->registry().remove(id);  // joins the session thread (one frame at most)
}

void WebSocketSession::finish() {
  if (finished_) return;
  finished_ = true;
  closing_ = true;
  release_session();
  state_->leave(this);
}

}  // namespace clamsim::web
