#include "corba/admin_servant.h"

#include <omniORB4/callHandle.h>
#include <omniORB4/omniORB.h>

#include <utility>

#include "corba/minor_codes.h"
#include "corba/tls_context.h"

namespace clamsim::corba {

namespace {

// The connection of the request this thread is dispatching (set by _dispatch).
thread_local PeerIdentity t_caller;

}  // namespace

CORBA::Boolean AdminServant::_dispatch(omniCallHandle& handle) {
  // peeraddress() is null for an in-process call: no connection, nothing proved
  struct Scope {
    explicit Scope(PeerIdentity id) { t_caller = std::move(id); }
    ~Scope() { t_caller = PeerIdentity{}; }  // also when the operation throws
  } scope(peer_identity(handle.peeraddress(), handle.peerdetails()));
  return POA_CLAMX::Admin::_dispatch(handle);
}

std::string AdminServant::caller() {
  return !t_caller.tls              ? "plain IIOP"
         : t_caller.verified        ? "TLS, client certificate " + t_caller.subject
         : t_caller.subject.empty() ? "TLS without a client certificate"
                                    : "TLS, unverified certificate " + t_caller.subject;
}

SubscribeRequest AdminServant::with_caller(SubscribeRequest request) const {
  request.authenticated = t_caller.verified;
  request.caller = caller();
  return request;
}

CLAM::CraneClam_ptr AdminServant::subscribe(CLAM::CraneClamClient_ptr client) {
  try {
    return host_.open_session(client, with_caller(SubscribeRequest{}));
  } catch (const Refusal& r) {
    switch (r.kind) {
      case Refusal::Kind::ServerFull:
        throw CORBA::NO_RESOURCES(minor::kServerFull, CORBA::COMPLETED_NO);
      case Refusal::Kind::ShuttingDown:
        throw CORBA::NO_RESOURCES(minor::kShuttingDown, CORBA::COMPLETED_NO);
      case Refusal::Kind::Draining:
        throw CORBA::NO_RESOURCES(minor::kDraining, CORBA::COMPLETED_NO);
      case Refusal::Kind::NilClient:
        throw CORBA::BAD_PARAM(minor::kNilClient, CORBA::COMPLETED_NO);
      case Refusal::Kind::NotAClient:
        throw CORBA::BAD_PARAM(minor::kNotAClient, CORBA::COMPLETED_NO);
      case Refusal::Kind::ClientUnreachable:
        throw CORBA::BAD_PARAM(minor::kClientUnreachable, CORBA::COMPLETED_NO);
      case Refusal::Kind::BadRequest:
        break;
    }
    throw CORBA::BAD_PARAM(minor::kBadRequest, CORBA::COMPLETED_NO);
  }
}

CLAMX::Session_ptr AdminServant::subscribeWith(CLAM::CraneClamClient_ptr client,
                                               const CLAMX::SubscribeOptions& options) {
  SubscribeRequest request;
  std::string error;
  if (!from_options(options, &request, &error)) throw CLAMX::Refused(error.c_str());
  try {
    return host_.open_session(client, with_caller(request));
  } catch (const Refusal& r) {
    throw CLAMX::Refused(r.reason.c_str());
  }
}

CLAMX::ServerStatus* AdminServant::status() { return to_status(host_.figures()); }

CLAMX::Observation_ptr AdminServant::observe(CORBA::ULongLong session,
                                             CLAMX::FrameClient_ptr observer,
                                             const char* ticket) {
  try {
    return host_.observe(session, observer, ticket != nullptr ? ticket : "", caller());
  } catch (const Refusal& r) {
    throw CLAMX::Refused(r.reason.c_str());
  }
}

void AdminForwarder::forward() const {
  // consumes the duplicate; not permanent, so a receiver falls back to the corbaloc object
  // (and is forwarded again) should the target ever fail
  throw omniORB::LOCATION_FORWARD(CORBA::Object::_duplicate(target_.in()), 0);
}

CLAM::CraneClam_ptr AdminForwarder::subscribe(CLAM::CraneClamClient_ptr) { forward(); }

CLAMX::Session_ptr AdminForwarder::subscribeWith(CLAM::CraneClamClient_ptr,
                                                 const CLAMX::SubscribeOptions&) {
  forward();
}

CLAMX::ServerStatus* AdminForwarder::status() { forward(); }

CLAMX::Observation_ptr AdminForwarder::observe(CORBA::ULongLong, CLAMX::FrameClient_ptr,
                                               const char*) {
  forward();
}

}  // namespace clamsim::corba
