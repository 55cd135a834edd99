// A way for receivers to reach the sessions: CORBA, and the HTTP + WebSocket front end
// beside it. The server starts every transport, prints their ready lines, and stops them in
// order (stop accepting -> registry closed -> shut down).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/server_options.h"
#include "session/catalog.h"
#include "session/registry.h"

namespace clamsim::app {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual const char* name() const = 0;
  // Starts serving; throws std::runtime_error with a one-line reason.
  virtual void start() = 0;
  // What to print once serving, e.g. "ready corbaloc::host:10150/CraneClamAdmin".
  virtual std::vector<std::string> ready_lines() const = 0;
  // SIGTERM's drain began: sessions go on, no new ones (the registry refuses them); a
  // transport withdraws what advertises it (the CORBA Naming Service binding).
  virtual void begin_drain() {}
  // SIGHUP: read certificates again; "" when done or nothing to reload, else why not (the
  // old ones are kept).
  virtual std::string reload() { return ""; }
  virtual void stop_accepting() = 0;
  // After the registry is closed: release every per-session object, stop the threads.
  virtual void shutdown() = 0;
};

// Opens the ORB endpoint (throws on failure) but does not serve until start().
std::unique_ptr<Transport> make_corba_transport(const ServerOptions& options,
                                                session::SessionRegistry& registry,
                                                const session::Catalog& catalog);

// The HTTP + WebSocket front end (browsers); binds in start().
// `log` takes the web front end's notable events (refusals, abuse closes).
std::unique_ptr<Transport> make_web_transport(const ServerOptions& options,
                                              session::SessionRegistry& registry,
                                              const session::Catalog& catalog,
                                              const base::EventLog& log);

}  // namespace clamsim::app
