#include "tools/client/corba_errors.h"

#include <atomic>

#include "corba/tls_context.h"

#include <cstring>

#include "corba/minor_codes.h"

namespace clamsim::client {

namespace {

// clamsim-server's own minor codes ('CL' prefix) on the legacy admin's refusals.
const char* clamsim_refusal(const CORBA::Exception& e) {
  const auto* sys = CORBA::SystemException::_downcast(&e);
  if (sys == nullptr) return nullptr;
  switch (sys->minor()) {
    case corba::minor::kServerFull: return "the server is full (session limit)";
    case corba::minor::kShuttingDown: return "the server is shutting down";
    case corba::minor::kNilClient: return "the server got a nil client reference";
    case corba::minor::kNotAClient: return "the server says this is not a CraneClamClient";
    case corba::minor::kClientUnreachable: return "the server cannot reach this receiver";
    case corba::minor::kBadRequest: return "the server refused the request";
    default: return nullptr;
  }
}

}  // namespace

std::string describe(const CORBA::Exception& e) {
  std::string text = e._name();
  if (const char* ours = clamsim_refusal(e)) return text + " (" + ours + ")";
  if (const auto* sys = CORBA::SystemException::_downcast(&e)) {
    const char* minor = sys->NP_minorString();
    if (minor != nullptr) text += std::string(" (") + minor + ")";
  }
  return text;
}

namespace {
std::atomic<bool> g_tls{false};
}  // namespace

void note_tls_in_use() { g_tls = true; }

std::string hint(const CORBA::Exception& e) {
  if (clamsim_refusal(e) != nullptr) return "";  // describe() already says why
  const std::string name = e._name();
  if (g_tls && (name == "TRANSIENT" || name == "COMM_FAILURE")) {
    // omniORB reports a failed handshake as a failed connection; say which side refused
    const std::string refused = corba::last_verify_failure();
    if (!refused.empty())
      return "the TLS handshake failed: the server's " + refused +
             " (is --tls-ca the CA that signed it, and does it name the host?)";
    return "is the server running with TLS at that address? If so, it refused this "
           "receiver's certificate or wants one (--tls-cert, --tls-key from its CA)";
  }
  if (name == "TRANSIENT") return "is the server running and reachable at that address?";
  if (name == "TIMEOUT") return "the server did not answer in time";
  if (name == "OBJECT_NOT_EXIST") return "the address is right but no such object is there";
  if (name == "BAD_PARAM") return "the reference string is malformed";
  if (name == "COMM_FAILURE") return "the connection to the server broke";
  return "";
}

}  // namespace clamsim::client
