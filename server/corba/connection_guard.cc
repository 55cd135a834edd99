#include "corba/connection_guard.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <omniORB4/CORBA.h>
// after CORBA.h, which it needs
#include <omniORB4/omniInterceptors.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

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

int local_port(int fd) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) return -1;
  if (a.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&a)->sin_port);
  if (a.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&a)->sin6_port);
  return -1;
}

bool has_peer(int fd) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  return getpeername(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
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

CORBA::Boolean on_accept(omni::omniInterceptors::serverAcceptConnection_T::info_T& info) {
  Guard& g = guard();
  std::lock_guard<std::mutex> lock(g.mutex);
  const std::size_t cap = g.options.max_connections;
  std::string why;
  if (session::fd_budget_exhausted()) {
    why = "out of file descriptors (keeping " + std::to_string(session::kFdReserve) +
          " in reserve)";
  } else if (cap > 0) {
    const auto now = Clock::now();
    if (g.open >= cap && now - g.last_scan >= std::chrono::milliseconds(100)) {
      // this connection is open already and counted by the scan
      g.open = count_connections(g.port.load());
      if (g.tls_port.load() >= 0) g.open += count_connections(g.tls_port.load());
      g.last_scan = now;
      if (g.open > 0) --g.open;
    }
    if (g.open >= cap)
      why = std::to_string(cap) + " IIOP connections open (the limit, --corba-max-connections)";
  }
  if (!why.empty()) {
    info.reject = 1;
    info.why = "connection limit reached";
    log_refusal(g, why + ", last from " + std::string(info.peeraddress()));
    return 0;  // no further interceptors: it is refused
  }
  ++g.open;
  return 1;
}

}  // namespace

std::size_t count_connections(int port) {
  // Every descriptor below the size of the descriptor table (FDSize in /proc/self/status).
  // Not readdir("/proc/self/fd"): with connections being accepted meanwhile it returned
  // a fraction of the entries here (208 of 708).
  int table = 0;
  if (std::FILE* f = std::fopen("/proc/self/status", "re")) {
    char line[256];
    while (std::fgets(line, sizeof line, f))
      if (std::sscanf(line, "FDSize: %d", &table) == 1) break;
    std::fclose(f);
  }
  std::size_t n = 0;
  for (int fd = 0; fd < table; ++fd) {
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
    if (local_port(fd) == port && has_peer(fd)) ++n;
  }
  return n;
}

void install_connection_guard(const ConnectionGuardOptions& options) {
  Guard& g = guard();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.options = options;
  g.port = options.port;
  g.tls_port = options.tls_port;
  g.open = 0;
  if (g.installed) return;
  g.installed = true;
  omniORB::getInterceptors()->serverAcceptConnection.add(on_accept);
}

void set_connection_guard_ports(int port, int tls_port) {
  guard().port = port;
  guard().tls_port = tls_port;
}

}  // namespace clamsim::corba
