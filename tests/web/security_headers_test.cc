#include "web/security_headers.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace clamsim::web {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path dir = fs::temp_directory_path() / ("clamsim_csp_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(dir); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

TEST(SecurityHeaders, InlineScriptsAreHashedAsTheBrowserHashesThem) {
  TempDir t;
  // sha256("alert(1)"), as `printf 'alert(1)' | openssl dgst -sha256 -binary | base64` says
  std::ofstream(t.dir / "a.html") << "<html><script>alert(1)</script>"
                                     "<script type=\"module\" src=\"js/x.js\"></script></html>";
  std::ofstream(t.dir / "b.html") << "<script type=\"importmap\">alert(1)</script>";  // same
  std::ofstream(t.dir / "notes.txt") << "<script>ignored()</script>";
  EXPECT_EQ(inline_script_hashes(t.dir),
            std::vector<std::string>{"'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='"});
  EXPECT_TRUE(inline_script_hashes("").empty());
  EXPECT_TRUE(inline_script_hashes(t.dir / "missing").empty());
}

TEST(SecurityHeaders, TheClientsImportMapIsTheOnlyInlineScriptAllowed) {
  const auto hashes = inline_script_hashes(fs::path(CLAMSIM_SOURCE_DIR) / "web");
  EXPECT_EQ(hashes.size(), 1u);   // index.html's import map
  const SecurityHeaders h(fs::path(CLAMSIM_SOURCE_DIR) / "web");
  EXPECT_NE(h.csp().find("script-src 'self' " + hashes.at(0) + ";"), std::string::npos)
      << h.csp();
}

TEST(SecurityHeaders, EveryHeaderAndHstsOnlyUnderTls) {
  const SecurityHeaders h("");
  http::fields plain, tls;
  h.apply(plain, false);
  h.apply(tls, true);
  EXPECT_EQ(plain["Content-Security-Policy"],
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
  EXPECT_EQ(plain["X-Content-Type-Options"], "nosniff");
  EXPECT_EQ(plain["Referrer-Policy"], "no-referrer");
  EXPECT_EQ(plain.count(http::field::strict_transport_security), 0u);
  EXPECT_EQ(tls[http::field::strict_transport_security], "max-age=31536000");
  EXPECT_EQ(tls["Content-Security-Policy"], plain["Content-Security-Policy"]);
}

}  // namespace
}  // namespace clamsim::web
