// --tls-self-signed: a first-run certificate for a department without one (docs/security.md,
// "TLS on the web port"). Made once with OpenSSL's C API - a P-256 key and a self-signed
// certificate naming this machine - kept under the state directory and reused on every
// start, so classroom PCs trust it once.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace clamsim::web {

struct SelfSignedFiles {
  std::string cert_file;     // DIR/cert.pem
  std::string key_file;      // DIR/key.pem, mode 0600
  std::string fingerprint;   // SHA-256 of the certificate, "AB:CD:..."
  bool created = false;      // made on this call (false: the kept ones)
};

// How long a new certificate is valid: 825 days, the longest macOS and iOS accept for a
// certificate trusted by hand.
inline constexpr int kSelfSignedDays = 825;

// Makes `dir` (mode 0700) and, unless both files are there, a new key and certificate whose
// subject alternative names are `names` (IP addresses as IP names, the rest as DNS names;
// empty and duplicate ones skipped). Throws TlsError naming the file and the reason.
SelfSignedFiles ensure_self_signed(const std::filesystem::path& dir,
                                   const std::vector<std::string>& names);

// The names a self-signed certificate of this server should carry: localhost, 127.0.0.1,
// ::1, the machine's host name, the listen address (unless it is 0.0.0.0 or ::) and the
// extra host names (a ":port" suffix dropped).
std::vector<std::string> self_signed_names(const std::string& listen_address,
                                           const std::vector<std::string>& extra_hosts);

}  // namespace clamsim::web
