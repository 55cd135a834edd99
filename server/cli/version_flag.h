// --version, the same on every clamsim binary: "clamsim-sim 0.9.0" from the one version
// source (version/version.h, project(VERSION) in the top CMakeLists.txt).
#pragma once

#include <cstdio>
#include <cstring>

#include "version/version.h"

namespace clamsim::cli {

// The --help line that documents it.
inline constexpr const char* kVersionHelp = "  --version\n      print the program's version and exit\n";

// True, after printing "<program> <version>", when argv holds --version: main() then exits
// with kExitOk before parsing anything else.
inline bool print_version_if_asked(int argc, const char* const* argv, const char* program) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--version") == 0) {
      std::printf("%s %s\n", program, kVersion);
      return true;
    }
  }
  return false;
}

}  // namespace clamsim::cli
