#include "web/guarded_stream.h"

#include <algorithm>

namespace clamsim::web {

const char* beast_close_reason(std::uint16_t code) {
  switch (code) {
    case 1002: return "protocol error: a frame broke RFC 6455";
    case 1007: return "invalid UTF-8 in a text message";
    case 1009: return "message too big (hello.max_message_bytes)";
    default: return "";
  }
}

std::size_t FrameCounter::feed(const unsigned char* data, std::size_t n) {
  std::size_t frames = 0;
  std::size_t i = 0;
  while (i < n) {
    if (payload_left_ > 0) {
      const std::uint64_t skip = std::min<std::uint64_t>(payload_left_, n - i);
      payload_left_ -= skip;
      i += static_cast<std::size_t>(skip);
      continue;
    }
    header_[have_++] = data[i++];
    if (have_ == 2) {
      // RFC 6455 5.2: 7-bit length, or 126 + 16 bits, or 127 + 64 bits; then the mask key
      const unsigned len7 = header_[1] & 0x7F;
      need_ = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + ((header_[1] & 0x80) ? 4 : 0);
    }
    if (have_ < 2 || have_ < need_) continue;
    const unsigned len7 = header_[1] & 0x7F;
    std::uint64_t len = len7;
    if (len7 >= 126) {
      const std::size_t bytes = len7 == 126 ? 2 : 8;
      len = 0;
      for (std::size_t k = 0; k < bytes; ++k) len = (len << 8) | header_[2 + k];
    }
    payload_left_ = len;
    have_ = 0;
    need_ = 2;
    ++frames;
  }
  return frames;
}

}  // namespace clamsim::web
