// A value struct as a JSON object, key by key from its field list (core/field_list.h):
// the display message's events and score, /sessions' counters and task.
// fields_json builds a tree; write_fields writes the same text into a reused buffer.
#pragma once

#include <type_traits>

#include <nlohmann/json.hpp>

#include "core/field_list.h"
#include "training/report_figures.h"
#include "web/json_writer.h"

namespace clamsim::web {

// Figures (floating point) at the reports' precision when training/report_figures.h names
// one for the field, else as they are; counts and flags as they are.
template <class List, class Struct>
nlohmann::ordered_json fields_json(const List& list, const Struct& s) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  core::for_each_field(list, [&](const auto& f) {
    const auto& v = s.*f.member;
    if constexpr (std::is_floating_point_v<std::decay_t<decltype(v)>>) {
      const int decimals = training::figure_decimals(f.name);
      j[f.name] = decimals < 0 ? v : training::round_figure(v, decimals);
    } else {
      j[f.name] = v;
    }
  });
  return j;
}

// The same object written straight into `w` (the display message, every frame).
template <class List, class Struct>
void write_fields(JsonWriter& w, const List& list, const Struct& s) {
  w.begin_object();
  core::for_each_field(list, [&](const auto& f) {
    const auto& v = s.*f.member;
    if constexpr (std::is_floating_point_v<std::decay_t<decltype(v)>>) {
      const int decimals = training::figure_decimals(f.name);
      w.field(f.name, decimals < 0 ? v : training::round_figure(v, decimals));
    } else {
      w.field(f.name, v);
    }
  });
  w.end_object();
}

}  // namespace clamsim::web
