#include "web/security_headers.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <system_error>

namespace clamsim::web {

namespace {

namespace fs = std::filesystem;

// A year, without includeSubDomains: the department's other hosts are not ours to decide.
constexpr const char* kHsts = "max-age=31536000";

std::string sha256_base64(const std::string& text) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), md);
  unsigned char out[4 * ((SHA256_DIGEST_LENGTH + 2) / 3) + 1];
  const int n = EVP_EncodeBlock(out, md, SHA256_DIGEST_LENGTH);
  return std::string(reinterpret_cast<const char*>(out), static_cast<std::size_t>(n));
}

// The bodies of <script> elements without a src attribute, as the browser hashes them.
std::vector<std::string> inline_scripts(const std::string& html) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (int guard = 0; guard < 1000; ++guard) {
    const std::size_t open = html.find("<script", at);
    if (open == std::string::npos) break;
    const std::size_t tag_end = html.find('>', open);
    const std::size_t close = html.find("</script>", open);
    if (tag_end == std::string::npos || close == std::string::npos || close < tag_end) break;
    const std::string tag = html.substr(open, tag_end - open);
    if (tag.find(" src=") == std::string::npos)
      out.push_back(html.substr(tag_end + 1, close - tag_end - 1));
    at = close + 9;
  }
  return out;
}

}  // namespace

std::vector<std::string> inline_script_hashes(const fs::path& dir) {
  std::vector<std::string> hashes;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return hashes;
  std::vector<fs::path> pages;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".html") pages.push_back(e.path());
  std::sort(pages.begin(), pages.end());
  for (const auto& page : pages) {
    std::ifstream in(page, std::ios::binary);
    const std::string html{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    for (const auto& script : inline_scripts(html)) {
      const std::string h = "'sha256-" + sha256_base64(script) + "'";
      if (std::find(hashes.begin(), hashes.end(), h) == hashes.end()) hashes.push_back(h);
    }
  }
  return hashes;
}

SecurityHeaders::SecurityHeaders(const fs::path& web_root) {
  // What web/ needs and no more: its own scripts and styles, the import map by hash, the
  // empty data: favicon, and WebSockets to this host ('self' covers ws:/wss:, CSP 3).
  std::string scripts = "script-src 'self'";
  for (const auto& h : inline_script_hashes(web_root)) scripts += " " + h;
  csp_ = "default-src 'none'; " + scripts +
         "; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
         "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
}

void SecurityHeaders::apply(http::fields& h, bool tls) const {
  h.set("Content-Security-Policy", csp_);
  h.set("X-Content-Type-Options", "nosniff");
  h.set("Referrer-Policy", "no-referrer");
  if (tls) h.set(http::field::strict_transport_security, kHsts);
}

}  // namespace clamsim::web
