// The factory object of thesis 4.3.2, legacy and extended: CLAMX::Admin is_a
// CLAM::CraneClamAdmin, activated in omniINSPOA under "CraneClamAdmin" (or, with
// bidirectional GIOP, in a BiDir POA behind an AdminForwarder in omniINSPOA).
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
  CLAMX::Observation_ptr observe(CORBA::ULongLong session, CLAMX::FrameClient_ptr observer,
                                 const char* ticket) override;

  // Every request passes here first: notes what the calling connection proved (TLS, a
  // verified client certificate) for the operation, which runs on this same thread.
  CORBA::Boolean _dispatch(omniCallHandle& handle) override;

 private:
  SubscribeRequest with_caller(SubscribeRequest request) const;
  static std::string caller();
  SessionHost& host_;
};

// --bidir yes: what omniINSPOA serves at corbaloc::HOST:PORT/CraneClamAdmin. omniINSPOA's
// policies are fixed, and omniORB ties a received client reference to the caller's
// bidirectional connection only when the target's POA has BiDirPolicy BOTH; so every
// operation answers LOCATION_FORWARD to the real admin in such a POA, and the receiver's ORB
// repeats the call there (over the same connection: same address).
class AdminForwarder final : public POA_CLAMX::Admin {
 public:
  explicit AdminForwarder(CORBA::Object_ptr target)
      : target_(CORBA::Object::_duplicate(target)) {}

  CLAM::CraneClam_ptr subscribe(CLAM::CraneClamClient_ptr client) override;
  CLAMX::Session_ptr subscribeWith(CLAM::CraneClamClient_ptr client,
                                   const CLAMX::SubscribeOptions& options) override;
  CLAMX::ServerStatus* status() override;
  CLAMX::Observation_ptr observe(CORBA::ULongLong session, CLAMX::FrameClient_ptr observer,
                                 const char* ticket) override;

 private:
  [[noreturn]] void forward() const;
  CORBA::Object_var target_;
};

}  // namespace clamsim::corba
