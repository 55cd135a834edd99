// IIOP over TLS with omniORB's SSL transport (libomnisslTP4), for the server and the
// receiver alike (docs/security.md "IIOP over TLS"). omniORB reads one PEM file holding key
// and certificate and accepts TLS 1.0; its sslContext is subclassed here to take the
// certificate chain, the key and the CA from separate files and to refuse anything older
// than TLS 1.2. One context per process, installed before ORB_init.
#pragma once

#include <string>

namespace clamsim::corba {

struct TlsSetup {
  // PEM files; cert and key may be empty on a receiver (no client certificate)
  std::string cert;
  std::string key;
  std::string ca;           // trust anchor for the peer's certificate; required
  // the flags that named them, for error messages ("--corba-tls-cert")
  std::string cert_flag = "certificate";
  std::string key_flag = "key";
  std::string ca_flag = "CA";
  // server: ask for a client certificate (always verified against ca when one is sent);
  // require_peer_cert refuses a client that sends none. Client: the server's certificate
  // is always required and verified.
  bool server = false;
  bool require_peer_cert = false;
  // client only: the host name or address the server's certificate must name ("" = any
  // certificate from ca)
  std::string expected_host;
};

// Reads every file the way the context will: readable PEM, a certificate and a key that
// belong together, a CA file holding at least one certificate. Returns "" when all is well,
// else one line naming the flag, the file and the problem.
std::string check_tls_files(const TlsSetup& setup);

// Makes omniORB's SSL transport use these files. Call check_tls_files first; call once, and
// before CORBA::ORB_init (omniORB builds the context during ORB_init).
void install_tls_context(const TlsSetup& setup);

// Without TLS: omniORB's SSL transport (linked in) gets a context that trusts no one and
// has no certificate, instead of warning at every start that it has none; nothing in
// such a process can connect over TLS. Call before CORBA::ORB_init, instead of
// install_tls_context.
void install_tls_off();

// The latest certificate verification failure seen in a handshake, e.g. "certificate of
// CN=clamsim test server: unable to get local issuer certificate"; "" when none. omniORB
// reports a failed handshake only as TRANSIENT, so error messages add this.
std::string last_verify_failure();

// What a call's connection proved, from omniORB's peeraddress() ("giop:ssl:..." over TLS;
// null for an in-process call) and peerdetails() (a certificate's details, null without
// one). Needs the context installed by install_tls_context (full peer details).
struct PeerIdentity {
  bool tls = false;            // the call came over TLS
  bool verified = false;       // with a client certificate the configured CA verified
  std::string subject;         // that certificate's subject, "" without one
};
PeerIdentity peer_identity(const char* peeraddress, void* peerdetails);

}  // namespace clamsim::corba
