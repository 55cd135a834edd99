// CORBA exceptions turned into one-line messages for people, and the error type the client
// tools throw. Only the tools' client side uses this; the server has its own mapping.
#pragma once

#include <omniORB4/CORBA.h>

#include <stdexcept>
#include <string>

namespace clamsim::client {

// A failure talking to the server: unreachable, wrong object, timed out, refused.
class ClientError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A local file the client was pointed at cannot be used (a TLS certificate, key or CA):
// the user's mistake, not the server's.
class ClientFileError : public ClientError {
 public:
  using ClientError::ClientError;
};

// "TRANSIENT (TRANSIENT_ConnectFailed)", "TIMEOUT (TIMEOUT_CallTimedOutOnClient)",
// "OBJECT_NOT_EXIST", or the user exception's repository name.
std::string describe(const CORBA::Exception& e);

// A hint for the usual causes, or "" ("is the server running at that address?"). Over
// TLS it names a certificate the handshake refused.
std::string hint(const CORBA::Exception& e);

// This process talks IIOP over TLS (ClientOrb with a CA): hints then mention the handshake.
void note_tls_in_use();

}  // namespace clamsim::client
