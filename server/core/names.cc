#include "core/state.h"

namespace clamsim::core {

const char* to_string(WorkingState s) {
  switch (s) {
    case WorkingState::Free: return "Free";
    case WorkingState::Distributed: return "Distributed";
    case WorkingState::Full: return "Full";
  }
  return "?";
}

const char* to_string(GeoStatus s) {
  switch (s) {
    case GeoStatus::InRange: return "In-range";
    case GeoStatus::Open: return "Open";
    case GeoStatus::Close: return "Close";
  }
  return "?";
}

const char* to_string(LoadStatus s) {
  switch (s) {
    case LoadStatus::WithoutLoad: return "Without-load";
    case LoadStatus::WithLoad: return "With-load";
  }
  return "?";
}

}  // namespace clamsim::core
