// The CORBA transport: the ORB, the admin object at corbaloc::HOST:PORT/CraneClamAdmin, one
// servant per subscriber, reaping, and the optional Naming Service binding. No ORB types in
// this header so the app stays free of generated code.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "corba/options.h"
#include "session/catalog.h"
#include "session/registry.h"

namespace clamsim::corba {

class CorbaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A setting the transport cannot use (a TLS file missing, unreadable or mismatched).
class CorbaConfigError : public CorbaError {
 public:
  using CorbaError::CorbaError;
};

class CorbaServer {
 public:
  // Initialises the ORB and opens the endpoint. Throws CorbaError (port in use, bad host),
  // CorbaConfigError (a TLS file).
  // registry and catalog must outlive this object.
  CorbaServer(CorbaOptions options, session::SessionRegistry& registry,
              const session::Catalog& catalog);
  ~CorbaServer();  // shutdown()
  CorbaServer(const CorbaServer&) = delete;
  CorbaServer& operator=(const CorbaServer&) = delete;

  // Activates the admin object and starts serving; binds it in the Naming Service when one
  // is configured (failure there is reported, not fatal). Throws CorbaError.
  void start();

  std::string corbaloc() const;        // corbaloc::HOST:PORT/CraneClamAdmin (listening address);
                                       // "" when plain IIOP is closed
  std::string tls_corbaloc() const;    // corbaloc:ssliop:HOST:TLS_PORT/CraneClamAdmin; "" no TLS
  std::string published() const;       // HOST:PORT the references carry
  std::string naming_report() const;   // one line about the Naming Service

  // Drain: unbind from the Naming Service so new receivers resolve another replica; the
  // sessions go on (the registry refuses new ones). Idempotent.
  void withdraw_from_naming();
  // Refuse new subscriptions, unbind from the Naming Service, and make every send return at
  // once so the registry can stop the sessions quickly.
  void stop_accepting();
  // Deactivate every servant, shut the ORB down and destroy it. Idempotent. Call after the
  // registry is closed, from a thread that is not an ORB thread.
  void shutdown();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace clamsim::corba
