// The training task's penalty kinds: one row each in CLAMSIM_PENALTY_KINDS, from which the
// kind's enum value, its name, the score's count member and field (training/task_score.h) and
// the scorer's world counter (training/task_score.cc) all follow. A macro list because a
// struct member cannot be made from a table otherwise, and the score's field lists
// (core/field_list.h) need members.
//
// Each kind has one name everywhere: the report's and the timeline's kind; its count in the
// score and in the display's events is the name with "s"; its points in a scenario file are
// the name with "_points". When it happens: a core::WorldEvents counter named as its count
// rose (a hit, a slack rope, an overload), or the scorer says so (training/task_score.cc: a
// dropped load needs the load's history).
// Adding one: docs/architecture.md.
#pragma once

#include <array>
#include <cstddef>

// X(Enum, name, help): in the report's order; help is the count's field help.
#define CLAMSIM_PENALTY_KINDS(X)                                                    \
  X(RackGateHit, rack_gate_hit, "Rack or gate struck.")                             \
  X(StructureHit, structure_hit, "Deck, walls, floor, bed or truck struck.")        \
  X(SlackCable, slack_cable, "Ropes paid out slack.")                               \
  X(Overload, overload, "Overloads.")                                               \
  X(DroppedLoad, dropped_load, "Loads dropped.")                                    \
  X(LmiWarning, lmi_warning, "Load moment warnings (90 % of the chart).")           \
  X(LmiCutout, lmi_cutout, "Load moment cut-outs (100 % of the chart).")

namespace clamsim::model {

enum class PenaltyKind {
#define CLAMSIM_PENALTY_ENUM(Enum, name, help) Enum,
  CLAMSIM_PENALTY_KINDS(CLAMSIM_PENALTY_ENUM)
#undef CLAMSIM_PENALTY_ENUM
};

inline constexpr std::array kPenaltyNames{
#define CLAMSIM_PENALTY_NAME(Enum, name, help) #name,
    CLAMSIM_PENALTY_KINDS(CLAMSIM_PENALTY_NAME)
#undef CLAMSIM_PENALTY_NAME
};
// The counts' names: the kind's name with "s".
inline constexpr std::array kPenaltyCountNames{
#define CLAMSIM_PENALTY_COUNT_NAME(Enum, name, help) #name "s",
    CLAMSIM_PENALTY_KINDS(CLAMSIM_PENALTY_COUNT_NAME)
#undef CLAMSIM_PENALTY_COUNT_NAME
};
inline constexpr std::size_t kPenaltyKinds = kPenaltyNames.size();
inline const char* to_string(PenaltyKind k) { return kPenaltyNames[static_cast<std::size_t>(k)]; }

}  // namespace clamsim::model
