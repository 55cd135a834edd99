// A rope's path along the boom (docs/model.md, Rope reeving): from its drum on the
// superstructure over the foot sheave near the boom pivot, along the boom, to the tip sheave.
// The hanging part below the tip sheave is the clam's (derivative.h ClamContext).
#pragma once

#include "crane.h"
#include "params.h"

namespace clamsim::core {

// Length drum -> foot sheave -> tip sheave and its gradient by the joints. It does not
// depend on the swing (drum and boom turn together); the foot-to-tip leg runs along the boom
// and depends on d3 only, the drum-to-foot leg on the boom angle only.
struct ReevedPath {
  double length_m = 0.0;
  Vec3 grad = Vec3::Zero();   // d(length)/dq
};
ReevedPath reeved_path(const CraneParams& c, const ReevingParams& r, const Vec3& q,
                       const JointTrig& t);
ReevedPath reeved_path(const CraneParams& c, const ReevingParams& r, const Vec3& q);

}  // namespace clamsim::core
