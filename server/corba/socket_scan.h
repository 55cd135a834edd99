// The process's own sockets, looked up from its descriptor table: the accepted IIOP
// connections on a port (the connection guard's count) and the one with a given peer
// (the request watchdog's handle on a connection omniORB accepted).
#pragma once

#include <cstddef>
#include <string>

namespace clamsim::corba {

// Sockets bound to local `port` that have a peer (accepted connections, not listeners).
std::size_t count_sockets_with_peer(int port);

// The descriptor of the socket bound to local `port` whose peer is host:peer_port, or -1.
// `host` as inet_ntop writes it; an IPv4-mapped IPv6 peer matches its IPv4 form.
int find_socket(int port, const std::string& host, int peer_port);

// The local port of a socket, -1 when it is none.
int socket_local_port(int fd);

}  // namespace clamsim::corba
