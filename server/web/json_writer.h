// JSON text written straight into a caller's string, for the messages sent every frame (no heap
// allocation per frame; docs/architecture.md, "No heap allocation per frame"). The caller keeps the
// string between frames, so once it has grown to a frame's size, writing the next one allocates
// nothing. Numbers are printed exactly as nlohmann's dump prints them (its shortest round-trip
// to_chars), so a message reads the same whichever way it was built.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace clamsim::web {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  // Keys and string values here are the server's own names (ASCII letters, digits, '_'):
  // nothing to escape. Text from outside goes through raw() after nlohmann's dump.
  void key(std::string_view k) {
    separate();
    out_ += '"';
    out_ += k;
    out_ += "\":";
    need_comma_ = false;
  }
  void string(std::string_view s) {
    separate();
    out_ += '"';
    out_ += s;
    out_ += '"';
    need_comma_ = true;
  }
  // JSON text already encoded (e.g. an id from the scene, dumped once).
  void raw(std::string_view json) {
    separate();
    out_ += json;
    need_comma_ = true;
  }
  void null() { raw("null"); }
  void boolean(bool b) { raw(b ? "true" : "false"); }

  template <class T>
  void number(T v) {
    separate();
    if constexpr (std::is_floating_point_v<T>) {
      write_double(static_cast<double>(v));
    } else {
      char buf[24];
      const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
      out_.append(buf, static_cast<std::size_t>(end - buf));
    }
    need_comma_ = true;
  }

  // "key": value in one call.
  template <class T>
  void field(std::string_view k, T v) {
    key(k);
    if constexpr (std::is_same_v<T, bool>) boolean(v);
    else number(v);
  }

 private:
  void separate() {
    if (need_comma_) out_ += ',';
  }
  void open(char c) {
    separate();
    out_ += c;
    need_comma_ = false;
  }
  void close(char c) {
    out_ += c;
    need_comma_ = true;
  }
  void write_double(double x) {
    if (!std::isfinite(x)) {  // as nlohmann's serializer does
      out_ += "null";
      return;
    }
    char buf[64];
    const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, x);
    out_.append(buf, static_cast<std::size_t>(end - buf));
  }

  std::string& out_;
  bool need_comma_ = false;
};

}  // namespace clamsim::web
