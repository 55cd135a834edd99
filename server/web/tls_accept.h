// A new connection on a TLS port (docs/security.md, "TLS on the web port"): tells TLS from
// plain HTTP by its first bytes (beast::async_detect_ssl, as Beast's advanced_server_flex),
// does the TLS handshake and hands the stream to an HttpSession. A plain HTTP request gets
// a redirect to the same address over https:// (or, with a Host this server does not
// answer for, a 400 naming the https:// address), then the connection closes; only the
// probes /livez and /readyz from loopback are answered in plain HTTP (the container's
// HEALTHCHECK).
#pragma once

#include <memory>
#include <optional>

#include "web/beast.h"
#include "web/shared_state.h"
#include "web/web_stream.h"

namespace clamsim::web {

class TlsAccept : public std::enable_shared_from_this<TlsAccept> {
 public:
  // state->tls() must be set.
  TlsAccept(tcp::socket&& socket, std::shared_ptr<SharedState> state, ConnectionSlot slot);
  void run();

 private:
  void on_detect(beast::error_code ec, bool is_tls);
  void on_handshake(beast::error_code ec, std::size_t used);
  void on_plain_request(beast::error_code ec, std::size_t);
  void answer_plain(http::status status, const std::string& location, std::string body);

  beast::tcp_stream tcp_;             // until the first bytes tell TLS from plain
  std::optional<WebStream> tls_;      // then, for TLS
  beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  ConnectionSlot slot_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  http::response<http::string_body> res_;
};

}  // namespace clamsim::web
