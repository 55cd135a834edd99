#include "web/static_files.h"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

namespace clamsim::web {
namespace {

namespace fs = std::filesystem;
using S = StaticLookup::Status;

class StaticFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("clamsim_static_" + std::to_string(::getpid()));
    fs::remove_all(base_);
    fs::create_directories(base_ / "root/sub");
    fs::create_directories(base_ / "three/build");
    std::ofstream(base_ / "root/index.html") << "index";
    std::ofstream(base_ / "root/sub/index.html") << "sub index";
    std::ofstream(base_ / "root/a b.js") << "x";
    std::ofstream(base_ / "three/build/three.module.js") << "three";
    std::ofstream(base_ / "secret.txt") << "secret";
    fs::create_symlink(base_ / "secret.txt", base_ / "root/leak.txt");
    fs::create_symlink(base_ / "root/index.html", base_ / "root/alias.html");
    mounts_ = {{"/", base_ / "root"}, {"/vendor/three/", base_ / "three"}};
  }
  void TearDown() override { fs::remove_all(base_); }

  fs::path base_;
  std::vector<StaticMount> mounts_;
};

TEST_F(StaticFiles, ServesFilesAndIndexes) {
  auto r = resolve_static("/", mounts_);
  ASSERT_EQ(r.status, S::Found);
  EXPECT_EQ(r.file.filename(), "index.html");
  r = resolve_static("/sub/", mounts_);
  ASSERT_EQ(r.status, S::Found);
  EXPECT_EQ(r.file, fs::canonical(base_ / "root/sub/index.html"));
  EXPECT_EQ(resolve_static("/a%20b.js", mounts_).status, S::Found);
  EXPECT_EQ(resolve_static("/alias.html", mounts_).status, S::Found) << "a symlink inside is fine";
  r = resolve_static("/vendor/three/build/three.module.js", mounts_);
  ASSERT_EQ(r.status, S::Found);
  EXPECT_EQ(r.file, fs::canonical(base_ / "three/build/three.module.js"));
}

TEST_F(StaticFiles, NeverLeavesTheRoot) {
  EXPECT_EQ(resolve_static("/../secret.txt", mounts_).status, S::BadRequest);
  EXPECT_EQ(resolve_static("/%2e%2e/secret.txt", mounts_).status, S::BadRequest);
  EXPECT_EQ(resolve_static("/sub/..%2f..%2fsecret.txt", mounts_).status, S::BadRequest);
  EXPECT_EQ(resolve_static("/vendor/three/../../secret.txt", mounts_).status, S::BadRequest);
  EXPECT_EQ(resolve_static("/..%5c..%5csecret.txt", mounts_).status, S::BadRequest);
  EXPECT_EQ(resolve_static("/%00", mounts_).status, S::BadRequest);
  EXPECT_EQ(resolve_static("/leak.txt", mounts_).status, S::NotFound) << "symlink out";
  EXPECT_EQ(resolve_static("/%252e%252e/secret.txt", mounts_).status, S::NotFound)
      << "decoded once only";
  EXPECT_EQ(resolve_static("/.git/config", mounts_).status, S::NotFound);
  EXPECT_EQ(resolve_static("/missing", mounts_).status, S::NotFound);
  EXPECT_EQ(resolve_static("/sub", mounts_).status, S::NotFound) << "a directory";
  EXPECT_EQ(resolve_static("relative", mounts_).status, S::BadRequest);
}

TEST_F(StaticFiles, AnUnconfiguredMountIsNotFound) {
  std::vector<StaticMount> m = {{"/", base_ / "root"}, {"/vendor/three/", ""}};
  EXPECT_EQ(resolve_static("/vendor/three/build/three.module.js", m).status, S::NotFound);
}

TEST(MimeType, KnowsTheClientsFiles) {
  EXPECT_EQ(mime_type("index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(mime_type("a/main.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(mime_type("three.module.MJS"), "text/javascript; charset=utf-8");
  EXPECT_EQ(mime_type("style.css"), "text/css; charset=utf-8");
  EXPECT_EQ(mime_type("scene.json"), "application/json");
  EXPECT_EQ(mime_type("x.js.map"), "application/json");
  EXPECT_EQ(mime_type("logo.png"), "image/png");
  EXPECT_EQ(mime_type("logo.svg"), "image/svg+xml");
  EXPECT_EQ(mime_type("draco.wasm"), "application/wasm");
  EXPECT_EQ(mime_type("favicon.ico"), "image/vnd.microsoft.icon");
  EXPECT_EQ(mime_type("README"), "application/octet-stream");
  EXPECT_EQ(mime_type("dir.d/README"), "application/octet-stream");
}

}  // namespace
}  // namespace clamsim::web
