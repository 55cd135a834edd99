// The web front end's counters: the live atomics the I/O threads bump (WebCounters), the
// snapshot a reader gets (WebStats), and kWebStatFields, the one list /metrics and
// SharedState::stats() walk.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "core/field_list.h"

namespace clamsim::web {

// Totals since start; ws_open is a current value, connections_refused the sum of the
// refused_* reasons.
struct WebStats {
  std::uint64_t ws_open = 0;
  std::uint64_t ws_connections = 0;         // upgrades accepted
  std::uint64_t ws_messages_received = 0;
  std::uint64_t ws_errors_sent = 0;         // `error` messages
  std::uint64_t ws_frames_dropped = 0;      // display frames dropped for slow browsers
  std::uint64_t ws_messages_dropped = 0;    // other messages dropped (queue full of them)
  std::uint64_t http_requests = 0;
  std::uint64_t http_not_found = 0;         // 404
  std::uint64_t http_bad_requests = 0;      // 400, 405
  std::uint64_t tls_handshakes = 0;         // TLS handshakes completed
  std::uint64_t tls_handshake_failures = 0; // refused (old protocol, no common suite) or cut
  std::uint64_t tls_plain_http = 0;         // plain HTTP on the TLS port (answered, closed)
  std::uint64_t connections_refused = 0;    // the four below together
  std::uint64_t refused_limit = 0;          // max_connections open
  std::uint64_t refused_per_client = 0;     // max_connections_per_client open
  std::uint64_t refused_rate = 0;           // over connection_rate_per_client
  std::uint64_t refused_descriptors = 0;    // short of file descriptors
  std::uint64_t ws_closed_too_big = 0;      // 1009
  std::uint64_t ws_closed_flood = 0;        // 1008, flooding
  std::uint64_t ws_closed_policy = 0;       // 1008, origin not allowed, unknown model
  std::uint64_t ws_closed_binary = 0;       // 1003
  std::uint64_t ws_closed_full = 0;         // 1013
  std::uint64_t ws_closed_stalled = 0;      // session reaped: the browser stopped reading
};

// Bumped by the I/O threads (listener, TLS accept, HTTP and WebSocket sessions).
struct WebCounters {
  std::atomic<std::uint64_t> ws_connections{0};
  std::atomic<std::uint64_t> ws_messages_received{0};
  std::atomic<std::uint64_t> ws_errors_sent{0};
  std::atomic<std::uint64_t> ws_frames_dropped{0};
  std::atomic<std::uint64_t> ws_messages_dropped{0};
  std::atomic<std::uint64_t> http_requests{0};
  std::atomic<std::uint64_t> http_not_found{0};
  std::atomic<std::uint64_t> http_bad_requests{0};
  std::atomic<std::uint64_t> tls_handshakes{0};
  std::atomic<std::uint64_t> tls_handshake_failures{0};
  std::atomic<std::uint64_t> tls_plain_http{0};
  std::atomic<std::uint64_t> refused_limit{0};
  std::atomic<std::uint64_t> refused_per_client{0};
  std::atomic<std::uint64_t> refused_rate{0};
  std::atomic<std::uint64_t> refused_descriptors{0};
  std::atomic<std::uint64_t> ws_closed_too_big{0};
  std::atomic<std::uint64_t> ws_closed_flood{0};
  std::atomic<std::uint64_t> ws_closed_policy{0};
  std::atomic<std::uint64_t> ws_closed_binary{0};
  std::atomic<std::uint64_t> ws_closed_full{0};
  std::atomic<std::uint64_t> ws_closed_stalled{0};
  // TCP connections open now (the max_connections limit's count; not a statistic)
  std::atomic<std::uint64_t> connections_open{0};
};

// One statistic: its field (name, unit, help: the metric's HELP), its Prometheus metric
// (nullptr: not exported, e.g. a sum of a family's samples) with its type and label, and
// its live counter (nullptr: computed when read).
struct WebStatField : core::Field<WebStats, std::uint64_t> {
  const char* metric;
  const char* type;
  const char* label;
  std::atomic<std::uint64_t> WebCounters::*live;
};

namespace stat_help {
inline constexpr const char* kRefused = "Web connections refused at accept, by reason (docs/security.md).";
inline constexpr const char* kClosed = "WebSocket connections closed by the server, by reason.";
}  // namespace stat_help

// The rows of one labelled family are adjacent: /metrics writes its HELP and TYPE once.
inline constexpr std::array<WebStatField, 23> kWebStatFields{{
    {{"ws_open", "", "Open WebSocket connections.", &WebStats::ws_open},
     "clamsim_ws_connections", "gauge", "", nullptr},
    {{"ws_connections", "", "WebSocket upgrades accepted.", &WebStats::ws_connections},
     "clamsim_ws_connections_total", "counter", "", &WebCounters::ws_connections},
    {{"ws_messages_received", "", "WebSocket messages received.",
      &WebStats::ws_messages_received},
     "clamsim_ws_messages_received_total", "counter", "", &WebCounters::ws_messages_received},
    {{"ws_errors_sent", "", "error messages sent.", &WebStats::ws_errors_sent},
     "clamsim_ws_errors_sent_total", "counter", "", &WebCounters::ws_errors_sent},
    {{"ws_frames_dropped", "", "display frames dropped for browsers that read slowly.",
      &WebStats::ws_frames_dropped},
     "clamsim_ws_dropped_frames_total", "counter", "", &WebCounters::ws_frames_dropped},
    {{"ws_messages_dropped", "", "Other messages dropped (send queue full of them).",
      &WebStats::ws_messages_dropped},
     "clamsim_ws_dropped_messages_total", "counter", "", &WebCounters::ws_messages_dropped},
    {{"http_requests", "", "HTTP requests.", &WebStats::http_requests},
     "clamsim_http_requests_total", "counter", "", &WebCounters::http_requests},
    {{"http_not_found", "", "HTTP 404 answers.", &WebStats::http_not_found},
     "clamsim_http_not_found_total", "counter", "", &WebCounters::http_not_found},
    {{"http_bad_requests", "", "HTTP 400 and 405 answers.", &WebStats::http_bad_requests},
     "clamsim_http_bad_requests_total", "counter", "", &WebCounters::http_bad_requests},
    {{"tls_handshakes", "", "TLS handshakes completed on the web port.",
      &WebStats::tls_handshakes},
     "clamsim_tls_handshakes_total", "counter", "", &WebCounters::tls_handshakes},
    {{"tls_handshake_failures", "",
      "TLS handshakes refused or cut off (old protocol version, no common suite).",
      &WebStats::tls_handshake_failures},
     "clamsim_tls_handshake_failures_total", "counter", "", &WebCounters::tls_handshake_failures},
    {{"tls_plain_http", "",
      "Plain HTTP requests on the TLS port (answered with the https:// address).",
      &WebStats::tls_plain_http},
     "clamsim_tls_plain_http_total", "counter", "", &WebCounters::tls_plain_http},
    {{"connections_refused", "", "Web connections refused at accept.",
      &WebStats::connections_refused},
     nullptr, "", "", nullptr},
    {{"refused_limit", "", stat_help::kRefused, &WebStats::refused_limit},
     "clamsim_connections_refused_total", "counter", "reason=\"limit\"",
     &WebCounters::refused_limit},
    {{"refused_per_client", "", stat_help::kRefused, &WebStats::refused_per_client},
     "clamsim_connections_refused_total", "counter", "reason=\"per_client\"",
     &WebCounters::refused_per_client},
    {{"refused_rate", "", stat_help::kRefused, &WebStats::refused_rate},
     "clamsim_connections_refused_total", "counter", "reason=\"rate\"",
     &WebCounters::refused_rate},
    {{"refused_descriptors", "", stat_help::kRefused, &WebStats::refused_descriptors},
     "clamsim_connections_refused_total", "counter", "reason=\"descriptors\"",
     &WebCounters::refused_descriptors},
    {{"ws_closed_too_big", "", stat_help::kClosed, &WebStats::ws_closed_too_big},
     "clamsim_ws_closed_total", "counter", "reason=\"too_big\"", &WebCounters::ws_closed_too_big},
    {{"ws_closed_flood", "", stat_help::kClosed, &WebStats::ws_closed_flood},
     "clamsim_ws_closed_total", "counter", "reason=\"flood\"", &WebCounters::ws_closed_flood},
    {{"ws_closed_policy", "", stat_help::kClosed, &WebStats::ws_closed_policy},
     "clamsim_ws_closed_total", "counter", "reason=\"policy\"", &WebCounters::ws_closed_policy},
    {{"ws_closed_binary", "", stat_help::kClosed, &WebStats::ws_closed_binary},
     "clamsim_ws_closed_total", "counter", "reason=\"binary\"", &WebCounters::ws_closed_binary},
    {{"ws_closed_full", "", stat_help::kClosed, &WebStats::ws_closed_full},
     "clamsim_ws_closed_total", "counter", "reason=\"full\"", &WebCounters::ws_closed_full},
    {{"ws_closed_stalled", "", stat_help::kClosed, &WebStats::ws_closed_stalled},
     "clamsim_ws_closed_total", "counter", "reason=\"stalled\"", &WebCounters::ws_closed_stalled},
}};
static_assert(core::covers_struct(kWebStatFields));

}  // namespace clamsim::web
