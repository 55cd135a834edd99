#include "app/server_options.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <vector>

#include "model/json_fields.h"
#include "model/cli_flag.h"
#include "web/host_check.h"

namespace clamsim::app {

namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultConfig = "config/server.json";

long integer(const std::string& name, const std::string& text, long lo, long hi) {
  long v = 0;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, v);
  if (ec != std::errc() || ptr != last || v < lo || v > hi)
    throw UsageError(name + ": '" + text + "' is not an integer in [" + std::to_string(lo) +
                     ", " + std::to_string(hi) + "]");
  return v;
}

double positive(const std::string& name, const std::string& text) {
  double v = 0.0;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, v);
  if (ec != std::errc() || ptr != last || !std::isfinite(v) || v <= 0.0)
    throw UsageError(name + ": '" + text + "' is not a number > 0");
  return v;
}

std::string non_empty(const std::string& name, const std::string& text) {
  if (text.empty()) throw UsageError(name + ": must not be empty");
  return text;
}

std::string object_url(const std::string& name, const std::string& text) {
  if (!text.empty() && text.rfind("corbaloc:", 0) != 0 && text.rfind("corbaname:", 0) != 0 &&
      text.rfind("IOR:", 0) != 0)
    throw UsageError(name + ": '" + text + "' is not a corbaloc:, corbaname: or IOR: reference");
  return text;
}

// "a,b,,c" -> {"a", "b", "c"}
std::vector<std::string> comma_list(const std::string& v) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= v.size()) {
    const std::size_t comma = std::min(v.find(',', start), v.size());
    if (comma > start) out.push_back(v.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// One setting: its flag, its key in the config file, how a value is applied.
struct Setting {
  const char* flag;
  const char* key;
  bool is_path;   // relative to the config file's directory when it comes from the file
  std::function<void(ServerOptions&, const std::string& name, const std::string& value)> apply;
};

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = {
      {"--host", "host", false,
       [](ServerOptions& o, const std::string&, const std::string& v) { o.corba.host = v; }},
      {"--corba-port", "corba_port", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.corba.port = static_cast<int>(integer(n, v, 0, 65535));
       }},
      {"--endpoint-publish", "endpoint_publish", false,
       [](ServerOptions& o, const std::string&, const std::string& v) {
         o.corba.endpoint_publish = v;
       }},
      {"--max-sessions", "max_sessions", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.max_sessions = static_cast<std::size_t>(integer(n, v, 1, 100000));
       }},
      {"--models-dir", "models_dir", true,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.models_dir = non_empty(n, v);
       }},
      {"--scenarios-dir", "scenarios_dir", true,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.scenarios_dir = non_empty(n, v);
       }},
      {"--default-model", "default_model", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.default_model = non_empty(n, v);
       }},
      {"--concurrency", "concurrency", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         if (!corba::parse_concurrency(v, &o.corba.concurrency))
           throw UsageError(n + ": '" + v + "' is not thread-per-connection or thread-pool");
       }},
      {"--pool-threads", "pool_threads", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.corba.pool_threads = static_cast<int>(integer(n, v, 1, 1024));
       }},
      {"--send-grace-s", "send_grace_s", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.send_grace_s = positive(n, v);
       }},
      {"--call-timeout-ms", "call_timeout_ms", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.corba.call_timeout_ms = static_cast<int>(integer(n, v, 1, 49));
       }},
      {"--connect-timeout-ms", "connect_timeout_ms", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.corba.connect_timeout_ms = static_cast<int>(integer(n, v, 1, 60000));
       }},
      {"--bidir", "bidir", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         if (v != "yes" && v != "no") throw UsageError(n + ": '" + v + "' is not yes or no");
         o.corba.bidir = v == "yes";
       }},
      {"--corba-max-connections", "corba_max_connections", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.corba.max_connections = static_cast<int>(integer(n, v, 1, 1000000));
       }},
      {"--corba-idle-timeout-s", "corba_idle_timeout_s", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.corba.idle_connection_s = static_cast<int>(integer(n, v, 0, 86400));
       }},
      {"--corba-request-timeout-ms", "corba_request_timeout_ms", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.corba.request_timeout_ms = static_cast<int>(integer(n, v, 1, 600000));
       }},
      {"--naming-service", "naming_service", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.corba.naming_service = object_url(n, v);
       }},
      {"--http-host", "http_host", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.web.address = non_empty(n, v);
       }},
      {"--http-port", "http_port", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.web_enabled = v != "off";
         if (o.web_enabled) o.web.port = static_cast<std::uint16_t>(integer(n, v, 0, 65535));
       }},
      {"--http-all-interfaces", "http_all_interfaces", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         if (v != "yes" && v != "no") throw UsageError(n + ": '" + v + "' is not yes or no");
         o.web.all_interfaces = v == "yes";
       }},
      {"--web-root", "web_root", true,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.web.web_root = non_empty(n, v);
       }},
      {"--vendor-three-dir", "vendor_three_dir", true,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.web.vendor_three_dir = non_empty(n, v);
       }},
      {"--world", "world", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.world = non_empty(n, v);
       }},
      {"--report-dir", "report_dir", true,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.report_dir = non_empty(n, v);
       }},
      {"--allowed-origins", "allowed_origins", false,
       [](ServerOptions&o, const std::string&, const std::string& v) {
         o.web.allowed_origins = comma_list(v);
       }},
      {"--http-allowed-hosts", "http_allowed_hosts", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.web.allowed_hosts = comma_list(v);
         try {
           web::HostPolicy check(o.web.allowed_hosts, {});
         } catch (const std::invalid_argument& e) {
           throw UsageError(n + ": " + e.what());
         }
       }},
      {"--http-server-header", "http_server_header", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         if (v == "auto") o.web.server_header = web::ServerHeader::Auto;
         else if (v == "version") o.web.server_header = web::ServerHeader::Version;
         else if (v == "off") o.web.server_header = web::ServerHeader::Off;
         else throw UsageError(n + ": '" + v + "' is not auto, version or off");
       }},
      {"--http-max-connections", "http_max_connections", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.web.max_connections = static_cast<std::size_t>(integer(n, v, 1, 1000000));
       }},
      {"--http-max-connections-per-client", "http_max_connections_per_client", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.web.max_connections_per_client = static_cast<std::size_t>(integer(n, v, 1, 1000000));
       }},
      {"--http-timeout-s", "http_timeout_s", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.web.http_timeout_s = positive(n, v);
       }},
      {"--exit-with-parent", "exit_with_parent", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         if (v != "yes" && v != "no") throw UsageError(n + ": '" + v + "' is not yes or no");
         o.exit_with_parent = v == "yes";
       }},
      {"--naming-name", "naming_name", false,
       [](ServerOptions& o, const std::string& n, const std::string& v) {
         o.corba.naming_name = non_empty(n, v);
       }},
  };
  return table;
}

