// HTTPS and WSS on the web port end to end: a real WebServer with a certificate from the
// test PKI (tests/tls/make-test-pki.sh) on 127.0.0.1 (port 0), real OpenSSL clients over
// loopback. Every loop is bounded in count and time; frame counts, never speed, asserted.
#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>

#include <nlohmann/json.hpp>

#include "session/clock.h"
#include "tls_client.h"
#include "web/tls_context.h"
#include "web/web_server.h"

namespace clamsim::web {
namespace {

namespace fs = std::filesystem;
using testing::RawConnection;
using testing::Seconds;
using testing::TestPki;
using testing::TlsClient;

const std::string kSource = CLAMSIM_SOURCE_DIR;

// The repo's web/ as the root: its pages, the real import map behind the CSP hash.
struct TlsHarness {
  TlsHarness(const std::string& cert, const std::string& key)
      : registry(registry_options(), clock),
        catalog(kSource + "/models", kSource + "/config/scenarios", "t250", ""),
        server(options(cert, key), registry, catalog) {
    server.start();
  }
  static session::RegistryOptions registry_options() {
    session::RegistryOptions o;
    o.max_sessions = 8;
    o.report_dir = "";
    return o;
  }
  static WebOptions options(const std::string& cert, const std::string& key) {
    WebOptions o;
    o.port = 0;
    o.threads = 2;
    o.web_root = kSource + "/web";
    o.tls_cert_file = cert;
    o.tls_key_file = key;
    return o;
  }
  std::uint16_t port() const { return server.port(); }

