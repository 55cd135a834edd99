#include "corba/socket_scan.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cstdio>

namespace clamsim::corba {

namespace {

// Every descriptor below the size of the descriptor table (FDSize in /proc/self/status).
// Not readdir("/proc/self/fd"): with connections being accepted meanwhile it returned
// a fraction of the entries here (208 of 708).
int fd_table_size() {
  int table = 0;
  if (std::FILE* f = std::fopen("/proc/self/status", "re")) {
    char line[256];
    while (std::fgets(line, sizeof line, f))
      if (std::sscanf(line, "FDSize: %d", &table) == 1) break;
    std::fclose(f);
  }
  return table;
}

bool is_socket(int fd) {
  struct stat st {};
  return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

// The peer of a connected socket as host text and port; false when it has none.
bool peer_of(int fd, std::string* host, int* port) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) return false;
  char text[INET6_ADDRSTRLEN] = {};
  if (a.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<sockaddr_in*>(&a);
    inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    *port = ntohs(v4->sin_port);
  } else if (a.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<sockaddr_in6*>(&a);
    inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    *port = ntohs(v6->sin6_port);
  } else {
    return false;
  }
  *host = text;
  return true;
}

std::string unmapped(const std::string& host) {
  const std::string mapped = "::ffff:";
  return host.rfind(mapped, 0) == 0 && host.find('.') != std::string::npos
             ? host.substr(mapped.size())
             : host;
}

}  // namespace

int socket_local_port(int fd) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) return -1;
  if (a.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&a)->sin_port);
  if (a.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&a)->sin6_port);
  return -1;
}

std::size_t count_sockets_with_peer(int port) {
  const int table = fd_table_size();
  std::size_t n = 0;
  for (int fd = 0; fd < table; ++fd) {
    if (!is_socket(fd) || socket_local_port(fd) != port) continue;
    std::string host;
    int peer_port = 0;
    if (peer_of(fd, &host, &peer_port)) ++n;
  }
  return n;
}

int find_socket(int port, const std::string& host, int peer_port) {
  const int table = fd_table_size();
  const std::string want = unmapped(host);
  for (int fd = 0; fd < table; ++fd) {
    if (!is_socket(fd) || socket_local_port(fd) != port) continue;
    std::string h;
    int p = 0;
    if (peer_of(fd, &h, &p) && p == peer_port && unmapped(h) == want) return fd;
  }
  return -1;
}

}  // namespace clamsim::corba
