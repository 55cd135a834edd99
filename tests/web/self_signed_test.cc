#include "web/self_signed.h"

#include <gtest/gtest.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "web/tls_context.h"

namespace clamsim::web {
namespace {

namespace fs = std::filesystem;

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0xFFFF;
}

struct TempState {
  fs::path dir = fs::temp_directory_path() / ("clamsim_selfsigned_" + std::to_string(::getpid()));
  TempState() { fs::remove_all(dir); }
  ~TempState() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

TEST(SelfSigned, MadeOnceWithPrivateModesAndKeptAcrossStarts) {
  TempState t;
  const auto names = self_signed_names("192.0.2.7", {"sim.example.org:8443", "10.1.2.3"});
  const SelfSignedFiles first = ensure_self_signed(t.dir / "tls", names);
  EXPECT_TRUE(first.created);
  EXPECT_EQ(mode_of(t.dir / "tls"), 0700u);
  EXPECT_EQ(mode_of(first.key_file), 0600u);
  EXPECT_EQ(first.fingerprint, sha256_fingerprint(first.cert_file));
  EXPECT_EQ(first.fingerprint.size(), 32u * 3 - 1);   // "AB:" x 32 without the last ':'
  // the key belongs to the certificate, and the pair makes a server context
  EXPECT_NO_THROW(make_server_context(first.cert_file, first.key_file));

  const SelfSignedFiles again = ensure_self_signed(t.dir / "tls", names);
  EXPECT_FALSE(again.created);
  EXPECT_EQ(again.fingerprint, first.fingerprint);
}

TEST(SelfSigned, TheCertificateNamesThisMachineAndTheConfiguredHosts) {
  TempState t;
  const auto names = self_signed_names("192.0.2.7", {"sim.example.org:8443", "[2001:db8::5]:8443"});
  const SelfSignedFiles f = ensure_self_signed(t.dir / "tls", names);
  std::FILE* in = std::fopen(f.cert_file.c_str(), "rb");
  ASSERT_NE(in, nullptr);
  X509* cert = PEM_read_X509(in, nullptr, nullptr, nullptr);
  std::fclose(in);
  ASSERT_NE(cert, nullptr);
  for (const char* host : {"localhost", "sim.example.org"})
    EXPECT_EQ(X509_check_host(cert, host, 0, 0, nullptr), 1) << host;
  for (const char* ip : {"127.0.0.1", "::1", "192.0.2.7", "2001:db8::5"})
    EXPECT_EQ(X509_check_ip_asc(cert, ip, 0), 1) << ip;
  EXPECT_EQ(X509_check_host(cert, "other.example.org", 0, 0, nullptr), 0);
  char host[256] = {};
  ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
  EXPECT_EQ(X509_check_host(cert, host, 0, 0, nullptr), 1) << host;
  X509_free(cert);
}

TEST(SelfSigned, TheUnspecifiedListenAddressIsNotAName) {
  const auto names = self_signed_names("0.0.0.0", {});
  EXPECT_EQ(std::count(names.begin(), names.end(), "0.0.0.0"), 0);
  EXPECT_EQ(names.at(0), "localhost");
}

TEST(SelfSigned, AStateDirectoryThatCannotBeMadeIsNamed) {
  try {
    ensure_self_signed("/proc/clamsim-cannot-be-here/tls", {"localhost"});
    ADD_FAILURE() << "no error";
  } catch (const TlsError& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/clamsim-cannot-be-here/tls"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace clamsim::web
