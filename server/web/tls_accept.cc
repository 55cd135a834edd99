#include "web/tls_accept.h"

#include <boost/beast/core/detect_ssl.hpp>

#include <cassert>
#include <chrono>

#include "web/http_session.h"
#include "web/status_pages.h"

namespace clamsim::web {

namespace {

constexpr std::uint32_t kMaxHeaderBytes = 8192;   // as http_session.cc

std::string endpoint_text(const tcp::endpoint& e) {
  const std::string host = e.address().to_string();
  return (e.address().is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(e.port());
}

}  // namespace

TlsAccept::TlsAccept(tcp::socket&& socket, std::shared_ptr<SharedState> state,
                     ConnectionSlot slot)
    : tcp_(std::move(socket)), state_(std::move(state)), slot_(std::move(slot)) {
  assert(state_->tls());
}

void TlsAccept::run() {
  net::dispatch(tcp_.get_executor(), [self = shared_from_this()] {
    // detection, handshake and a plain request together: as long as one HTTP request
    self->tcp_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(self->state_->options().http_timeout_s)));
    beast::async_detect_ssl(self->tcp_, self->buffer_,
                            beast::bind_front_handler(&TlsAccept::on_detect, self));
  });
}

void TlsAccept::on_detect(beast::error_code ec, bool is_tls) {
  assert(on_strand(tcp_.get_executor()));
  if (ec) return;  // gone or silent until the timeout: nothing to answer
  WebCounters& c = state_->counters();
  if (!is_tls) {
    c.tls_plain_http.fetch_add(1);
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    return http::async_read_header(tcp_, buffer_, *parser_,
                                   beast::bind_front_handler(&TlsAccept::on_plain_request,
                                                             shared_from_this()));
  }
  tls_.emplace(std::move(tcp_), state_->tls()->current());
  tls_->tls_stream().async_handshake(
      net::ssl::stream_base::server, buffer_.data(),
      beast::bind_front_handler(&TlsAccept::on_handshake, shared_from_this()));
}

void TlsAccept::on_handshake(beast::error_code ec, std::size_t used) {
  WebCounters& c = state_->counters();
  if (ec) {
    c.tls_handshake_failures.fetch_add(1);
    if (ec != beast::error::timeout && ec != net::error::eof &&
        ec != net::error::connection_reset)
      state_->log("web: TLS handshake failed: " + ec.message());
    return;
  }
  c.tls_handshakes.fetch_add(1);
  buffer_.consume(used);
  std::make_shared<HttpSession>(std::move(*tls_), std::move(buffer_), state_, std::move(slot_))
      ->run();
}

void TlsAccept::on_plain_request(beast::error_code ec, std::size_t) {
  assert(on_strand(tcp_.get_executor()));
  beast::error_code ignored;
  const std::string local = endpoint_text(tcp_.socket().local_endpoint(ignored));
  const std::string note = "This port speaks HTTPS only: ";
  if (ec) {
    if (ec == beast::error::timeout || ec == net::error::eof) return;
    return answer_plain(http::status::bad_request, "",
                        note + "https://" + local + "/\n");
  }
  const auto& req = parser_->get();
  const std::string host = to_std(req[http::field::host]);
  const HostVerdict verdict = state_->hosts().check(req.count(http::field::host), host);
  if (!verdict.allowed())
    return answer_plain(http::status::bad_request, "",
                        note + "https://" + local + "/ (" + verdict.reason + ")\n");
  std::string target = to_std(req.target());
  // the probes stay readable in plain HTTP from this machine: the container's HEALTHCHECK
  // (bash /dev/tcp) speaks no TLS, and they reveal nothing a session would
  beast::error_code peer_ec;
  const auto peer = tcp_.socket().remote_endpoint(peer_ec);
  if (!peer_ec && peer.address().is_loopback() && (target == "/livez" || target == "/readyz")) {
    const Probe p = target == "/livez"
                        ? liveness(state_->registry(), state_->options().stall_limit_s)
                        : readiness(state_->registry());
    return answer_plain(static_cast<http::status>(p.status), "", p.body + "\n");
  }
  if (target.empty() || target[0] != '/') target = "/";
  const std::string url = "https://" + host + target;
  answer_plain(http::status::permanent_redirect, url, note + url + "\n");
}

// Always closes: a client that sent plain HTTP here will not switch to TLS on this socket.
void TlsAccept::answer_plain(http::status status, const std::string& location,
                             std::string body) {
  res_ = http::response<http::string_body>{status, 11};
  res_.set(http::field::content_type, "text/plain; charset=utf-8");
  res_.set(http::field::cache_control, "no-store");
  if (!location.empty()) res_.set(http::field::location, location);
  if (!state_->server_header().empty()) res_.set(http::field::server, state_->server_header());
  state_->security_headers().apply(res_, false);
  res_.keep_alive(false);
  res_.body() = std::move(body);
  res_.prepare_payload();
  http::async_write(tcp_, res_, [self = shared_from_this()](beast::error_code, std::size_t) {
    beast::error_code ignored;
    self->tcp_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  });
}

}  // namespace clamsim::web
