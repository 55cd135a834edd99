// The ORB of a client tool: one per process. It also serves, because the receiver's end of
// the thesis's design is a CORBA object too (CraneClamClient gets oneway frames), so it owns
// a POA for the receiver servants. With bidirectional GIOP that POA carries the BiDir
// policy, so the server's callbacks can come back over the receiver's own connection
// (receivers behind NAT or a firewall).
#pragma once

#include <omniORB4/CORBA.h>

#include <string>
#include <vector>

namespace clamsim::client {

struct OrbSettings {
  bool bidir = false;                  // offer bidirectional GIOP (-ORBofferBiDirectionalGIOP)
  std::string listen;                  // "HOST" or "HOST:PORT" for the receiver's endpoint;
                                       // "" = omniORB's default (all interfaces, any port)
  unsigned call_timeout_ms = 5000;     // every call to the server, so none blocks forever
  unsigned connect_timeout_ms = 3000;  // opening a connection
  std::vector<std::string> orb_args;   // "-ORBname value" pairs; they win over the above
  // IIOP over TLS (tls_ca given): the server's CA, optionally a client certificate. Implies
  // bidirectional GIOP (the server sends frames back over our TLS connection) and never
  // talks plain IIOP.
  std::string tls_ca;
  std::string tls_cert;
  std::string tls_key;
  std::string server;                  // the server's reference: the host its certificate
                                       // must name comes from a corbaloc:ssliop: address
};

class ClientOrb {
 public:
  // Throws ClientError when omniORB rejects an option or cannot listen, ClientFileError
  // when a TLS file is missing, unreadable or does not fit (naming the flag and the file).
  explicit ClientOrb(const OrbSettings& settings);
  ~ClientOrb();  // orb->destroy(): waits for calls in progress, deletes the servants
  ClientOrb(const ClientOrb&) = delete;
  ClientOrb& operator=(const ClientOrb&) = delete;

  // A reference from "corbaloc::HOST:PORT/CraneClamAdmin", "corbaname::HOST:PORT#NAME" or
  // "IOR:...". Contacts the server only for corbaname (the naming service lookup).
  // Throws ClientError naming the reference and the cause.
  CORBA::Object_ptr resolve(const std::string& reference);

  // Activates a servant in the receivers' POA, which then owns it (the caller must not
  // delete it), and returns its reference. `id` receives the object id for deactivate().
  CORBA::Object_ptr activate(PortableServer::ServantBase* servant, PortableServer::ObjectId_out id);
  // Stops dispatching to that servant; it is deleted once its last call has returned.
  void deactivate(const PortableServer::ObjectId& id);

  CORBA::ORB_ptr orb() const { return orb_.in(); }
  bool bidir() const { return bidir_; }

 private:
  CORBA::ORB_var orb_;
  PortableServer::POA_var poa_;
  bool bidir_ = false;
};

// "corbaloc::host:port/key" -> "corbaloc::1.2@host:port/key" (every iiop and ssliop
// address without a version); anything else unchanged. Used for --bidir.
std::string with_giop_1_2(const std::string& reference);

// The host of the first ssliop address of a corbaloc ("" when there is none), without the
// brackets of an IPv6 literal: what the server's certificate must name.
std::string tls_host(const std::string& reference);

}  // namespace clamsim::client
