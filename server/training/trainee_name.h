// Text that people read on another person's screen: a trainee's name (the instructor's
// overview, the task reports) and an instructor's message (the trainee's screen). Every
// transport (a browser's `trainee` message, CORBA's Session::setTrainee, the instructor
// desk) checks such text here, by one rule.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace clamsim::training {

inline constexpr std::size_t kTraineeNameMaxChars = 40;

// The text trimmed of surrounding white space: 1 to max_chars characters (Unicode code
// points), valid UTF-8, no control characters (line and paragraph separators among them), no
// bidirectional formatting characters (U+202E and kin), at least one visible character.
// nullopt with *error saying what is wrong otherwise, starting with `what` ("the message").
std::optional<std::string> normalise_shown_text(std::string_view raw, const std::string& what,
                                                std::size_t max_chars, std::string* error);

// A trainee's name: shown text of at most kTraineeNameMaxChars.
std::optional<std::string> normalise_trainee_name(std::string_view raw, std::string* error);

}  // namespace clamsim::training
