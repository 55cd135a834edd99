// An instructor observing a live session over a WebSocket connection (the instructor
// page's "Watch"; docs/websocket-protocol.md "Observers"): /ws?observe=ID. The watched
// session pushes into this connection's own bounded queue (session/observers.h) and wakes
// it with a post; everything here runs on the connection's strand.
#include <cassert>

#include "web/auth_routes.h"
#include "web/frame_json.h"
#include "web/instructor_json.h"
#include "web/observer_json.h"
#include "web/observer_message.h"
#include "web/url.h"
#include "web/websocket_roles.h"

namespace clamsim::web {

namespace {

// "42" -> 42; anything else (empty, signs, spaces, too large) -> 0, which no session has.
std::uint64_t session_number(std::string_view text) {
  if (text.empty() || text.size() > 19) return 0;
  std::uint64_t n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return n;
}

// Each observer connection's id for the control arbiter (session::ClientId): never 0,
// never reused while the server runs.
session::ClientId next_observer_id() {
  static std::atomic<session::ClientId> next{1};
  return next.fetch_add(1);
}

std::string shown(std::string_view text) {
  std::string s(text.substr(0, 20));
  return text.size() > 20 ? s + "..." : s;
}

}  // namespace

ObserverSession::~ObserverSession() { release_role(); }

// The instructor role, a live session, then its hello marked as observing and its frames.
bool ObserverSession::start(std::string_view query) {
  const std::string observe = query_value(query, "observe").value_or("");
  WebCounters& c = state_->counters();
  if (const auto why = instructor_refusal()) {
    c.ws_closed_policy.fetch_add(1);
    state_->log("web: refused to let " + peer_text() + " observe: no instructor login");
    close_with(websocket::close_code::policy_error, "observe: " + *why);
    return false;
  }
  const std::uint64_t id = session_number(observe);
  if (id == 0) {
    c.ws_closed_policy.fetch_add(1);
    close_with(websocket::close_code::policy_error,
               "observe: expected a session number (as /api/sessions lists them), got \"" +
                   shown(observe) + "\"");
    return false;
  }
  const std::shared_ptr<session::Session> watched = state_->registry().find(id);
  observer_ = std::make_shared<session::ObserverQueue>(
      [state = state_, ex = ws_.get_executor(), weak = weak_role<ObserverSession>()] {
        state->post(ex, [weak] {
          if (auto s = weak.lock()) s->drain_observed();
        });
      });
  if (!watched || !watched->attach_observer(observer_)) {
    observer_.reset();
    c.ws_closed_policy.fetch_add(1);
    close_with(websocket::close_code::policy_error,
               "observe: no live session " + std::to_string(id) +
                   " (it ended or never started; see the instructor page)");
    return false;
  }
  watched_ = watched;
  observer_id_ = next_observer_id();
  if (state_->auth().login_required()) {
    instructor_name_ = state_->auth().check_login(login_token(req_), /*touch=*/false).name;
    watch_login(login_token(req_));   // from now on, at every action and once a second
  } else {
    instructor_name_ = "instructor";   // a loopback-only server without accounts
  }
  send_hello(*watched);
  state_->log("web: " + peer_text() + " observes " + watched->label());
  return true;
}

// The watched session's hello marked as observing, who drives it now (later changes come
// with the frames) and its faults.
void ObserverSession::send_hello(const session::Session& watched) {
  const session::MachineSetup& m = watched.machine();
  const nlohmann::ordered_json& scene = m.scenario ? m.scenario->client_scene : state_->scene();
  watched_load_ids_ = scene_load_ids(scene);
  open_ = true;
  const WebOptions& o = state_->options();
  HelloInfo hello;
  hello.session = watched.id();
  hello.server = state_->server_name();
  hello.frame_period_s = watched.frame_period_s();
  hello.model = m.name;
  hello.scenario = m.world_name;
  hello.max_message_bytes = o.max_message_bytes;
  hello.max_messages_per_s = o.max_messages_per_s;
  hello.observing = observing_json(watched.id(), watched.trainee(), watched.sink().transport(),
                                   watched.label());
  hello.observing["faults"] = session::fault_catalog_json();
  send(std::make_shared<const std::string>(hello_json(hello, *m.params, scene)),
       SendQueue::Kind::Other);
  send(std::make_shared<const std::string>(
           control_json(watched.desk().control().state(), observer_id_)),
       SendQueue::Kind::Other);
  send(std::make_shared<const std::string>(faults_json(watched.desk().active_faults())),
       SendQueue::Kind::Other);
}

// Woken by the watched session: the newest frames (display + the inputs when they changed),
// every event, and the session's end.
void ObserverSession::drain_observed() {
  assert(on_strand(ws_.get_executor()));
  if (!observer_ || closing()) return;
  session::ObserverQueue::Batch b = observer_->take();
  for (const auto& f : b.event_frames) {
    send(std::make_shared<const std::string>(events_json(*f, watched_load_ids_)),
         SendQueue::Kind::Other);
    if (f->frame.notices)
      for (std::string& text : notices_json(*f->frame.notices, observer_id_))
        send(std::make_shared<const std::string>(std::move(text)), SendQueue::Kind::Other);
  }
  for (const auto& f : b.frames) {
    if (!volts_sent_ || f->volts != last_volts_) {
      send(std::make_shared<const std::string>(inputs_json(*f)), SendQueue::Kind::Other);
      last_volts_ = f->volts;
      volts_sent_ = true;
    }
    // every observer of this session writes the same text: encoded once (observers.h)
    const std::string& text =
        f->encoded([&] { return display_json(f->frame, watched_load_ids_); });
    send(std::shared_ptr<const std::string>(f, &text), SendQueue::Kind::Display);
    if (f->frame.report)
      send(std::make_shared<const std::string>(report_json(f->frame)), SendQueue::Kind::Other);
  }
  if (b.ended)
    close_with(websocket::close_code::normal, "observe: " + b.end_reason);
}

void ObserverSession::handle_text(const std::string& text) {
  const ObserverMessage m = parse_observer_message(text);
  const auto watched = watched_.lock();
  if (m.type == ObserverMessage::Type::Invalid) return send_error(m.error_code, m.error_message);
  if (m.type == ObserverMessage::Type::Ping)
    return send(std::make_shared<const std::string>(
                    pong_json(m.parsed.id, m.parsed.ping_t, watched ? watched->sim_time_s() : 0.0)),
                SendQueue::Kind::Other);
  if (!watched) return;  // the session ended: its close is on its way
  // every action is the instructor's: the login must still be valid (it counts as use)
  if (!login_valid(/*touch=*/true)) return;
  session::InstructorDesk& desk = watched->desk();
  const auto answer = [&](const char* request, const session::ControlAnswer& a) {
    send(std::make_shared<const std::string>(control_answer_json(request, a)),
         SendQueue::Kind::Other);
    state_->log("web: " + instructor_name_ + " at " + peer_text() + " " + request + " on " +
                watched->label() + ": " + session::to_string(a.kind));
  };
  switch (m.type) {
    case ObserverMessage::Type::TakeControl:
      return answer("take_control", desk.control().request(observer_id_, instructor_name_,
                                                           session::ControlMode::Exclusive, m.wait));
    case ObserverMessage::Type::ShareControl:
      return answer("share_control", desk.control().request(observer_id_, instructor_name_,
                                                             session::ControlMode::Shared, m.wait));
    case ObserverMessage::Type::ReleaseControl:
      return answer("release_control", desk.control().release(observer_id_));
    case ObserverMessage::Type::Control: {
      const session::ControlVerdict v =
          session::validate_control(m.parsed.volts.data(), m.parsed.volts.size());
      if (v.kind == session::ControlVerdict::Kind::Rejected)
        return send_error("bad_control", v.reason);
      if (!desk.control().set_instructor_control(observer_id_, v.control))
        return send_error("not_in_control",
                          "control: take_control or share_control first (you do not hold the "
                          "controls of " + watched->label() + ")");
      return;
    }
    case ObserverMessage::Type::Message:
      if (std::string e = desk.post_message(instructor_name_, m.text); !e.empty())
        return send_error("bad_message", "message: " + e);
      state_->log("web: " + instructor_name_ + " at " + peer_text() + " sent a message to " +
                  watched->label());
      return;
    case ObserverMessage::Type::Fault:
    case ObserverMessage::Type::ClearFault:
      return handle_fault_message(m, *watched);
    case ObserverMessage::Type::Ping:
    case ObserverMessage::Type::Invalid: return;
  }
}

// fault / clear_fault: the session's fault catalog says whether it exists and its
// parameters are valid (session/fault_catalog.h); the change reaches every observer as
// `faults` on the frame where it takes effect.
void ObserverSession::handle_fault_message(const ObserverMessage& m, session::Session& watched) {
  const bool inject = m.type == ObserverMessage::Type::Fault;
  session::InstructorDesk& desk = watched.desk();
  const std::string error = inject ? desk.inject_fault(instructor_name_, m.fault, m.params)
                                   : desk.clear_fault(instructor_name_, m.fault, m.params);
  if (!error.empty())
    return send_error("bad_fault", std::string(inject ? "fault" : "clear_fault") + ": " + error);
  state_->log("web: " + instructor_name_ + " at " + peer_text() + (inject ? " injected " : " cleared ") +
              session::fault_text(m.fault, m.params) + " on " + watched.label());
}

// Leaves the watched session's observers (the session goes on). Idempotent.
void ObserverSession::release_role() {
  if (!observer_) return;
  if (auto watched = watched_.lock()) {
    // an instructor who disconnects hands the controls back (or leaves the line)
    watched->desk().control().leave(observer_id_);
    watched->detach_observer(observer_.get());
  }
  watched_.reset();
  observer_.reset();
}

}  // namespace clamsim::web
