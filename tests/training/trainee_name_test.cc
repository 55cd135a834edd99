// training/trainee_name.cc: what a trainee may call themselves, checked the same for every
// transport.
#include "training/trainee_name.h"

#include <gtest/gtest.h>

#include <string>

namespace clamsim::training {
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

// Names that showed blank or reversed on the instructor's page.
TEST(TraineeName, InvisibleOnlyNamesAndBidiControlsAreRefused) {
  for (const char* blank :
       {"\xE2\x80\x8B" /* U+200B zero-width space */, "\xC2\xA0\xC2\xA0" /* no-break spaces */,
        "\xE3\x80\x80" /* ideographic space */, "\xEF\xBB\xBF\xE2\x81\xA0" /* BOM, word joiner */,
        "\xC2\xAD" /* soft hyphen */, "\xE3\x85\xA4" /* Hangul filler */,
        "\xE2\xA0\x80" /* braille blank */, "\xF3\xA0\x80\xA1" /* tag character */,
        " \xE2\x80\x8D \xE2\x80\x8C ",
        "\xE1\x9E\xB4\xE1\x9E\xB4" /* U+17B4 Khmer invisible vowel */,
        "\xE1\xA0\x8B" /* Mongolian free variation selector */})
    EXPECT_NE(error_of(blank).find("no visible character"), std::string::npos) << blank;
  // line and paragraph separators break the one line a name is shown on
  EXPECT_NE(error_of("Ada\xE2\x80\xA8Lovelace").find("line break"), std::string::npos);
  EXPECT_NE(error_of("\xE2\x80\xA9").find("line break"), std::string::npos);
  for (const char* bidi :
       {"\xE2\x80\xAE" "adA" /* U+202E right-to-left override */, "Ada\xE2\x80\xAD",
        "Ada \xE2\x81\xA7x\xE2\x81\xA9" /* first-strong isolate ... pop */,
        "\xE2\x80\x8F" "Ada" /* right-to-left mark */, "A\xD8\x9C" "da" /* Arabic letter mark */,
        "Ada\xE2\x80\xAA"})
    EXPECT_NE(error_of(bidi).find("bidirectional"), std::string::npos) << bidi;
  EXPECT_NE(error_of("\xE2\x80\xAE" "adA").find("U+202E"), std::string::npos);
  // visible text around an invisible character, and right-to-left scripts themselves, pass
  std::string error;
  EXPECT_TRUE(normalise_trainee_name("Ada\xE2\x80\x8BLovelace", &error).has_value()) << error;
  EXPECT_TRUE(normalise_trainee_name("\xD7\xA9\xD7\xA8\xD7\x94" /* Hebrew */, &error).has_value())
      << error;
  EXPECT_TRUE(normalise_trainee_name("\xE5\xBC\xA0\xE3\x80\x80\xE4\xB8\x89", &error).has_value())
      << error;
}

}  // namespace
}  // namespace clamsim::training
