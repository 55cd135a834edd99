// Command-line flags of every clamsim program accept "--name value" and "--name=value".
#pragma once

#include <optional>
#include <string>

namespace clamsim::model {

struct CliFlag {
  std::string name;                   // "--name", or the argument unchanged if not a flag
  std::optional<std::string> value;   // the part after '=' in "--name=value"
};

inline CliFlag split_cli_flag(const std::string& arg) {
  if (arg.rfind("--", 0) == 0) {
    const auto eq = arg.find('=');
    if (eq != std::string::npos) return {arg.substr(0, eq), arg.substr(eq + 1)};
  }
  return {arg, std::nullopt};
}

}  // namespace clamsim::model
