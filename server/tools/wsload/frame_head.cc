#include "tools/wsload/frame_head.h"

#include <nlohmann/json.hpp>

namespace clamsim::wsload {

namespace {

using json = nlohmann::json;

// nlohmann's SAX interface: every callback returns whether to go on.
class HeadReader : public nlohmann::json_sax<json> {
 public:
  explicit HeadReader(FrameHead& head) : head_(head) {}

  bool null() override { return value_seen(); }
  bool boolean(bool) override { return value_seen(); }
  bool number_integer(number_integer_t v) override {
    if (top() && key_ == "t") head_.t = static_cast<double>(v);
    if (top() && key_ == "seq" && v >= 0) head_.seq = static_cast<std::uint64_t>(v);
    return value_seen();
  }
  bool number_unsigned(number_unsigned_t v) override {
    if (top() && key_ == "t") head_.t = static_cast<double>(v);
    if (top() && key_ == "seq") head_.seq = v;
    return value_seen();
  }
  bool number_float(number_float_t v, const string_t&) override {
    if (top() && key_ == "t") head_.t = v;
    return value_seen();
  }
  bool string(string_t& v) override {
    if (top() && key_ == "type") head_.type = v;
    return value_seen();
  }
  bool binary(binary_t&) override { return value_seen(); }
  bool start_object(std::size_t) override {
    ++depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (top()) key_ = k;
    return true;
  }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }
  bool stopped_early() const { return stopped_; }

 private:
  bool top() const { return depth_ == 1; }
  // After a value: stop once a display frame's head is complete.
  bool value_seen() {
    if (head_.type == "display" && head_.seq && head_.t) {
      stopped_ = true;
      return false;
    }
    return true;
  }

  FrameHead& head_;
  int depth_ = 0;
  std::string key_;
  bool stopped_ = false;
};

}  // namespace

FrameHead read_frame_head(std::string_view text) {
  FrameHead head;
  HeadReader reader(head);
  const bool complete = json::sax_parse(text, &reader, json::input_format_t::json, false);
  // a message that is not a JSON object, or broke off before its head was read, has none
  if (!complete && !reader.stopped_early()) head = FrameHead{};
  return head;
}

}  // namespace clamsim::wsload
