// Which Host headers the web front end answers (docs/security.md, "DNS rebinding"). A page
// on an attacker's domain that rebinds the name to this server's address reaches us with
// its own name in Host; answering only names we know keeps it from reading /api/* or
// opening /ws from a trainee's browser. Free of Beast so it can be tested alone.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace clamsim::web {

struct HostVerdict {
  enum class Kind { Allowed, Missing, Malformed, NotAllowed };
  Kind kind = Kind::Allowed;
  std::string reason;   // for the answer's body and the log; "" when allowed
  bool allowed() const { return kind == Kind::Allowed; }
};

class HostPolicy {
 public:
  // Allowed: every name in `names` (configured host names, case-insensitive, a trailing
  // dot ignored), every address in `addresses` (the literal addresses the server listens
  // on), "localhost", 127.0.0.0/8 and ::1. Throws std::invalid_argument naming an entry
  // that is not a host name or an IP address.
  HostPolicy(const std::vector<std::string>& names, const std::vector<std::string>& addresses);

  // host_fields: how many Host fields the request had (HTTP/1.1 requires exactly one).
  // Any port is accepted: the name is what a rebinding page cannot fake.
  HostVerdict check(std::size_t host_fields, std::string_view host) const;

  // Every address of this machine's interfaces (getifaddrs), for a server listening on
  // 0.0.0.0 or ::. Interfaces that appear later are not included.
  static std::vector<std::string> interface_addresses();

 private:
  std::set<std::string> names_;       // normalised: lower case, no trailing dot
  std::set<std::string> addresses_;   // canonical text (inet_ntop), IPv6 without brackets
};

}  // namespace clamsim::web
