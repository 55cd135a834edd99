// A short run of every fuzz target in the suite (the long runs are clamsim-fuzz's, see
// docs/security.md "Fuzzing"): a fixed seed, so a failure here reproduces exactly.
#include <gtest/gtest.h>

#include "driver.h"

namespace clamsim::fuzz {
namespace {

constexpr std::uint64_t kInputs = 20000;

class FuzzSmoke : public ::testing::TestWithParam<std::pair<std::string, Target>> {};

TEST_P(FuzzSmoke, NoInputBreaksAProperty) {
  // a recording is written to a file and read back per input: fewer of them
  const std::uint64_t inputs = GetParam().second == Target::Recording ? kInputs / 8 : kInputs;
  const RunResult r = run(GetParam().second, inputs, 20261124);
  ASSERT_FALSE(r.failure) << "input " << r.failure->input_number << ": " << r.failure->what
                          << "\n" << ::testing::PrintToString(r.failure->input);
  EXPECT_EQ(r.inputs, inputs);
  // the mutator reaches more than one kind of outcome (accepted and refused inputs)
  EXPECT_GE(r.outcomes.size(), 3u);
}

INSTANTIATE_TEST_SUITE_P(EveryTarget, FuzzSmoke, ::testing::ValuesIn(target_names()),
                         [](const auto& param_info) {
                           std::string n = param_info.param.first;
                           for (char& c : n) c = c == '-' ? '_' : c;
                           return n;
                         });

}  // namespace
}  // namespace clamsim::fuzz