const Setting* find_flag(const std::string& flag) {
  for (const auto& s : settings())
    if (flag == s.flag) return &s;
  return nullptr;
}

void apply_config_file(ServerOptions& o, const std::string& path) {
  nlohmann::json doc;
  try {
    doc = model::read_json_file(path);
  } catch (const model::ModelError& e) {
    throw UsageError(std::string("--config: ") + e.what());
  }
  if (!doc.is_object()) throw UsageError(path + ": expected a JSON object");
  const fs::path dir = fs::path(path).parent_path();
  for (const auto& [key, value] : doc.items()) {
    if (key == "comment" || key.rfind("_", 0) == 0) continue;  // notes for people
    const Setting* s = nullptr;
    for (const auto& candidate : settings())
      if (key == candidate.key) s = &candidate;
    if (!s) throw UsageError(path + ": " + key + ": unknown setting");
    std::string text;
    if (value.is_string())
      text = value.get<std::string>();
    else if (value.is_number_integer() || value.is_number_float())
      text = value.dump();
    else
      throw UsageError(path + ": " + key + ": expected a string or a number, got " + value.dump());
    if (s->is_path && !text.empty() && fs::path(text).is_relative())
      text = (dir / text).lexically_normal().string();
    s->apply(o, path + ": " + key, text);
  }
}

}  // namespace

