#include "tools/client/subscription.h"

#include "tools/client/corba_errors.h"

#include "corba/idl_fields.h"

namespace clamsim::client {
namespace {

std::string failure(const std::string& what, const CORBA::Exception& e) {
  std::string msg = what + ": " + describe(e);
  const std::string h = hint(e);
  if (!h.empty()) msg += "; " + h;
  return msg;
}

}  // namespace

Subscription::Subscription(CLAM::CraneClam_ptr session, bool extended, unsigned timeout_ms)
    : session_(CLAM::CraneClam::_duplicate(session)), extended_(extended) {
  // a oneway to a server that stopped reading would otherwise block this thread forever
  omniORB::setClientCallTimeout(session_.in(), timeout_ms);
  if (extended_) {
    // the server returned a CLAMX::Session; no remote _is_a needed, the type is in the IOR
    extended_session_ = CLAMX::Session::_unchecked_narrow(session_.in());
    omniORB::setClientCallTimeout(extended_session_.in(), timeout_ms);
  }
}

Subscription::~Subscription() { unsubscribe(); }

bool Subscription::send_control(const std::array<float, 5>& volts, std::string* error) {
  CLAM::ControlSignal signal;
  for (std::size_t i = 0; i < volts.size(); ++i) signal[i] = volts[i];
  try {
    session_->GetControlInput(signal);
    return true;
  } catch (const CORBA::Exception& e) {
    if (error != nullptr) *error = failure("GetControlInput", e);
    return false;
  }
}

bool Subscription::restart_task(std::string* error) {
  if (!extended_ || !subscribed_) {
    if (error != nullptr) *error = "restartTask needs the extended interface (not --legacy)";
    return false;
  }
  try {
    extended_session_->restartTask();
    return true;
  } catch (const CORBA::Exception& e) {
    if (error != nullptr) *error = failure("restartTask()", e);
    return false;
  }
}

bool Subscription::set_trainee(const std::string& name, std::string* error) {
  if (!extended_ || !subscribed_) {
    if (error != nullptr) *error = "setTrainee needs the extended interface (not --legacy)";
    return false;
  }
  try {
    extended_session_->setTrainee(name.c_str());
    return true;
  } catch (const CLAMX::Refused& r) {
    if (error != nullptr) *error = std::string("the server refused the name: ") + r.reason.in();
    return false;
  } catch (const CORBA::Exception& e) {
    if (error != nullptr) *error = failure("setTrainee()", e);
    return false;
  }
}

std::optional<SessionCounters> Subscription::stats(std::string* error) {
  if (!extended_ || !subscribed_) return std::nullopt;
  try {
    const CLAMX::SessionStats s = extended_session_->stats();
    SessionCounters c;
    core::copy_from_wire<corba::kIdlStatsFields, session::kCounterFields>(s, c);
    return c;
  } catch (const CORBA::Exception& e) {
    if (error != nullptr) *error = failure("stats()", e);
    return std::nullopt;
  }
}

std::string counters_text(const SessionCounters& c) {
  std::string text;
  for (const auto& wire : corba::kIdlStatsFields) {
    const std::size_t i = core::index_of(session::kCounterFields, wire.name);
    if (!text.empty()) text += ", ";
    text += std::string(wire.name) + " " + std::to_string(c.*session::kCounterFields[i].member);
  }
  return text;
}

bool Subscription::unsubscribe(std::string* error) {
  if (!subscribed_) return true;
  subscribed_ = false;
  try {
    session_->unsubscribe();
    return true;
  } catch (const CORBA::Exception& e) {
    if (error != nullptr) *error = failure("unsubscribe()", e);
    return false;
  }
}

ServerAdmin::ServerAdmin(CORBA::Object_ptr reference, bool legacy, unsigned timeout_ms)
    : legacy_(legacy) {
  omniORB::setClientCallTimeout(reference, timeout_ms);
  try {
    if (legacy_) {
      admin_ = CLAM::CraneClamAdmin::_narrow(reference);
      if (CORBA::is_nil(admin_)) throw ClientError("the object is not a CLAM::CraneClamAdmin");
    } else {
      extended_admin_ = CLAMX::Admin::_narrow(reference);
      if (CORBA::is_nil(extended_admin_)) {
        throw ClientError("the object is not a CLAMX::Admin (a 2001-style server? try --legacy)");
      }
      admin_ = CLAM::CraneClamAdmin::_duplicate(extended_admin_.in());
    }
  } catch (const CORBA::Exception& e) {
    throw ClientError(failure("cannot reach the server's admin object", e));
  }
  omniORB::setClientCallTimeout(admin_.in(), timeout_ms);
}

std::unique_ptr<Subscription> ServerAdmin::subscribe(CORBA::Object_ptr client,
                                                     const SubscribeSettings& settings) {
  CLAM::CraneClamClient_var receiver = CLAM::CraneClamClient::_unchecked_narrow(client);
  try {
    if (legacy_) {
      CLAM::CraneClam_var session = admin_->subscribe(receiver.in());
      if (CORBA::is_nil(session)) throw ClientError("subscribe() returned a nil session");
      return std::make_unique<Subscription>(session.in(), false, settings.session_timeout_ms);
    }
    CLAMX::SubscribeOptions options;
    options.frame_rate_hz = settings.frame_rate_hz;
    options.model = settings.model.c_str();
    options.scenario = settings.scenario.c_str();
    CLAMX::Session_var session = extended_admin_->subscribeWith(receiver.in(), options);
    if (CORBA::is_nil(session)) throw ClientError("subscribeWith() returned a nil session");
    return std::make_unique<Subscription>(session.in(), true, settings.session_timeout_ms);
  } catch (const CLAMX::Refused& r) {
    throw Refused(std::string(r.reason.in()));
  } catch (const CORBA::Exception& e) {
    throw ClientError(failure(legacy_ ? "subscribe()" : "subscribeWith()", e));
  }
}

std::optional<ServerStatusInfo> ServerAdmin::status(std::string* error) {
  if (legacy_) return std::nullopt;
  try {
    CLAMX::ServerStatus_var s = extended_admin_->status();
    ServerStatusInfo info;
    info.sessions = s->sessions;
    info.capacity = s->capacity;
    info.version = s->version.in();
    info.frames_sent = s->frames_sent;
    info.send_failures = s->send_failures;
    info.sessions_reaped = s->sessions_reaped;
    return info;
  } catch (const CORBA::Exception& e) {
    if (error != nullptr) *error = failure("status()", e);
    return std::nullopt;
  }
}

}  // namespace clamsim::client
