// Caps the IIOP connections the server accepts (docs/security.md, "Connection
// exhaustion"). omniORB has no such limit; its serverAcceptConnection interceptor lets us
// refuse a connection right after accept. A connection is refused when max_connections
// are open already, when max_connections_per_client are open from its address (so one
// client holding connections cannot lock every receiver out), or when the
// process is short of file descriptors (fd_budget.h). Refusals are logged at most once a
// second, with a count, the reason and the last address. Every admitted connection is
// handed to the request watchdog (request_watchdog.h), which closes it when a request
// does not arrive whole in time.
//
// omniORB calls the interceptor, and closes a refused connection, from the thread that
// first serves the connection: with thread-per-connection that is at once (orb_setup.cc
// leaves omniORB's threadPerConnectionUpperLimit at 10000 so no connection skips it).
// Connections served by the thread pool (--concurrency thread-pool) are counted and
// refused, but omniORB 4.2 leaves a refused idle one open (measured: 1000 idle
// connections, none closed); there the pool bounds threads, not descriptors, and
// inConScanPeriod closes idle connections.
#pragma once

#include <chrono>
#include <cstddef>

namespace clamsim::corba {

struct ConnectionGuardOptions {
  int port = 0;                 // the plain IIOP port whose accepted connections count (-1 none)
  int tls_port = -1;            // the TLS port, counted with it (-1 none)
  std::size_t max_connections = 0;   // 0 = no cap (the descriptor reserve still applies)
  std::size_t max_connections_per_client = 0;  // from one client address; 0 = no cap
  std::chrono::milliseconds request_timeout{2000};  // the request watchdog's
};

// Installs the interceptor; call after ORB_init and before the endpoint opens. One per
// process (omniORB's interceptors are global); a second call replaces the options.
void install_connection_guard(const ConnectionGuardOptions& options);
// The ports are known only once the endpoints are open (port 0 = any); -1 = not open.
void set_connection_guard_ports(int port, int tls_port);

// The accepted IIOP connections open now on `port`, counted from the process's
// descriptors (sockets bound to `port` with a peer). For the guard and for tests.
std::size_t count_connections(int port);

}  // namespace clamsim::corba
