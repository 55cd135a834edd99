// A real TLS client for the web port's tests (Beast over OpenSSL), every operation bounded
// in time like test_client.h's. One connection: the TLS handshake, then HTTP requests or a
// WebSocket session over it. Plus the test PKI (tests/tls/make-test-pki.sh) in a temp dir.
// The client's Beast and OpenSSL code is compiled once, in tls_client.cc.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "test_client.h"

namespace clamsim::testing {

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
  explicit TlsClient(const std::string& ca_file, int max_version = 0);
  ~TlsClient();
  TlsClient(const TlsClient&) = delete;
  TlsClient& operator=(const TlsClient&) = delete;

  // TCP connect and TLS handshake to 127.0.0.1:port, checking the name "localhost".
  // "" on success, else the error.
  std::string connect(std::uint16_t port, const std::string& name = "localhost");

  // The SHA-256 of the certificate the server presented, "AB:CD:...".
  std::string peer_fingerprint();
  std::string protocol();

  // One request on the connection (keep-alive).
  TlsReply request(const std::string& target, http::verb method = http::verb::get);

  // The WebSocket handshake on /ws; true when accepted.
  bool websocket(std::uint16_t port);

  // The next WebSocket text message, or nullopt (closed, error, or nothing in `timeout`).
  std::optional<std::string> read(Seconds timeout = Seconds(2));

  // Reads until `n` display messages have come; returns how many did (fewer only when the
  // stream ended or went quiet for `quiet`: the bound says "they stopped", not a rate).
  int read_displays(int n, Seconds quiet = Seconds(10));

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace clamsim::testing
