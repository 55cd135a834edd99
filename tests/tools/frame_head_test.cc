// clamsim-wsload's frame head reader against the server's own message shapes: it must read
// what a full parse would, stop early only on a complete display head, and say nothing about
// messages it cannot read.
#include "tools/wsload/frame_head.h"

#include <gtest/gtest.h>

namespace clamsim::wsload {
namespace {

TEST(FrameHead, ReadsADisplayFramesTypeSeqAndTime) {
  const FrameHead h = read_frame_head(
      R"({"type":"display","seq":42,"t":2.15,"display":[35.0,30.0],"nested":{"t":9,"seq":1}})");
  EXPECT_EQ(h.type, "display");
  ASSERT_TRUE(h.seq && h.t);
  EXPECT_EQ(*h.seq, 42u);
  EXPECT_DOUBLE_EQ(*h.t, 2.15);
}

TEST(FrameHead, StopsAtTheHeadSoATruncatedTailDoesNotMatter) {
  // the parse ends after "t": what follows is never read
  const FrameHead h = read_frame_head(R"({"type":"display","seq":7,"t":0,"display":[1,2,)");
  EXPECT_EQ(h.type, "display");
  EXPECT_EQ(h.seq.value_or(99), 7u);
  EXPECT_EQ(h.t.value_or(-1.0), 0.0);
}

TEST(FrameHead, TakesOnlyTopLevelKeysInAnyOrder) {
  const FrameHead h = read_frame_head(R"({"a":{"seq":5,"t":1.0},"t":3.5,"seq":6,"type":"display"})");
  EXPECT_EQ(h.type, "display");
  EXPECT_EQ(h.seq.value_or(0), 6u);
  EXPECT_EQ(h.t.value_or(0.0), 3.5);
}

TEST(FrameHead, OtherMessagesAreReadWhole) {
  const FrameHead h = read_frame_head(R"({"type":"pong","t":1700000000000.5})");
  EXPECT_EQ(h.type, "pong");
  EXPECT_FALSE(h.seq);
}

TEST(FrameHead, GarbageHasNoHead) {
  for (const char* bad : {"", "not json", "[1,2,3]", R"({"type":5})", R"({"type":"disp)"}) {
    const FrameHead h = read_frame_head(bad);
    EXPECT_TRUE(h.type.empty()) << bad;
    EXPECT_FALSE(h.seq) << bad;
  }
  // a display frame without its seq or time is not a complete head
  const FrameHead partial = read_frame_head(R"({"type":"display","t":1.0})");
  EXPECT_FALSE(partial.seq);
  const FrameHead negative = read_frame_head(R"({"type":"display","seq":-3,"t":1.0})");
  EXPECT_FALSE(negative.seq);
}

}  // namespace
}  // namespace clamsim::wsload
