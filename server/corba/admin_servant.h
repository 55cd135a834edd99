// The factory object of thesis 4.3.2, legacy and extended: CLAMX::Admin is_a
// CLAM::CraneClamAdmin, activated in omniINSPOA under "CraneClamAdmin".
#pragma once

#include <clamx.hh>

#include "corba/session_host.h"

namespace clamsim::corba {

class AdminServant final : public POA_CLAMX::Admin {
 public:
  explicit AdminServant(SessionHost& host) : host_(host) {}

  // Legacy: refusals are system exceptions with the minor codes of corba/minor_codes.h.
  CLAM::CraneClam_ptr subscribe(CLAM::CraneClamClient_ptr client) override;
  // Extended: refusals are CLAMX::Refused with a reason.
  CLAMX::Session_ptr subscribeWith(CLAM::CraneClamClient_ptr client,
                                   const CLAMX::SubscribeOptions& options) override;
  CLAMX::ServerStatus* status() override;

 private:
  SessionHost& host_;
};

}  // namespace clamsim::corba
