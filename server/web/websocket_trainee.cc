// A trainee's live session over a WebSocket connection (docs/websocket-protocol.md): the
// connection asks the registry for a session, sends its hello and takes the trainee's
// controls, pings, restarts and name. Everything here runs on the connection's strand.
#include <cassert>

#include "training/trainee_name.h"
#include "web/client_message.h"
#include "web/frame_json.h"
#include "web/frame_rate.h"
#include "web/replay_json.h"
#include "web/url.h"
#include "web/websocket_roles.h"

namespace clamsim::web {

// Runs on an I/O thread, or on the thread destroying the io_context after stop(); never on
// a session thread, which holds only weak references to this object.
TraineeSession::~TraineeSession() {
  release_role();  // only if stop() raced a session that was just starting
}

// Resolves the model, asks the registry for a session and sends hello. Hello is queued in
// this same strand handler, before any frame the new session posts.
bool TraineeSession::start(std::string_view query) {
  HelloInfo hello;
  session::MachineSetup setup;
  if (!choose_setup(query, &setup, &hello)) return false;
  const std::shared_ptr<const core::MachineParams> params = setup.params;
  hello.model = setup.name;
  if (!choose_frame_period(query, params->integrator.step_s, &hello)) return false;
  // the browser draws the world this session works in: the server's (WebOptions::scene)
  // unless the connection chose another world scenario
  world_ = setup.scenario;
  const nlohmann::ordered_json& scene = world_ ? world_->client_scene : state_->scene();
  if (!open_session(std::move(setup), hello.frame_period_s, scene)) return false;
  const WebOptions& o = state_->options();
  hello.session = session_->id();
  hello.server = state_->server_name();
  hello.max_message_bytes = o.max_message_bytes;
  hello.max_messages_per_s = o.max_messages_per_s;
  send(std::make_shared<const std::string>(hello_json(hello, *params, scene)),
       SendQueue::Kind::Other);
  return true;
}

// The machine and world: a takeover ticket's, else (with the class code) the catalog's
// ?model= and ?scenario=. Else closes with why.
bool TraineeSession::choose_setup(std::string_view query, session::MachineSetup* setup,
                                  HelloInfo* hello) {
  if (const auto takeover = query_value(query, "takeover")) {
    // the ticket came from a replay its holder was allowed to see: no class code needed
    if (!take_over_setup(*takeover, setup)) return false;
    hello->scenario = setup->world_name;
    hello->taken_over = {{"recording", setup->seed->recording}, {"k", setup->seed->k}};
    return true;
  }
  if (!class_code_accepted(query_value(query, "class_code").value_or(""))) return false;
  const std::string model = query_value(query, "model").value_or("");
  hello->scenario = query_value(query, "scenario").value_or("");
  std::string why;
  if (state_->catalog().resolve(model, hello->scenario, setup, &why)) return true;
  state_->counters().ws_closed_policy.fetch_add(1);
  // a mistyped ?scenario= is the usual cause: the operator sees it without a browser
  state_->log("web: refused WebSocket: " + why);
  close_with(websocket::close_code::policy_error, why);
  return false;
}

// The frame period: the server's, or the ?rate= a browser asked for (more frames per
// second make a smoother view; up to --max-frame-rate). Else closes with why.
bool TraineeSession::choose_frame_period(std::string_view query, double step_s,
                                         HelloInfo* hello) {
  const WebOptions& o = state_->options();
  hello->frame_rates_hz = offered_frame_rates(o.max_frame_rate_hz);
  hello->frame_period_s = o.frame_period_s;
  const auto rate = query_value(query, "rate");
  if (!rate) return true;
  std::string why;
  const std::optional<int> hz = parse_frame_rate(*rate, hello->frame_rates_hz, &why);
  if (!hz) {
    state_->counters().ws_closed_policy.fetch_add(1);
    close_with(websocket::close_code::policy_error, why);
    return false;
  }
  hello->frame_period_s = frame_period_for(*hz, step_s);
  return true;
}

// The session, from the registry, sending through this connection's sink; else closes
// with why (the server is full).
bool TraineeSession::open_session(session::MachineSetup setup, double period,
                                  const nlohmann::ordered_json& scene) {
  const WebOptions& o = state_->options();
  sink_ = std::make_shared<WebSocketSink>(state_, ws_.get_executor(), weak_from_this(),
                                          o.write_stall_s, o.max_queued_bytes,
                                          o.send_queue_limit, scene_load_ids(scene),
                                          peer_text(), slot_.client());
  session::ReapHandler on_reap = [state = state_, ex = ws_.get_executor(),
                                  weak = weak_role<TraineeSession>()](
                                     const std::shared_ptr<session::Session>&) {
    state->post(ex, [weak] {
      if (auto s = weak.lock()) s->on_reaped();
    });
  };
  std::string why;
  session_ = state_->registry().create(std::move(setup), sink_, period, std::move(on_reap), &why);
  if (!session_) {
    state_->counters().ws_closed_full.fetch_add(1);
    state_->log("web: refused a session: " + why);
    close_with(websocket::close_code::try_again_later, why);
    return false;
  }
  state_->own_session(session_->id());
  open_ = true;
  return true;
}

// With --class-code, a session starts only with the right code. Wrong codes count as
// failed logins of the peer's address (auth/login_throttle.h), so it cannot be guessed.
bool TraineeSession::class_code_accepted(const std::string& given) {
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

// /ws?takeover=TICKET: the machine and the replayed moment the ticket stands for.
bool TraineeSession::take_over_setup(std::string_view ticket, session::MachineSetup* setup) {
  std::string why;
  auto found = state_->takeover_tickets().find(ticket, /*use_up=*/true, &why);
  if (!found) {
    state_->counters().ws_closed_policy.fetch_add(1);
    close_with(websocket::close_code::policy_error,
               "takeover: " + why + "; take over again from the replay");
    return false;
  }
  *setup = std::move(*found);
  return true;
}

void TraineeSession::handle_text(const std::string& text) {
  const ClientMessage m = parse_client_message(text);
  switch (m.type) {
    case ClientMessage::Type::Control:
      handle_control(m.volts);
      break;
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

void TraineeSession::handle_control(const std::array<double, 5>& volts) {
  const session::ControlVerdict v = session_->submit_control(volts.data(), volts.size());
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
}

// The trainee's ticket to replay this session's own recording (the debrief after a run):
// reusable for an hour, for that file only.
void TraineeSession::send_replay_ticket() {
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

void TraineeSession::on_reaped() {
  assert(on_strand(ws_.get_executor()));
  if (finished()) return;
  // the registry has already stopped the session: the browser stopped reading for longer
  // than write_stall_s plus the registry's grace; a close frame would not get through
  state_->counters().ws_closed_stalled.fetch_add(1);
  state_->log("web: session " + std::to_string(session_ ? session_->id() : 0) +
              " reaped (browser not reading), connection dropped");
  drop();
}

// Stops the session at once (no more frames): the sink first, then the session's thread.
void TraineeSession::release_role() {
  if (sink_) sink_->close();
  if (!session_) return;
  const std::uint64_t id = session_->id();
  session_.reset();
  state_->disown_session(id);
  state_->registry().remove(id);  // joins the session thread (one frame at most)
}

}  // namespace clamsim::web
