// session/trainee_name.cc: what a trainee may call themselves, checked the same for every
// transport.
#include "session/trainee_name.h"

#include <gtest/gtest.h>

#include <string>

namespace clamsim::session {
namespace {

std::string error_of(const std::string& raw) {
  std::string error;
  EXPECT_FALSE(normalise_trainee_name(raw, &error).has_value()) << raw;
  return error;
}

TEST(TraineeName, TrimmedNamesUpToFortyCharactersPass) {
  std::string error;
  EXPECT_EQ(normalise_trainee_name("Ada", &error), "Ada");
  EXPECT_EQ(normalise_trainee_name("  Ada Lovelace \t\n", &error), "Ada Lovelace");
  EXPECT_EQ(normalise_trainee_name(std::string(40, 'x'), &error), std::string(40, 'x'));
  // 40 characters of two bytes each: characters count, not bytes
  std::string umlauts;
  for (int i = 0; i < 40; ++i) umlauts += "\xC3\xBC";  // u with diaeresis
  EXPECT_EQ(normalise_trainee_name(umlauts, &error), umlauts);
  EXPECT_EQ(normalise_trainee_name("Zo\xC3\xAB \xE5\xBC\xA0 \xF0\x9F\x91\xB7", &error),
            "Zo\xC3\xAB \xE5\xBC\xA0 \xF0\x9F\x91\xB7")
      << "two-, three- and four-byte characters";
}

TEST(TraineeName, BadNamesAreRefusedSayingWhy) {
  EXPECT_NE(error_of("").find("empty"), std::string::npos);
  EXPECT_NE(error_of("   \t ").find("empty"), std::string::npos);
  EXPECT_NE(error_of(std::string(41, 'x')).find("longer than 40"), std::string::npos);
  EXPECT_NE(error_of("Ada\x07").find("control character"), std::string::npos);
  EXPECT_NE(error_of("A\nda").find("control character"), std::string::npos);
  EXPECT_NE(error_of("Ada\xC2\x85").find("control character"), std::string::npos) << "C1 NEL";
  for (const char* bad : {"\xFF", "A\xC3", "\xC3\x28", "\xC0\xAF" /* overlong */,
                          "\xED\xA0\x80" /* surrogate */, "\xF4\x90\x80\x80" /* > U+10FFFF */})
    EXPECT_NE(error_of(bad).find("UTF-8"), std::string::npos) << bad;
}

}  // namespace
}  // namespace clamsim::session
