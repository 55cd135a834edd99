// The fixed IDL structs' fields by name (idl/clamx.idl). The IDL cannot grow with the
// value structs, so these lists name the members it has, and core::copy_by_name copies
// each from the value struct's own list (session/counters.h, core/world.h,
// training/task_score.h) by that name: a name here without a namesake there does not
// compile. The server's conversions (convert.cc) and the native tools' (tools/client) use
// these same lists.
#pragma once

#include <clamx.hh>

#include <array>
#include <tuple>

#include "core/field_list.h"

namespace clamsim::corba {

template <class Struct, class Value>
constexpr core::Field<Struct, Value> idl(const char* name, Value Struct::*member) {
  return core::field(name, "", "", member);
}

inline constexpr std::array kIdlStatsFields{
    idl("frames_sent", &CLAMX::SessionStats::frames_sent),
    idl("send_failures", &CLAMX::SessionStats::send_failures),
    idl("controls_received", &CLAMX::SessionStats::controls_received),
    idl("controls_rejected", &CLAMX::SessionStats::controls_rejected),
    idl("controls_clamped", &CLAMX::SessionStats::controls_clamped),
    idl("late_frames", &CLAMX::SessionStats::late_frames),
    idl("skipped_frames", &CLAMX::SessionStats::skipped_frames),
};

inline constexpr std::array kIdlEventFields{
    idl("rack_gate_hits", &CLAMX::WorldEvents::rack_gate_hits),
    idl("structure_hits", &CLAMX::WorldEvents::structure_hits),
    idl("load_impacts", &CLAMX::WorldEvents::load_impacts),
    idl("slack_cables", &CLAMX::WorldEvents::slack_cables),
    idl("overloads", &CLAMX::WorldEvents::overloads),
    idl("grips", &CLAMX::WorldEvents::grips),
    idl("releases", &CLAMX::WorldEvents::releases),
    idl("loads_restored", &CLAMX::WorldEvents::loads_restored),
    idl("two_blocks", &CLAMX::WorldEvents::two_blocks),
    idl("lmi_warnings", &CLAMX::WorldEvents::lmi_warnings),
    idl("lmi_cutouts", &CLAMX::WorldEvents::lmi_cutouts),
    idl("tip_overs", &CLAMX::WorldEvents::tip_overs),
};

inline constexpr auto kIdlScoreFields = std::make_tuple(
    idl("enabled", &CLAMX::TaskScore::enabled), idl("running", &CLAMX::TaskScore::running),
    idl("finished", &CLAMX::TaskScore::finished),
    idl("completed", &CLAMX::TaskScore::completed),
    idl("elapsed_s", &CLAMX::TaskScore::elapsed_s),
    idl("optimum_s", &CLAMX::TaskScore::optimum_s), idl("limit_s", &CLAMX::TaskScore::limit_s),
    idl("delivered", &CLAMX::TaskScore::delivered),
    idl("required", &CLAMX::TaskScore::required),
    idl("time_points", &CLAMX::TaskScore::time_points),
    idl("penalty_points", &CLAMX::TaskScore::penalty_points),
    idl("total", &CLAMX::TaskScore::total),
    idl("rack_gate_hits", &CLAMX::TaskScore::rack_gate_hits),
    idl("structure_hits", &CLAMX::TaskScore::structure_hits),
    idl("slack_cables", &CLAMX::TaskScore::slack_cables),
    idl("overloads", &CLAMX::TaskScore::overloads),
    idl("dropped_loads", &CLAMX::TaskScore::dropped_loads),
    idl("lmi_warnings", &CLAMX::TaskScore::lmi_warnings),
    idl("lmi_cutouts", &CLAMX::TaskScore::lmi_cutouts),
    idl("tipped_over", &CLAMX::TaskScore::tipped_over));

// The IDL struct has exactly these members (a new IDL member must be listed here).
static_assert(core::covers_struct(kIdlStatsFields));
static_assert(core::covers_struct(kIdlEventFields));
static_assert(core::covers_struct(kIdlScoreFields));

}  // namespace clamsim::corba
