// web/guarded_stream.cc: the frame counter that sees every frame a client sends, and the
// reasons given to Beast's code-only closes. Over a real socket in web_server_test.cc.
#include "web/guarded_stream.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "test_client.h"

namespace clamsim::web {
namespace {

std::size_t count_all(FrameCounter& c, const std::string& bytes) {
  return c.feed(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

TEST(FrameCounter, CountsEveryKindAndLengthOfFrame) {
  std::string stream;
  std::size_t frames = 0;
  for (std::size_t len : {0, 1, 125, 126, 127, 65535, 65536, 70000}) {
    stream += testing::ws_frame(0x1, true, std::string(len, 'a'));
    stream += testing::ws_frame(0x9, true, "");                   // ping
    stream += testing::ws_frame(0x0, false, "", /*masked=*/false); // empty continuation
    frames += 3;
  }
  FrameCounter whole;
  EXPECT_EQ(count_all(whole, stream), frames);
  // the same bytes in random pieces (as reads deliver them) count the same
  std::mt19937 rng(18);
  FrameCounter pieces;
  std::size_t counted = 0;
  for (std::size_t at = 0; at < stream.size();) {
    const std::size_t n = std::min<std::size_t>(1 + rng() % 700, stream.size() - at);
    counted += pieces.feed(reinterpret_cast<const unsigned char*>(stream.data() + at), n);
    at += n;
  }
  EXPECT_EQ(counted, frames);
}

TEST(FrameCounter, AHeaderSplitAcrossReadsCountsOnceComplete) {
  const std::string f = testing::ws_frame(0x1, true, std::string(300, 'x'));  // 2+2+4 header
  FrameCounter c;
  for (std::size_t i = 0; i < 7; ++i)
    EXPECT_EQ(c.feed(reinterpret_cast<const unsigned char*>(f.data() + i), 1), 0u) << i;
  EXPECT_EQ(c.feed(reinterpret_cast<const unsigned char*>(f.data() + 7), 1), 1u);
}

TEST(CloseReasons, OnlyBeastsProtocolClosesGetOne) {
  for (int code : {1002, 1007, 1009})
    EXPECT_STRNE(beast_close_reason(static_cast<std::uint16_t>(code)), "") << code;
  for (int code : {1000, 1001, 1003, 1008, 1011, 1013})
    EXPECT_STREQ(beast_close_reason(static_cast<std::uint16_t>(code)), "") << code;
}

}  // namespace
}  // namespace clamsim::web
