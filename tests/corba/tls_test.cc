// IIOP over TLS end to end (docs/security.md "IIOP over TLS"): the real clamsim-server
// with a fresh test PKI, the real clamsim-receiver over TLS (frames come back over its own
// connection), this process's plain ORB as the client that must be refused, client
// certificates required / from another CA, start-up errors naming the file, and trainee
// names kept from receivers that did not prove who they are.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "corba/convert.h"
#include "test_support.h"

namespace clamsim::corba::test {
namespace {

namespace fs = std::filesystem;

constexpr Ms kReceiverRun(30000);  // bound on a receiver run of a few seconds (ASan)

std::string tls_ref(int port) {
  return "corbaloc:ssliop:127.0.0.1:" + std::to_string(port) + "/CraneClamAdmin";
}

// The server with TLS from pki on a free port (and whatever else the test adds).
struct TlsServer {
  TlsServer(const TestPki& pki, std::vector<std::string> extra = {})
      : port(free_port()),
        server([&] {
          std::vector<std::string> args = {
              "--corba-tls-cert", pki.path("server.pem"), "--corba-tls-key",
              pki.path("server.key"), "--corba-tls-ca",  pki.path("ca.pem"),
              "--corba-tls-port", std::to_string(port)};
          args.insert(args.end(), extra.begin(), extra.end());
          return args;
        }()) {}
  int port;
  ServerProcess server;
};

struct ReceiverRun {
  int status = -1;
  std::string out;
  long frames = -1;  // getFrame calls received, from the summary; -1 when not printed
};

// clamsim-receiver for `seconds` with the given TLS arguments.
ReceiverRun run_receiver(const std::string& reference, std::vector<std::string> extra,
                         double seconds = 2.0) {
  std::vector<std::string> argv = {clamsim_receiver_binary(), "--server", reference,
                                   "--duration", std::to_string(seconds), "--quiet"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  ChildProcess p(argv);
  ReceiverRun r;
  r.status = p.wait_exit(kReceiverRun);
  r.out = p.output();
  std::smatch m;
  static const std::regex kFrames(R"(SP->SR getFrame\s+\d+\s+(\d+))");
  if (std::regex_search(r.out, m, kFrames)) r.frames = std::stol(m[1]);
  return r;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(IiopTls, ReceiverSubscribesOverTlsAndGetsFrames) {
  TestPki pki;
  ASSERT_TRUE(pki.ok());
  TlsServer s(pki);
  ASSERT_TRUE(s.server.ready()) << s.server.process().output();
  EXPECT_EQ(s.server.corbaloc(), tls_ref(s.port)) << "TLS only: the one ready line";

  const ReceiverRun r = run_receiver(s.server.corbaloc(), {"--tls-ca", pki.path("ca.pem")});
  EXPECT_EQ(r.status, 0) << r.out;
  // 2 s at 20 Hz is 40 frames; a loaded sanitizer build may lose a few to the start
  EXPECT_GE(r.frames, 20) << r.out;
  EXPECT_TRUE(eventually([&] {
    return contains(s.server.process().output(),
                    "over TLS without a client certificate: trainee names hidden");
  }, Ms(5000))) << s.server.process().output();
}

TEST(IiopTls, PlainClientIsRefusedWhenTlsOnly) {
  TestPki pki;
  ASSERT_TRUE(pki.ok());
  TlsServer s(pki);
  ASSERT_TRUE(s.server.ready()) << s.server.process().output();
  EXPECT_FALSE(contains(s.server.process().output(), "ready corbaloc::"))
      << "no plain endpoint is announced";

  // plain GIOP to the TLS port: the handshake fails and the call with it, in bounded time
  const std::string plain = "corbaloc::127.0.0.1:" + std::to_string(s.port) + "/CraneClamAdmin";
  CORBA::Object_var obj = orb()->string_to_object(plain.c_str());
  CLAMX::Admin_var admin = CLAMX::Admin::_unchecked_narrow(obj);
  const auto start = Clock::now();
  EXPECT_THROW(status_of(admin), CORBA::SystemException);
  // the client's timeouts end it; the bound only tells a hang from that
  EXPECT_LT(Clock::now() - start, Ms(60000)) << "no answer, no error: a hang";

  // and a plain subscription cannot get frames by any other route
  Activated<FrameRecorder> recorder;
  EXPECT_THROW(admin->subscribeWith(recorder.client(), default_options()),
               CORBA::SystemException);
  EXPECT_EQ(recorder->total(), 0u);
}

TEST(IiopTls, PlainIiopStaysWhenAskedBesideTls) {
  TestPki pki;
  ASSERT_TRUE(pki.ok());
  TlsServer s(pki, {"--corba-plain", "yes"});
  ASSERT_TRUE(s.server.ready()) << s.server.process().output();
  ASSERT_TRUE(s.server.process().wait_for_line("ready " + tls_ref(s.port), Ms(5000)).size());
  EXPECT_EQ(s.server.corbaloc().rfind("corbaloc::127.0.0.1:", 0), 0u) << s.server.corbaloc();

  // a plain receiver (this process's ORB, which has no TLS) is served
  CLAMX::Admin_var admin = s.server.admin();
  Activated<FrameRecorder> recorder;
  CLAMX::Session_var session = admin->subscribeWith(recorder.client(), default_options());
  EXPECT_TRUE(recorder->wait_frames(10, Ms(5000)));
  session->unsubscribe();

  // and so is a TLS one: 2 s, 40 frames at 20 Hz, of which a quarter is enough to show it
  // is served (1 s gave 20, and under a loaded ctest -j2 the handshake and the start took
  // enough of them once to fall under 10)
  const ReceiverRun r = run_receiver(tls_ref(s.port), {"--tls-ca", pki.path("ca.pem")});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_GE(r.frames, 10) << r.out;
}

TEST(IiopTls, ClientCertificateRequired) {
  TestPki pki;
  ASSERT_TRUE(pki.ok());
  TlsServer s(pki, {"--corba-tls-client-cert", "required"});
  ASSERT_TRUE(s.server.ready()) << s.server.process().output();

  const ReceiverRun without = run_receiver(tls_ref(s.port), {"--tls-ca", pki.path("ca.pem")});
  EXPECT_EQ(without.status, 1) << without.out;
  EXPECT_TRUE(contains(without.out, "wants one (--tls-cert, --tls-key from its CA)"))
      << "says what is missing: " << without.out;
  EXPECT_EQ(without.frames, -1) << without.out;

  const ReceiverRun with = run_receiver(
      tls_ref(s.port), {"--tls-ca", pki.path("ca.pem"), "--tls-cert", pki.path("client.pem"),
                        "--tls-key", pki.path("client.key")});
  EXPECT_EQ(with.status, 0) << with.out;
  EXPECT_GE(with.frames, 20) << with.out;
  EXPECT_TRUE(eventually([&] {
    return contains(s.server.process().output(),
                    "client certificate CN=test-instructor: trainee names shown");
  }, Ms(5000))) << s.server.process().output();
}

TEST(IiopTls, CertificatesFromAnotherCaAreRefused) {
  TestPki pki;
  ASSERT_TRUE(pki.ok());
  // the server trusts another CA: the receiver's certificate (from the test CA) is refused
  const int port = free_port();
  ServerProcess server({"--corba-tls-cert", pki.path("server.pem"), "--corba-tls-key",
                        pki.path("server.key"), "--corba-tls-ca", pki.path("other-ca.pem"),
                        "--corba-tls-port", std::to_string(port), "--corba-tls-client-cert",
                        "required"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  const ReceiverRun theirs = run_receiver(
      tls_ref(port), {"--tls-ca", pki.path("ca.pem"), "--tls-cert", pki.path("client.pem"),
                      "--tls-key", pki.path("client.key")});
  EXPECT_EQ(theirs.status, 1) << theirs.out;
  EXPECT_EQ(theirs.frames, -1) << theirs.out;

  // the reverse: the receiver trusts another CA, so the server's certificate is refused
  TlsServer s(pki);
  ASSERT_TRUE(s.server.ready()) << s.server.process().output();
  const auto start = Clock::now();
  const ReceiverRun ours = run_receiver(tls_ref(s.port), {"--tls-ca", pki.path("other-ca.pem")});
  EXPECT_EQ(ours.status, 1) << ours.out;
  EXPECT_TRUE(contains(ours.out, "the TLS handshake failed: the server's certificate"))
      << ours.out;
  // the server's chain ends in the test CA, which the receiver does not trust
  EXPECT_TRUE(contains(ours.out, "self-signed certificate in certificate chain")) << ours.out;
  EXPECT_LT(Clock::now() - start, Ms(60000)) << "a hang";
}

TEST(IiopTls, ReceiverChecksTheNameInTheServersCertificate) {
  TestPki pki;
  ASSERT_TRUE(pki.ok());
  // the certificate names localhost, 127.0.0.1 and ::1; 127.0.0.2 is this machine too
  TlsServer s(pki, {"--host", "127.0.0.2"});
  ASSERT_TRUE(s.server.ready()) << s.server.process().output();
  const std::string elsewhere = "corbaloc:ssliop:127.0.0.2:" + std::to_string(s.port) +
                                "/CraneClamAdmin";
  const ReceiverRun r = run_receiver(elsewhere, {"--tls-ca", pki.path("ca.pem")});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "certificate of CN=localhost: IP address mismatch")) << r.out;
  EXPECT_EQ(r.frames, -1) << r.out;
}

struct StartError {
  int status = -1;
  std::string out;
};

StartError start_with(const std::string& cert, const std::string& key, const std::string& ca) {
  ChildProcess p({server_binary(), "--host", "127.0.0.1", "--http-port", "off",
                  "--corba-tls-port", "0", "--corba-tls-cert", cert, "--corba-tls-key", key,
                  "--corba-tls-ca", ca, "--models-dir", source_dir() + "/models",
                  "--scenarios-dir", source_dir() + "/config/scenarios"});
  StartError e;
  e.status = p.wait_exit(Ms(15000));
  e.out = p.output();
  return e;
}

TEST(IiopTls, BadFilesStopTheServerNamingTheFile) {
  TestPki pki;
  ASSERT_TRUE(pki.ok());
  const std::string cert = pki.path("server.pem"), key = pki.path("server.key"),
                    ca = pki.path("ca.pem"), missing = pki.path("nothing-here.pem");

  StartError e = start_with(missing, key, ca);
  EXPECT_EQ(e.status, 2) << e.out;
  EXPECT_TRUE(contains(e.out, "--corba-tls-cert '" + missing + "': cannot be read")) << e.out;

  e = start_with(cert, pki.path("client.key"), ca);  // a key of another certificate
  EXPECT_EQ(e.status, 2) << e.out;
  EXPECT_TRUE(contains(e.out, "--corba-tls-key '" + pki.path("client.key") +
                                  "': does not belong to the certificate"))
      << e.out;

  e = start_with(cert, key, key);  // a key where the CA belongs
  EXPECT_EQ(e.status, 2) << e.out;
  EXPECT_TRUE(contains(e.out, "--corba-tls-ca '" + key + "': holds no PEM certificate")) << e.out;

  e = start_with(ca + ".missing", key, ca);
  EXPECT_EQ(e.status, 2) << e.out;

  // plain off without TLS leaves nothing to listen on: a usage error
  ChildProcess p({server_binary(), "--corba-plain", "no", "--http-port", "off"});
  EXPECT_EQ(p.wait_exit(Ms(15000)), 2);
  EXPECT_TRUE(contains(p.output(), "--corba-plain no")) << p.output();
}

// A copy of the shipped scenarios whose task times out 1.5 s after the first moved control (the
// loader's shortest optimum, 1 s), so a receiver gets the task's report within a short run.
fs::path short_task_scenarios(const TestPki& pki) {
  const fs::path dir = fs::path(pki.path("scenarios"));
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(source_dir() + "/config/scenarios"))
    fs::copy_file(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
  std::ifstream in(dir / "dam_intake.json");
  nlohmann::ordered_json world = nlohmann::ordered_json::parse(in);
  world["task"]["optimum_s"]["value"] = 1.0;
  std::ofstream(dir / "dam_intake.json") << world.dump(2);
  // the receiver's stick: the telescope a little out from the start, so the task's clock
  // (which waits for the first moved control) runs and the task times out
  std::ofstream(pki.path("nudge.ctl")) << "step 0 0 0 0.5 0 0\n";
  return dir;
}

std::string report_trainee(const std::string& path) {
  std::ifstream in(path);
  const auto report = nlohmann::json::parse(in, nullptr, false);
  if (!report.is_object() || !report.contains("trainee")) return "<no report>";
  return report["trainee"].is_null() ? "<null>" : report["trainee"].get<std::string>();
}

TEST(IiopTls, TraineeNamesReachOnlyAuthenticatedReceivers) {
  TestPki pki;
  ASSERT_TRUE(pki.ok());
  const fs::path scenarios = short_task_scenarios(pki);
  TlsServer s(pki, {"--scenarios-dir", scenarios.string(), "--report-dir",
                    pki.path("reports")});
  ASSERT_TRUE(s.server.ready()) << s.server.process().output();

  const std::string anonymous = pki.path("anonymous.json");
  const std::string nudge = pki.path("nudge.ctl");
  ReceiverRun r = run_receiver(tls_ref(s.port), {"--tls-ca", pki.path("ca.pem"), "--trainee",
                                                 "Ada Lovelace", "--report", anonymous,
                                                 "--controls", nudge}, 4.0);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(report_trainee(anonymous), "<null>") << r.out;

  const std::string known = pki.path("known.json");
  r = run_receiver(tls_ref(s.port),
                   {"--tls-ca", pki.path("ca.pem"), "--tls-cert", pki.path("client.pem"),
                    "--tls-key", pki.path("client.key"), "--trainee", "Ada Lovelace",
                    "--report", known, "--controls", nudge},
                   4.0);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(report_trainee(known), "Ada Lovelace") << r.out;

  // the server's own copies (for the instructor) keep the name either way
  std::size_t named = 0;
  for (const auto& e : fs::directory_iterator(pki.path("reports")))
    if (report_trainee(e.path().string()) == "Ada Lovelace") ++named;
  EXPECT_EQ(named, 2u);
}

TEST(IiopTls, StatusCarriesNoNames) {
  // status() is counts and the version only (idl/clamx.idl ServerStatus): nothing in it
  // can carry a name, whoever asks. A plain caller gets it as before.
  ServerProcess server;
  ASSERT_TRUE(server.ready());
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> recorder;
  CLAMX::Session_var session = admin->subscribeWith(recorder.client(), default_options());
  session->setTrainee("Ada Lovelace");
  const CLAMX::ServerStatus st = status_of(admin);
  EXPECT_EQ(st.sessions, 1u);
  EXPECT_FALSE(contains(st.version.in(), "Ada")) << st.version.in();
  session->unsubscribe();
}

TEST(IiopTls, ReportWithoutTraineeKeepsEverythingElse) {
  const std::string report = R"({"schema": "clamsim-report/1", "trainee": "Ada", "total": 42})";
  const auto redacted = nlohmann::json::parse(without_trainee(report));
  EXPECT_TRUE(redacted["trainee"].is_null());
  EXPECT_EQ(redacted["total"], 42);
  EXPECT_EQ(redacted["schema"], "clamsim-report/1");
  EXPECT_EQ(without_trainee("not json"), "") << "nothing unparsed is passed on";
  EXPECT_EQ(without_trainee("[1, 2]"), "");
}

}  // namespace
}  // namespace clamsim::corba::test
