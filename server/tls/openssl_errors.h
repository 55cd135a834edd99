// OpenSSL's error queue as one line for a message, shared by the web and IIOP TLS setups.
#pragma once

#include <openssl/err.h>

#include <string>

namespace clamsim::tls {

// Drains this thread's OpenSSL error queue: "error:...; error:...", oldest first, or
// "unknown OpenSSL error" when it is empty (the queue is left empty either way, so a later
// failure does not report this one's causes).
inline std::string openssl_errors() {
  std::string out;
  while (const unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    out += (out.empty() ? "" : "; ") + std::string(buf);
  }
  return out.empty() ? "unknown OpenSSL error" : out;
}

}  // namespace clamsim::tls
