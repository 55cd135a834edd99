#include "app/server_options.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include <arpa/inet.h>

#include "cli/exit_codes.h"
#include "cli/version_flag.h"
#include "model/json_fields.h"
#include "session/recorder.h"
#include "web/host_check.h"

namespace clamsim::app {

namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultConfig = "config/server.json";
// Web files relative to the working directory (the checkout) unless configured.
constexpr const char* kDefaultWebRoot = "web";
constexpr const char* kDefaultThree = "node_modules/three";
constexpr const char* kDefaultUplot = "node_modules/uplot/dist";
constexpr const char* kDefaultKeyboard = "config/keyboard.json";

long integer(const std::string& name, const std::string& text, long lo, long hi) {
  long v = 0;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, v);
  if (ec != std::errc() || ptr != last || v < lo || v > hi)
    throw UsageError(name + ": '" + text + "' is not an integer in [" + std::to_string(lo) +
                     ", " + std::to_string(hi) + "]");
  return v;
}

std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// A finite number that is at least `lo` (or, when `open`, more than it).
double number_from(const std::string& name, const std::string& text, double lo, bool open) {
  double v = 0.0;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, v);
  if (ec != std::errc() || ptr != last || !std::isfinite(v) || v < lo || (open && v == lo))
    throw UsageError(name + ": '" + text + "' is not a number " + (open ? "> " : ">= ") +
                     number(lo));
  return v;
}

double positive(const std::string& name, const std::string& text) {
  return number_from(name, text, 0.0, true);
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

bool ip_literal(const std::string& text) {
  unsigned char buf[sizeof(in6_addr)];
  return inet_pton(AF_INET, text.c_str(), buf) == 1 || inet_pton(AF_INET6, text.c_str(), buf) == 1;
}

// The web side binds an address as written: an IPv4 or IPv6 literal.
std::string ip_address(const std::string& name, const std::string& text) {
  if (!ip_literal(text))
    throw UsageError(name + ": '" + text + "' is not an IP address (for example 127.0.0.1, ::1, "
                     "0.0.0.0)");
  return text;
}

// The CORBA side also takes a host name, which omniORB resolves; digits and dots alone
// are meant as an IPv4 address and must be one.
std::string host_or_address(const std::string& name, const std::string& text) {
  if (ip_literal(text)) return text;
  const bool dotted = text.find_first_not_of("0123456789.") == std::string::npos;
  const bool hostname = !text.empty() && text.size() <= 253 && !dotted &&
                        text.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                               "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") ==
                            std::string::npos;
  if (!hostname)
    throw UsageError(name + ": '" + text + "' is not an IP address or a host name (for example "
                     "127.0.0.1, ::1, 0.0.0.0)");
  return text;
}

// --endpoint-publish: giop:tcp:HOST:PORT or giop:ssl:HOST:PORT, several joined by commas
// ("" = the listen address). Checked here because omniORB, given a malformed one, fails
// after it has opened the listen port, and the port check that follows would wrongly
// call the port "in use". A $(VAR) left unexpanded by the deployment is named as such.
std::string published_endpoints(const std::string& name, const std::string& text) {
  const std::string example = " (for example giop:tcp:sim.example.org:10150)";
  if (text.find("$(") != std::string::npos || text.find("${") != std::string::npos)
    throw UsageError(name + ": '" + text + "' holds a variable its deployment did not "
                     "expand; give the address itself" + example);
  std::size_t start = 0;
  while (!text.empty() && start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const bool giop = item.rfind("giop:tcp:", 0) == 0 || item.rfind("giop:ssl:", 0) == 0;
    const std::size_t colon = item.rfind(':');
    std::string host = giop && colon > 9 ? item.substr(9, colon - 9) : "";
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
      host = host.substr(1, host.size() - 2);  // an IPv6 literal in brackets
    try {
      if (!giop || host.empty()) throw UsageError("");
      host_or_address(name, host);
      integer(name, item.substr(colon + 1), 1, 65535);
    } catch (const UsageError&) {
      throw UsageError(name + ": '" + item + "' is not giop:tcp:HOST:PORT or "
                       "giop:ssl:HOST:PORT with a port in [1, 65535]" + example);
    }
    start = comma + 1;
  }
  return text;
}

// One setting: its flag, its config-file key, its environment variable (derived from the
// flag by env_name()), the help text, how a value is applied and how the current one reads.
// The --help text and the table in docs/deploy.md are both generated from this list.
struct Setting {
  const char* flag;
  const char* key;
  const char* value_name;   // "N", "DIR", "yes|no": what --help shows after the flag
  const char* help;         // lines of at most 60 columns, '\n' between them
  bool is_path;   // relative to the config file's directory when it comes from the file
  std::function<void(ServerOptions&, const std::string& name, const std::string& value)> apply;
  std::function<std::string(const ServerOptions&)> show;  // the value as a flag would give it
};

