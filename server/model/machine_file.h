// Machine files (models/*.json, schema "clamsim-machine/1") -> core::MachineParams.
//
// Every field of MachineParams comes from the file; nothing has a default. Keys carry their
// unit (see json_fields.h); the loader converts to SI:
//   _deg -> rad, _MPa -> Pa, _L -> m^3, _L_per_min -> m^3/s, _L_per_min_per_MPa -> m^3/(s Pa),
//   _cc_per_rev -> m^3/rad, _mm -> m, _ms -> s; SI suffixes (_m, _kg, _N, _Nm_per_rad, ...)
//   are taken as they are.
// Top level: "schema", "name", optional "description", "clam", "crane", "hydraulics",
// "integrator", optional "initial". docs/machine-file.md lists every key and its bounds.
// Any failure throws ModelError naming the file and the field.
#pragma once

#include "core/params.h"
#include "core/state.h"
#include "model/json_fields.h"

#include <nlohmann/json.hpp>

#include <array>
#include <string>

namespace clamsim::model {

inline constexpr const char* kMachineSchema = "clamsim-machine/1";

// The five channels as hydraulics.channels names them, in ControlSignal order (the names
// clamsim-sim --chirp and the fault catalog take too).
inline constexpr std::array<const char*, 5> kChannelNames = {"swing", "boom", "telescope",
                                                             "main_hoist", "aux_hoist"};

// Reads, parses and validates a machine file (including its "initial" section, if any).
core::MachineParams load_machine_file(const std::string& path);

// The same for an already parsed document; origin names it in messages.
core::MachineParams parse_machine_json(const nlohmann::json& doc, const std::string& origin);

// The document's "initial" section, checked against the same document's machine ranges
// (boom, telescope, main rope length, bucket open..closed). Throws "initial: missing" when
// the document has none: check doc.contains("initial") first if it is optional for you.
core::InitialConditions parse_initial_conditions(const nlohmann::json& doc,
                                                 const std::string& origin);

// An "initial"-shaped object found anywhere (e.g. in a scenario), checked against `machine`.
core::InitialConditions parse_initial_section(Section& section, const core::MachineParams& machine);

// "" when every value of a start pose already in SI units (a control script's `initial`, a
// recording's) lies within the machine's range, else the first that does not, in the file
// units: "boom_deg=60 is outside the machine's range 0..50". The ranges are those
// parse_initial_section reads a scenario's start with.
std::string initial_out_of_range(const core::InitialConditions& initial,
                                 const core::MachineParams& machine);

// The document's "name" (schema checked too).
std::string machine_name(const nlohmann::json& doc, const std::string& origin);

}  // namespace clamsim::model
