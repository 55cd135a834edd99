// server/app/server_options.cc: config file, flags over it, errors naming the setting.
#include "app/server_options.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace clamsim::app {
namespace {

namespace fs = std::filesystem;

// Flags and an environment of the test's own (never the process's).
ServerOptions parse(std::vector<std::string> args, const Environment& env = {}) {
  std::vector<const char*> argv = {"clamsim-server"};
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_server_options(static_cast<int>(argv.size()), argv.data(), env);
}

class ServerOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("clamsim-options-" + std::to_string(getpid()));
    fs::create_directories(dir_ / "etc");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& json) {
    const fs::path p = dir_ / "etc" / "server.json";
    std::ofstream(p) << json;
    return p.string();
  }
  fs::path dir_;
};

TEST_F(ServerOptionsTest, ShippedConfigIsValid) {
  const ServerOptions o =
      parse({"--config", std::string(CLAMSIM_SOURCE_DIR) + "/config/server.json"});
  EXPECT_EQ(o.corba.port, 10150);
  EXPECT_EQ(o.max_sessions, 250u);
  EXPECT_EQ(o.corba.call_timeout_ms, 20);
  EXPECT_TRUE(fs::exists(fs::path(o.models_dir) / "t250.json")) << o.models_dir;
  EXPECT_TRUE(fs::is_directory(o.scenarios_dir)) << o.scenarios_dir;
  EXPECT_EQ(o.world, "dam_intake");
  EXPECT_TRUE(fs::exists(fs::path(o.scenarios_dir) / (o.world + ".json")));
  EXPECT_EQ(fs::path(o.report_dir).filename(), "reports");
  EXPECT_TRUE(fs::path(o.report_dir).is_absolute()) << "relative to the file, not the cwd";
}

TEST_F(ServerOptionsTest, WorldAndReportDirectory) {
  const ServerOptions defaults = parse({});
  EXPECT_EQ(defaults.world, "dam_intake");
  EXPECT_EQ(defaults.report_dir, "reports");
  const std::string cfg = write(R"({"world": "none", "report_dir": "out/reports"})");
  const ServerOptions from_file = parse({"--config", cfg});
  EXPECT_EQ(from_file.world, "none");
  EXPECT_EQ(from_file.report_dir, (dir_ / "etc" / "out" / "reports").string());
  const ServerOptions flags = parse({"--config", cfg, "--world=quarry", "--report-dir", "r"});
  EXPECT_EQ(flags.world, "quarry");
  EXPECT_EQ(flags.report_dir, "r");
  EXPECT_THROW(parse({"--world", ""}), UsageError);
  EXPECT_THROW(parse({"--scene-file", "config/scene.json"}), UsageError) << "gone";
}

TEST_F(ServerOptionsTest, FlagsOverrideTheFileInAnyOrder) {
  const std::string cfg = write(R"({"corba_port": 3000, "max_sessions": 5,
      "concurrency": "thread-pool", "models_dir": "../m", "send_grace_s": 1.5})");
  const ServerOptions o = parse({"--max-sessions=9", "--config", cfg, "--corba-port", "4000",
                                 "--models-dir", "rel/models"});
  EXPECT_EQ(o.corba.port, 4000);
  EXPECT_EQ(o.max_sessions, 9u);
  EXPECT_EQ(o.corba.concurrency, corba::Concurrency::ThreadPool);
  EXPECT_EQ(o.models_dir, "rel/models");  // flags: relative to the working directory
  EXPECT_DOUBLE_EQ(o.send_grace_s, 1.5);

  const ServerOptions from_file = parse({"--config", cfg});
  EXPECT_EQ(from_file.models_dir, (dir_ / "m").lexically_normal().string());
}

TEST_F(ServerOptionsTest, ErrorsNameTheSetting) {
  const std::string cfg = write(R"({"naming_name": ""})");
  try {
    parse({"--config", cfg});
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("naming_name"), std::string::npos) << e.what();
  }
  write(R"({"host": ["a"]})");
  EXPECT_THROW(parse({"--config", cfg}), UsageError);
  write("{ not json");
  EXPECT_THROW(parse({"--config", cfg}), UsageError);
  EXPECT_THROW(parse({"--pool-threads", "0"}), UsageError);
  EXPECT_THROW(parse({"--max-replays", "0"}), UsageError);
  EXPECT_EQ(parse({"--max-replays", "3"}).web.max_replays, 3u);
  EXPECT_EQ(parse({}).web.max_replays_per_client, 2u);
  EXPECT_EQ(parse({"--max-replays-per-client", "0"}).web.max_replays_per_client, 0u);
  EXPECT_THROW(parse({"--max-replays-per-client", "-1"}), UsageError);
  EXPECT_THROW(parse({"--max-replays-per-client", "two"}), UsageError);
  EXPECT_THROW(parse({"--host", "a", "--host", "b"}), UsageError);
  EXPECT_TRUE(parse({"--corba-port", "1", "--help"}).help);
}

