#include "web/url.h"

namespace clamsim::web {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Target split_target(std::string_view target) {
  Target t;
  target = target.substr(0, target.find('#'));
  const auto q = target.find('?');
  t.path = target.substr(0, q);
  if (q != std::string_view::npos) t.query = target.substr(q + 1);
  return t;
}

bool percent_decode(std::string_view in, std::string* out, bool plus_is_space) {
  out->clear();
  out->reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = hex_value(in[i + 1]);
      const int lo = hex_value(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      c = ' ';
    }
    if (c == '\0') return false;
    out->push_back(c);
  }
  return true;
}

std::string query_problem(std::string_view query) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const auto eq = pair.find('=');
    std::string name, value;
    if (!percent_decode(pair.substr(0, eq), &name, true))
      return "a query parameter's name has a malformed %-escape or an encoded NUL";
    if (eq != std::string_view::npos && !percent_decode(pair.substr(eq + 1), &value, true))
      return "the query parameter \"" + name.substr(0, 40) +
             "\" has a malformed %-escape or an encoded NUL in its value";
  }
  return "";
}

std::optional<std::string> query_value(std::string_view query, std::string_view key) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const auto eq = pair.find('=');
    std::string name;
    if (!percent_decode(pair.substr(0, eq), &name, true) || name != key) continue;
    std::string value;
    if (eq != std::string_view::npos &&
        !percent_decode(pair.substr(eq + 1), &value, true))
      return std::nullopt;
    return value;
  }
  return std::nullopt;
}

}  // namespace clamsim::web
