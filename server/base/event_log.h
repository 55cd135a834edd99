// The server's log: one line per event on a stream (stderr), as text for people or as JSON
// for a log collector (--log-format). Thread-safe: each line goes out in one write, so the
// lines of session threads, I/O threads and the main thread never interleave.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace clamsim::base {

enum class LogFormat { Text, Json };

// "text" / "json". False for anything else.
bool parse_log_format(const std::string& text, LogFormat* out);

class EventLog {
 public:
  explicit EventLog(LogFormat format = LogFormat::Text, std::FILE* out = stderr);

  // text: 2026-11-23T10:11:12.345Z session_end id=3 transport=websocket outcome=client_left
  // json: {"time":"2026-11-23T10:11:12.345Z","event":"session_end","id":3,...}
  // fields: a JSON object of scalars, written in its order.
  void write(std::string_view event, const nlohmann::ordered_json& fields = {}) const;

  // The line write() would print, without the time stamp (tests, and the text format).
  static std::string format_fields(LogFormat format, std::string_view event,
                                   const nlohmann::ordered_json& fields);

 private:
  const LogFormat format_;
  std::FILE* const out_;
  mutable std::mutex mutex_;
};

}  // namespace clamsim::base
