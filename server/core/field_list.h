// One list of fields per value struct (counters, world events, the task score, web
// statistics), which every encoder walks: JSON, /metrics, printed summaries, the CORBA
// conversions. A field added to the struct and its list appears everywhere at once; the
// coverage checks below make forgetting the list a compile error.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace clamsim::core {

// One field: its name (the JSON key, the printout's key, the IDL member's name), its unit
// ("" for counts and flags; Prometheus puts it in the metric's name), what it means (the
// metric's HELP), and where it lives.
template <class Struct, class Value>
struct Field {
  using struct_type = Struct;
  using value_type = Value;
  const char* name;
  const char* unit;
  const char* help;
  Value Struct::*member;
};

template <class Struct, class Value>
constexpr Field<Struct, Value> field(const char* name, const char* unit, const char* help,
                                     Value Struct::*member) {
  return {name, unit, help, member};
}

// f(field) for every field of a list (a std::array or std::tuple of Fields), in order.
template <class List, class F>
constexpr void for_each_field(const List& list, F&& f) {
  std::apply([&](const auto&... each) { (f(each), ...); }, list);
}

constexpr bool same_name(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) ++a, ++b;
  return *a == *b;
}

// Index of the field called `name`, or the list's size when there is none.
template <class List>
constexpr std::size_t index_of(const List& list, const char* name) {
  std::size_t i = 0;
  std::size_t found = std::tuple_size_v<List>;
  for_each_field(list, [&](const auto& f) {
    if (found == std::tuple_size_v<List> && same_name(f.name, name)) found = i;
    ++i;
  });
  return found;
}

namespace detail {

// Converts to anything: brace-initialising an aggregate with N of these compiles exactly
// when it has at least N members.
struct AnyValue {
  template <class T>
  constexpr operator T() const noexcept;  // never called: unevaluated contexts only
};

template <class T, class... A>
constexpr auto brace_initialises(int) -> decltype(T{A{}...}, true) {
  return true;
}
template <class T, class... A>
constexpr bool brace_initialises(...) {
  return false;
}

}  // namespace detail

// The number of members of an aggregate of scalars (the struct a field list must cover).
template <class T, class... A>
constexpr std::size_t member_count() {
  if constexpr (detail::brace_initialises<T, A..., detail::AnyValue>(0))
    return member_count<T, A..., detail::AnyValue>();
  else
    return sizeof...(A);
}

// True when the list names every member of its struct once: as many fields as members,
// no member twice. Use as static_assert(covers_struct(kList)).
template <class List>
constexpr bool covers_struct(const List& list) {
  using First = std::remove_cv_t<std::remove_reference_t<decltype(std::get<0>(list))>>;
  using S = typename First::struct_type;
  if (std::tuple_size_v<List> != member_count<S>()) return false;
  bool unique = true;
  std::size_t i = 0;
  for_each_field(list, [&](const auto& f) {
    if (index_of(list, f.name) != i) unique = false;
    ++i;
  });
  return unique;
}

// Copies, by name, the fields a fixed wire struct (e.g. a CORBA IDL struct, which cannot
// grow) shares with a list: dst.*(To[j].member) = src.*(From[name of To[j]].member) for
// every field j of To. Every name of To must be in From (a compile error otherwise).
template <const auto& From, const auto& To, class Src, class Dst, std::size_t... J>
void copy_by_name(const Src& src, Dst& dst, std::index_sequence<J...>) {
  constexpr std::size_t n_from = std::tuple_size_v<std::remove_reference_t<decltype(From)>>;
  static_assert(((index_of(From, std::get<J>(To).name) < n_from) && ...),
                "a field of the wire struct has no namesake in the list");
  ((dst.*(std::get<J>(To).member) =
        static_cast<std::remove_reference_t<decltype(dst.*(std::get<J>(To).member))>>(
            src.*(std::get<index_of(From, std::get<J>(To).name)>(From).member))),
   ...);
}

template <const auto& From, const auto& To, class Src, class Dst>
void copy_by_name(const Src& src, Dst& dst) {
  copy_by_name<From, To>(
      src, dst,
      std::make_index_sequence<std::tuple_size_v<std::remove_reference_t<decltype(To)>>>{});
}

// The other way: every field of the wire struct into its namesake in the list.
template <const auto& Wire, const auto& List, class Src, class Dst, std::size_t... J>
void copy_from_wire(const Src& src, Dst& dst, std::index_sequence<J...>) {
  constexpr std::size_t n_list = std::tuple_size_v<std::remove_reference_t<decltype(List)>>;
  static_assert(((index_of(List, std::get<J>(Wire).name) < n_list) && ...),
                "a field of the wire struct has no namesake in the list");
  ((dst.*(std::get<index_of(List, std::get<J>(Wire).name)>(List).member) = static_cast<
        std::remove_reference_t<decltype(dst.*(
            std::get<index_of(List, std::get<J>(Wire).name)>(List).member))>>(
        src.*(std::get<J>(Wire).member))),
   ...);
}

template <const auto& Wire, const auto& List, class Src, class Dst>
void copy_from_wire(const Src& src, Dst& dst) {
  copy_from_wire<Wire, List>(
      src, dst,
      std::make_index_sequence<std::tuple_size_v<std::remove_reference_t<decltype(Wire)>>>{});
}

}  // namespace clamsim::core
