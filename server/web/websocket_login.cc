// The login behind an open connection (docs/security.md, "Instructor accounts"): an
// observer (/ws?observe=) or an instructor's replay got in with a login, and may act only
// while that login lasts. The cookie is checked at the upgrade (websocket_observe.cc,
// websocket_replay.cc); from then on the connection looks at the login once a second and
// before each instructor action, and a logout makes every connection look at once
// (SharedState::recheck_logins). A login that has ended (logged out, expired, its account
// removed or its password changed) closes the connection with 1008 and the reason.
// Everything here runs on the connection's strand.
#include <cassert>

#include "web/websocket_session.h"

namespace clamsim::web {

namespace {

// Often enough that a removed account or an expiry counts within a second; one hash-map
// lookup and one stat() of the accounts file each time.
constexpr std::chrono::seconds kLoginLook{1};

}  // namespace

void WebSocketSession::watch_login(std::string token) {
  assert(on_strand(ws_.get_executor()));
  if (!state_->auth().login_required() || token.empty()) return;  // "(local)": no login
  login_token_ = std::move(token);
  login_timer_ = std::make_unique<net::steady_timer>(ws_.get_executor());
  look_at_login_later();
}

void WebSocketSession::look_at_login_later() {
  login_timer_->expires_after(kLoginLook);
  // weak: the timer never keeps a closed connection alive
  login_timer_->async_wait([weak = weak_from_this()](beast::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->closing_ || self->finished_) return;
    if (self->login_valid(/*touch=*/false)) self->look_at_login_later();
  });
}

void WebSocketSession::recheck_login() {
  net::post(ws_.get_executor(), [weak = weak_from_this()] {
    auto self = weak.lock();
    if (self && !self->closing_ && !self->finished_) self->login_valid(/*touch=*/false);
  });
}

bool WebSocketSession::login_valid(bool touch) {
  assert(on_strand(ws_.get_executor()));
  if (login_token_.empty()) return true;
  const WebAuth::LoginCheck check = state_->auth().check_login(login_token_, touch);
  if (check.ended.empty()) return true;
  state_->counters().ws_closed_policy.fetch_add(1);
  state_->log("web: closed " + std::string(role_name()) + " of " +
              instructor_name_ + " at " + peer_text() + ": login ended (" + check.ended + ")");
  login_token_.clear();
  if (login_timer_) login_timer_->cancel();
  close_with(websocket::close_code::policy_error, "login ended: " + check.ended);
  return false;
}

}  // namespace clamsim::web
