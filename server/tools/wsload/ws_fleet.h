// N browser-like WebSocket clients in one process (docs/wsload.md): each connects to
// ws://HOST:PORT/ws, reads `hello`, then every `display`, and sends `control` at 20 Hz and a
// `ping` per second, as the browser client does. Boost.Beast, asynchronous, one io_context
// run by 1-2 threads; every client lives on its own strand.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/params.h"
#include "tools/client/arrival_stats.h"

namespace clamsim::wsload {

struct FleetConfig {
  std::string host;    // "127.0.0.1"
  std::string port;    // "8080"
  std::string target;  // "/ws"
  double control_hz = 20.0;  // 0 = no controls
  double ping_hz = 1.0;      // 0 = no pings
  double swing_volts = 0.0;  // amplitude of a slow swing command (0 = all zeros)
  int threads = 1;           // io_context threads, 1..2
  // < 0: a client whose connection ends stays closed. >= 0: it waits this long and connects
  // again, as the browser client does (through a load balancer: to any replica), and goes
  // on until stop()
  double reconnect_s = -1.0;
  // wss://: TLS under the WebSocket, the server's certificate checked against tls_ca (the
  // host name too) unless tls_insecure
  bool tls = false;
  std::string tls_ca;
  bool tls_insecure = false;
};

// What one client saw. Read only after Fleet::stop() returned.
struct ClientResult {
  bool connected = false;      // got `hello`
  bool refused = false;        // closed by the server before `hello`
  bool failed = false;         // could not connect / handshake, or dropped before `hello`
  bool closed_later = false;   // the connection ended after `hello` and was not open at the end
  std::uint64_t reconnects = 0;   // `hello`s after the first (FleetConfig::reconnect_s)
  std::uint64_t drain_notices = 0;  // `drain` messages: the server is shutting down
  int close_code = 0;          // the server's close code, 0 when none
  std::string close_reason;    // the server's reason, or the error
  std::int64_t server_session = -1;  // hello.session (the latest connection's)
  std::int64_t observing = 0;        // > 0: an observer of that session (no controls)
  double frame_period_s = core::kFramePeriod_s;      // hello.frame_period_s
  client::ArrivalStats arrivals{core::kFramePeriod_s};  // frames inside the window, over every connection
  std::vector<double> rtt_ms;           // ping round trips inside the window
  std::uint64_t controls_sent = 0;
  std::uint64_t pings_sent = 0;
  std::uint64_t pongs = 0;
  std::uint64_t errors = 0;     // `error` messages from the server
  std::uint64_t bad_messages = 0;  // messages this tool could not make sense of
};

class Fleet {
 public:
  explicit Fleet(FleetConfig config);
  ~Fleet();
  Fleet(const Fleet&) = delete;
  Fleet& operator=(const Fleet&) = delete;

  // Resolves the host and loads tls_ca; throws std::runtime_error when it cannot.
  void start();
  // Starts client i (0-based, in call order) connecting. observe > 0: an observer of that
  // server session (target ?observe=ID, docs/websocket-protocol.md), which sends no control.
  void add_client(std::int64_t observe = 0);
  // hello.session of client i; -1 until its hello arrived. Thread-safe.
  std::int64_t server_session(std::size_t i) const;
  // Clients that have connected (hello) or given up so far.
  std::size_t settled() const;
  // Clients whose connection is still open.
  std::size_t open() const;
  // Frames and pongs count only while now_s() is in [start, end).
  void open_window(double start_s);
  void close_window(double end_s);
  // Stops every client (close frame 1000), waits up to `grace_s`, joins the threads.
  void stop(double grace_s);
  // One per add_client(), in order.
  std::vector<ClientResult> results() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace clamsim::wsload
