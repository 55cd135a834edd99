#include "session/trainee_name.h"

namespace clamsim::session {

namespace {

// Length of the UTF-8 sequence starting at s[i] and its code point, or 0 when malformed
// (bad lead or continuation byte, overlong form, surrogate, beyond U+10FFFF).
std::size_t utf8_sequence(std::string_view s, std::size_t i, char32_t* cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  std::size_t n;
  char32_t c;
  if (b < 0x80) {
    *cp = b;
    return 1;
  } else if ((b & 0xE0) == 0xC0) {
    n = 2, c = b & 0x1F;
  } else if ((b & 0xF0) == 0xE0) {
    n = 3, c = b & 0x0F;
  } else if ((b & 0xF8) == 0xF0) {
    n = 4, c = b & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    c = (c << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr char32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kMin[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  *cp = c;
  return n;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::optional<std::string> normalise_trainee_name(std::string_view raw, std::string* error) {
  while (!raw.empty() && is_space(raw.front())) raw.remove_prefix(1);
  while (!raw.empty() && is_space(raw.back())) raw.remove_suffix(1);
  if (raw.empty()) {
    *error = "the trainee's name is empty";
    return std::nullopt;
  }
  std::size_t chars = 0;
  for (std::size_t i = 0; i < raw.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_sequence(raw, i, &cp);
    if (n == 0) {
      *error = "the trainee's name is not valid UTF-8 (byte " + std::to_string(i) + ")";
      return std::nullopt;
    }
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) {
      *error = "the trainee's name contains a control character (at byte " + std::to_string(i) +
               ")";
      return std::nullopt;
    }
    i += n;
    if (++chars > kTraineeNameMaxChars) {
      *error = "the trainee's name is longer than " + std::to_string(kTraineeNameMaxChars) +
               " characters";
      return std::nullopt;
    }
  }
  return std::string(raw);
}

}  // namespace clamsim::session
