// core/field_list.h: the member count the coverage checks rest on, walking a list, and
// copying by name into and out of a fixed wire struct.
#include "core/field_list.h"

#include <array>
#include <cstdint>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

namespace clamsim::core {
namespace {

struct Mixed {
  bool on = false;
  double seconds = 0.0;
  int count = 0;
};

struct Wire {  // a fixed struct with a subset of the fields, in other types and order
  unsigned long count;
  unsigned char on;
};

inline constexpr auto kMixedFields =
    std::make_tuple(field("on", "", "A flag.", &Mixed::on),
                    field("seconds", "s", "A time.", &Mixed::seconds),
                    field("count", "", "A count.", &Mixed::count));
inline constexpr std::array kWireFields{field("count", "", "", &Wire::count)};
inline constexpr auto kWireAll = std::make_tuple(field("count", "", "", &Wire::count),
                                                 field("on", "", "", &Wire::on));

TEST(FieldList, CountsTheMembersOfAnAggregate) {
  static_assert(member_count<Mixed>() == 3);
  static_assert(member_count<Wire>() == 2);
  static_assert(covers_struct(kMixedFields));
  static_assert(!covers_struct(kWireFields), "one of two members listed");
  static_assert(covers_struct(kWireAll));
}

TEST(FieldList, ListingAMemberTwiceDoesNotCoverTheStruct) {
  constexpr auto twice = std::make_tuple(field("on", "", "", &Mixed::on),
                                         field("on", "", "", &Mixed::on),
                                         field("count", "", "", &Mixed::count));
  static_assert(!covers_struct(twice));
}

TEST(FieldList, WalksInOrderAndFindsByName) {
  std::string names;
  for_each_field(kMixedFields, [&](const auto& f) { names += std::string(f.name) + ","; });
  EXPECT_EQ(names, "on,seconds,count,");
  static_assert(index_of(kMixedFields, "seconds") == 1);
  static_assert(index_of(kMixedFields, "nothing") == 3);
}

TEST(FieldList, CopiesSharedFieldsByNameBothWays) {
  const Mixed m{true, 2.5, 7};
  Wire w{};
  copy_by_name<kMixedFields, kWireAll>(m, w);
  EXPECT_EQ(w.count, 7u);
  EXPECT_EQ(w.on, 1);

  Mixed back;
  copy_from_wire<kWireAll, kMixedFields>(w, back);
  EXPECT_TRUE(back.on);
  EXPECT_EQ(back.count, 7);
  EXPECT_EQ(back.seconds, 0.0) << "the wire has no seconds: left as it was";
}

}  // namespace
}  // namespace clamsim::core
