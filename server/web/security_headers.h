// The headers every answer of the web port carries - pages, API, errors, probes, the
// WebSocket upgrade, the answer to plain HTTP on the TLS port (docs/security.md, "Security
// headers"). Built once at start-up; this is the only place that sets them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "web/beast.h"

namespace clamsim::web {

// "'sha256-BASE64'" for every inline <script> (one without src, e.g. the import map) in
// the *.html files directly under `dir`, in file order; none when dir is "" or missing.
std::vector<std::string> inline_script_hashes(const std::filesystem::path& dir);

class SecurityHeaders {
 public:
  // web_root: where the pages are; their inline scripts are allowed by hash.
  explicit SecurityHeaders(const std::filesystem::path& web_root);

  // Content-Security-Policy, X-Content-Type-Options, Referrer-Policy, and under TLS
  // Strict-Transport-Security.
  void apply(http::fields& h, bool tls) const;
  const std::string& csp() const { return csp_; }

 private:
  std::string csp_;
};

}  // namespace clamsim::web
