#include "corba/tls_context.h"

#include "tls/openssl_errors.h"

#include <omniORB4/CORBA.h>
// after CORBA.h, which it needs
#include <omniORB4/sslContext.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <utility>

namespace clamsim::corba {

namespace {

std::string named(const std::string& flag, const std::string& path, const std::string& what) {
  return flag + " '" + path + "': " + what;
}

// "" when the file opens for reading, else why not
std::string unreadable(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "re");
  if (f == nullptr) return std::string("cannot be read (") + std::strerror(errno) + ")";
  std::fclose(f);
  return "";
}

int count_certificates(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "re");
  if (f == nullptr) return 0;
  int n = 0;
  while (X509* x = PEM_read_X509(f, nullptr, nullptr, nullptr)) {
    X509_free(x);
    ++n;
  }
  std::fclose(f);
  ERR_clear_error();  // the read that ended the loop
  return n;
}

// No passphrase prompt: an encrypted key is refused, not asked for on a terminal.
int no_passphrase(char*, int, int, void*) { return 0; }

EVP_PKEY* read_key(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "re");
  if (f == nullptr) return nullptr;
  EVP_PKEY* key = PEM_read_PrivateKey(f, nullptr, no_passphrase, nullptr);
  std::fclose(f);
  return key;
}

std::string subject_of(X509* cert) {
  if (cert == nullptr) return "";
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
  X509_NAME_print_ex(bio.get(), X509_get_subject_name(cert), 0, XN_FLAG_RFC2253);
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio.get(), &data);
  return len > 0 ? std::string(data, static_cast<std::size_t>(len)) : "";
}

std::mutex g_verify_mutex;
std::string g_verify_failure;  // guarded by g_verify_mutex

// OpenSSL's verify callback: keeps the reason of a failed verification for error messages
// and leaves the verdict as it was.
int record_verify(int ok, X509_STORE_CTX* store) {
  if (ok == 0) {
    const int err = X509_STORE_CTX_get_error(store);
    std::lock_guard<std::mutex> lock(g_verify_mutex);
    g_verify_failure = "certificate of " + subject_of(X509_STORE_CTX_get_current_cert(store)) +
                       ": " + X509_verify_cert_error_string(err);
  }
  return ok;
}

[[noreturn]] void fail_init() {
  // check_tls_files read the same files a moment ago; only a race can end here
  std::fprintf(stderr, "tls: %s\n", tls::openssl_errors().c_str());
  throw CORBA::INITIALIZE(0, CORBA::COMPLETED_NO);
}

// omniORB's context, fed from separate files, TLS 1.2 or later. Without a CA (TLS off)
// it loads nothing and verifies against nothing.
class ClamSslContext final : public sslContext {
 public:
  explicit ClamSslContext(TlsSetup setup)
      : sslContext(nullptr, nullptr, nullptr), setup_(std::move(setup)) {}

 protected:
  void set_supported_versions() override {
    if (SSL_CTX_set_min_proto_version(get_SSL_CTX(), TLS1_2_VERSION) != 1) fail_init();
  }
  void set_certificate() override {
    if (setup_.cert.empty()) return;  // a receiver without a client certificate, or TLS off
    if (SSL_CTX_use_certificate_chain_file(get_SSL_CTX(), setup_.cert.c_str()) != 1) fail_init();
  }
  void set_privatekey() override {
    if (setup_.key.empty()) return;
    if (SSL_CTX_use_PrivateKey_file(get_SSL_CTX(), setup_.key.c_str(), SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(get_SSL_CTX()) != 1)
      fail_init();
  }
  void set_CA() override {
    if (setup_.ca.empty()) return;  // TLS off: trust no one
    SSL_CTX* ctx = get_SSL_CTX();
    if (SSL_CTX_load_verify_locations(ctx, setup_.ca.c_str(), nullptr) != 1) fail_init();
    // the CAs a client may choose its certificate from
    if (setup_.server) SSL_CTX_set_client_CA_list(ctx, SSL_load_client_CA_file(setup_.ca.c_str()));
    if (!setup_.server && !setup_.expected_host.empty()) {
      // omniORB checks the chain only; the name in the certificate must match too
      X509_VERIFY_PARAM* param = SSL_CTX_get0_param(ctx);
      unsigned char addr[16];
      const std::string& h = setup_.expected_host;
      const bool ip = inet_pton(AF_INET, h.c_str(), addr) == 1 ||
                      inet_pton(AF_INET6, h.c_str(), addr) == 1;
      const int ok = ip ? X509_VERIFY_PARAM_set1_ip_asc(param, h.c_str())
                        : X509_VERIFY_PARAM_set1_host(param, h.c_str(), h.size());
      if (ok != 1) fail_init();
    }
  }
  int set_verify_mode() override {
    if (!setup_.server) return SSL_VERIFY_PEER;
    return SSL_VERIFY_PEER | (setup_.require_peer_cert ? SSL_VERIFY_FAIL_IF_NO_PEER_CERT : 0);
  }

 private:
  const TlsSetup setup_;
};

}  // namespace

