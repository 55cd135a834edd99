// EXPECT_CONTAINS(message, part): the error-message check of the loader tests, which must
// name the file, the field and the problem.
#pragma once

#include <gtest/gtest.h>

#include <string>

#define EXPECT_CONTAINS(haystack, needle)                                   \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)          \
      << "message: \"" << (haystack) << "\"\nexpected to contain: \"" << (needle) << "\""
