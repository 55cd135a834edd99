// The web port's TLS settings (docs/security.md, "TLS on the web port"): a server context
// built from a PEM certificate chain and key, TLS 1.2 or later with Mozilla's
// "intermediate" cipher suites, and the holder that swaps it on SIGHUP. New connections
// take the current context; open ones keep the one they started with.
#pragma once

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include <boost/asio/ssl/context.hpp>

namespace clamsim::web {

// A certificate or key that cannot be used; what() names the file and the reason.
class TlsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// cert_file: PEM, the server's certificate first, then its intermediates (full chain).
// key_file: the PEM private key of that certificate. Throws TlsError.
std::shared_ptr<boost::asio::ssl::context> make_server_context(const std::string& cert_file,
                                                               const std::string& key_file);

// "AB:CD:..." - the SHA-256 fingerprint of the first certificate in a PEM file, as browsers
// show it. Throws TlsError.
std::string sha256_fingerprint(const std::string& cert_file);

// The context new connections get; reload() reads the files again.
class TlsContextHolder {
 public:
  // Loads at once; throws TlsError.
  TlsContextHolder(std::string cert_file, std::string key_file);

  std::shared_ptr<boost::asio::ssl::context> current() const;
  // Builds a new context from the same files. On success new connections get it and ""
  // is returned; otherwise the old one stays and the reason is returned.
  std::string reload();
  const std::string& cert_file() const { return cert_file_; }
  const std::string& key_file() const { return key_file_; }

 private:
  const std::string cert_file_;
  const std::string key_file_;
  mutable std::mutex mutex_;
  std::shared_ptr<boost::asio::ssl::context> current_;
};

}  // namespace clamsim::web
