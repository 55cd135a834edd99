// The exit status of every clamsim binary, defined once. The binaries' --help and the
// table in docs/deploy.md are both made from kExitCodes (a test compares them).
#pragma once

#include <string>

namespace clamsim::cli {

inline constexpr int kExitOk = 0;
// Something failed at run time: a port in use, a server that went away, a run whose check
// failed, a write that failed part way.
inline constexpr int kExitFailure = 1;
// A flag, environment variable or config-file setting is wrong: unknown, malformed, out of
// range, or naming something that is not there or not usable (an address, a world, a
// directory that cannot be written).
inline constexpr int kExitUsage = 2;
// A data file does not load (a machine, scenario, control-script or joystick-mapping
// file): unreadable, invalid JSON, a missing, unknown or out-of-range key.
inline constexpr int kExitBadModel = 3;

struct ExitCode {
  int code;
  const char* meaning;  // one line for people
};

inline constexpr ExitCode kExitCodes[] = {
    {kExitOk, "success"},
    {kExitFailure, "failure at run time (port in use, connection lost, a run's check failed)"},
    {kExitUsage, "bad flag, environment variable or config-file value (named in the message)"},
    {kExitBadModel, "a machine, scenario, control-script or mapping file does not load"},
};

// "Exit status:\n  0  success\n  1  ...": the block every --help ends with.
inline std::string exit_codes_help() {
  std::string out = "Exit status:\n";
  for (const ExitCode& e : kExitCodes)
    out += "  " + std::to_string(e.code) + "  " + e.meaning + "\n";
  return out;
}

}  // namespace clamsim::cli
