// ORB start-up from CorbaOptions: the fixed endpoint behind corbaloc, what gets published in
// references, the server concurrency model and the client connect timeout.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <omniORB4/CORBA.h>

#include "corba/options.h"

namespace clamsim::corba {

// The omniORB options ORB_init gets, name without "-ORB" (e.g. {"endPoint", "giop:tcp::10150"}).
std::vector<std::pair<std::string, std::string>> orb_arguments(const CorbaOptions& o);

// A TLS file that is missing, unreadable, not PEM, or a key that does not match: what()
// names the flag and the file.
class TlsConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ORB_init with orb_arguments(o), then the connect timeout; with TLS the files are checked
// and omniORB's SSL context installed first (TlsConfigError). Throws CORBA::INITIALIZE when
// the endpoint cannot be opened (port in use, bad host).
CORBA::ORB_ptr init_orb(const CorbaOptions& o);

struct Address {
  std::string host;
  unsigned port = 0;
};
// Host and port of the first IIOP profile of a local object reference. Its port is 0 when
// the server listens on TLS only.
Address first_address(CORBA::Object_ptr obj);
// Host and TLS port of that profile (omniORB's TAG_SSL_SEC_TRANS component); port 0 when
// the reference offers no TLS.
Address tls_address(CORBA::Object_ptr obj);

// A host as it goes into an endpoint or a corbaloc: an IPv6 literal in brackets ("::1" ->
// "[::1]"), anything else unchanged.
std::string uri_host(const std::string& host);

}  // namespace clamsim::corba
