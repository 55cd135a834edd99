#include "tools/client/received_frame.h"

#include <chrono>

namespace clamsim::client {

const char* working_name(int working) {
  switch (working) {
    case 0: return "Free";
    case 1: return "Distributed";
    case 2: return "Full";
    default: return "?";
  }
}

const char* geo_name(int geo) {
  switch (geo) {
    case 0: return "InRange";
    case 1: return "Open";
    case 2: return "Close";
    default: return "?";
  }
}

const char* load_name(int load) {
  switch (load) {
    case 0: return "WithoutLoad";
    case 1: return "WithLoad";
    default: return "?";
  }
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace clamsim::client