const char* server_usage() {
  return R"(Usage: clamsim-server [options]

Serves the crane and clamshell dynamics in real time: one session (own thread, 20 frames
per second) per subscribed receiver, over CORBA (the thesis's IDL, idl/clam.idl, and its
extensions, idl/clamx.idl) and WebSocket (browsers). Every session works in the world of
a scenario (the dam's intake, its loads and a scored training task) and may restart the
task. The admin object is at corbaloc::HOST:PORT/CraneClamAdmin.

Settings come from the config file, then from these flags (docs/corba.md):
  --config FILE             JSON settings (default config/server.json when it exists);
                            relative paths inside are relative to the file
  --host ADDR               listen address; 0.0.0.0 = every interface (default)
  --corba-port N            fixed IIOP port for corbaloc (default 10150; 0 = any free port)
  --endpoint-publish EP     what references carry, for receivers that reach the server
                            by another address, e.g. giop:tcp:public.example.org:10150
  --max-sessions N          sessions served at once; past it subscribe is refused (250)
  --models-dir DIR          machine files *.json (models)
  --scenarios-dir DIR       world scenarios *.json (the dam, its loads, the task) and
                            control scripts *.ctl giving initial poses (config/scenarios)
  --default-model NAME      model for subscribers that do not name one (t250)
  --world NAME|none         the world every session works in: a *.json scenario of the
                            scenarios directory, at its start pose (dam_intake); a .ctl
                            scenario keeps its own pose in it; none = empty space
  --report-dir DIR          where finished tasks' reports are written, created when
                            missing (reports, under the working directory)
  --concurrency MODEL       thread-per-connection (default) or thread-pool
  --pool-threads N          threads of the pool (thread-pool only; default 8)
  --send-grace-s S          reap a session whose sends have failed this long (2)
  --call-timeout-ms N       bound on each frame sent to a receiver, 1-49 (20)
  --connect-timeout-ms N    bound on opening a connection to a receiver (500)
  --bidir yes|no            accept bidirectional GIOP: call receivers behind NAT or a
                            firewall back over the connection they opened (default no)
  --corba-max-connections N  IIOP connections accepted at once; more are refused; with
                            thread-per-connection also the bound on its threads (512)
  --corba-idle-timeout-s S  close an incoming connection without a call for S seconds;
                            the receiver's ORB reopens it when it next calls (60; 0 = never)
  --corba-request-timeout-ms N  a request must arrive whole within N ms, else the
                            connection is closed (2000)
  --naming-service REF      also bind the admin in this CORBA Naming Service, e.g.
                            corbaloc::host:2809/NameService (none by default)
  --naming-name NAME        name to bind there (CraneClamAdmin; "a/b" makes context a)
  --http-host ADDR          web front end (browser client, /ws, /healthz) listen address
                            (default 127.0.0.1: this machine only)
  --http-all-interfaces yes|no  listen on every interface instead (default no)
  --http-port N|off         web port (default 8080; 0 = any free port; off = no web)
  --web-root DIR            the browser client's files (web)
  --vendor-three-dir DIR    three.js from npm, served at /vendor/three/ (node_modules/three)
  --allowed-origins LIST    comma-separated origins allowed to open /ws (default: same
                            host and any localhost page; * = any)
  --http-allowed-hosts LIST host names the web front end answers for (Host header), besides
                            localhost, the loopback and the listen addresses; others get
                            421 (docs/security.md; default none)
  --http-server-header auto|version|off  the Server header: auto sends the version only
                            while listening on loopback alone (default auto)
  --http-max-connections N  open web connections, HTTP and WebSocket (1024)
  --http-max-connections-per-client N  of those, from one address (32)
  --http-timeout-s S        an HTTP request or WebSocket handshake must arrive within S
                            seconds of the connection or the previous answer (10)
  --exit-with-parent yes|no stop as on SIGTERM when the process that started the server
                            ends, even if it was killed (launchers, test harnesses; no)
  --help                    this text

Prints "ready corbaloc::..." and "ready http://..." when serving. SIGINT/SIGTERM stop it: no new sessions, every
session stopped, counters printed, exit 0. Exit status 2: bad flag or config value;
1: could not start (port in use, broken model file).
)";
}

ServerOptions parse_server_options(int argc, const char* const* argv) {
  // split into (flag, value) pairs first: --config must be applied before the other flags
  std::vector<std::pair<std::string, std::string>> flags;
  std::optional<std::string> config;
  std::set<std::string> seen;
  ServerOptions o;
  // Web files relative to the working directory (the checkout) unless configured.
  const std::string default_root = "web", default_three = "node_modules/three";
  o.web.web_root = default_root;
  o.web.vendor_three_dir = default_three;
  for (int i = 1; i < argc; ++i) {
    auto [arg, inline_value] = model::split_cli_flag(argv[i]);
    if (arg == "--help" || arg == "-h") {
      o.help = true;
      continue;
    }
    if (arg != "--config" && !find_flag(arg))
      throw UsageError("unknown option '" + arg + "' (see --help)");
    if (!seen.insert(arg).second) throw UsageError(arg + " given twice");
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else {
      if (i + 1 >= argc || std::string(argv[i + 1]).rfind("--", 0) == 0)
        throw UsageError(arg + " needs a value");
      value = argv[++i];
    }
    if (arg == "--config")
      config = non_empty(arg, value);
    else
      flags.emplace_back(arg, value);
  }
  if (o.help) return o;

  if (config) {
    o.config_path = *config;
  } else {
    std::error_code ec;
    if (fs::is_regular_file(kDefaultConfig, ec)) o.config_path = kDefaultConfig;
  }
  if (!o.config_path.empty()) apply_config_file(o, o.config_path);
  for (const auto& [flag, value] : flags) find_flag(flag)->apply(o, flag, value);
  // A default that is not there (server started outside the checkout) is dropped with a
  // note; a path that was configured must exist, and the web layer says so if not.
  std::error_code ec;
  for (auto [path, fallback] : {std::pair{&o.web.web_root, &default_root},
                                std::pair{&o.web.vendor_three_dir, &default_three}}) {
    if (*path == *fallback && !fs::exists(*path, ec)) {
      o.notes.push_back("web: " + *path + " not found from " + fs::current_path(ec).string() +
                        "; not served (set it in the config or by flag)");
      path->clear();
    }
  }
  return o;
}

}  // namespace clamsim::app