std::string yes_no(bool b) { return b ? "yes" : "no"; }

bool parse_yes_no(const std::string& name, const std::string& v) {
  if (v != "yes" && v != "no") throw UsageError(name + ": '" + v + "' is not yes or no");
  return v == "yes";
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
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

const char* to_string(web::ServerHeader h) {
  switch (h) {
    case web::ServerHeader::Version: return "version";
    case web::ServerHeader::Off: return "off";
    case web::ServerHeader::Auto: break;
  }
  return "auto";
}

const std::vector<Setting>& settings() {
  using O = ServerOptions;
  using S = const std::string&;
  static const std::vector<Setting> table = {
      {"--host", "host", "ADDR",
       "CORBA listen address: 127.0.0.1 = this machine only,\n0.0.0.0 = every interface",
       false, [](O& o, S n, S v) { o.corba.host = host_or_address(n, v); },
       [](const O& o) { return o.corba.host; }},
      {"--corba-port", "corba_port", "N",
       "fixed IIOP port of corbaloc::HOST:PORT/CraneClamAdmin\n(0 = any free port)", false,
       [](O& o, S n, S v) { o.corba.port = static_cast<int>(integer(n, v, 0, 65535)); },
       [](const O& o) { return std::to_string(o.corba.port); }},
      {"--endpoint-publish", "endpoint_publish", "EP",
       "the address references carry, for receivers that reach\nthe server by another "
       "(NAT, a container's published port):\ngiop:tcp:sim.example.org:10150 (\"\" = the "
       "listen address)",
       false, [](O& o, S n, S v) { o.corba.endpoint_publish = published_endpoints(n, v); },
       [](const O& o) { return o.corba.endpoint_publish; }},
      {"--max-sessions", "max_sessions", "N",
       "sessions served at once, every transport; past it new\nones are refused and /readyz "
       "answers 503",
       false,
       [](O& o, S n, S v) { o.max_sessions = static_cast<std::size_t>(integer(n, v, 1, 100000)); },
       [](const O& o) { return std::to_string(o.max_sessions); }},
      {"--max-sessions-per-client", "max_sessions_per_client", "N",
       "of those, from one client address (0 = no cap; raise it\nfor a classroom behind one "
       "NAT address). Browsers\nare counted by their connection's address; CORBA\nreceivers "
       "are not counted (docs/security.md)",
       false,
       [](O& o, S n, S v) {
         o.max_sessions_per_client = static_cast<std::size_t>(integer(n, v, 0, 100000));
       },
       [](const O& o) { return std::to_string(o.max_sessions_per_client); }},
      {"--models-dir", "models_dir", "DIR", "machine files *.json", true,
       [](O& o, S n, S v) { o.models_dir = non_empty(n, v); },
       [](const O& o) { return o.models_dir; }},
      {"--scenarios-dir", "scenarios_dir", "DIR",
       "world scenarios *.json (the dam, its loads, the task) and\ncontrol scripts *.ctl "
       "giving initial poses",
       true, [](O& o, S n, S v) { o.scenarios_dir = non_empty(n, v); },
       [](const O& o) { return o.scenarios_dir; }},
      {"--default-model", "default_model", "NAME",
       "model for subscribers that do not name one", false,
       [](O& o, S n, S v) { o.default_model = non_empty(n, v); },
       [](const O& o) { return o.default_model; }},
      {"--world", "world", "NAME|none",
       "the world every session works in: a *.json scenario of\nthe scenarios directory at "
       "its start pose; none = empty\nspace",
       false, [](O& o, S n, S v) { o.world = non_empty(n, v); },
       [](const O& o) { return o.world; }},
      {"--report-dir", "report_dir", "DIR",
       "where finished tasks' reports are written, created when\nmissing", true,
       [](O& o, S n, S v) { o.report_dir = non_empty(n, v); },
       [](const O& o) { return o.report_dir; }},
      {"--state-dir", "state_dir", "DIR",
       "the server's own files (instructor accounts, the\nself-signed certificate), created "
       "when missing", true,
       [](O& o, S n, S v) { o.state_dir = non_empty(n, v); },
       [](const O& o) { return o.state_dir; }},
      {"--record", "record", "yes|no",
       "record every session to an MCAP file (docs/recording.md)", false,
       [](O& o, S n, S v) { o.record = parse_yes_no(n, v); },
       [](const O& o) { return yes_no(o.record); }},
      {"--record-dir", "record_dir", "DIR",
       "where recordings go, created when missing (default: the\nstate directory's "
       "recordings/)", true,
       [](O& o, S n, S v) { o.record_dir = non_empty(n, v); },
       [](const O& o) { return o.recordings_dir(); }},
      {"--record-frame-every", "record_frame_every", "N",
       "record every Nth frame's outputs (the inputs are always\nall recorded)", false,
       [](O& o, S n, S v) { o.record_frame_every = static_cast<unsigned>(integer(n, v, 1, session::kMaxFrameEvery)); },
       [](const O& o) { return std::to_string(o.record_frame_every); }},
      {"--record-keep-days", "record_keep_days", "DAYS",
       "remove finished recordings older than this (0 = keep)", false,
       [](O& o, S n, S v) { o.record_keep_days = number_from(n, v, 0.0, false); },
       [](const O& o) { return number(o.record_keep_days); }},
      {"--record-keep-mb", "record_keep_mb", "MB",
       "remove the oldest finished recordings while all of them\ntogether exceed this "
       "(0 = no limit)", false,
       [](O& o, S n, S v) { o.record_keep_mb = number_from(n, v, 0.0, false); },
       [](const O& o) { return number(o.record_keep_mb); }},
      {"--max-replays", "max_replays", "N",
       "debrief replays in the browser at once (each has a thread\nand its run's checkpoints; "
       "docs/recording.md)", false,
       [](O& o, S n, S v) { o.web.max_replays = static_cast<std::size_t>(integer(n, v, 1, 1000)); },
       [](const O& o) { return std::to_string(o.web.max_replays); }},
      {"--max-replays-per-client", "max_replays_per_client", "N",
       "of those, replays on trainees' tickets from one client\naddress (0 = no cap; raise it "
       "for a classroom behind\none NAT address). Trainees' tickets never take the\nplaces "
       "kept for instructors (a quarter of --max-replays)",
       false,
       [](O& o, S n, S v) {
         o.web.max_replays_per_client = static_cast<std::size_t>(integer(n, v, 0, 1000));
       },
       [](const O& o) { return std::to_string(o.web.max_replays_per_client); }},
      {"--keyboard-file", "keyboard_file", "FILE",
       "the key layout the browser client drives with, also\nclamsim-receiver --keyboard's "
       "(docs/web-client.md,\n\"Keys\"); checked at start",
       true, [](O& o, S n, S v) { o.keyboard_file = non_empty(n, v); },
       [](const O& o) { return o.keyboard_file; }},
      {"--concurrency", "concurrency", "MODEL", "thread-per-connection or thread-pool", false,
       [](O& o, S n, S v) {
         if (!corba::parse_concurrency(v, &o.corba.concurrency))
           throw UsageError(n + ": '" + v + "' is not thread-per-connection or thread-pool");
       },
       [](const O& o) { return std::string(corba::to_string(o.corba.concurrency)); }},
      {"--pool-threads", "pool_threads", "N", "threads of the pool (thread-pool only)", false,
       [](O& o, S n, S v) { o.corba.pool_threads = static_cast<int>(integer(n, v, 1, 1024)); },
       [](const O& o) { return std::to_string(o.corba.pool_threads); }},
      {"--send-grace-s", "send_grace_s", "S",
       "reap a session whose sends have failed this long", false,
       [](O& o, S n, S v) { o.send_grace_s = positive(n, v); },
       [](const O& o) { return number(o.send_grace_s); }},
      {"--call-timeout-ms", "call_timeout_ms", "N",
       "bound on each frame sent to a receiver, 1-49", false,
       [](O& o, S n, S v) { o.corba.call_timeout_ms = static_cast<int>(integer(n, v, 1, 49)); },
       [](const O& o) { return std::to_string(o.corba.call_timeout_ms); }},
      {"--connect-timeout-ms", "connect_timeout_ms", "N",
       "bound on opening a connection to a receiver", false,
       [](O& o, S n, S v) {
         o.corba.connect_timeout_ms = static_cast<int>(integer(n, v, 1, 60000));
       },
       [](const O& o) { return std::to_string(o.corba.connect_timeout_ms); }},
      {"--bidir", "bidir", "yes|no",
       "accept bidirectional GIOP: call receivers behind NAT or\na firewall back over the "
       "connection they opened",
       false, [](O& o, S n, S v) { o.corba.bidir = parse_yes_no(n, v); },
       [](const O& o) { return yes_no(o.corba.bidir); }},
      {"--corba-max-connections", "corba_max_connections", "N",
       "IIOP connections accepted at once, more are refused;\nwith thread-per-connection "
       "also the bound on its threads",
       false,
       [](O& o, S n, S v) {
         o.corba.max_connections = static_cast<int>(integer(n, v, 1, 1000000));
       },
       [](const O& o) { return std::to_string(o.corba.max_connections); }},
      {"--corba-max-connections-per-client", "corba_max_connections_per_client", "N",
       "of those, from one client address (raise it for many\nreceivers behind one NAT "
       "address)",
       false,
       [](O& o, S n, S v) {
         o.corba.max_connections_per_client = static_cast<int>(integer(n, v, 1, 1000000));
       },
       [](const O& o) { return std::to_string(o.corba.max_connections_per_client); }},
      {"--corba-idle-timeout-s", "corba_idle_timeout_s", "S",
       "close an incoming connection without a call for S\nseconds; the receiver's ORB "
       "reopens it (0 = never)",
       false,
       [](O& o, S n, S v) {
         o.corba.idle_connection_s = static_cast<int>(integer(n, v, 0, 86400));
       },
       [](const O& o) { return std::to_string(o.corba.idle_connection_s); }},
      {"--corba-request-timeout-ms", "corba_request_timeout_ms", "N",
       "a request must arrive whole within N ms (the first\nwithin N ms of the connection), "
       "else the connection\nis closed",
       false,
       [](O& o, S n, S v) {
         o.corba.request_timeout_ms = static_cast<int>(integer(n, v, 1, 600000));
       },
       [](const O& o) { return std::to_string(o.corba.request_timeout_ms); }},
      {"--corba-tls-cert", "corba_tls_cert", "FILE",
       "IIOP over TLS: the server's PEM certificate chain; with\n--corba-tls-key and "
       "--corba-tls-ca it opens\ncorbaloc:ssliop:HOST:TLS_PORT/CraneClamAdmin",
       true, [](O& o, S, S v) { o.corba.tls_cert = v; },
       [](const O& o) { return o.corba.tls_cert; }},
      {"--corba-tls-key", "corba_tls_key", "FILE",
       "the unencrypted PEM private key of --corba-tls-cert", true,
       [](O& o, S, S v) { o.corba.tls_key = v; }, [](const O& o) { return o.corba.tls_key; }},
      {"--corba-tls-ca", "corba_tls_ca", "FILE",
       "PEM certificate(s) of the CA that signs receivers'\nclient certificates", true,
       [](O& o, S, S v) { o.corba.tls_ca = v; }, [](const O& o) { return o.corba.tls_ca; }},
      {"--corba-tls-port", "corba_tls_port", "N",
       "port of IIOP over TLS (0 = any free port)", false,
       [](O& o, S n, S v) { o.corba.tls_port = static_cast<int>(integer(n, v, 0, 65535)); },
       [](const O& o) { return std::to_string(o.corba.tls_port); }},
      {"--corba-tls-client-cert", "corba_tls_client_cert", "optional|required",
       "required: refuse TLS receivers without a client\ncertificate from --corba-tls-ca; "
       "optional: accept them,\nbut only verified ones see trainee names",
       false,
       [](O& o, S n, S v) {
         if (v != "optional" && v != "required")
           throw UsageError(n + ": '" + v + "' is not optional or required");
         o.corba.tls_require_client_cert = v == "required";
       },
       [](const O& o) {
         return std::string(o.corba.tls_require_client_cert ? "required" : "optional");
       }},
      {"--corba-plain", "corba_plain", "auto|yes|no",
       "plain IIOP on --corba-port: auto = only while TLS is\noff; yes = beside TLS too (a "
       "legacy receiver on a\ntrusted LAN); no = never",
       false,
       [](O& o, S n, S v) {
         using P = corba::CorbaOptions::Plain;
         if (v == "auto") o.corba.plain = P::Auto;
         else if (v == "yes") o.corba.plain = P::Yes;
         else if (v == "no") o.corba.plain = P::No;
         else throw UsageError(n + ": '" + v + "' is not auto, yes or no");
       },
       [](const O& o) {
         using P = corba::CorbaOptions::Plain;
         return std::string(o.corba.plain == P::Yes ? "yes" : o.corba.plain == P::No ? "no" : "auto");
       }},
      {"--naming-service", "naming_service", "REF",
       "also bind the admin in this CORBA Naming Service, e.g.\n"
       "corbaloc::host:2809/NameService (\"\" = none)",
       false, [](O& o, S n, S v) { o.corba.naming_service = object_url(n, v); },
       [](const O& o) { return o.corba.naming_service; }},
      {"--naming-name", "naming_name", "NAME",
       "name to bind there (\"a/b\" makes context a)", false,
       [](O& o, S n, S v) { o.corba.naming_name = non_empty(n, v); },
       [](const O& o) { return o.corba.naming_name; }},
      {"--http-host", "http_host", "ADDR",
       "web front end (browser client, /ws, probes, /metrics)\nlisten address", false,
       [](O& o, S n, S v) { o.web.address = ip_address(n, v); },
       [](const O& o) { return o.web.address; }},
      {"--http-all-interfaces", "http_all_interfaces", "yes|no",
       "listen on every interface instead of --http-host", false,
       [](O& o, S n, S v) { o.web.all_interfaces = parse_yes_no(n, v); },
       [](const O& o) { return yes_no(o.web.all_interfaces); }},
      {"--http-port", "http_port", "N|off",
       "web port (0 = any free port; off = no web front end)", false,
       [](O& o, S n, S v) {
         o.web_enabled = v != "off";
         if (o.web_enabled) o.web.port = static_cast<std::uint16_t>(integer(n, v, 0, 65535));
       },
       [](const O& o) { return o.web_enabled ? std::to_string(o.web.port) : "off"; }},
      {"--web-root", "web_root", "DIR", "the browser client's files", true,
       [](O& o, S n, S v) { o.web.web_root = non_empty(n, v); },
       [](const O& o) { return o.web.web_root; }},
      {"--vendor-three-dir", "vendor_three_dir", "DIR",
       "three.js from npm, served at /vendor/three/", true,
       [](O& o, S n, S v) { o.web.vendor_three_dir = non_empty(n, v); },
       [](const O& o) { return o.web.vendor_three_dir; }},
      {"--vendor-uplot-dir", "vendor_uplot_dir", "DIR",
       "uPlot from npm (its dist/), served at /vendor/uplot/ for the\nreplay's plots", true,
       [](O& o, S n, S v) { o.web.vendor_uplot_dir = non_empty(n, v); },
       [](const O& o) { return o.web.vendor_uplot_dir; }},
      {"--allowed-origins", "allowed_origins", "LIST",
       "comma-separated origins allowed to open /ws (\"\" = the\npage's own host and any "
       "localhost page; * = any)",
       false,
       [](O& o, S, S v) { o.web.allowed_origins = comma_list(v); },
       [](const O& o) { return joined(o.web.allowed_origins); }},
      {"--http-allowed-hosts", "http_allowed_hosts", "LIST",
       "host names the web front end answers for (Host header)\nbesides localhost, the "
       "loopback and the listen addresses;\nothers get 421 (docs/security.md)",
       false,
       [](O& o, S n, S v) {
         o.web.allowed_hosts = comma_list(v);
         try {
           web::HostPolicy check(o.web.allowed_hosts, {});
         } catch (const std::invalid_argument& e) {
           throw UsageError(n + ": " + e.what());
         }
       },
       [](const O& o) { return joined(o.web.allowed_hosts); }},
      {"--http-server-header", "http_server_header", "auto|version|off",
       "the Server header; auto names the version only while\nlistening on loopback alone",
       false,
       [](O& o, S n, S v) {
         if (v == "auto") o.web.server_header = web::ServerHeader::Auto;
         else if (v == "version") o.web.server_header = web::ServerHeader::Version;
         else if (v == "off") o.web.server_header = web::ServerHeader::Off;
         else throw UsageError(n + ": '" + v + "' is not auto, version or off");
       },
       [](const O& o) { return std::string(to_string(o.web.server_header)); }},
      {"--tls-cert", "tls_cert", "FILE",
       "HTTPS and WSS on the web port: the certificate (PEM,\nfull chain: the server's, then "
       "its intermediates); with\n--tls-key; SIGHUP reloads both (docs/security.md)",
       true, [](O& o, S n, S v) { o.web.tls_cert_file = non_empty(n, v); },
       [](const O& o) { return o.web.tls_cert_file; }},
      {"--tls-key", "tls_key", "FILE", "the certificate's private key (PEM)", true,
       [](O& o, S n, S v) { o.web.tls_key_file = non_empty(n, v); },
       [](const O& o) { return o.web.tls_key_file; }},
      {"--tls-self-signed", "tls_self_signed", "yes|no",
       "HTTPS and WSS with a self-signed certificate made once\nunder STATE_DIR/tls/ and kept; "
       "its SHA-256 fingerprint\nis printed at start-up",
       false, [](O& o, S n, S v) { o.tls_self_signed = parse_yes_no(n, v); },
       [](const O& o) { return yes_no(o.tls_self_signed); }},
      {"--http-max-connections", "http_max_connections", "N",
       "open web connections, HTTP and WebSocket together", false,
       [](O& o, S n, S v) {
         o.web.max_connections = static_cast<std::size_t>(integer(n, v, 1, 1000000));
       },
       [](const O& o) { return std::to_string(o.web.max_connections); }},
      {"--http-max-connections-per-client", "http_max_connections_per_client", "N",
       "of those, from one client address (raise it for a\nclassroom behind one NAT address)",
       false,
       [](O& o, S n, S v) {
         o.web.max_connections_per_client = static_cast<std::size_t>(integer(n, v, 1, 1000000));
       },
       [](const O& o) { return std::to_string(o.web.max_connections_per_client); }},
      {"--http-connection-rate-per-client", "http_connection_rate_per_client", "N",
       "new connections per second from one client address;\nmore are refused (0 = no "
       "limit; raise it for a\nclassroom behind one NAT address)",
       false, [](O& o, S n, S v) { o.web.connection_rate_per_client = number_from(n, v, 0.0, false); },
       [](const O& o) { return number(o.web.connection_rate_per_client); }},
      {"--http-connection-burst-per-client", "http_connection_burst_per_client", "N",
       "connections one address may open at once after a quiet\nspell (a page load opens "
       "up to ~7)",
       false, [](O& o, S n, S v) { o.web.connection_burst_per_client = number_from(n, v, 1.0, false); },
       [](const O& o) { return number(o.web.connection_burst_per_client); }},
      {"--http-io-tick-us", "http_io_tick_us", "N",
       "under load each web I/O thread wakes every N\nmicroseconds and handles all that "
       "arrived (0 = it\nwakes for every message; docs/wsload.md)",
       false, [](O& o, S n, S v) { o.web.io_tick_us = static_cast<int>(integer(n, v, 0, 20000)); },
       [](const O& o) { return std::to_string(o.web.io_tick_us); }},
      {"--web-max-frame-rate", "web_max_frame_rate", "HZ",
       "the most frames per second a browser may ask for\n(/ws?rate=20|30|60; 20 is always "
       "offered)",
       false,
       [](O& o, S n, S v) { o.web.max_frame_rate_hz = static_cast<double>(integer(n, v, 20, 60)); },
       [](const O& o) { return std::to_string(static_cast<int>(o.web.max_frame_rate_hz)); }},
      {"--http-timeout-s", "http_timeout_s", "S",
       "an HTTP request or WebSocket handshake must arrive\nwithin S seconds of the "
       "connection or the last answer",
       false, [](O& o, S n, S v) { o.web.http_timeout_s = positive(n, v); },
       [](const O& o) { return number(o.web.http_timeout_s); }},
      {"--accounts", "accounts", "FILE",
       "instructor accounts (clamsim-accounts); with it the\ninstructor data needs a login, "
       "loopback included (\"\" =\nnone; beyond loopback STATE_DIR/accounts.json is used)",
       true, [](O& o, S, S v) { o.web.access.accounts_file = v; },
       [](const O& o) { return o.web.access.accounts_file; }},
      {"--login-idle-timeout-s", "login_idle_timeout_s", "S",
       "an instructor's login ends after S seconds without a\nrequest", false,
       [](O& o, S n, S v) { o.web.access.login_idle_s = positive(n, v); },
       [](const O& o) { return number(o.web.access.login_idle_s); }},
      {"--login-max-lifetime-s", "login_max_lifetime_s", "S",
       "and S seconds after logging in, whatever happens", false,
       [](O& o, S n, S v) { o.web.access.login_max_s = positive(n, v); },
       [](const O& o) { return number(o.web.access.login_max_s); }},
      {"--login-failures-before-lockout", "login_failures_before_lockout", "N",
       "failed logins (or class codes) from one address before\nit is locked out; answers "
       "slow down from N/3", false,
       [](O& o, S n, S v) {
         o.web.access.failures_before_lockout = static_cast<int>(integer(n, v, 1, 1000));
       },
       [](const O& o) { return std::to_string(o.web.access.failures_before_lockout); }},
      {"--login-lockout-s", "login_lockout_s", "S",
       "how long a locked-out address is refused (429)", false,
       [](O& o, S n, S v) { o.web.access.lockout_s = positive(n, v); },
       [](const O& o) { return number(o.web.access.lockout_s); }},
      {"--class-code", "class_code", "CODE",
       "a browser trainee must give this code to start a\nsession (\"\" = none needed)",
       false,
       [](O& o, S n, S v) {
         if (v.size() > 64) throw UsageError(n + ": longer than 64 characters");
         o.web.access.class_code = v;
       },
       [](const O& o) { return o.web.access.class_code; }},
      {"--drain-seconds", "drain_seconds", "S",
       "on SIGTERM, how long running sessions may go on while\nno new ones start (0 = stop "
       "at once, like SIGINT)",
       false,
       [](O& o, S n, S v) { o.drain_seconds = static_cast<double>(integer(n, v, 0, 86400)); },
       [](const O& o) { return number(o.drain_seconds); }},
      {"--log-format", "log_format", "text|json",
       "the event log on stderr: text for people, json (one\nobject per line) for a log "
       "collector",
       false,
       [](O& o, S n, S v) {
         if (!base::parse_log_format(v, &o.log_format))
           throw UsageError(n + ": '" + v + "' is not text or json");
       },
       [](const O& o) { return std::string(o.log_format == base::LogFormat::Json ? "json" : "text"); }},
      {"--exit-with-parent", "exit_with_parent", "yes|no",
       "stop as on SIGINT when the process that started the\nserver ends (launchers, test "
       "harnesses)",
       false, [](O& o, S n, S v) { o.exit_with_parent = parse_yes_no(n, v); },
       [](const O& o) { return yes_no(o.exit_with_parent); }},
  };
  return table;
}

const Setting* find_flag(const std::string& flag) {
  for (const auto& s : settings())
    if (flag == s.flag) return &s;
  return nullptr;
}

// A config-file key that is no setting: named, with the nearest setting when it looks like
// a typo of one.
[[noreturn]] void unknown_setting(const std::string& path, const std::string& key) {
  std::vector<std::string> keys;
  for (const Setting& s : settings()) keys.emplace_back(s.key);
  const std::string guess = model::nearest(key, keys);
  throw UsageError(path + ": " + key + ": unknown setting" +
                   (guess.empty() ? std::string(" (see --help)")
                                  : " (did you mean \"" + guess + "\"?)"));
}

// The value of a config-file key as the text a flag would give. Numbers are JSON numbers
// and everything else JSON strings: "corba_port": "10150" is refused, not guessed at, so
// that a quoted number never hides a value that was meant to be something else.
std::string config_text(const std::string& where, const Setting& s, const nlohmann::json& value) {
  const std::string kind = s.value_name;
  const bool numeric = kind == "N" || kind == "S";
  const bool number_or_word = kind.rfind("N|", 0) == 0;  // "N|off": a number or the word
  if (value.is_number_integer() || value.is_number_float()) {
    if (numeric || number_or_word) return value.dump();
    throw UsageError(where + ": expected a string (" + kind + "), got the number " +
                     value.dump() + "; write it in quotes");
  }
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (numeric || (number_or_word && text != kind.substr(2)))
      throw UsageError(where + ": expected a number" +
                       (number_or_word ? " or \"" + kind.substr(2) + "\"" : std::string()) +
                       ", got the string " + value.dump() + "; write numbers without quotes");
    return text;
  }
  throw UsageError(where + ": expected " + (numeric ? "a number" : "a string") + ", got " +
                   value.dump());
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
    if (!s) unknown_setting(path, key);
    std::string text = config_text(path + ": " + key, *s, value);
    if (s->is_path && !text.empty() && fs::path(text).is_relative())
      text = (dir / text).lexically_normal().string();
    s->apply(o, path + ": " + key, text);
  }
}

