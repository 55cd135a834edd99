#include "corba/session_servant.h"

#include <string>
#include <utility>

#include "training/trainee_name.h"

namespace clamsim::corba {

SessionServant::SessionServant(std::shared_ptr<session::Session> session, SessionHost& host)
    : session_(std::move(session)), host_(host) {}

void SessionServant::GetControlInput(const CLAM::ControlSignal voltages) {
  session_->submit_control(voltages, 5);  // ControlSignal is float[5]
}

void SessionServant::unsubscribe() { host_.close_session(session_->id()); }

CLAMX::SessionStats SessionServant::stats() { return to_stats(session_->counters()); }

void SessionServant::restartTask() { session_->request_restart(); }

void SessionServant::setTrainee(const char* name) {
  std::string why;
  const auto checked = training::normalise_trainee_name(name != nullptr ? name : "", &why);
  if (!checked) throw CLAMX::Refused(why.c_str());
  session_->set_trainee(*checked);
}

}  // namespace clamsim::corba
