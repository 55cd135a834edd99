// Sizes the HTTP request parser accepts: the server's sessions and the fuzz harness
// (tests/fuzz) configure Beast's parser from these same numbers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace clamsim::web {

inline constexpr std::size_t kMaxRequestBody = 1024;   // small JSON bodies only, no uploads
inline constexpr std::uint32_t kMaxHeaderBytes = 8192;

}  // namespace clamsim::web
