// Closes accepted IIOP connections whose request does not arrive whole within
// --corba-request-timeout-ms (docs/security.md, sections 4 and 20).
//
// Why omniORB does not do it itself: serverCallTimeOutPeriod is armed only once a
// request's header has been unmarshalled (GIOP_S::dispatcher sets the deadline after
// inputMessageBegin). Until then the connection's thread waits without a deadline and the
// strand counts as idle, so a partial GIOP header, a lone fragment or a request cut
// inside its header is closed only by the idle scan (inConScanPeriod 60 s in steps of
// scanGranularity 5 s: measured 55-60 s). omniORB has no setting for that wait.
//
// How: the connection guard registers each connection it admits (its descriptor, found
// by its peer address). omniORB's interceptors mark the moments the stream is known to be
// at or past a message boundary: a request header unmarshalled (serverReceiveRequest,
// after which omniORB's own deadline covers the body), a reply or exception sent, a reply
// received over a bidirectional connection (clientReceiveReply). At each mark the
// kernel's count of bytes received on the socket (TCP_INFO) is noted. A thread looks at
// every connection a few times per timeout: one that received bytes since its last mark,
// or has sent no complete request since it was accepted, for longer than the timeout is
// shut down (shutdown(SHUT_RDWR), as omniORB's own scan does), which ends omniORB's read
// and its thread. Idle connections after a complete request are left to inConScanPeriod.
//
// Limits: a oneway whose body arrives in a later segment than its header (messages over
// the 8 KiB omniORB reads at once) looks unfinished and closes its connection after the
// timeout, once the call is done; the client's ORB reopens it on its next call. Bytes that
// arrive in the same read as a complete request are counted with it.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace clamsim::corba {

// Installs the interceptors and starts the watching thread (once per process; a second
// call changes the timeout and forgets the connections watched).
void install_request_watchdog(std::chrono::milliseconds timeout);

// A connection just accepted from `peer` at `local` (omniORB's names of the two ends,
// "giop:tcp:HOST:PORT"). Called by the connection guard for each one it admits.
void watch_connection(const std::string& local, const std::string& peer);

// Connections from the client host `host` watched and still open (closed ones are
// forgotten first). For the guard's per-client cap.
std::size_t watched_from(const std::string& host);

// The host of an omniORB address "giop:tcp:HOST:PORT" ("giop:tcp:[::1]:PORT" -> "::1").
std::string address_host(const std::string& giop_address);

}  // namespace clamsim::corba
