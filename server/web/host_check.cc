#include "web/host_check.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>

namespace clamsim::web {

namespace {

// The canonical text of an IP literal (IPv6 without brackets), or nullopt when it is not one.
std::optional<std::string> canonical_ip(std::string_view text) {
  const std::string s(text);
  char out[INET6_ADDRSTRLEN] = {};
  in_addr v4{};
  if (inet_pton(AF_INET, s.c_str(), &v4) == 1) return inet_ntop(AF_INET, &v4, out, sizeof out);
  in6_addr v6{};
  if (inet_pton(AF_INET6, s.c_str(), &v6) == 1) return inet_ntop(AF_INET6, &v6, out, sizeof out);
  return std::nullopt;
}

bool loopback_ip(const std::string& canonical) {
  return canonical.rfind("127.", 0) == 0 || canonical == "::1";
}

// A DNS name as RFC 3986's reg-name allows in practice: letters, digits, '-', '.', '_'.
// Lower-cased, a trailing dot dropped; nullopt when it holds anything else.
std::optional<std::string> normal_name(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '-' && c != '.' && c != '_') return std::nullopt;
    s.push_back(static_cast<char>(std::tolower(u)));
  }
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s.empty() || s.size() > 253) return std::nullopt;
  return s;
}

}  // namespace

HostPolicy::HostPolicy(const std::vector<std::string>& names,
                       const std::vector<std::string>& addresses) {
  names_.insert("localhost");
  for (const std::string& n : names) {
    std::string_view v = n;
    if (v.size() > 2 && v.front() == '[' && v.back() == ']') v = v.substr(1, v.size() - 2);
    if (const auto ip = canonical_ip(v)) {
      addresses_.insert(*ip);
    } else if (const auto name = normal_name(v)) {
      names_.insert(*name);
    } else {
      throw std::invalid_argument("allowed host \"" + n + "\" is not a host name or an IP address");
    }
  }
  for (const std::string& a : addresses) {
    const auto ip = canonical_ip(a);
    if (!ip) throw std::invalid_argument("listen address \"" + a + "\" is not an IP address");
    addresses_.insert(*ip);
  }
}

HostVerdict HostPolicy::check(std::size_t host_fields, std::string_view host) const {
  const auto verdict = [](HostVerdict::Kind k, std::string reason) {
    return HostVerdict{k, std::move(reason)};
  };
  if (host_fields == 0) return verdict(HostVerdict::Kind::Missing, "the request has no Host header");
  if (host_fields > 1)
    return verdict(HostVerdict::Kind::Malformed, "the request has more than one Host header");
  while (!host.empty() && (host.front() == ' ' || host.front() == '\t')) host.remove_prefix(1);
  while (!host.empty() && (host.back() == ' ' || host.back() == '\t')) host.remove_suffix(1);
  if (host.empty()) return verdict(HostVerdict::Kind::Missing, "the Host header is empty");
  const std::string shown(host.substr(0, 100));

  // split "name[:port]" / "[v6][:port]"
  std::string_view name, port;
  bool bracketed = false;
  if (host.front() == '[') {
    const auto end = host.find(']');
    if (end == std::string_view::npos)
      return verdict(HostVerdict::Kind::Malformed, "Host \"" + shown + "\" has no closing ']'");
    name = host.substr(1, end - 1);
    bracketed = true;
    std::string_view rest = host.substr(end + 1);
    if (!rest.empty()) {
      if (rest.front() != ':')
        return verdict(HostVerdict::Kind::Malformed, "Host \"" + shown + "\" is not [address]:port");
      port = rest.substr(1);
    }
  } else {
    const auto colon = host.find(':');
    name = host.substr(0, colon);
    if (colon != std::string_view::npos) port = host.substr(colon + 1);
  }
  if (port.size() > 5 || !std::all_of(port.begin(), port.end(), [](char c) {
        return c >= '0' && c <= '9';
      }))
    return verdict(HostVerdict::Kind::Malformed, "Host \"" + shown + "\" has a bad port");

  if (const auto ip = canonical_ip(name)) {
    // an IPv6 literal must be bracketed, an IPv4 one must not
    if (bracketed != (ip->find(':') != std::string::npos))
      return verdict(HostVerdict::Kind::Malformed, "Host \"" + shown + "\" is not a valid address");
    if (loopback_ip(*ip) || addresses_.count(*ip)) return {};
    return verdict(HostVerdict::Kind::NotAllowed,
                   "this server does not answer for address " + *ip + " (Host \"" + shown + "\")");
  }
  if (bracketed)
    return verdict(HostVerdict::Kind::Malformed, "Host \"" + shown + "\" is not a valid address");
  const auto n = normal_name(name);
  if (!n) return verdict(HostVerdict::Kind::Malformed, "Host \"" + shown + "\" is not a host name");
  if (names_.count(*n)) return {};
  return verdict(HostVerdict::Kind::NotAllowed,
                 "this server does not answer for host \"" + *n +
                     "\" (add it to the allowed host names)");
}

std::vector<std::string> HostPolicy::interface_addresses() {
  std::vector<std::string> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  char text[INET6_ADDRSTRLEN] = {};
  for (const ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr) continue;
    const void* raw = nullptr;
    if (i->ifa_addr->sa_family == AF_INET)
      raw = &reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr;
    else if (i->ifa_addr->sa_family == AF_INET6)
      raw = &reinterpret_cast<const sockaddr_in6*>(i->ifa_addr)->sin6_addr;
    if (raw && inet_ntop(i->ifa_addr->sa_family, raw, text, sizeof text)) out.emplace_back(text);
  }
  freeifaddrs(list);
  return out;
}

}  // namespace clamsim::web