  session::SteadyClock clock;
  session::SessionRegistry registry;
  session::Catalog catalog;
  WebServer server;
};

void copy_over(const std::string& from, const std::string& to) {
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

void expect_security_headers(const testing::TlsReply& r, bool tls, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_TRUE(r.headers.count("content-security-policy"));
  const std::string& csp = r.headers.at("content-security-policy");
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("connect-src 'self'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
  EXPECT_EQ(r.headers.count("x-content-type-options") ? r.headers.at("x-content-type-options")
                                                      : "",
            "nosniff");
  EXPECT_EQ(r.headers.count("referrer-policy") ? r.headers.at("referrer-policy") : "",
            "no-referrer");
  EXPECT_EQ(r.headers.count("strict-transport-security") > 0, tls);
}

class TlsWeb : public ::testing::Test {
 protected:
  TestPki pki{"web"};
  void SetUp() override { ASSERT_TRUE(pki.ok()) << "tests/tls/make-test-pki.sh failed"; }
};

TEST_F(TlsWeb, HandshakeWithTheTestCaAndPagesCarryTheSecurityHeaders) {
  TlsHarness h(pki.file("server.pem"), pki.file("server.key"));
  EXPECT_EQ(h.server.url(), "https://127.0.0.1:" + std::to_string(h.port()) + "/");
  TlsClient c(pki.file("ca.pem"));
  ASSERT_EQ(c.connect(h.port()), "");
  EXPECT_EQ(c.peer_fingerprint(), sha256_fingerprint(pki.file("server.pem")));
  EXPECT_TRUE(c.protocol() == "TLSv1.3" || c.protocol() == "TLSv1.2") << c.protocol();
  // one keep-alive connection: index, probes, metrics, a 404
  const auto index = c.request("/");
  EXPECT_EQ(index.status, 200);
  EXPECT_NE(index.body.find("importmap"), std::string::npos);
  expect_security_headers(index, true, "/");
  const auto livez = c.request("/livez");
  EXPECT_EQ(livez.status, 200);
  expect_security_headers(livez, true, "/livez");
  const auto metrics = c.request("/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.body.find("clamsim_tls_handshakes_total 1"), std::string::npos);
  expect_security_headers(metrics, true, "/metrics");
  const auto missing = c.request("/no-such-page.html");
  EXPECT_EQ(missing.status, 404);
  expect_security_headers(missing, true, "404");
}

TEST_F(TlsWeb, AClientTrustingAnotherCaRefusesTheServer) {
  TlsHarness h(pki.file("server.pem"), pki.file("server.key"));
  TlsClient c(pki.file("other-ca.pem"));
  EXPECT_NE(c.connect(h.port()).find("certificate verify failed"), std::string::npos);
}

TEST_F(TlsWeb, WssFramesArriveAtTwentyHertz) {
  TlsHarness h(pki.file("server.pem"), pki.file("server.key"));
  TlsClient c(pki.file("ca.pem"));
  ASSERT_EQ(c.connect(h.port()), "");
  ASSERT_TRUE(c.websocket(h.port()));
  const auto hello = c.read(Seconds(3));
  ASSERT_TRUE(hello.has_value());
  EXPECT_NE(hello->find("\"type\":\"hello\""), std::string::npos);
  // 20 Hz is the simulated period each frame carries (t against seq), not a count per
  // wall-clock second: that is the benchmarks' figure
  int frames = 0;
  std::int64_t last_seq = -1;
  while (frames < 20) {
    const auto m = c.read(Seconds(10));
    ASSERT_TRUE(m.has_value()) << "the frames stopped after " << frames;
    const auto j = nlohmann::json::parse(*m);
    if (j["type"] != "display") continue;
    const auto seq = j["seq"].get<std::int64_t>();
    EXPECT_GT(seq, last_seq) << "in order";
    EXPECT_NEAR(j["t"].get<double>(), 0.05 * static_cast<double>(seq + 1), 1e-4) << seq;
    last_seq = seq;
    ++frames;
  }
}

TEST_F(TlsWeb, TlsOneZeroAndOneOneAreRefused) {
  TlsHarness h(pki.file("server.pem"), pki.file("server.key"));
  for (const int version : {TLS1_VERSION, TLS1_1_VERSION}) {
    TlsClient old(pki.file("ca.pem"), version);
    const std::string why = old.connect(h.port());
    // the server's alert, not the client's own refusal to offer the version
    EXPECT_NE(why.find("protocol version"), std::string::npos) << version << ": " << why;
  }
  // the same lowered client offering TLS 1.2 gets in: the version made the difference
  TlsClient twelve(pki.file("ca.pem"), TLS1_2_VERSION);
  EXPECT_EQ(twelve.connect(h.port()), "");
  EXPECT_EQ(twelve.protocol(), "TLSv1.2");
  EXPECT_GE(h.server.stats().tls_handshake_failures, 2u);
}

TEST_F(TlsWeb, PlainHttpOnTheTlsPortIsAnsweredWithTheHttpsAddress) {
  TlsHarness h(pki.file("server.pem"), pki.file("server.key"));
  const std::string port = std::to_string(h.port());
  {
    RawConnection raw;
    ASSERT_TRUE(raw.connect(h.port()));
    ASSERT_TRUE(raw.send("GET /instructor.html?x=1 HTTP/1.1\r\nHost: localhost:" + port +
                         "\r\n\r\n"));
    EXPECT_TRUE(raw.closed_by_peer(Seconds(5)));
    EXPECT_EQ(raw.status(), 308) << raw.received();
    EXPECT_NE(raw.received().find("Location: https://localhost:" + port + "/instructor.html?x=1"),
              std::string::npos)
        << raw.received();
    EXPECT_NE(raw.received().find("This port speaks HTTPS only"), std::string::npos);
    EXPECT_NE(raw.received().find("Content-Security-Policy: "), std::string::npos);
  }
  {  // a Host this server does not answer for: no redirect there, the address named instead
    RawConnection raw;
    ASSERT_TRUE(raw.connect(h.port()));
    ASSERT_TRUE(raw.send("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n"));
    EXPECT_TRUE(raw.closed_by_peer(Seconds(5)));
    EXPECT_EQ(raw.status(), 400) << raw.received();
    EXPECT_NE(raw.received().find("https://127.0.0.1:" + port + "/"), std::string::npos);
    EXPECT_EQ(raw.received().find("Location:"), std::string::npos);
  }
  {  // not HTTP either
    RawConnection raw;
    ASSERT_TRUE(raw.connect(h.port()));
    ASSERT_TRUE(raw.send("hello there\r\n\r\n"));
    EXPECT_TRUE(raw.closed_by_peer(Seconds(5)));
    EXPECT_EQ(raw.status(), 400) << raw.received();
  }
  {  // the probes from this machine in plain HTTP (the container's HEALTHCHECK)
    RawConnection raw;
    ASSERT_TRUE(raw.connect(h.port()));
    ASSERT_TRUE(raw.send("GET /livez HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"));
    EXPECT_TRUE(raw.closed_by_peer(Seconds(5)));
    EXPECT_EQ(raw.status(), 200) << raw.received();
    EXPECT_NE(raw.received().find("\"status\":\"ok\""), std::string::npos);
  }
  // and the TLS port still serves
  TlsClient c(pki.file("ca.pem"));
  ASSERT_EQ(c.connect(h.port()), "");
  EXPECT_EQ(c.request("/livez").status, 200);
  EXPECT_EQ(h.server.stats().tls_plain_http, 4u);
}

TEST_F(TlsWeb, ReloadServesTheNewCertificateWhileAnOpenWssSessionKeepsItsFrames) {
  TestPki second("web2");
  ASSERT_TRUE(second.ok());
  const std::string cert = pki.file("live.pem"), key = pki.file("live.key");
  copy_over(pki.file("server.pem"), cert);
  copy_over(pki.file("server.key"), key);
  TlsHarness h(cert, key);

  TlsClient before(pki.file("ca.pem"));
  ASSERT_EQ(before.connect(h.port()), "");
  ASSERT_TRUE(before.websocket(h.port()));
  ASSERT_TRUE(before.read(Seconds(3)).has_value());   // hello

  copy_over(second.file("server.pem"), cert);
  copy_over(second.file("server.key"), key);
  EXPECT_EQ(h.server.reload_tls(), "");

  TlsClient after(second.file("ca.pem"));
  ASSERT_EQ(after.connect(h.port()), "");
  EXPECT_EQ(after.peer_fingerprint(), sha256_fingerprint(second.file("server.pem")));
  EXPECT_EQ(before.read_displays(10), 10) << "the open session lost its frames";

  // a broken file on reload: the error names it, the last good certificate stays
  std::ofstream(cert) << "not a certificate\n";
  const std::string why = h.server.reload_tls();
  EXPECT_NE(why.find(cert), std::string::npos) << why;
  TlsClient still(second.file("ca.pem"));
  ASSERT_EQ(still.connect(h.port()), "");
  EXPECT_EQ(still.peer_fingerprint(), sha256_fingerprint(second.file("server.pem")));
  EXPECT_EQ(before.read_displays(5), 5);
}

TEST_F(TlsWeb, BadFilesAreRefusedWithTheFileAndTheReason) {
  TestPki second("web3");
  ASSERT_TRUE(second.ok());
  const std::string garbage = pki.file("garbage.pem");
  std::ofstream(garbage) << "-----BEGIN CERTIFICATE-----\nnot base64\n";
  struct Case {
    std::string cert, key, expect;
  } cases[] = {
      {pki.file("missing.pem"), pki.file("server.key"),
       "--tls-cert " + pki.file("missing.pem") + ": No such file or directory"},
      {pki.file("server.pem"), pki.file("missing.key"),
       "--tls-key " + pki.file("missing.key") + ": No such file or directory"},
      {garbage, pki.file("server.key"),
       "--tls-cert " + garbage + ": not a usable PEM certificate chain"},
      {pki.file("server.pem"), garbage, "--tls-key " + garbage + ": not a usable PEM private key"},
      {pki.file("server.pem"), second.file("server.key"),
       "--tls-key " + second.file("server.key") + " does not belong to the certificate in " +
           pki.file("server.pem")},
  };
  for (const auto& c : cases) {
    try {
      TlsHarness h(c.cert, c.key);
      ADD_FAILURE() << "started with " << c.cert << " and " << c.key;
    } catch (const TlsError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expect), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace clamsim::web
