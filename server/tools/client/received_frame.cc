#include "tools/client/received_frame.h"

#include <chrono>

namespace clamsim::client {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace clamsim::client