// The message of the UsageError parse() throws, or "" when it does not.
std::string usage_error(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

// Without a config file both sides listen on this machine only, as --help says.
TEST_F(ServerOptionsTest, WithoutAConfigFileBothSidesListenOnLoopback) {
  ASSERT_FALSE(fs::exists("config/server.json")) << "run from a directory without one";
  const ServerOptions o = parse({});
  EXPECT_EQ(o.config_path, "");
  EXPECT_EQ(o.corba.host, "127.0.0.1");
  EXPECT_EQ(o.corba.endpoint_publish, "");  // references carry the listen address
  EXPECT_EQ(o.web.address, "127.0.0.1");
  EXPECT_FALSE(o.web.all_interfaces);
  const std::string help = server_usage();
  EXPECT_NE(help.find("  --host ADDR\n"), std::string::npos);
  EXPECT_NE(help.find("(default 127.0.0.1; env CLAMSIM_HOST; config host)"), std::string::npos)
      << help;
}

// "corba_port": "10150" is refused, naming the key and the type it wants.
TEST_F(ServerOptionsTest, ConfigValuesMustHaveTheirJsonType) {
  const std::string cfg = write(R"({"corba_port": "10150"})");
  EXPECT_EQ(usage_error({"--config", cfg}),
            cfg + ": corba_port: expected a number, got the string \"10150\"; write numbers "
                  "without quotes");
  write(R"({"http_port": "8080"})");
  EXPECT_EQ(usage_error({"--config", cfg}),
            cfg + ": http_port: expected a number or \"off\", got the string \"8080\"; write "
                  "numbers without quotes");
  write(R"({"class_code": 1234})");
  EXPECT_EQ(usage_error({"--config", cfg}),
            cfg + ": class_code: expected a string (CODE), got the number 1234; write it in "
                  "quotes");
  write(R"({"bidir": true})");
  EXPECT_EQ(usage_error({"--config", cfg}), cfg + ": bidir: expected a string, got true");
  write(R"({"http_port": "off", "corba_port": 0, "send_grace_s": 1.5, "bidir": "yes"})");
  const ServerOptions o = parse({"--config", cfg});
  EXPECT_FALSE(o.web_enabled);
  EXPECT_DOUBLE_EQ(o.send_grace_s, 1.5);
  EXPECT_TRUE(o.corba.bidir);
}

TEST_F(ServerOptionsTest, AnUnknownConfigKeyNamesTheNearestSetting) {
  const std::string cfg = write(R"({"max_sesions": 3})");
  EXPECT_EQ(usage_error({"--config", cfg}),
            cfg + ": max_sesions: unknown setting (did you mean \"max_sessions\"?)");
  write(R"({"corba-port": 3})");
  EXPECT_EQ(usage_error({"--config", cfg}),
            cfg + ": corba-port: unknown setting (did you mean \"corba_port\"?)");
  write(R"({"frobnicate": 3})");
  EXPECT_EQ(usage_error({"--config", cfg}), cfg + ": frobnicate: unknown setting (see --help)");
}

TEST_F(ServerOptionsTest, ListenAddressesMustBeAddresses) {
  EXPECT_EQ(usage_error({"--http-host", "999.1.1.1"}),
            "--http-host: '999.1.1.1' is not an IP address (for example 127.0.0.1, ::1, 0.0.0.0)");
  EXPECT_EQ(usage_error({"--http-host", "localhost"}),
            "--http-host: 'localhost' is not an IP address (for example 127.0.0.1, ::1, 0.0.0.0)");
  EXPECT_EQ(usage_error({"--host", "999.1.1.1"}),
            "--host: '999.1.1.1' is not an IP address or a host name (for example 127.0.0.1, "
            "::1, 0.0.0.0)");
  EXPECT_EQ(usage_error({"--host", "a b"}).rfind("--host: 'a b' is not", 0), 0u);
  EXPECT_EQ(parse({"--http-host", "::1"}).web.address, "::1");
  EXPECT_EQ(parse({"--host", "sim.example.org"}).corba.host, "sim.example.org");
  EXPECT_EQ(parse({"--host", "0.0.0.0"}).corba.host, "0.0.0.0");
}

TEST_F(ServerOptionsTest, PublishedEndpointsMustBeGiopAddresses) {
  EXPECT_EQ(parse({"--endpoint-publish", "giop:tcp:sim.example.org:10150"}).corba.endpoint_publish,
            "giop:tcp:sim.example.org:10150");
  EXPECT_EQ(parse({"--endpoint-publish", "giop:tcp:[::1]:10150,giop:ssl:10.0.0.2:10151"})
                .corba.endpoint_publish,
            "giop:tcp:[::1]:10150,giop:ssl:10.0.0.2:10151");
  EXPECT_EQ(parse({"--endpoint-publish", ""}).corba.endpoint_publish, "");
  // a Kubernetes-style $(NODE_IP) that podman kube play leaves as it is
  EXPECT_EQ(usage_error({"--endpoint-publish", "giop:tcp:$(NODE_IP):10150"}),
            "--endpoint-publish: 'giop:tcp:$(NODE_IP):10150' holds a variable its deployment "
            "did not expand; give the address itself (for example "
            "giop:tcp:sim.example.org:10150)");
  const std::string tail =
      "' is not giop:tcp:HOST:PORT or giop:ssl:HOST:PORT with a port in [1, 65535] (for "
      "example giop:tcp:sim.example.org:10150)";
  EXPECT_EQ(usage_error({"--endpoint-publish", "sim.example.org:10150"}),
            "--endpoint-publish: 'sim.example.org:10150" + tail);
  EXPECT_EQ(usage_error({"--endpoint-publish", "giop:tcp:sim.example.org:0"}),
            "--endpoint-publish: 'giop:tcp:sim.example.org:0" + tail);
  EXPECT_EQ(usage_error({"--endpoint-publish", "giop:tcp:a b:10150,giop:tcp:h:1"}),
            "--endpoint-publish: 'giop:tcp:a b:10150" + tail);
  EXPECT_EQ(usage_error({"--endpoint-publish", "giop:tcp:h:1,"}),
            "--endpoint-publish: '" + tail);
}

// IIOP over TLS (docs/security.md, 14). Off by default (plain IIOP as before); TLS-only once
// configured.
TEST_F(ServerOptionsTest, IiopTlsSettings) {
  const ServerOptions d = parse({});
  EXPECT_FALSE(d.corba.tls_on());
  EXPECT_TRUE(d.corba.plain_on());
  EXPECT_FALSE(d.corba.bidir_on());
  EXPECT_EQ(d.corba.tls_port, 10151);

  const ServerOptions tls = parse({"--corba-tls-cert", "s.pem", "--corba-tls-key", "s.key",
                                   "--corba-tls-ca", "ca.pem", "--corba-tls-client-cert",
                                   "required"});
  EXPECT_TRUE(tls.corba.tls_on());
  EXPECT_FALSE(tls.corba.plain_on()) << "TLS only unless asked";
  EXPECT_TRUE(tls.corba.bidir_on()) << "frames go back over the receiver's TLS connection";
  EXPECT_TRUE(tls.corba.tls_require_client_cert);
  EXPECT_TRUE(parse({"--corba-tls-ca", "ca.pem", "--corba-plain", "yes"}).corba.plain_on());

  try {
    parse({"--corba-tls-client-cert", "sometimes"});
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("is not optional or required"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse({"--corba-plain", "maybe"}), UsageError);
  EXPECT_THROW(parse({"--corba-plain", "no"}), UsageError) << "no endpoint at all";
}

// The hardening settings (docs/security.md), their defaults and their checks.
TEST_F(ServerOptionsTest, AccountSettings) {
  const ServerOptions d = parse({});
  EXPECT_EQ(d.web.access.accounts_file, "");
  EXPECT_DOUBLE_EQ(d.web.access.login_idle_s, 1800.0);
  EXPECT_DOUBLE_EQ(d.web.access.login_max_s, 43200.0);
  EXPECT_EQ(d.web.access.failures_before_lockout, 10);
  EXPECT_DOUBLE_EQ(d.web.access.lockout_s, 300.0);
  EXPECT_EQ(d.web.access.class_code, "");
  EXPECT_FALSE(d.web.access.secure_cookie);

  // a path in the config file is relative to the file
  const std::string cfg = write(R"({"accounts": "state/accounts.json", "login_lockout_s": 60})");
  const ServerOptions o = parse({"--config", cfg, "--login-failures-before-lockout", "5",
                                 "--login-idle-timeout-s", "600", "--class-code", "crane-42"},
                                {{"CLAMSIM_LOGIN_MAX_LIFETIME_S", "3600"}});
  EXPECT_EQ(o.web.access.accounts_file,
            (std::filesystem::path(cfg).parent_path() / "state/accounts.json").string());
  EXPECT_DOUBLE_EQ(o.web.access.lockout_s, 60.0);
  EXPECT_EQ(o.web.access.failures_before_lockout, 5);
  EXPECT_DOUBLE_EQ(o.web.access.login_idle_s, 600.0);
  EXPECT_DOUBLE_EQ(o.web.access.login_max_s, 3600.0);
  EXPECT_EQ(o.web.access.class_code, "crane-42");

  EXPECT_THROW(parse({"--login-failures-before-lockout", "0"}), UsageError);
  EXPECT_THROW(parse({"--login-lockout-s", "-1"}), UsageError);
  EXPECT_THROW(parse({"--class-code", std::string(65, 'x')}), UsageError);
}

TEST_F(ServerOptionsTest, HardeningSettings) {
  const ServerOptions d = parse({});
  EXPECT_TRUE(d.web.allowed_hosts.empty());
  EXPECT_EQ(d.web.server_header, web::ServerHeader::Auto);
  EXPECT_EQ(d.web.max_connections, 1024u);
  EXPECT_EQ(d.web.max_connections_per_client, 32u);
  EXPECT_DOUBLE_EQ(d.web.http_timeout_s, 10.0);
  EXPECT_EQ(d.web.socket_send_buffer_bytes, 65536);
  EXPECT_EQ(d.corba.max_connections, 512);
  EXPECT_EQ(d.corba.max_connections_per_client, 32);
  EXPECT_EQ(d.corba.request_timeout_ms, 2000);
  EXPECT_EQ(d.corba.idle_connection_s, 60);

  const std::string cfg = write(R"({"http_allowed_hosts": "sim.school.example,10.0.0.5",
      "http_server_header": "off", "http_max_connections_per_client": 8,
      "corba_max_connections": 64, "corba_idle_timeout_s": 0,
      "corba_max_connections_per_client": 4})");
  const ServerOptions o = parse({"--config", cfg, "--http-timeout-s", "2.5",
                                 "--corba-request-timeout-ms", "500",
                                 "--http-max-connections", "100"});
  EXPECT_EQ(o.web.allowed_hosts, (std::vector<std::string>{"sim.school.example", "10.0.0.5"}));
  EXPECT_EQ(o.web.server_header, web::ServerHeader::Off);
  EXPECT_EQ(o.web.max_connections_per_client, 8u);
  EXPECT_EQ(o.web.max_connections, 100u);
  EXPECT_DOUBLE_EQ(o.web.http_timeout_s, 2.5);
  EXPECT_EQ(o.corba.max_connections, 64);
  EXPECT_EQ(o.corba.max_connections_per_client, 4);
  EXPECT_EQ(o.corba.idle_connection_s, 0);
  EXPECT_EQ(o.corba.request_timeout_ms, 500);

  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--http-allowed-hosts", "http://evil/"},
        {"--http-server-header", "yes"}, {"--http-max-connections-per-client", "0"},
        {"--http-timeout-s", "-1"}, {"--corba-max-connections", "0"},
        {"--corba-request-timeout-ms", "0"}, {"--corba-max-connections-per-client", "0"},
        {"--corba-max-connections-per-client", "lots"}}) {
    try {
      parse(bad);
      ADD_FAILURE() << bad[0] << " " << bad[1] << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(bad[0]), std::string::npos) << e.what();
    }
  }
  // and each one from the environment too, named by its variable
  EXPECT_EQ(parse({}, {{"CLAMSIM_HTTP_MAX_CONNECTIONS_PER_CLIENT", "3"}}).web.max_connections_per_client,
            3u);
  EXPECT_EQ(parse({}, {{"CLAMSIM_CORBA_MAX_CONNECTIONS_PER_CLIENT", "5"}})
                .corba.max_connections_per_client,
            5);
}

