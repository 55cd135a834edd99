#include "corba/orb_setup.h"

#include "corba/connection_guard.h"
#include "corba/tls_context.h"

#include <omniORB4/IIOP.h>
#include <omniORB4/omniIOR.h>
#include <omniORB4/omniORB.h>

#include <algorithm>
#include <memory>

namespace clamsim::corba {

bool parse_concurrency(const std::string& text, Concurrency* out) {
  if (text == "thread-per-connection") {
    *out = Concurrency::ThreadPerConnection;
    return true;
  }
  if (text == "thread-pool") {
    *out = Concurrency::ThreadPool;
    return true;
  }
  return false;
}

const char* to_string(Concurrency c) {
  return c == Concurrency::ThreadPool ? "thread-pool" : "thread-per-connection";
}

std::string uri_host(const std::string& host) {
  const bool ipv6 = host.find(':') != std::string::npos && host.front() != '[';
  return ipv6 ? "[" + host + "]" : host;
}

std::vector<std::pair<std::string, std::string>> orb_arguments(const CorbaOptions& o) {
  const std::string host = o.host == "0.0.0.0" ? "" : uri_host(o.host);
  const std::string port = o.port > 0 ? std::to_string(o.port) : "";
  std::vector<std::pair<std::string, std::string>> args;
  if (o.plain_on()) args.emplace_back("endPoint", "giop:tcp:" + host + ":" + port);
  if (o.tls_on()) {
    const std::string tls_port = o.tls_port > 0 ? std::to_string(o.tls_port) : "";
    args.emplace_back("endPoint", "giop:ssl:" + host + ":" + tls_port);
  }
  const std::vector<std::pair<std::string, std::string>> common = {
      // One upcall at a time per connection: a receiver's oneways are applied in the order
      // it sent them (ORBacus's thread-per-client / thread-pool did the same).
      {"maxServerThreadPerConnection", "1"},
      // Frames and controls are a few hundred bytes; refuse anything absurd early.
      {"giopMaxMsgSize", "1048576"},
      // A fixed send buffer instead of Linux's autotuning (up to 4 MB per connection): a
      // receiver that stops reading makes sends time out after ~10 s of frames at 20 Hz
      // instead of minutes, and hung receivers cannot pin megabytes each.
      {"socketSendBuffer", "65536"},
      // No LocateRequest before the first call on a reference (or after a reconnect): it is
      // a round trip in the frame path that a stopped receiver never answers, and omniORB
      // extends its deadline by the connect timeout on every reconnect, so a session could
      // block far beyond the call timeout (measured here). Oneways then only ever send.
      {"verifyObjectExistsAndType", "0"},
  };
  args.insert(args.end(), common.begin(), common.end());
  if (!o.endpoint_publish.empty()) args.emplace_back("endPointPublish", o.endpoint_publish);
  if (o.bidir_on()) {
    // Accept the BI_DIR_IIOP service context receivers send, and let every client address
    // use a bidirectional connection (omniORB's default rule has no "bidir").
    args.emplace_back("acceptBiDirectionalGIOP", "1");
    args.emplace_back("serverTransportRule", "* unix,ssl,tcp,bidir");
  }
  if (o.tls_on() && !o.plain_on()) {
    // TLS only: frames go back over a receiver's own TLS connection or to a TLS endpoint
    // of its own, never in clear to an address its reference publishes
    args.emplace_back("clientTransportRule", "* ssl");
  }
  // Idle and half-sent connections are closed (without that, a truncated GIOP message held its
  // connection and thread for 177 s), and threads idle after a refused connection go soon. omniORB
  // arms serverCallTimeOutPeriod only once a request's header is in; a message stalled before that
  // is closed by the request watchdog (request_watchdog.h).
  args.emplace_back("inConScanPeriod", std::to_string(o.idle_connection_s));
  args.emplace_back("serverCallTimeOutPeriod", std::to_string(o.request_timeout_ms));
  args.emplace_back("idleThreadTimeout", "2");
  if (o.concurrency == Concurrency::ThreadPool) {
    args.emplace_back("threadPerConnectionPolicy", "0");
    args.emplace_back("maxServerThreadPoolSize", std::to_string(o.pool_threads));
    // many receivers each sending a little: watching one connection after a call is unfair
    args.emplace_back("threadPoolWatchConnection", "0");
  } else {
    args.emplace_back("threadPerConnectionPolicy", "1");
    // omniORB's threadPerConnectionUpperLimit (10000) stays: a connection it hands to its
    // pool instead is not seen by the connection guard until it sends something, and a
    // refused one there is never closed (connection_guard.h). Every connection thus gets a
    // thread at first; the guard refuses those past the cap, and their threads leave
    // after idleThreadTimeout, so the cap bounds the threads that stay.
  }
  return args;
}

CORBA::ORB_ptr init_orb(const CorbaOptions& o) {
  if (o.tls_on()) {
    TlsSetup tls;
    tls.cert = o.tls_cert;
    tls.key = o.tls_key;
    tls.ca = o.tls_ca;
    tls.cert_flag = "--corba-tls-cert";
    tls.key_flag = "--corba-tls-key";
    tls.ca_flag = "--corba-tls-ca";
    tls.server = true;
    tls.require_peer_cert = o.tls_require_client_cert;
    const std::string problem = check_tls_files(tls);
    if (!problem.empty()) throw TlsConfigError(problem);
    install_tls_context(tls);
  } else {
    install_tls_off();
  }
  const auto args = orb_arguments(o);
  auto table = std::make_unique<const char* [][2]>(args.size() + 1);  // null-terminated
  for (std::size_t i = 0; i < args.size(); ++i) {
    table[i][0] = args[i].first.c_str();
    table[i][1] = args[i].second.c_str();
  }
  int argc = 0;
  char* argv[] = {nullptr};
  CORBA::ORB_ptr orb = CORBA::ORB_init(argc, argv, "omniORB4", table.get());
  omniORB::setClientConnectTimeout(static_cast<CORBA::ULong>(o.connect_timeout_ms));
  // before the endpoint opens (resolving RootPOA), so no connection escapes the cap
  install_connection_guard({o.plain_on() ? o.port : -1, o.tls_on() ? o.tls_port : -1,
                            static_cast<std::size_t>(std::max(0, o.max_connections)),
                            static_cast<std::size_t>(std::max(0, o.max_connections_per_client)),
                            std::chrono::milliseconds(o.request_timeout_ms)});
  return orb;
}

Address tls_address(CORBA::Object_ptr obj) {
  Address a;
  omniIOR* ior = obj->_PR_getobj()->_getIOR();
  const IOP::TaggedProfileList& profiles = ior->iopProfiles();
  for (CORBA::ULong i = 0; i < profiles.length() && a.port == 0; ++i) {
    if (profiles[i].tag != IOP::TAG_INTERNET_IOP) continue;
    IIOP::ProfileBody body;
    IIOP::unmarshalProfile(profiles[i], body);
    for (CORBA::ULong c = 0; c < body.components.length(); ++c) {
      if (body.components[c].tag != IOP::TAG_SSL_SEC_TRANS) continue;
      // CSIIOP's SSL struct, a CDR encapsulation: target_supports, target_requires, port
      IOP::TaggedComponent& component = body.components[c];
      cdrEncapsulationStream stream(component.component_data.get_buffer(),
                                    component.component_data.length(), 1);
      CORBA::UShort supports = 0, requires_ = 0, port = 0;
      supports <<= stream;
      requires_ <<= stream;
      port <<= stream;
      a.host = body.address.host.in();
      a.port = port;
      break;
    }
  }
  ior->release();
  return a;
}

Address first_address(CORBA::Object_ptr obj) {
  Address a;
  omniIOR* ior = obj->_PR_getobj()->_getIOR();
  const IOP::TaggedProfileList& profiles = ior->iopProfiles();
  for (CORBA::ULong i = 0; i < profiles.length(); ++i) {
    if (profiles[i].tag != IOP::TAG_INTERNET_IOP) continue;
    IIOP::ProfileBody body;
    IIOP::unmarshalProfile(profiles[i], body);
    a.host = body.address.host.in();
    a.port = body.address.port;
    break;
  }
  ior->release();
  return a;
}

}  // namespace clamsim::corba