std::string check_tls_files(const TlsSetup& s) {
  if (s.ca.empty()) return s.ca_flag + " is required for TLS (the CA that signs the peer)";
  if (s.cert.empty() != s.key.empty())
    return s.cert.empty() ? s.key_flag + " needs " + s.cert_flag : s.cert_flag + " needs " + s.key_flag;
  if (s.server && s.cert.empty())
    return "TLS needs " + s.cert_flag + " and " + s.key_flag + " (the server's certificate)";
  ERR_clear_error();
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(SSL_CTX_new(TLS_method()), SSL_CTX_free);
  if (!ctx) return "cannot create a TLS context: " + tls::openssl_errors();
  if (!s.cert.empty()) {
    if (auto why = unreadable(s.cert); !why.empty()) return named(s.cert_flag, s.cert, why);
    if (SSL_CTX_use_certificate_chain_file(ctx.get(), s.cert.c_str()) != 1)
      return named(s.cert_flag, s.cert,
                   "not a PEM certificate chain (" + tls::openssl_errors() + ")");
    if (auto why = unreadable(s.key); !why.empty()) return named(s.key_flag, s.key, why);
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(read_key(s.key), EVP_PKEY_free);
    if (!key)
      return named(s.key_flag, s.key,
                   "not an unencrypted PEM private key (" + tls::openssl_errors() + ")");
    if (SSL_CTX_use_PrivateKey(ctx.get(), key.get()) != 1 ||
        SSL_CTX_check_private_key(ctx.get()) != 1) {
      ERR_clear_error();
      return named(s.key_flag, s.key, "does not belong to the certificate in " + s.cert_flag +
                                          " '" + s.cert + "'");
    }
  }
  if (auto why = unreadable(s.ca); !why.empty()) return named(s.ca_flag, s.ca, why);
  if (count_certificates(s.ca) == 0) return named(s.ca_flag, s.ca, "holds no PEM certificate");
  return "";
}

void install_tls_context(const TlsSetup& setup) {
  // peerdetails() then gives the certificate and whether it was verified (peer_identity)
  sslContext::full_peerdetails = 1;
  sslContext::verify_callback = record_verify;
  sslContext::singleton = new ClamSslContext(setup);  // omniORB deletes it at ORB destroy
}

void install_tls_off() { sslContext::singleton = new ClamSslContext(TlsSetup{}); }

std::string last_verify_failure() {
  std::lock_guard<std::mutex> lock(g_verify_mutex);
  return g_verify_failure;
}

PeerIdentity peer_identity(const char* peeraddress, void* peerdetails) {
  PeerIdentity id;
  id.tls = peeraddress != nullptr && std::strncmp(peeraddress, "giop:ssl:", 9) == 0;
  // only an SSL connection's details are sslContext::PeerDetails (full_peerdetails)
  if (!id.tls || peerdetails == nullptr) return id;
  auto* details = static_cast<sslContext::PeerDetails*>(peerdetails);
  id.verified = details->cert() != nullptr && details->verified();
  id.subject = subject_of(details->cert());
  return id;
}

}  // namespace clamsim::corba
