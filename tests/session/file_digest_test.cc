// SHA-256 of files for the reports' versions: the published test vectors, and a file.
#include "session/file_digest.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace clamsim::session {
namespace {

TEST(FileDigest, MatchesTheFips180TestVectors) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(FileDigest, HashesAFilesBytesAndNamesAFileItCannotRead) {
  const auto path =
      std::filesystem::temp_directory_path() / ("clamsim-digest-" + std::to_string(getpid()));
  std::ofstream(path, std::ios::binary) << "abc";
  EXPECT_EQ(file_sha256(path.string()), sha256_hex("abc"));
  std::filesystem::remove(path);
  try {
    file_sha256(path.string());
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ": cannot read"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace clamsim::session
