#include "web/origin.h"

#include <algorithm>
#include <cctype>

namespace clamsim::web {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim_slash(std::string_view s) {
  while (!s.empty() && s.back() == '/') s.remove_suffix(1);
  return s;
}

// "http://Host:8080" -> "host:8080"; "" when it is not scheme://authority.
std::string authority_of(std::string_view origin) {
  const auto sep = origin.find("://");
  if (sep == std::string_view::npos) return {};
  std::string_view rest = trim_slash(origin.substr(sep + 3));
  if (rest.empty() || rest.find('/') != std::string_view::npos) return {};
  return lower(rest);
}

// "host:8080" -> "host"; "[::1]:8080" -> "[::1]".
std::string_view hostname_of(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    const auto end = authority.find(']');
    return end == std::string_view::npos ? authority : authority.substr(0, end + 1);
  }
  return authority.substr(0, authority.find(':'));
}

}  // namespace

bool origin_allowed(std::string_view origin, std::string_view host_header,
                    const std::vector<std::string>& allowed) {
  if (origin.empty()) return true;
  if (!allowed.empty()) {
    const std::string o = lower(trim_slash(origin));
    for (const auto& a : allowed)
      if (a == "*" || lower(trim_slash(a)) == o) return true;
    return false;
  }
  const std::string authority = authority_of(origin);
  if (authority.empty()) return false;  // "null" (sandboxed page, file://) and garbage
  if (!host_header.empty() && authority == lower(host_header)) return true;
  const std::string_view host = hostname_of(authority);
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

}  // namespace clamsim::web