TEST_F(ServerOptionsTest, EnvironmentSitsBetweenFlagsAndTheFile) {
  const std::string cfg = write(R"({"max_sessions": 5, "corba_port": 3000, "world": "none"})");
  const ServerOptions o =
      parse({"--config", cfg, "--corba-port", "4000"},
            {{"CLAMSIM_MAX_SESSIONS", "40"}, {"CLAMSIM_CORBA_PORT", "5000"},
             {"CLAMSIM_HTTP_ALL_INTERFACES", "yes"}, {"PATH", "/bin"}});
  EXPECT_EQ(o.max_sessions, 40u) << "environment over the file";
  EXPECT_EQ(o.corba.port, 4000) << "flag over the environment";
  EXPECT_EQ(o.world, "none") << "the file over the default";
  EXPECT_TRUE(o.web.all_interfaces);
  EXPECT_EQ(parse({}, {{"CLAMSIM_LOG_FORMAT", "json"}}).log_format, base::LogFormat::Json);
  EXPECT_DOUBLE_EQ(parse({}, {{"CLAMSIM_DRAIN_SECONDS", "0"}}).drain_seconds, 0.0);
}

TEST_F(ServerOptionsTest, EnvironmentNamesTheConfigFileAndItsErrorsNameTheVariable) {
  const std::string cfg = write(R"({"max_sessions": 7})");
  EXPECT_EQ(parse({}, {{"CLAMSIM_CONFIG", cfg}}).max_sessions, 7u);
  EXPECT_EQ(parse({}, {{"CLAMSIM_CONFIG", cfg}}).config_path, cfg);
  try {
    parse({}, {{"CLAMSIM_MAX_SESSIONS", "lots"}});
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "environment CLAMSIM_MAX_SESSIONS: 'lots' is not an integer in [1, 100000]");
  }
  EXPECT_THROW(parse({}, {{"CLAMSIM_LOG_FORMAT", "xml"}}), UsageError);
  EXPECT_THROW(parse({}, {{"CLAMSIM_DRAIN_SECONDS", "-1"}}), UsageError);
}

