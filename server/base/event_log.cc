#include "base/event_log.h"

#include <chrono>

#include "base/utc_time.h"

namespace clamsim::base {

namespace {

// A text value bare when it is one plain word, else quoted as JSON (so it stays one field).
std::string text_value(const nlohmann::ordered_json& v) {
  if (!v.is_string()) return v.dump();
  const std::string& s = v.get_ref<const std::string&>();
  bool plain = !s.empty();
  for (const char c : s)
    if (c == ' ' || c == '"' || c == '=' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
      plain = false;
  return plain ? s : v.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

bool parse_log_format(const std::string& text, LogFormat* out) {
  if (text == "text") *out = LogFormat::Text;
  else if (text == "json") *out = LogFormat::Json;
  else return false;
  return true;
}

EventLog::EventLog(LogFormat format, std::FILE* out) : format_(format), out_(out) {}

std::string EventLog::format_fields(LogFormat format, std::string_view event,
                                    const nlohmann::ordered_json& fields) {
  if (format == LogFormat::Json) {
    nlohmann::ordered_json j;
    j["event"] = std::string(event);
    if (fields.is_object())
      for (const auto& [key, value] : fields.items()) j[key] = value;
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  }
  std::string line(event);
  if (fields.is_object())
    for (const auto& [key, value] : fields.items()) line += " " + key + "=" + text_value(value);
  return line;
}

void EventLog::write(std::string_view event, const nlohmann::ordered_json& fields) const {
  const std::string time = iso8601_utc_ms(std::chrono::system_clock::now());
  std::string line = format_fields(format_, event, fields);
  line = format_ == LogFormat::Json ? "{\"time\":\"" + time + "\"," + line.substr(1)
                                    : time + " " + line;
  line += '\n';
  std::lock_guard<std::mutex> lock(mutex_);
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fflush(out_);
}

}  // namespace clamsim::base
