#include "corba/object_key.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace clamsim::corba {

std::string random_session_key() {
  unsigned char bytes[kSessionKeyBits / 8];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    // getrandom without flags blocks only until the pool is first initialised (boot)
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("cannot draw a session key: getrandom: ") +
                               std::strerror(errno));
    }
    got += static_cast<std::size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string key;
  key.reserve(2 * sizeof bytes);
  for (unsigned char b : bytes) {
    key.push_back(kHex[b >> 4]);
    key.push_back(kHex[b & 0xF]);
  }
  return key;
}

}  // namespace clamsim::corba
