// A real TLS client for the web port's tests (Beast over OpenSSL), every operation bounded
// in time like test_client.h's. One connection: the TLS handshake, then HTTP requests or a
// WebSocket session over it. Plus the test PKI (tests/tls/make-test-pki.sh) in a temp dir.
#pragma once

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>

#include "test_client.h"

namespace clamsim::testing {

namespace ssl = net::ssl;

// ca.pem, server.pem/.key, client.pem/.key, other-ca.pem in a fresh temp dir, removed after.
class TestPki {
 public:
  explicit TestPki(const std::string& tag) {
    dir_ = std::filesystem::temp_directory_path() /
           ("clamsim_pki_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    const std::string cmd = "bash '" + std::string(CLAMSIM_SOURCE_DIR) +
                            "/tests/tls/make-test-pki.sh' '" + dir_.string() + "'";
    ok_ = std::system(cmd.c_str()) == 0;
  }
  ~TestPki() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  bool ok() const { return ok_; }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  bool ok_ = false;
};

struct TlsReply {
  int status = 0;   // 0: no answer
  std::map<std::string, std::string> headers;   // lower-case names
  std::string body;
};

class TlsClient {
 public:
  // ca_file: the trust anchor ("" = no verification). max_version: e.g. TLS1_1_VERSION to
  // offer nothing newer (the security level is lowered so OpenSSL offers it at all).
  explicit TlsClient(const std::string& ca_file, int max_version = 0)
      : ctx_(ssl::context::tls_client) {
    if (!ca_file.empty()) {
      ctx_.load_verify_file(ca_file);
      ctx_.set_verify_mode(ssl::verify_peer);
    }
    if (max_version != 0) {
      SSL_CTX_set_security_level(ctx_.native_handle(), 0);
      SSL_CTX_set_min_proto_version(ctx_.native_handle(), TLS1_VERSION);
      SSL_CTX_set_max_proto_version(ctx_.native_handle(), max_version);
      SSL_CTX_set_cipher_list(ctx_.native_handle(), "DEFAULT:@SECLEVEL=0");
    }
    ws_.emplace(ioc_, ctx_);
  }

  // TCP connect and TLS handshake to 127.0.0.1:port, checking the name "localhost".
  // "" on success, else the error.
  std::string connect(std::uint16_t port, const std::string& name = "localhost") {
    auto& tls = ws_->next_layer();
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
    if (!run_until(ioc_, done, Seconds(5))) return "handshake: timed out";
    return ec ? "handshake: " + ec.message() : "";
  }

  // The SHA-256 of the certificate the server presented, "AB:CD:...".
  std::string peer_fingerprint() {
    X509* cert = SSL_get1_peer_certificate(ws_->next_layer().native_handle());
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
  std::string protocol() { return SSL_get_version(ws_->next_layer().native_handle()); }

  // One request on the connection (keep-alive).
  TlsReply request(const std::string& target, http::verb method = http::verb::get) {
    TlsReply reply;
    http::request<http::empty_body> req{method, target, 11};
    req.set(http::field::host, "localhost");
    bool done = false;
    beast::error_code ec;
    http::async_write(ws_->next_layer(), req, [&](beast::error_code e, std::size_t) {
      ec = e;
      done = true;
    });
    if (!run_until(ioc_, done, Seconds(5)) || ec) return reply;
    http::response_parser<http::string_body> parser;
    parser.body_limit(16 * 1024 * 1024);
    if (method == http::verb::head) parser.skip(true);
    done = false;
    http::async_read(ws_->next_layer(), buffer_, parser, [&](beast::error_code e, std::size_t) {
      ec = e;
      done = true;
    });
    if (!run_until(ioc_, done, Seconds(5)) || ec) return reply;
    auto res = parser.release();
    reply.status = static_cast<int>(res.result_int());
    for (const auto& f : res) {
      std::string name(f.name_string());
      for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      reply.headers[name] = std::string(f.value());
    }
    reply.body = std::move(res.body());
    return reply;
  }

  // The WebSocket handshake on /ws; true when accepted.
  bool websocket(std::uint16_t port) {
    bool done = false;
    beast::error_code ec;
    ws_->async_handshake("localhost:" + std::to_string(port), "/ws", [&](beast::error_code e) {
      ec = e;
      done = true;
    });
    return run_until(ioc_, done, Seconds(5)) && !ec;
  }

  // The next WebSocket text message, or nullopt (closed, error, or nothing in `timeout`).
  std::optional<std::string> read(Seconds timeout = Seconds(2)) {
    if (!reading_) {
      reading_ = true;
      read_done_ = false;
      ws_->async_read(ws_buffer_, [this](beast::error_code e, std::size_t) {
        read_ec_ = e;
        read_done_ = true;
      });
    }
    if (!run_until(ioc_, read_done_, timeout)) return std::nullopt;
    reading_ = false;
    if (read_ec_) return std::nullopt;
    std::string text = beast::buffers_to_string(ws_buffer_.data());
    ws_buffer_.consume(ws_buffer_.size());
    return text;
  }

  // display messages received within `window` (bounded by count too).
  int count_displays(Seconds window) {
    const auto end = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(window);
    int n = 0;
    for (int i = 0; i < 10000; ++i) {
      const auto left = end - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) break;
      auto m = read(std::chrono::duration_cast<Seconds>(left));
      if (!m) continue;
      if (m->find("\"type\":\"display\"") != std::string::npos) ++n;
    }
    return n;
  }

 private:
  net::io_context ioc_;
  ssl::context ctx_;
  std::optional<websocket::stream<beast::ssl_stream<beast::tcp_stream>>> ws_;
  beast::flat_buffer buffer_;
  beast::flat_buffer ws_buffer_;
  bool reading_ = false;
  bool read_done_ = false;
  beast::error_code read_ec_;
};

}  // namespace clamsim::testing
