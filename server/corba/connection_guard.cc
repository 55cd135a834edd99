#include "corba/connection_guard.h"

#include <omniORB4/CORBA.h>
// after CORBA.h, which it needs
#include <omniORB4/omniInterceptors.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "corba/request_watchdog.h"
#include "corba/socket_scan.h"
#include "session/fd_budget.h"

namespace clamsim::corba {

namespace {

using Clock = std::chrono::steady_clock;

// omniORB calls the interceptor as a plain function: its state is global.
struct Guard {
  std::mutex mutex;
  ConnectionGuardOptions options;
  // Connections counted at the last scan plus those accepted since. Closes are seen only
  // by the next scan, which runs when the count reaches the cap (at most every 100 ms, so
  // a client hammering the port cannot make every attempt cost a scan).
  std::size_t open = 0;
  Clock::time_point last_scan{};
  std::size_t refused_unlogged = 0;
  Clock::time_point last_log{};
  std::atomic<int> port{0};
  std::atomic<int> tls_port{-1};
  bool installed = false;
};

Guard& guard() {
  static Guard* g = new Guard;  // never destroyed: omniORB may call late in shutdown
  return *g;
}

void log_refusal(Guard& g, const std::string& why) {
  // at most one line a second: a flood of connections must not flood the log
  ++g.refused_unlogged;
  const auto now = Clock::now();
  if (now - g.last_log < std::chrono::seconds(1)) return;
  std::printf("corba: refused %zu connection(s) in the last second or more: %s\n",
              g.refused_unlogged, why.c_str());
  std::fflush(stdout);
  g.refused_unlogged = 0;
  g.last_log = now;
}

// Why the connection must be refused under the global cap, "" when it may stay.
std::string over_total(Guard& g) {
  const std::size_t cap = g.options.max_connections;
  if (cap == 0) return "";
  const auto now = Clock::now();
  if (g.open >= cap && now - g.last_scan >= std::chrono::milliseconds(100)) {
    // this connection is open already and counted by the scan
    g.open = count_connections(g.port.load());
    if (g.tls_port.load() >= 0) g.open += count_connections(g.tls_port.load());
    g.last_scan = now;
    if (g.open > 0) --g.open;
  }
  if (g.open < cap) return "";
  return std::to_string(cap) + " IIOP connections open (the limit, --corba-max-connections)";
}

// The same for the per-client cap: one address holding connections must not refuse
// every other receiver. Counted from the connections the watchdog follows.
std::string over_client(Guard& g, const std::string& host) {
  const std::size_t cap = g.options.max_connections_per_client;
  if (cap == 0 || watched_from(host) < cap) return "";
  return std::to_string(cap) + " IIOP connections open from " + host +
         " (the limit, --corba-max-connections-per-client)";
}

CORBA::Boolean on_accept(omni::omniInterceptors::serverAcceptConnection_T::info_T& info) {
  Guard& g = guard();
  std::lock_guard<std::mutex> lock(g.mutex);
  const std::string peer = info.peeraddress();
  std::string why;
  if (session::fd_budget_exhausted()) {
    why = "out of file descriptors (keeping " + std::to_string(session::kFdReserve) +
          " in reserve)";
  } else {
    why = over_total(g);
    if (why.empty()) why = over_client(g, address_host(peer));
  }
  if (!why.empty()) {
    info.reject = 1;
    info.why = "connection limit reached";
    log_refusal(g, why + ", last from " + peer);
    return 0;  // no further interceptors: it is refused
  }
  ++g.open;
  watch_connection(info.myaddress(), peer);
  return 1;
}

}  // namespace

std::size_t count_connections(int port) { return count_sockets_with_peer(port); }

void install_connection_guard(const ConnectionGuardOptions& options) {
  Guard& g = guard();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.options = options;
  g.port = options.port;
  g.tls_port = options.tls_port;
  g.open = 0;
  install_request_watchdog(options.request_timeout);
  if (g.installed) return;
  g.installed = true;
  omniORB::getInterceptors()->serverAcceptConnection.add(on_accept);
}

void set_connection_guard_ports(int port, int tls_port) {
  guard().port = port;
  guard().tls_port = tls_port;
}

}  // namespace clamsim::corba
