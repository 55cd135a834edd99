#include "tls_client.h"

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cctype>
#include <cstdio>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>

#include "client_wait.h"

namespace clamsim::testing {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

struct TlsClient::Impl {
  explicit Impl() : ctx(ssl::context::tls_client) {}
  net::io_context ioc;
  ssl::context ctx;
  std::optional<websocket::stream<beast::ssl_stream<beast::tcp_stream>>> ws;
  beast::flat_buffer buffer;
  beast::flat_buffer ws_buffer;
  bool reading = false;
  bool read_done = false;
  beast::error_code read_ec;
};

TlsClient::TlsClient(const std::string& ca_file, int max_version)
    : impl_(std::make_unique<Impl>()) {
  ssl::context& ctx = impl_->ctx;
  if (!ca_file.empty()) {
    ctx.load_verify_file(ca_file);
    ctx.set_verify_mode(ssl::verify_peer);
  }
  if (max_version != 0) {
    SSL_CTX_set_security_level(ctx.native_handle(), 0);
    SSL_CTX_set_min_proto_version(ctx.native_handle(), TLS1_VERSION);
    SSL_CTX_set_max_proto_version(ctx.native_handle(), max_version);
    SSL_CTX_set_cipher_list(ctx.native_handle(), "DEFAULT:@SECLEVEL=0");
  }
  impl_->ws.emplace(impl_->ioc, ctx);
}

TlsClient::~TlsClient() = default;

std::string TlsClient::connect(std::uint16_t port, const std::string& name) {
  auto& tls = impl_->ws->next_layer();
  beast::error_code ec;
  beast::get_lowest_layer(tls).socket().connect(
      tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
  if (ec) return "connect: " + ec.message();
  SSL_set_tlsext_host_name(tls.native_handle(), name.c_str());
  tls.set_verify_callback(ssl::host_name_verification(name));
  bool done = false;
  tls.async_handshake(ssl::stream_base::client, [&](beast::error_code e) {
    ec = e;
    done = true;
  });
  if (!run_until(impl_->ioc, done, Seconds(5))) return "handshake: timed out";
  return ec ? "handshake: " + ec.message() : "";
}

// Computed here with OpenSSL directly, not by the server's tls_context.cc, so that the
// fingerprint the server logs is checked against an independent calculation.
std::string TlsClient::peer_fingerprint() {
  X509* cert = SSL_get1_peer_certificate(impl_->ws->next_layer().native_handle());
  if (!cert) return "";
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  X509_digest(cert, EVP_sha256(), md, &n);
  X509_free(cert);
  std::string out;
  for (unsigned int i = 0; i < n; ++i) {
    char hex[4];
    std::snprintf(hex, sizeof hex, "%02X", md[i]);
    out += (i ? ":" : "") + std::string(hex);
  }
  return out;
}

std::string TlsClient::protocol() {
  return SSL_get_version(impl_->ws->next_layer().native_handle());
}

TlsReply TlsClient::request(const std::string& target, http::verb method) {
  Impl& c = *impl_;
  TlsReply reply;
  http::request<http::empty_body> req{method, target, 11};
  req.set(http::field::host, "localhost");
  bool done = false;
  beast::error_code ec;
  http::async_write(c.ws->next_layer(), req, [&](beast::error_code e, std::size_t) {
    ec = e;
    done = true;
  });
  if (!run_until(c.ioc, done, Seconds(5)) || ec) return reply;
  http::response_parser<http::string_body> parser;
  parser.body_limit(16 * 1024 * 1024);
  if (method == http::verb::head) parser.skip(true);
  done = false;
  http::async_read(c.ws->next_layer(), c.buffer, parser, [&](beast::error_code e, std::size_t) {
    ec = e;
    done = true;
  });
  if (!run_until(c.ioc, done, Seconds(5)) || ec) return reply;
  auto res = parser.release();
  reply.status = static_cast<int>(res.result_int());
  for (const auto& f : res) {
    std::string name(f.name_string());
    for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    reply.headers[name] = std::string(f.value());
  }
  reply.body = std::move(res.body());
  return reply;
}

bool TlsClient::websocket(std::uint16_t port) {
  bool done = false;
  beast::error_code ec;
  impl_->ws->async_handshake("localhost:" + std::to_string(port), "/ws",
                             [&](beast::error_code e) {
                               ec = e;
                               done = true;
                             });
  return run_until(impl_->ioc, done, Seconds(5)) && !ec;
}

std::optional<std::string> TlsClient::read(Seconds timeout) {
  Impl& c = *impl_;
  if (!c.reading) {
    c.reading = true;
    c.read_done = false;
    c.ws->async_read(c.ws_buffer, [&c](beast::error_code e, std::size_t) {
      c.read_ec = e;
      c.read_done = true;
    });
  }
  if (!run_until(c.ioc, c.read_done, timeout)) return std::nullopt;
  c.reading = false;
  if (c.read_ec) return std::nullopt;
  std::string text = beast::buffers_to_string(c.ws_buffer.data());
  c.ws_buffer.consume(c.ws_buffer.size());
  return text;
}

int TlsClient::read_displays(int n, Seconds quiet) {
  int got = 0;
  while (got < n) {
    const auto m = read(quiet);
    if (!m) break;
    if (m->find("\"type\":\"display\"") != std::string::npos) ++got;
  }
  return got;
}

}  // namespace clamsim::testing
