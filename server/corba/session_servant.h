// CLAMX::Session (is_a CLAM::CraneClam): one per subscriber, a thin wrapper that hands
// controls to the session's mailbox, restarts of the task to the session, and unsubscribe
// to the host.
#pragma once

#include <memory>

#include <clamx.hh>

#include "corba/session_host.h"
#include "session/session.h"

namespace clamsim::corba {

class SessionServant final : public POA_CLAMX::Session {
 public:
  SessionServant(std::shared_ptr<session::Session> session, SessionHost& host);

  // oneway: validated and counted by the session; NaN/inf never reach the model.
  void GetControlInput(const CLAM::ControlSignal voltages) override;
  void unsubscribe() override;
  CLAMX::SessionStats stats() override;
  // A new attempt at the task, from the next frame on.
  void restartTask() override;
  void setTrainee(const char* name) override;

 private:
  // Shared with the registry; the last owner may be this servant, which the POA deletes on
  // an ORB or reaper thread after deactivation, never on the session's own thread.
  const std::shared_ptr<session::Session> session_;
  SessionHost& host_;
};

}  // namespace clamsim::corba
