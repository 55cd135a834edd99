// The bytes of one web connection: plain TCP, or TLS over TCP (docs/security.md, "TLS on
// the web port"). HTTP sessions, the WebSocket guard above it (guarded_stream.h) and
// teardown see one stream type and never ask which; tls() tells route code that needs to
// know (cookies get Secure under TLS).
#pragma once

#include <memory>
#include <utility>
#include <variant>

#include <boost/asio/ssl/context.hpp>
#include <boost/beast/ssl.hpp>

#include "web/beast.h"

namespace clamsim::web {

class WebStream {
 public:
  using executor_type = beast::tcp_stream::executor_type;
  using Tls = beast::ssl_stream<beast::tcp_stream>;

  // Plain.
  explicit WebStream(beast::tcp_stream&& connection) : stream_(std::move(connection)) {}
  // TLS with `ctx` (kept alive as long as the connection); the handshake is the caller's.
  WebStream(beast::tcp_stream&& connection, std::shared_ptr<net::ssl::context> ctx)
      : ctx_(std::move(ctx)), stream_(std::in_place_type<Tls>, std::move(connection), *ctx_) {}

  bool tls() const { return std::holds_alternative<Tls>(stream_); }
  Tls& tls_stream() { return std::get<Tls>(stream_); }

  executor_type get_executor() noexcept {
    return std::visit([](auto& s) { return s.get_executor(); }, stream_);
  }
  // The TCP layer under either (beast::get_lowest_layer follows this).
  beast::tcp_stream& next_layer() noexcept { return lowest(stream_); }
  const beast::tcp_stream& next_layer() const noexcept {
    return lowest(const_cast<std::variant<beast::tcp_stream, Tls>&>(stream_));
  }

  template <class MutableBufferSequence, class ReadHandler>
  auto async_read_some(const MutableBufferSequence& buffers, ReadHandler&& handler) {
    return std::visit(
        [&](auto& s) { return s.async_read_some(buffers, std::forward<ReadHandler>(handler)); },
        stream_);
  }

  template <class ConstBufferSequence, class WriteHandler>
  auto async_write_some(const ConstBufferSequence& buffers, WriteHandler&& handler) {
    return std::visit(
        [&](auto& s) { return s.async_write_some(buffers, std::forward<WriteHandler>(handler)); },
        stream_);
  }

 private:
  static beast::tcp_stream& lowest(std::variant<beast::tcp_stream, Tls>& v) {
    if (auto* tls = std::get_if<Tls>(&v)) return tls->next_layer();
    return std::get<beast::tcp_stream>(v);
  }

  std::shared_ptr<net::ssl::context> ctx_;   // before the stream: outlives it
  std::variant<beast::tcp_stream, Tls> stream_;
};

// WebSocket teardown (found by argument-dependent lookup): TLS sends its close_notify,
// plain TCP shuts the socket down.
inline void teardown(beast::role_type role, WebStream& s, beast::error_code& ec) {
  using websocket::teardown;
  if (s.tls())
    teardown(role, s.tls_stream(), ec);
  else
    teardown(role, s.next_layer().socket(), ec);
}

template <class TeardownHandler>
void async_teardown(beast::role_type role, WebStream& s, TeardownHandler&& handler) {
  using websocket::async_teardown;
  if (s.tls())
    async_teardown(role, s.tls_stream(), std::forward<TeardownHandler>(handler));
  else
    async_teardown(role, s.next_layer().socket(), std::forward<TeardownHandler>(handler));
}

}  // namespace clamsim::web