TEST_F(ServerOptionsTest, UnknownClamsimVariablesAreNotedNotFatal) {
  // Kubernetes sets CLAMSIM_SERVICE_HOST and the like for a Service named clamsim
  const ServerOptions o = parse({}, {{"CLAMSIM_SERVICE_HOST", "10.0.0.1"}});
  ASSERT_FALSE(o.notes.empty());
  EXPECT_NE(o.notes.front().find("CLAMSIM_SERVICE_HOST"), std::string::npos);
}

TEST_F(ServerOptionsTest, EveryFlagHasItsVariableInHelpAndInTheDeployDocs) {
  EXPECT_EQ(env_name("--max-sessions"), "CLAMSIM_MAX_SESSIONS");
  EXPECT_EQ(env_name("--http-all-interfaces"), "CLAMSIM_HTTP_ALL_INTERFACES");
  const std::string help = server_usage();
  const std::string table = settings_markdown();
  for (const char* flag : {"--host", "--corba-port", "--max-sessions", "--drain-seconds",
                           "--log-format", "--report-dir", "--exit-with-parent"}) {
    EXPECT_NE(help.find(env_name(flag)), std::string::npos) << flag;
    EXPECT_NE(table.find("`" + env_name(flag) + "`"), std::string::npos) << flag;
  }
  EXPECT_NE(help.find("(default 250; env CLAMSIM_MAX_SESSIONS; config max_sessions)"),
            std::string::npos)
      << "defaults come from ServerOptions itself";
  // docs/deploy.md carries the generated table verbatim: regenerate it with
  // clamsim-server --help-settings-markdown when a setting changes
  std::ifstream in(std::string(CLAMSIM_SOURCE_DIR) + "/docs/deploy.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(doc.find(table), std::string::npos)
      << "docs/deploy.md's settings table is out of date; paste this:\n" << table;
}

TEST_F(ServerOptionsTest, TheImagesConfigIsValid) {
  const ServerOptions o =
      parse({"--config", std::string(CLAMSIM_SOURCE_DIR) + "/deploy/container/server.json"});
  EXPECT_EQ(o.corba.host, "0.0.0.0");
  EXPECT_TRUE(o.web.all_interfaces);
  EXPECT_EQ(o.report_dir, "/var/lib/clamsim/reports");
  EXPECT_EQ(o.web.vendor_three_dir, "/usr/share/clamsim/three");
  EXPECT_EQ(o.web.vendor_uplot_dir, "/usr/share/clamsim/uplot");  // the Dockerfile copies it
  EXPECT_EQ(o.keyboard_file, "/usr/share/clamsim/keyboard.json");  // the Dockerfile copies it
}

TEST_F(ServerOptionsTest, TheShippedConfigNamesTheSharedKeyLayout) {
  const std::string source = CLAMSIM_SOURCE_DIR;
  const ServerOptions o = parse({"--config", source + "/config/server.json"});
  EXPECT_EQ(o.keyboard_file, (fs::path(source) / "config/keyboard.json").lexically_normal().string());
}

}  // namespace
}  // namespace clamsim::app
