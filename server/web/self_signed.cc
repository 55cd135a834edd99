#include "web/self_signed.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <system_error>

#include <boost/asio/ip/address.hpp>

#include "tls/openssl_errors.h"
#include "web/tls_context.h"

namespace clamsim::web {

namespace {

namespace fs = std::filesystem;

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using Ext = std::unique_ptr<X509_EXTENSION, Deleter<X509_EXTENSION, X509_EXTENSION_free>>;

void check(bool ok, const std::string& what) {
  if (!ok) throw TlsError("--tls-self-signed: " + what + ": " + tls::openssl_errors());
}

bool is_ip(const std::string& name) {
  boost::system::error_code ec;
  boost::asio::ip::make_address(name, ec);
  return !ec;
}

// "DNS:localhost,IP:127.0.0.1,..."
std::string alt_names(const std::vector<std::string>& names) {
  std::string out;
  std::vector<std::string> seen;
  for (const auto& n : names) {
    if (n.empty() || std::find(seen.begin(), seen.end(), n) != seen.end()) continue;
    seen.push_back(n);
    out += (out.empty() ? "" : ",") + std::string(is_ip(n) ? "IP:" : "DNS:") + n;
  }
  return out;
}

void add_extension(X509* cert, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  Ext ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str()));
  check(ext != nullptr, std::string("extension ") + OBJ_nid2sn(nid) + "=" + value);
  check(X509_add_ext(cert, ext.get(), -1) == 1, std::string("adding ") + OBJ_nid2sn(nid));
}

Cert make_certificate(EVP_PKEY* key, const std::vector<std::string>& names) {
  Cert cert(X509_new());
  check(cert != nullptr, "X509_new");
  X509* x = cert.get();
  check(X509_set_version(x, 2) == 1, "version");   // v3
  // a random 127-bit serial (positive, as RFC 5280 wants)
  std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>> serial(BN_new());
  check(serial && BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1,
        "serial");
  check(BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(x)) != nullptr, "serial");
  // valid from an hour ago: a classroom PC whose clock is a little behind still accepts it
  check(X509_gmtime_adj(X509_getm_notBefore(x), -3600) != nullptr, "notBefore");
  check(X509_time_adj_ex(X509_getm_notAfter(x), kSelfSignedDays, 0, nullptr) != nullptr,
        "notAfter");
  check(X509_set_pubkey(x, key) == 1, "public key");
  X509_NAME* subject = X509_get_subject_name(x);
  const std::string cn = "clamsim on " + (names.size() > 3 ? names[3] : std::string("localhost"));
  check(X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8,
                                   reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1,
                                   0) == 1,
        "subject");
  check(X509_set_issuer_name(x, subject) == 1, "issuer");
  add_extension(x, NID_basic_constraints, "critical,CA:FALSE");
  add_extension(x, NID_key_usage, "critical,digitalSignature");
  add_extension(x, NID_ext_key_usage, "serverAuth");
  add_extension(x, NID_subject_key_identifier, "hash");
  add_extension(x, NID_subject_alt_name, alt_names(names));
  check(X509_sign(x, key, EVP_sha256()) > 0, "signing");
  return cert;
}

// Writes through a temporary file with `mode`, then renames: never a half-written file.
template <class WriteFn>
void write_pem(const fs::path& file, mode_t mode, WriteFn write) {
  const fs::path tmp = file.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) throw TlsError("--tls-self-signed: " + tmp.string() + ": " + std::strerror(errno));
  ::fchmod(fd, mode);   // the umask does not loosen or narrow it
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    ::close(fd);
    throw TlsError("--tls-self-signed: " + tmp.string() + ": " + std::strerror(errno));
  }
  const bool ok = write(f) == 1;
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed) throw TlsError("--tls-self-signed: writing " + tmp.string() + " failed");
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) throw TlsError("--tls-self-signed: " + file.string() + ": " + ec.message());
}

}  // namespace

std::vector<std::string> self_signed_names(const std::string& listen_address,
                                           const std::vector<std::string>& extra_hosts) {
  std::vector<std::string> names = {"localhost", "127.0.0.1", "::1"};
  char host[256] = {};
  names.push_back(::gethostname(host, sizeof host - 1) == 0 ? host : "");
  boost::system::error_code ec;
  const auto a = boost::asio::ip::make_address(listen_address, ec);
  if (!ec && !a.is_unspecified()) names.push_back(a.to_string());
  for (std::string h : extra_hosts) {
    // "name:port" -> "name"; an IPv6 literal stays whole ("[::1]:8443" -> "::1")
    if (!h.empty() && h.front() == '[') h = h.substr(1, h.find(']') - 1);
    else if (h.find(':') != std::string::npos && !is_ip(h)) h = h.substr(0, h.rfind(':'));
    names.push_back(h);
  }
  return names;
}

SelfSignedFiles ensure_self_signed(const fs::path& dir, const std::vector<std::string>& names) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw TlsError("--tls-self-signed: cannot create " + dir.string() + ": " + ec.message());
  if (::chmod(dir.c_str(), 0700) != 0)
    throw TlsError("--tls-self-signed: " + dir.string() + ": " + std::strerror(errno));
  SelfSignedFiles out;
  out.cert_file = (dir / "cert.pem").string();
  out.key_file = (dir / "key.pem").string();
  if (!fs::exists(out.cert_file, ec) || !fs::exists(out.key_file, ec)) {
    ERR_clear_error();
    Key key(EVP_EC_gen("P-256"));
    check(key != nullptr, "generating a P-256 key");
    const Cert cert = make_certificate(key.get(), names);
    // the key first: a certificate is never left without its key
    write_pem(out.key_file, 0600, [&](std::FILE* f) {
      return PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    });
    write_pem(out.cert_file, 0644, [&](std::FILE* f) { return PEM_write_X509(f, cert.get()); });
    out.created = true;
  } else if (::chmod(out.key_file.c_str(), 0600) != 0) {
    throw TlsError("--tls-self-signed: " + out.key_file + ": " + std::strerror(errno));
  }
  out.fingerprint = sha256_fingerprint(out.cert_file);
  return out;
}

}  // namespace clamsim::web
