#include "training/trainee_name.h"

#include <cstdio>

namespace clamsim::training {

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

// Bidirectional formatting characters (Unicode's Bidi_Control): embeddings, overrides,
// isolates and marks. A name holding one can show reversed, or reorder the text around it
// on the instructor's page (U+202E RIGHT-TO-LEFT OVERRIDE).
bool is_bidi_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

// Characters that draw nothing: Unicode white space, and the default-ignorable format
// characters (zero-width space and joiners, word joiner and invisible operators, byte
// order mark, soft hyphen, variation selectors, tags, Hangul fillers, braille blank). A
// name of nothing else shows as blank.
bool is_invisible(char32_t c) {
  return c == ' ' || c == 0x00A0 || c == 0x00AD || c == 0x034F || c == 0x115F || c == 0x1160 ||
         c == 0x1680 || c == 0x17B4 || c == 0x17B5 || (c >= 0x180B && c <= 0x180F) ||
         (c >= 0x2000 && c <= 0x200D) || c == 0x202F || (c >= 0x205F && c <= 0x2065) ||
         c == 0x2800 || c == 0x3000 || c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFEFF ||
         c == 0xFFA0 || (c >= 0xFFF9 && c <= 0xFFFB) || (c >= 0x1BCA0 && c <= 0x1BCA3) ||
         (c >= 0x1D173 && c <= 0x1D17A) || (c >= 0xE0000 && c <= 0xE0FFF);
}

// C0 and C1 controls, and the line and paragraph separators, which break a line as a new
// line does (a one-line name or message must stay one line).
bool is_control(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c < 0xA0) || c == 0x2028 || c == 0x2029;
}

}  // namespace

std::optional<std::string> normalise_trainee_name(std::string_view raw, std::string* error) {
  return normalise_shown_text(raw, "the trainee's name", kTraineeNameMaxChars, error);
}

std::optional<std::string> normalise_shown_text(std::string_view raw, const std::string& what,
                                                std::size_t max_chars, std::string* error) {
  while (!raw.empty() && is_space(raw.front())) raw.remove_prefix(1);
  while (!raw.empty() && is_space(raw.back())) raw.remove_suffix(1);
  if (raw.empty()) {
    *error = what + " is empty";
    return std::nullopt;
  }
  std::size_t chars = 0;
  bool visible = false;
  for (std::size_t i = 0; i < raw.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_sequence(raw, i, &cp);
    if (n == 0) {
      *error = what + " is not valid UTF-8 (byte " + std::to_string(i) + ")";
      return std::nullopt;
    }
    if (is_control(cp)) {
      *error = what + " contains a control character or a line break (at byte " +
               std::to_string(i) + ")";
      return std::nullopt;
    }
    if (is_bidi_control(cp)) {
      char code[16];
      std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(cp));
      *error = what + " contains a bidirectional control character (" +
               std::string(code) + " at byte " + std::to_string(i) +
               "), which can reverse how it reads";
      return std::nullopt;
    }
    visible = visible || !is_invisible(cp);
    i += n;
    if (++chars > max_chars) {
      *error = what + " is longer than " + std::to_string(max_chars) + " characters";
      return std::nullopt;
    }
  }
  if (!visible) {
    *error = what + " has no visible character (only spaces or invisible ones)";
    return std::nullopt;
  }
  return std::string(raw);
}

}  // namespace clamsim::training
