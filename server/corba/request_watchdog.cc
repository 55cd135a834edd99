#include "corba/request_watchdog.h"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <omniORB4/CORBA.h>
// after CORBA.h, which it needs
#include <omniORB4/omniInterceptors.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "corba/socket_scan.h"

namespace clamsim::corba {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// TCP_ESTABLISHED of the kernel's tcp_states.h, which <linux/tcp.h> does not define (and
// <netinet/tcp.h>, which does, clashes with it)
constexpr std::uint8_t kTcpEstablished = 1;

struct Watched {
  int fd = -1;
  ino_t inode = 0;                // the socket's; a reused descriptor has another
  std::string host;               // the client's address, for the per-client cap
  std::string peer;               // omniORB's name of the peer, for the log
  bool marked = false;            // a request or reply has gone through since accept
  std::uint64_t marked_bytes = 0; // bytes received when the stream was last at a boundary
  Clock::time_point pending_since;  // since when the stream has been inside a message
};

// omniORB calls interceptors as plain functions: the state is global, never destroyed
// (omniORB may call late in shutdown).
struct Watchdog {
  std::mutex mutex;
  milliseconds timeout{2000};
  std::unordered_map<std::string, Watched> by_name;  // local + " " + peer
  std::size_t cut_unlogged = 0;
  std::string last_cut;
  Clock::time_point last_log{};
  bool installed = false;
};

Watchdog& watchdog() {
  static Watchdog* w = new Watchdog;
  return *w;
}

std::string name_of(const char* local, const char* peer) {
  return std::string(local ? local : "") + " " + (peer ? peer : "");
}

// Still the socket registered: a closed descriptor may have been reused by another.
bool still_open(const Watched& w) {
  struct stat st {};
  return fstat(w.fd, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_ino == w.inode;
}

bool tcp_info_of(int fd, tcp_info* info) {
  socklen_t len = sizeof *info;
  *info = {};
  return getsockopt(fd, IPPROTO_TCP, TCP_INFO, info, &len) == 0;
}

int address_port(const std::string& giop_address) {
  const auto colon = giop_address.rfind(':');
  if (colon == std::string::npos) return -1;
  try {
    return std::stoi(giop_address.substr(colon + 1));
  } catch (const std::exception&) {
    return -1;
  }
}

// The stream is at a message boundary (or past a request header, whose rest omniORB's
// own deadline covers): what has arrived so far is accounted for.
void mark(const char* local, const char* peer) {
  Watchdog& w = watchdog();
  std::lock_guard<std::mutex> lock(w.mutex);
  const auto it = w.by_name.find(name_of(local, peer));
  if (it == w.by_name.end() || !still_open(it->second)) return;
  tcp_info info;
  if (!tcp_info_of(it->second.fd, &info)) return;
  it->second.marked = true;
  it->second.marked_bytes = info.tcpi_bytes_received;
  it->second.pending_since = Clock::time_point{};
}

CORBA::Boolean on_request(omni::omniInterceptors::serverReceiveRequest_T::info_T& info) {
  mark(info.myaddress(), info.peeraddress());
  return 1;
}
CORBA::Boolean on_reply(omni::omniInterceptors::serverSendReply_T::info_T& info) {
  mark(info.myaddress(), info.peeraddress());
  return 1;
}
CORBA::Boolean on_exception(omni::omniInterceptors::serverSendException_T::info_T& info) {
  mark(info.myaddress(), info.peeraddress());
  return 1;
}
// a reply to the server's own call over a receiver's bidirectional connection
CORBA::Boolean on_client_reply(omni::omniInterceptors::clientReceiveReply_T::info_T& info) {
  mark(info.myaddress(), info.peeraddress());
  return 1;
}

// True when `c` has been inside a message (or without any request since accept) for
// longer than the timeout.
bool overdue(Watched& c, const tcp_info& info, Clock::time_point now, milliseconds timeout) {
  // a peer that closed its side is seen by omniORB's read at once
  if (info.tcpi_state != kTcpEstablished) return false;
  if (c.marked && info.tcpi_bytes_received <= c.marked_bytes) {
    c.pending_since = Clock::time_point{};  // idle between requests: inConScanPeriod's
    return false;
  }
  if (c.pending_since == Clock::time_point{}) c.pending_since = now;
  return now - c.pending_since >= timeout;
}

void log_cuts(Watchdog& w, Clock::time_point now) {
  // at most one line a second: many stalled connections must not flood the log
  if (w.cut_unlogged == 0 || now - w.last_log < std::chrono::seconds(1)) return;
  std::printf("corba: closed %zu connection(s) in the last second or more: a request did not "
              "arrive whole within %lld ms (--corba-request-timeout-ms), last from %s\n",
              w.cut_unlogged, static_cast<long long>(w.timeout.count()), w.last_cut.c_str());
  std::fflush(stdout);
  w.cut_unlogged = 0;
  w.last_log = now;
}

void scan_once(Watchdog& w) {
  std::lock_guard<std::mutex> lock(w.mutex);
  const auto now = Clock::now();
  for (auto it = w.by_name.begin(); it != w.by_name.end();) {
    Watched& c = it->second;
    tcp_info info;
    if (!still_open(c) || !tcp_info_of(c.fd, &info)) {
      it = w.by_name.erase(it);
      continue;
    }
    if (overdue(c, info, now, w.timeout)) {
      // as omniORB's scan closes a connection: its reading thread sees the end and
      // closes the descriptor itself
      shutdown(c.fd, SHUT_RDWR);
      ++w.cut_unlogged;
      w.last_cut = c.peer;
      it = w.by_name.erase(it);
      continue;
    }
    ++it;
  }
  log_cuts(w, now);
}

void watch_forever() {
  Watchdog& w = watchdog();
  for (;;) {
    milliseconds period;
    {
      std::lock_guard<std::mutex> lock(w.mutex);
      // a few looks per timeout: a connection is cut within timeout + period
      period = std::clamp(w.timeout / 8, milliseconds(20), milliseconds(250));
    }
    std::this_thread::sleep_for(period);
    scan_once(w);
  }
}

}  // namespace

std::string address_host(const std::string& giop_address) {
  // "giop:tcp:HOST:PORT", "giop:ssl:[V6]:PORT"
  const auto first = giop_address.find(':');
  const auto second = first == std::string::npos ? first : giop_address.find(':', first + 1);
  const auto last = giop_address.rfind(':');
  if (second == std::string::npos || last <= second) return giop_address;
  std::string host = giop_address.substr(second + 1, last - second - 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  return host;
}

void install_request_watchdog(milliseconds timeout) {
  Watchdog& w = watchdog();
  std::lock_guard<std::mutex> lock(w.mutex);
  w.timeout = timeout;
  w.by_name.clear();
  if (w.installed) return;
  w.installed = true;
  auto* interceptors = omniORB::getInterceptors();
  interceptors->serverReceiveRequest.add(on_request);
  interceptors->serverSendReply.add(on_reply);
  interceptors->serverSendException.add(on_exception);
  interceptors->clientReceiveReply.add(on_client_reply);
  std::thread(watch_forever).detach();  // lives as long as the process, like omniORB's
}

void watch_connection(const std::string& local, const std::string& peer) {
  const std::string host = address_host(peer);
  const int port = address_port(local);
  if (port <= 0) return;
  const int fd = find_socket(port, host, address_port(peer));
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0) return;  // gone already
  Watched c;
  c.fd = fd;
  c.inode = st.st_ino;
  c.host = host;
  c.peer = peer;
  c.pending_since = Clock::now();  // the first request is due within the timeout too
  Watchdog& w = watchdog();
  std::lock_guard<std::mutex> lock(w.mutex);
  if (!w.installed) return;
  w.by_name[name_of(local.c_str(), peer.c_str())] = c;
}

std::size_t watched_from(const std::string& host) {
  Watchdog& w = watchdog();
  std::lock_guard<std::mutex> lock(w.mutex);
  std::size_t n = 0;
  for (auto it = w.by_name.begin(); it != w.by_name.end();) {
    if (it->second.host != host) {
      ++it;
    } else if (!still_open(it->second)) {
      it = w.by_name.erase(it);  // closed since the last scan
    } else {
      ++n;
      ++it;
    }
  }
  return n;
}

}  // namespace clamsim::corba
