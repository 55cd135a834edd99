// Which number of a frame's outputs is not finite, if any. A model whose numbers make NaN or
// inf must not pass for a run: the offline simulator stops on it and the server counts it
// (docs/model.md, Health). The integrated state is kept finite by the step itself
// (Health::nonfinite_resets); the outputs are derived from it and the parameters, and can
// still overflow where the parameters are extreme.
#pragma once

#include <string>

#include "core/state.h"

namespace clamsim::core {

// The first non-finite output by its member's name ("display[3]", "loads[1].position_m[2]"),
// or "" when every number is finite.
std::string first_nonfinite(const Outputs& out);

}  // namespace clamsim::core
