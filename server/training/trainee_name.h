// A trainee's name, as the instructor's overview and the task reports show it. Every
// transport (a browser's `trainee` message, CORBA's Session::setTrainee) checks names here.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace clamsim::training {

inline constexpr std::size_t kTraineeNameMaxChars = 40;

// The name trimmed of surrounding white space: 1 to 40 characters (Unicode code points),
// valid UTF-8, no control characters, no bidirectional formatting characters (U+202E and
// kin), at least one visible character. nullopt with *error saying what is wrong otherwise.
std::optional<std::string> normalise_trainee_name(std::string_view raw, std::string* error);

}  // namespace clamsim::training
