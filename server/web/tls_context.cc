#include "web/tls_context.h"

#include "tls/openssl_errors.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509err.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace clamsim::web {

namespace {

namespace ssl = boost::asio::ssl;

// Mozilla's "intermediate" configuration (ssl-config.mozilla.org, guidelines 5.7) for
// TLS 1.2, without the DHE suites (they need DH parameters; every current browser takes
// ECDHE). TLS 1.3 uses OpenSSL's defaults, which are the same three suites Mozilla lists.
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";
constexpr const char* kGroups = "X25519:prime256v1:secp384r1";

// OpenSSL's queued errors as one line (the newest last), and the queue emptied.
using tls::openssl_errors;

// A readable regular file, or TlsError naming it (OpenSSL's own message for a missing
// file is "system lib").
void check_readable(const char* what, const std::string& file) {
  if (file.empty()) throw TlsError(std::string(what) + ": no file given");
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (!f) throw TlsError(std::string(what) + " " + file + ": " + std::strerror(errno));
  std::fclose(f);
}

void check(bool ok, const std::string& what) {
  if (!ok) throw TlsError(what + ": " + openssl_errors());
}

}  // namespace

std::shared_ptr<ssl::context> make_server_context(const std::string& cert_file,
                                                  const std::string& key_file) {
  check_readable("--tls-cert", cert_file);
  check_readable("--tls-key", key_file);
  ERR_clear_error();
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  SSL_CTX* c = ctx->native_handle();
  check(SSL_CTX_set_min_proto_version(c, TLS1_2_VERSION) == 1, "TLS: minimum version");
  // no compression (CRIME), no renegotiation; the client's order of suites is kept, as
  // Mozilla's intermediate profile says (every suite left is strong)
  SSL_CTX_set_options(c, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
  check(SSL_CTX_set_cipher_list(c, kTls12Ciphers) == 1, "TLS: cipher list");
  check(SSL_CTX_set1_groups_list(c, kGroups) == 1, "TLS: groups");
  check(SSL_CTX_use_certificate_chain_file(c, cert_file.c_str()) == 1,
        "--tls-cert " + cert_file + ": not a usable PEM certificate chain");
  // OpenSSL compares the key with the certificate while loading it
  const bool key_ok = SSL_CTX_use_PrivateKey_file(c, key_file.c_str(), SSL_FILETYPE_PEM) == 1;
  check(key_ok || ERR_GET_REASON(ERR_peek_last_error()) != X509_R_KEY_VALUES_MISMATCH,
        "--tls-key " + key_file + " does not belong to the certificate in " + cert_file);
  check(key_ok, "--tls-key " + key_file + ": not a usable PEM private key");
  return ctx;
}

std::string sha256_fingerprint(const std::string& cert_file) {
  std::FILE* f = std::fopen(cert_file.c_str(), "rb");
  if (!f) throw TlsError(cert_file + ": " + std::strerror(errno));
  X509* cert = PEM_read_X509(f, nullptr, nullptr, nullptr);
  std::fclose(f);
  if (!cert) throw TlsError(cert_file + ": no PEM certificate: " + openssl_errors());
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  const int ok = X509_digest(cert, EVP_sha256(), md, &n);
  X509_free(cert);
  if (ok != 1) throw TlsError(cert_file + ": digest: " + openssl_errors());
  std::string out;
  for (unsigned int i = 0; i < n; ++i) {
    char hex[4];
    std::snprintf(hex, sizeof hex, "%02X", md[i]);
    out += (i ? ":" : "") + std::string(hex);
  }
  return out;
}

TlsContextHolder::TlsContextHolder(std::string cert_file, std::string key_file)
    : cert_file_(std::move(cert_file)), key_file_(std::move(key_file)),
      current_(make_server_context(cert_file_, key_file_)) {}

std::shared_ptr<ssl::context> TlsContextHolder::current() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_;
}

std::string TlsContextHolder::reload() {
  std::shared_ptr<ssl::context> fresh;
  try {
    fresh = make_server_context(cert_file_, key_file_);
  } catch (const TlsError& e) {
    return e.what();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  current_ = std::move(fresh);
  return "";
}

}  // namespace clamsim::web
