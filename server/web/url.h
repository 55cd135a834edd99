// The few URL operations the server needs: split a request target, decode, read a query.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace clamsim::web {

// "/ws?model=t250#x" -> path "/ws", query "model=t250" (the fragment is dropped).
struct Target {
  std::string_view path;
  std::string_view query;
};
Target split_target(std::string_view target);

// Percent-decoding; false on a malformed escape or a decoded NUL. plus_is_space decodes
// '+' as ' ' (query strings).
bool percent_decode(std::string_view in, std::string* out, bool plus_is_space = false);

// "" when every name and value in "a=1&b=2" decodes, else which one does not (a malformed
// escape such as "%0" or "%zz", or an encoded NUL): checked before the query is read, so a
// malformed parameter is refused rather than read as absent.
std::string query_problem(std::string_view query);

// The decoded value of `key` in "a=1&b=2"; nullopt when absent or malformed.
std::optional<std::string> query_value(std::string_view query, std::string_view key);

}  // namespace clamsim::web
