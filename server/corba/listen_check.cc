#include "corba/listen_check.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <omniORB4/CORBA.h>
#include <omniORB4/omniORB.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace clamsim::corba {

namespace {

std::mutex held_mutex;
std::string held_lines;  // omniORB's lines while a HeldOrbLog is alive

void hold_line(const char* line) {
  std::lock_guard<std::mutex> lock(held_mutex);
  held_lines += line;
}

// errno of binding host:port as omniORB's listener does (SO_REUSEADDR), or 0.
int bind_errno(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  const bool any = host.empty() || host == "0.0.0.0";
  if (getaddrinfo(any ? nullptr : host.c_str(), service.c_str(), &hints, &found) != 0)
    return EADDRNOTAVAIL;
  int error = 0;
  const int s = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int on = 1;
  if (s < 0) {
    error = errno;
  } else {
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (bind(s, found->ai_addr, found->ai_addrlen) != 0) error = errno;
    close(s);
  }
  freeaddrinfo(found);
  return error;
}

std::string described(const char* flag, const std::string& host, int port, int error) {
  const std::string where = std::string(flag) + " " + std::to_string(port) + ": ";
  const std::string at = "port " + std::to_string(port) + " on " + (host.empty() ? "0.0.0.0" : host);
  switch (error) {
    case EADDRINUSE:
      return where + at + " is in use (another server?); choose another, or 0 for any free port";
    case EADDRNOTAVAIL:
      return "--host " + host + ": not an address of this machine (127.0.0.1 = this machine "
             "only, 0.0.0.0 = every interface)";
    case EACCES:
      return where + at + " needs privileges this process does not have; choose a port above "
                     "1023";
    default:
      return where + "cannot listen on " + at + ": " + std::strerror(error);
  }
}

}  // namespace

HeldOrbLog::HeldOrbLog() { omniORB::setLogFunction(hold_line); }

HeldOrbLog::~HeldOrbLog() {
  omniORB::setLogFunction(nullptr);
  std::lock_guard<std::mutex> lock(held_mutex);
  if (!discard_) std::fputs(held_lines.c_str(), stderr);
  held_lines.clear();
}

void HeldOrbLog::discard() { discard_ = true; }

std::string listen_problem(const CorbaOptions& o) {
  if (o.plain_on() && o.port > 0)
    if (const int e = bind_errno(o.host, o.port)) return described("--corba-port", o.host, o.port, e);
  if (o.tls_on() && o.tls_port > 0)
    if (const int e = bind_errno(o.host, o.tls_port))
      return described("--corba-tls-port", o.host, o.tls_port, e);
  return "";
}

}  // namespace clamsim::corba
