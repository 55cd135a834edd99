// Random bytes from the kernel (getrandom) and the text forms the accounts use.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace clamsim::auth {

// n bytes from getrandom(2); throws std::runtime_error if the kernel cannot give them.
std::string random_bytes(std::size_t n);
// n random bytes as 2n lower-case hex digits.
std::string random_hex(std::size_t n);

// Standard base64 with padding (RFC 4648 section 4); decode refuses anything else.
std::string base64_encode(std::string_view bytes);
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace clamsim::auth
