#include "record/crc32.h"

#include <gtest/gtest.h>

#include <string>

namespace clamsim::record {
namespace {

TEST(Crc32, CheckValueOfTheStandard) {
  // the CRC-32 check value: crc32("123456789") = 0xCBF43926 (zlib, IEEE 802.3)
  const std::string s = "123456789";
  EXPECT_EQ(crc32(0, s.data(), s.size()), 0xCBF43926U);
  EXPECT_EQ(crc32(0, "", 0), 0U);
}

TEST(Crc32, ContinuesAcrossPieces) {
  const std::string a = "1234", b = "56789";
  EXPECT_EQ(crc32(crc32(0, a.data(), a.size()), b.data(), b.size()), 0xCBF43926U);
}

}  // namespace
}  // namespace clamsim::record
