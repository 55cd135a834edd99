#include "base/event_log.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <regex>

namespace clamsim::base {
namespace {

TEST(EventLog, TextIsOneLineOfKeyValuesWithPlainWordsBare) {
  const std::string line = EventLog::format_fields(
      LogFormat::Text, "session_end",
      {{"id", 3}, {"peer", "127.0.0.1:4000"}, {"outcome", "client_left"},
       {"reason", "time up"}, {"empty", ""}, {"duration_s", 1.5}});
  EXPECT_EQ(line, "session_end id=3 peer=127.0.0.1:4000 outcome=client_left "
                  "reason=\"time up\" empty=\"\" duration_s=1.5");
}

TEST(EventLog, JsonIsOneObjectWithTheEventFirst) {
  const std::string line =
      EventLog::format_fields(LogFormat::Json, "drain_start", {{"sessions", 2}});
  EXPECT_EQ(line, R"({"event":"drain_start","sessions":2})");
}

TEST(EventLog, WritesTimeStampedLinesAndNeverBreaksOnBadUtf8) {
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  {
    const EventLog text_log(LogFormat::Text, out);
    text_log.write("web", {{"message", "refused\nnewline"}});
    const EventLog json_log(LogFormat::Json, out);
    json_log.write("web", {{"message", std::string("bad \xff byte")}});
  }
  std::fclose(out);
  const std::string lines(text, size);
  std::free(text);
  EXPECT_TRUE(std::regex_search(
      lines, std::regex(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z web message="refused\\nnewline"\n)")))
      << lines;
  EXPECT_TRUE(std::regex_search(
      lines, std::regex(R"(\n\{"time":"[0-9T:.Z-]+","event":"web","message":"bad \S+ byte"\}\n$)")))
      << lines;
}

TEST(EventLog, FormatNames) {
  LogFormat f = LogFormat::Text;
  EXPECT_TRUE(parse_log_format("json", &f));
  EXPECT_EQ(f, LogFormat::Json);
  EXPECT_FALSE(parse_log_format("xml", &f));
}

}  // namespace
}  // namespace clamsim::base
