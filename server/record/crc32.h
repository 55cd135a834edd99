// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as zlib's crc32 and MCAP use it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace clamsim::record {

// Continues `crc` (0 to start) over `size` bytes: crc32(crc32(0, a), b) == crc32(0, a + b).
std::uint32_t crc32(std::uint32_t crc, const void* data, std::size_t size);

}  // namespace clamsim::record
