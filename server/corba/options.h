// What the CORBA transport is configured with. Free of ORB types so the app can fill it
// without seeing omniORB (docs/corba.md).
#pragma once

#include <memory>
#include <string>

#include "auth/observe_tickets.h"

namespace clamsim::corba {

// Server-side dispatch of incoming requests (thesis 4.3.3, 5.2.1.2), mapped to omniORB's
// models; docs/corba.md "Concurrency" gives the mapping.
enum class Concurrency { ThreadPerConnection, ThreadPool };

// "thread-per-connection" / "thread-pool". Returns false for anything else.
bool parse_concurrency(const std::string& text, Concurrency* out);
const char* to_string(Concurrency c);

struct CorbaOptions {
  std::string host;                 // listen address; "" or "0.0.0.0" = every interface
  int port = 10150;                 // fixed so corbaloc::HOST:PORT/CraneClamAdmin is stable; 0 = any
  std::string endpoint_publish;     // omniORB -ORBendPointPublish value; "" = omniORB's default
  Concurrency concurrency = Concurrency::ThreadPerConnection;
  int pool_threads = 8;             // thread-pool only
  int call_timeout_ms = 20;         // every receiver reference; well below the 50 ms frame
  int connect_timeout_ms = 500;     // opening a connection to a receiver
  int setup_timeout_ms = 1000;      // calls at subscribe time (_is_a) and to the naming service
  std::string naming_service;       // corbaloc/IOR of a NameService; "" = none
  std::string naming_name = "CraneClamAdmin";  // stringified CosNaming name, e.g. "clamsim/admin"
  // Bidirectional GIOP (receivers behind NAT): call receivers back over the connection they
  // opened when they offer it. The admin then lives in a BiDir POA and the corbaloc object
  // in omniINSPOA forwards to it (docs/corba.md "Receivers behind NAT").
  bool bidir = false;
  std::string version;              // reported by Admin::status()
  // Native observers' tickets, issued by the web front end to logged-in instructors and
  // redeemed by Admin::observe (docs/corba.md "Observers"); null = observe is refused.
  std::shared_ptr<auth::ObserveTickets> observe_tickets;

  // Resource bounds against idle or abusive connections (docs/security.md).
  int max_connections = 512;        // IIOP connections accepted at once; more are refused.
                                    // With thread-per-connection also the bound on
                                    // connection threads (connection_guard.h)
  int max_connections_per_client = 32;  // of those, from one client address: one client
                                    // holding connections cannot refuse all the others
  int idle_connection_s = 60;       // an incoming connection without a call this long is
                                    // closed (a receiver's ORB reopens it transparently)
  int request_timeout_ms = 2000;    // a request must arrive whole within this (the first
                                    // one from the accept); a truncated or never-finished
                                    // message closes the connection (request_watchdog.h)

  // IIOP over TLS (docs/security.md "IIOP over TLS"): on when any of the three files is
  // given. Receivers then connect to corbaloc:ssliop:HOST:TLS_PORT/CraneClamAdmin and get
  // their frames back over that connection (bidirectional GIOP).
  std::string tls_cert;             // PEM certificate chain of the server
  std::string tls_key;              // its unencrypted PEM private key
  std::string tls_ca;               // the CA that signs client certificates
  int tls_port = 10151;             // 0 = any
  bool tls_require_client_cert = false;  // refuse TLS clients without a certificate
  // The plain IIOP endpoint on `port`: open without TLS; with TLS only when asked (a
  // legacy receiver on a trusted LAN), otherwise TLS is the only way in and out.
  enum class Plain { Auto, Yes, No };
  Plain plain = Plain::Auto;

  bool tls_on() const { return !tls_cert.empty() || !tls_key.empty() || !tls_ca.empty(); }
  bool plain_on() const { return plain == Plain::Yes || (plain == Plain::Auto && !tls_on()); }
  // Receivers are called back over their own connection: --bidir, or TLS (a receiver
  // would otherwise need a certificate of its own for the server to call it).
  bool bidir_on() const { return bidir || tls_on(); }
};

}  // namespace clamsim::corba