// The TLS settings that only make sense together, or not at all.
void check_tls(const ServerOptions& o) {
  const bool cert = !o.web.tls_cert_file.empty(), key = !o.web.tls_key_file.empty();
  if (cert != key)
    throw UsageError(std::string(cert ? "--tls-cert" : "--tls-key") + " needs " +
                     (cert ? "--tls-key" : "--tls-cert") + " too");
  if (cert && o.tls_self_signed)
    throw UsageError("--tls-self-signed yes and --tls-cert: choose one");
  if ((cert || o.tls_self_signed) && !o.web_enabled)
    throw UsageError("TLS is for the web port, and --http-port is off");
}

ServerOptions defaults() {
  ServerOptions o;
  o.web.web_root = kDefaultWebRoot;
  o.web.vendor_three_dir = kDefaultThree;
  o.web.vendor_uplot_dir = kDefaultUplot;
  return o;
}

// "--a b\nc" -> "    b\n    c" style indentation of a help text's lines.
std::string indented(const std::string& text, const char* indent) {
  std::string out = indent;
  for (const char c : text) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

}  // namespace

std::string env_name(const std::string& flag) {
  std::string name = "CLAMSIM_";
  for (const char c : flag.substr(2))
    name += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string server_usage() {
  std::string out = R"(Usage: clamsim-server [options]

Serves the crane and clamshell dynamics in real time: one session (own thread, 20 frames
per second) per subscribed receiver, over CORBA (the thesis's IDL, idl/clam.idl, and its
extensions, idl/clamx.idl) and WebSocket (browsers). Every session works in the world of
a scenario (the dam's intake, its loads and a scored training task).

Every setting comes, first found wins, from its flag, its environment variable
(CLAMSIM_ and the flag's name in capitals, '-' as '_'), its key in the config file, or
its default (docs/deploy.md lists them all):

  --config FILE
      JSON settings (default config/server.json when it exists); relative paths
      inside are relative to the file (env CLAMSIM_CONFIG)
)";
  const ServerOptions d = defaults();
  for (const Setting& s : settings()) {
    out += std::string("  ") + s.flag + " " + s.value_name + "\n";
    out += indented(s.help, "      ") + "\n";
    const std::string value = s.show(d);
    out += "      (default " + (value.empty() ? std::string("\"\"") : value) + "; env " +
           env_name(s.flag) + "; config " + s.key + ")\n";
  }
  out += R"(  --help
      this text
)";
  out += cli::kVersionHelp;
  out += R"(
Prints "ready corbaloc::..." and "ready http://..." (https:// with TLS) when serving; the
event log (session start and end, drain) goes to stderr. SIGHUP reloads the TLS
certificate and key (open connections keep theirs). SIGTERM drains: /readyz turns 503, new sessions are
refused, connected clients are told how long they have, and the server stops once the
last session ends or --drain-seconds runs out. SIGINT, or a second SIGTERM, stops at once:
every session stopped, counters printed, exit 0.

)";
  return out + cli::exit_codes_help();
}

std::string settings_markdown() {
  // a '|' splits a table cell, even inside backticks
  const auto cell = [](std::string text) {
    for (std::size_t at = 0; (at = text.find('|', at)) != std::string::npos; at += 2)
      text.replace(at, 1, "\\|");
    for (char& c : text)
      if (c == '\n') c = ' ';
    return text;
  };
  std::string out = "| flag | environment | config key | default | what |\n"
                    "| --- | --- | --- | --- | --- |\n"
                    "| `--config FILE` | `CLAMSIM_CONFIG` | | `config/server.json` when it "
                    "exists | JSON settings; relative paths inside are relative to the file |\n";
  const ServerOptions d = defaults();
  for (const Setting& s : settings()) {
    const std::string value = s.show(d);
    out += "| `" + cell(std::string(s.flag) + " " + s.value_name) + "` | `" + env_name(s.flag) +
           "` | `" + s.key + "` | " + (value.empty() ? "\"\"" : "`" + cell(value) + "`") +
           " | " + cell(s.help) + " |\n";
  }
  return out;
}

ServerOptions parse_server_options(int argc, const char* const* argv,
                                 const Environment& env) {
  // read the command line first: the config file is applied before everything
  cli::FlagSet known;
  known.valued.insert("--config");
  for (const Setting& s : settings()) known.valued.insert(s.flag);
  known.switches = {"--help", "-h", "--help-settings-markdown"};
  const cli::Args args(argc, argv, known);
  ServerOptions o = defaults();
  o.help = args.has("--help") || args.has("-h");
  o.help_markdown = args.has("--help-settings-markdown");
  if (o.help || o.help_markdown) return o;
  std::optional<std::string> config;
  if (const auto c = args.text("--config")) config = non_empty("--config", *c);
  std::set<std::string> seen;
  std::vector<std::pair<std::string, std::string>> flags;
  for (const auto& [flag, value] : args.given()) {
    seen.insert(flag);
    if (flag != "--config") flags.emplace_back(flag, value);
  }

  // the environment: ours are CLAMSIM_ + a flag's name; another CLAMSIM_ name is noted,
  // not refused (Kubernetes derives CLAMSIM_*_PORT variables from Service names)
  std::vector<std::pair<const Setting*, std::string>> from_env;
  for (const auto& [name, value] : env) {
    if (name.rfind("CLAMSIM_", 0) != 0) continue;
    if (name == "CLAMSIM_CONFIG") {
      if (!config) config = non_empty("environment CLAMSIM_CONFIG", value);
      continue;
    }
    const Setting* match = nullptr;
    for (const Setting& s : settings())
      if (name == env_name(s.flag)) match = &s;
    if (match)
      from_env.emplace_back(match, value);
    else
      o.notes.push_back("environment: " + name + " is not a clamsim-server setting; ignored");
  }

  if (config) {
    o.config_path = *config;
  } else {
    std::error_code ec;
    if (fs::is_regular_file(kDefaultConfig, ec)) o.config_path = kDefaultConfig;
  }
  if (!o.config_path.empty()) apply_config_file(o, o.config_path);
  for (const auto& [s, value] : from_env) {
    if (seen.count(s->flag)) continue;  // the flag wins
    s->apply(o, "environment " + env_name(s->flag), value);
  }
  for (const auto& [flag, value] : flags) find_flag(flag)->apply(o, flag, value);
  check_tls(o);
  if (o.corba.plain == corba::CorbaOptions::Plain::No && !o.corba.tls_on())
    throw UsageError("--corba-plain no: without --corba-tls-cert, --corba-tls-key and "
                     "--corba-tls-ca the CORBA side would have no endpoint");
  // A default that is not there (server started outside the checkout) is dropped with a
  // note; a path that was configured must exist, and the web layer says so if not.
  std::error_code ec;
  const std::string default_root = kDefaultWebRoot, default_three = kDefaultThree,
                    default_uplot = kDefaultUplot, default_keyboard = kDefaultKeyboard;
  for (auto [path, fallback] : {std::pair{&o.web.web_root, &default_root},
                                std::pair{&o.web.vendor_three_dir, &default_three},
                                std::pair{&o.web.vendor_uplot_dir, &default_uplot},
                                std::pair{&o.keyboard_file, &default_keyboard}}) {
    if (*path == *fallback && !fs::exists(*path, ec)) {
      o.notes.push_back("web: " + *path + " not found from " + fs::current_path(ec).string() +
                        "; not served (set it in the config or by flag)");
      path->clear();
    }
  }
  return o;
}

ServerOptions parse_server_options(int argc, const char* const* argv) {
  Environment env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    const auto eq = entry.find('=');
    if (eq != std::string::npos) env.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return parse_server_options(argc, argv, env);
}

}  // namespace clamsim::app
