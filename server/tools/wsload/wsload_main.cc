// clamsim-wsload: N browser-like WebSocket clients in one process against a running (or
// spawned) clamsim-server; the figures of docs/wsload.md. Exit status: 0 every session
// connected and was measured, 1 a session failed to connect, the server went away or the CSV
// could not be written, 2 bad arguments.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli/exit_codes.h"
#include "cli/version_flag.h"
#include "cli/args.h"
#include "tools/client/arrival_stats.h"
#include "tools/client/proc_stat.h"
#include "tools/client/received_frame.h"
#include "tools/loadgen/server_process.h"
#include "tools/wsload/ws_fleet.h"

namespace {

using namespace clamsim;

using clamsim::cli::kExitOk;
using clamsim::cli::kExitUsage;
constexpr int kExitFailed = clamsim::cli::kExitFailure;
constexpr double kServerReadyTimeoutS = 20.0;

const char* kUsage = R"(Usage: clamsim-wsload --url ws[s]://HOST:PORT/ws --sessions N [options]
       clamsim-wsload --spawn-server PATH --sessions N [options]
N browser-like WebSocket clients in one process (docs/wsload.md).
  --url URL               the server's WebSocket endpoint, ws://HOST:PORT/PATH, or
                          wss:// for TLS
  --tls                   TLS (wss://) even with a ws:// URL; a spawned server that
                          prints "ready https://" is reached over TLS anyway
  --tls-ca FILE           trust this CA (PEM) for the server's certificate and name
  --tls-insecure          take any certificate (a self-signed test server)
  --server-pid PID        the server's process, for its CPU time (/proc/PID/stat)
  --spawn-server PATH     start PATH (clamsim-server) from the current directory with
                          --host 127.0.0.1 --corba-port 0 --http-host 127.0.0.1
                          --http-port 0 --max-sessions max(N,250), per-client
                          limits off (every client is this machine); SIGTERM at the end
  --server-arg ARG        one more argument for the spawned server (repeatable)
  --sessions N            clients, 1..10000
  --duration S            the measurement window, default 10
  --warmup S              wait after the last client connected, default 1
  --connect-rate R        connections per second, default one every 19.1 ms (0.382 frame)
  --control-rate HZ       control messages per client per second, default 20; 0 = none
  --ping-rate HZ          pings per client per second, default 1; 0 = none
  --swing-volts V         send a slow +-V swing instead of all zeros (0..5, default 0)
  --threads N             io_context threads, 1 or 2 (default 1)
  --reconnect S           a client whose connection ends (a server killed or draining
                          away) waits S seconds and connects again, as the browser
                          does; through a load balancer it lands on another replica.
                          Default: no reconnect
  --observers K           K more clients watch the first session (/ws?observe=ID, no
                          controls), 0..1000; the report compares that session's
                          lateness with the other sessions' in the same window
  --baseline S            first connect one client alone and measure it for S
                          seconds (after --warmup), then the others: the report
                          compares the loaded p99 lateness with this one's
  --csv FILE              one row per session (observers after the sessions)
  --help                  this text
  --version               print the version and exit
A run fails (1 below) when a session fails to connect, the server goes away or the CSV
cannot be written.
)";

std::atomic<bool> g_stop{false};
extern "C" void on_signal(int) { g_stop = true; }

void wait_until(double until_s) {
  while (!g_stop && client::now_s() < until_s) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

struct Options {
  std::string url, spawn_server, csv;
  std::vector<std::string> server_args;
  long server_pid = 0;
  int sessions = 0;
  int observers = 0;   // clients watching session 0
  double duration_s = 10.0, warmup_s = 1.0, connect_interval_s = 0.0191;
  double control_hz = 20.0, ping_hz = 1.0, swing_volts = 0.0;
  int threads = 1;
  double reconnect_s = -1.0;  // < 0: off
  double baseline_s = 0.0;    // 0: no single-session measurement first
  bool help = false;
  bool tls = false, tls_insecure = false;
  std::string tls_ca;
};

Options parse(int argc, char** argv) {
  cli::FlagSet flags;
  flags.valued = {"--url",         "--server-pid", "--spawn-server", "--server-arg",
                  "--sessions",    "--duration",   "--warmup",       "--connect-rate",
                  "--control-rate", "--ping-rate", "--swing-volts",  "--threads", "--csv", "--observers",
                  "--tls-ca", "--reconnect", "--baseline"};
  flags.switches = {"--help", "--tls", "--tls-insecure"};
  flags.repeatable = flags.verbatim = {"--server-arg"};
  cli::Args a(argc, argv, flags);
  Options o;
  o.help = a.has("--help");
  if (o.help) return o;
  o.url = a.text("--url").value_or("");
  o.spawn_server = a.text("--spawn-server").value_or("");
  o.server_args = a.all("--server-arg");
  if (o.url.empty() == o.spawn_server.empty()) {
    throw cli::UsageError("give exactly one of --url and --spawn-server");
  }
  if (!o.server_args.empty() && o.spawn_server.empty()) {
    throw cli::UsageError("--server-arg needs --spawn-server");
  }
  o.server_pid = a.integer("--server-pid", 1, 1L << 30).value_or(0);
  if (o.server_pid && !o.spawn_server.empty()) {
    throw cli::UsageError("--server-pid and --spawn-server exclude each other");
  }
  if (!a.has("--sessions")) throw cli::UsageError("--sessions is required");
  o.sessions = static_cast<int>(*a.integer("--sessions", 1, 10000));
  o.duration_s = a.number("--duration", 0.1, 86400).value_or(o.duration_s);
  o.warmup_s = a.number("--warmup", 0, 3600).value_or(o.warmup_s);
  if (auto r = a.number("--connect-rate", 0.1, 100000)) o.connect_interval_s = 1.0 / *r;
  o.control_hz = a.number("--control-rate", 0, 200).value_or(o.control_hz);
  o.ping_hz = a.number("--ping-rate", 0, 20).value_or(o.ping_hz);
  o.swing_volts = a.number("--swing-volts", 0, 5).value_or(o.swing_volts);
  o.threads = static_cast<int>(a.integer("--threads", 1, 2).value_or(1));
  o.csv = a.text("--csv").value_or("");
  o.observers = static_cast<int>(a.integer("--observers", 0, 1000).value_or(0));
  o.reconnect_s = a.number("--reconnect", 0, 3600).value_or(o.reconnect_s);
  o.baseline_s = a.number("--baseline", 1, 3600).value_or(0.0);
  o.tls = a.has("--tls") || o.url.rfind("wss://", 0) == 0;
  o.tls_ca = a.text("--tls-ca").value_or("");
  o.tls_insecure = a.has("--tls-insecure");
  if (!o.tls_ca.empty() && o.tls_insecure)
    throw cli::UsageError("--tls-ca and --tls-insecure exclude each other");
  if (o.tls && o.tls_ca.empty() && !o.tls_insecure)
    throw cli::UsageError("TLS needs --tls-ca FILE (or --tls-insecure for a self-signed "
                             "test server)");
  return o;
}

struct Url {
  std::string host, port, target;
};

Url parse_url(const std::string& url) {
  static const std::regex re(R"(wss?://([^/:]+|\[[^\]]+\]):([0-9]+)(/.*)?)");
  std::smatch m;
  if (!std::regex_match(url, m, re)) {
    throw cli::UsageError("--url: '" + url + "' is not ws://HOST:PORT/PATH or wss://...");
  }
  return {m[1].str(), m[2].str(), m[3].matched ? m[3].str() : "/"};
}

double ms(double s) { return s * 1000.0; }

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Session 0 watched by observers against the other sessions, in the same window: lateness
// percentiles (each session's own best offset, as above) and their ratios; the observers'
// frames.
void report_observed(const std::vector<wsload::ClientResult>& results, double window_s,
                     std::size_t asked) {
  std::vector<double> watched, others, observers;
  std::uint64_t observer_frames = 0, observer_lost = 0;
  std::size_t observer_clients = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    if (!r.connected) continue;
    const auto late = r.arrivals.lateness_s();
    if (r.observing > 0) {
      ++observer_clients;
      observer_frames += r.arrivals.frames();
      observer_lost += r.arrivals.lost();
      observers.insert(observers.end(), late.begin(), late.end());
    } else {
      std::vector<double>& into = i == 0 ? watched : others;
      into.insert(into.end(), late.begin(), late.end());
    }
  }
  const auto line = [](const char* who, const std::vector<double>& v) {
    std::printf("  %-28s p50 %.2f p99 %.2f max %.2f ms (%zu frames)\n", who,
                ms(client::percentile(v, 50)), ms(client::percentile(v, 99)),
                ms(client::percentile(v, 100)), v.size());
  };
  std::printf("observed: session 0 with %zu of %zu observers connected; lateness:\n",
              observer_clients, asked);
  line("session 0 (observed)", watched);
  if (!others.empty()) {
    line("the other sessions", others);
    const auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
    std::printf("  ratio observed / others:     p50 %.2f p99 %.2f\n",
                ratio(client::percentile(watched, 50), client::percentile(others, 50)),
                ratio(client::percentile(watched, 99), client::percentile(others, 99)));
  }
  line("the observers", observers);
  std::printf("  observers' frames/s: %.2f each, %llu lost (their queues drop stale frames)\n",
              observer_clients ? static_cast<double>(observer_frames) /
                                     static_cast<double>(observer_clients) / window_s
                               : 0.0,
              static_cast<unsigned long long>(observer_lost));
}

// Options and the server's address, or the exit status when there is nothing to run
// (--help, bad arguments).
std::optional<int> prepare(int argc, char** argv, Options& opt, Url& url) {
  try {
    opt = parse(argc, argv);
    if (opt.help) {
      std::fputs(kUsage, stdout);
      std::fputs(("\n" + clamsim::cli::exit_codes_help()).c_str(), stdout);
      return kExitOk;
    }
    if (!opt.url.empty()) url = parse_url(opt.url);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clamsim-wsload: %s\n", e.what());
    return kExitUsage;
  }
  return std::nullopt;
}

void stop_on_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

// --spawn-server: starts it on loopback with room for every client from this one address,
// and reads its WebSocket address (and whether it speaks TLS) from its "ready" line.
// Throws when it does not come up.
std::unique_ptr<loadgen::ServerProcess> spawn_server(Options& opt, Url& url) {
  const std::vector<std::string> args = loadgen::server_args_with_defaults(
      opt.server_args, {{"--host", "127.0.0.1"},
                        {"--corba-port", "0"},
                        {"--http-host", "127.0.0.1"},
                        {"--http-port", "0"},
                        {"--max-sessions", std::to_string(std::max(opt.sessions, 250))},
                        // every client comes from this one address
                        {"--http-max-connections-per-client",
                         std::to_string(std::max(opt.sessions + opt.observers, 250) + 16)},
                        {"--max-sessions-per-client", "0"},
                        {"--http-connection-rate-per-client", "0"}});
  auto spawned =
      std::make_unique<loadgen::ServerProcess>(opt.spawn_server, args, kServerReadyTimeoutS);
  // the corbaloc line came first; the http line follows it
  static const std::regex ready(R"(ready (https?)://([^/\s]+)/)");
  std::smatch m;
  const double deadline = client::now_s() + 5.0;
  std::string out;
  while (!std::regex_search(out = spawned->output(), m, ready)) {
    if (client::now_s() > deadline || !spawned->running()) {
      throw std::runtime_error("the server printed no 'ready http(s)://' line:\n" + out);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (m[1].str() == "https" && !opt.tls) {
    if (opt.tls_ca.empty() && !opt.tls_insecure)
      throw std::runtime_error("the server speaks https: give --tls-ca FILE or --tls-insecure");
    opt.tls = true;
  }
  url = parse_url("ws://" + m[2].str() + "/ws");
  opt.server_pid = spawned->pid();
  return spawned;
}

wsload::FleetConfig fleet_config(const Options& opt, const Url& url) {
  wsload::FleetConfig fc;
  fc.host = url.host;
  fc.port = url.port;
  fc.target = url.target;
  fc.control_hz = opt.control_hz;
  fc.ping_hz = opt.ping_hz;
  fc.swing_volts = opt.swing_volts;
  fc.threads = opt.threads;
  fc.reconnect_s = opt.reconnect_s;
  fc.tls = opt.tls;
  fc.tls_ca = opt.tls_ca;
  fc.tls_insecure = opt.tls_insecure;
  return fc;
}

struct Ramp {
  double seconds = 0.0;     // from the first connect until every client settled
  std::size_t watchers = 0; // observers started
};

// Waits (bounded) until `count` clients have their hello or were refused.
void wait_settled(const wsload::Fleet& fleet, std::size_t count) {
  const double deadline = client::now_s() + 15.0;
  while (!g_stop && fleet.settled() < count && client::now_s() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Observers of the first session, once its hello named it; how many were started.
std::size_t add_observers(wsload::Fleet& fleet, const Options& opt) {
  if (opt.observers <= 0 || g_stop) return 0;
  const std::int64_t watched = fleet.server_session(0);
  if (watched < 0) {
    std::fprintf(stderr, "clamsim-wsload: the first session did not start; no one to observe\n");
    return 0;
  }
  std::size_t watchers = 0;
  const double start = client::now_s();
  for (int i = 0; i < opt.observers && !g_stop; ++i) {
    wait_until(start + i * opt.connect_interval_s);
    fleet.add_client(watched);
    ++watchers;
  }
  wait_settled(fleet, static_cast<std::size_t>(opt.sessions) + watchers);
  return watchers;
}

// Paced ramp-up: phases frac(i x 0.382) x 50 ms, as docs/loadgen.md explains.
Ramp ramp_up(wsload::Fleet& fleet, const Options& opt) {
  const double ramp_start = client::now_s();
  for (int i = 0; i < opt.sessions && !g_stop; ++i) {
    wait_until(ramp_start + i * opt.connect_interval_s);
    fleet.add_client();
    if ((i + 1) % 50 == 0) std::fprintf(stderr, "clamsim-wsload: %d clients started\n", i + 1);
  }
  wait_settled(fleet, static_cast<std::size_t>(opt.sessions));
  Ramp r;
  r.watchers = add_observers(fleet, opt);
  r.seconds = client::now_s() - ramp_start;
  return r;
}

struct Window {
  double seconds = 0.0;
  std::optional<client::ProcSample> server0, server1, self0, self1;
  std::optional<double> machine_busy;   // share of all cores busy, 0..1
  std::optional<double> baseline_p99_s; // --baseline: one session's alone, before the others
};

// --baseline: one client alone, on a fleet of its own that closes before the others
// connect: its p99 lateness [s] over opt.baseline_s after the warm-up (none: no frame).
std::optional<double> measure_baseline(const Options& opt, const Url& url) {
  wsload::Fleet fleet(fleet_config(opt, url));
  fleet.start();
  fleet.add_client();
  wait_settled(fleet, 1);
  wait_until(client::now_s() + opt.warmup_s);
  const double w0 = client::now_s();
  fleet.open_window(w0);
  wait_until(w0 + opt.baseline_s);
  fleet.close_window(client::now_s());
  fleet.stop(3.0);
  const std::vector<wsload::ClientResult> results = fleet.results();
  const std::vector<double> late =
      results.empty() ? std::vector<double>{} : results.front().arrivals.lateness_s();
  std::fprintf(stderr, "clamsim-wsload: one session alone: %zu frames, p99 lateness %.2f ms\n",
               late.size(), late.empty() ? 0.0 : ms(client::percentile(late, 99)));
  if (late.empty()) return std::nullopt;
  return client::percentile(late, 99);
}

// After the warm-up, the measured window, with the server's and our own CPU around it.
Window measure_window(wsload::Fleet& fleet, const Options& opt) {
  wait_until(client::now_s() + opt.warmup_s);
  const pid_t self_pid = getpid();
  const auto server_sample = [&] {
    return opt.server_pid ? client::read_proc(static_cast<pid_t>(opt.server_pid)) : std::nullopt;
  };
  Window w;
  w.server0 = server_sample();
  w.self0 = client::read_proc(self_pid);
  const auto machine0 = client::read_machine();
  const double w0 = client::now_s();
  fleet.open_window(w0);
  wait_until(w0 + opt.duration_s);
  const double w1 = client::now_s();
  fleet.close_window(w1);
  w.server1 = server_sample();
  w.self1 = client::read_proc(self_pid);
  const auto machine1 = client::read_machine();
  if (machine0 && machine1) w.machine_busy = client::busy_between(*machine0, *machine1);
  w.seconds = w1 - w0;
  return w;
}

struct Ending {
  std::vector<wsload::ClientResult> results;
  int server_status = -1;   // a spawned server's exit status
  bool server_gone = false; // the server was not there at the end
};

// Closes every connection (1000), then stops a spawned server.
Ending finish(wsload::Fleet& fleet, loadgen::ServerProcess* spawned, const Options& opt) {
  fleet.stop(3.0);
  Ending e;
  e.results = fleet.results();
  if (spawned) {
    e.server_gone = !spawned->running();
    e.server_status = spawned->stop();
  } else if (opt.server_pid) {
    e.server_gone = !client::read_proc(static_cast<pid_t>(opt.server_pid));
  }
  return e;
}

// The sessions' figures over the window (observers are reported apart).
struct Totals {
  std::size_t connected = 0, refused = 0, failed = 0, closed_later = 0, silent = 0;
  std::size_t reconnected = 0, drained = 0;  // clients that reconnected / were told to
  std::uint64_t reconnects = 0;
  std::map<std::string, int> reasons;  // "1013 server full: ..." -> count
  client::RunningStats fps, ia;
  std::vector<double> lateness, rtt;
  std::uint64_t frames = 0, lost = 0, out_of_order = 0, controls = 0, pings = 0, pongs = 0,
                errors = 0, bad = 0;
};

Totals add_up(const std::vector<wsload::ClientResult>& results, double window_s) {
  Totals t;
  for (const auto& r : results) {
    if (r.observing > 0) continue;
    if (r.connected) ++t.connected;
    if (r.refused) ++t.refused;
    if (r.failed) ++t.failed;
    if (r.closed_later) ++t.closed_later;
    if (r.reconnects > 0) ++t.reconnected;
    if (r.drain_notices > 0) ++t.drained;
    t.reconnects += r.reconnects;
    if (r.refused || r.failed || r.closed_later) {
      t.reasons[(r.close_code ? std::to_string(r.close_code) + " " : std::string()) +
                r.close_reason]++;
    }
    if (!r.connected) continue;
    if (r.arrivals.frames() == 0) ++t.silent;
    t.fps.add(static_cast<double>(r.arrivals.frames()) / window_s);
    t.ia.merge(r.arrivals.inter_arrival());
    for (double x : r.arrivals.lateness_s()) t.lateness.push_back(x);
    t.rtt.insert(t.rtt.end(), r.rtt_ms.begin(), r.rtt_ms.end());
    t.frames += r.arrivals.frames();
    t.lost += r.arrivals.lost();
    t.out_of_order += r.arrivals.out_of_order();
    t.controls += r.controls_sent;
    t.pings += r.pings_sent;
    t.pongs += r.pongs;
    t.errors += r.errors;
    t.bad += r.bad_messages;
  }
  return t;
}

void print_cpu(const Options& opt, const Window& w, const Totals& t) {
  const double total_fps = static_cast<double>(t.frames) / w.seconds;
  if (w.server0 && w.server1) {
    const double cpu = w.server1->cpu_s - w.server0->cpu_s;
    const double cores = cpu / w.seconds;
    std::printf("server: pid %ld, CPU %.1f %% of one core (%.2f s in %.2f s), %ld threads, RSS "
                "%.1f MiB\n",
                opt.server_pid, 100.0 * cores, cpu, w.seconds, w.server1->threads,
                w.server1->rss_mib);
    std::printf("server cost: %.0f frames/s per core, %.1f us of CPU per frame\n",
                cores > 0 ? total_fps / cores : 0.0,
                t.frames > 0 ? 1e6 * cpu / static_cast<double>(t.frames) : 0.0);
    const long long switches = w.server1->context_switches - w.server0->context_switches;
    if (w.server0->context_switches >= 0 && w.server1->context_switches >= 0 && t.frames > 0)
      std::printf("server context switches: %lld in the window, %.2f per frame\n", switches,
                  static_cast<double>(switches) / static_cast<double>(t.frames));
  } else if (opt.server_pid) {
    std::printf("server: pid %ld, CPU not readable\n", opt.server_pid);
  }
  if (w.self0 && w.self1) {
    std::printf("wsload: CPU %.1f %% of one core, %ld threads\n",
                100.0 * (w.self1->cpu_s - w.self0->cpu_s) / w.seconds, w.self1->threads);
  }
}

void print_report(const Options& opt, const std::string& url_text, const Ramp& ramp,
                  const Window& w, const Ending& e) {
  const Totals t = add_up(e.results, w.seconds);
  const double nominal = e.results.empty() ? 20.0 : 1.0 / e.results.front().frame_period_s;
  std::printf("clamsim-wsload: %d sessions for %.1f s against %s\n", opt.sessions, w.seconds,
              url_text.c_str());
  std::printf("connected: %zu of %d in %.2f s (%zu refused, %zu failed)\n", t.connected,
              opt.sessions, ramp.seconds, t.refused, t.failed);
  for (const auto& [why, count] : t.reasons) std::printf("  %d x %s\n", count, why.c_str());
  if (t.closed_later > 0) std::printf("closed during the run: %zu\n", t.closed_later);
  if (opt.reconnect_s >= 0)
    std::printf("reconnected: %zu clients, %llu reconnects\n", t.reconnected,
                static_cast<unsigned long long>(t.reconnects));
  if (t.drained > 0) std::printf("told the server drains: %zu\n", t.drained);
  if (t.silent > 0) std::printf("sessions without a frame in the window: %zu\n", t.silent);
  std::printf("frames/s: total %.1f, per session min %.2f mean %.2f max %.2f (nominal %.1f)\n",
              static_cast<double>(t.frames) / w.seconds, t.fps.min(), t.fps.mean(), t.fps.max(),
              nominal);
  std::printf("inter-arrival: min %.2f mean %.2f std %.2f max %.2f ms (all sessions)\n",
              ms(t.ia.min()), ms(t.ia.mean()), ms(t.ia.stddev()), ms(t.ia.max()));
  std::printf("lateness vs the %.0f ms schedule: p50 %.2f p99 %.2f max %.2f ms\n",
              ms(1.0 / nominal), ms(client::percentile(t.lateness, 50)),
              ms(client::percentile(t.lateness, 99)), ms(client::percentile(t.lateness, 100)));
  if (w.baseline_p99_s && *w.baseline_p99_s > 0.0)
    std::printf("%s\n", client::baseline_line(opt.baseline_s, *w.baseline_p99_s,
                                              static_cast<int>(t.connected),
                                              client::percentile(t.lateness, 99), w.machine_busy)
                            .c_str());
  std::printf("lost frames: %llu (sequence gaps); out of order %llu\n",
              static_cast<unsigned long long>(t.lost),
              static_cast<unsigned long long>(t.out_of_order));
  std::printf("ping round trip: p50 %.2f p99 %.2f max %.2f ms (%zu in the window)\n",
              client::percentile(t.rtt, 50), client::percentile(t.rtt, 99),
              client::percentile(t.rtt, 100), t.rtt.size());
  std::printf("sent: %llu control, %llu ping; received %llu pong, %llu error, %llu unreadable\n",
              static_cast<unsigned long long>(t.controls), static_cast<unsigned long long>(t.pings),
              static_cast<unsigned long long>(t.pongs), static_cast<unsigned long long>(t.errors),
              static_cast<unsigned long long>(t.bad));
  print_cpu(opt, w, t);
  if (w.machine_busy)
    std::printf("machine: %.0f %% of all cores busy in the window (every process)\n",
                *w.machine_busy * 100.0);
  if (opt.observers > 0)
    report_observed(e.results, w.seconds, static_cast<std::size_t>(opt.observers));
}

// One row per client; false (with a message) when the file could not be written.
bool write_csv(const std::string& path, const std::vector<wsload::ClientResult>& results,
               double window_s) {
  std::ofstream csv(path);
  csv << "session,server_session,connected,frames,fps,lost,out_of_order,ia_min_ms,ia_mean_ms,"
         "ia_std_ms,ia_max_ms,late_p50_ms,late_p99_ms,late_max_ms,rtt_p50_ms,rtt_p99_ms,"
         "controls_sent,pings_sent,pongs,errors,reconnects,drain_notices,close_code,close_reason\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    const auto late = r.arrivals.lateness_s();
    const auto& s = r.arrivals.inter_arrival();
    char row[512];
    std::snprintf(row, sizeof row,
                  "%zu,%lld,%d,%llu,%.3f,%llu,%llu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,"
                  "%llu,%llu,%llu,%llu,%llu,%llu,%d,",
                  i, static_cast<long long>(r.server_session), r.connected ? 1 : 0,
                  static_cast<unsigned long long>(r.arrivals.frames()),
                  static_cast<double>(r.arrivals.frames()) / window_s,
                  static_cast<unsigned long long>(r.arrivals.lost()),
                  static_cast<unsigned long long>(r.arrivals.out_of_order()), ms(s.min()),
                  ms(s.mean()), ms(s.stddev()), ms(s.max()), ms(client::percentile(late, 50)),
                  ms(client::percentile(late, 99)), ms(client::percentile(late, 100)),
                  client::percentile(r.rtt_ms, 50), client::percentile(r.rtt_ms, 99),
                  static_cast<unsigned long long>(r.controls_sent),
                  static_cast<unsigned long long>(r.pings_sent),
                  static_cast<unsigned long long>(r.pongs),
                  static_cast<unsigned long long>(r.errors),
                  static_cast<unsigned long long>(r.reconnects),
                  static_cast<unsigned long long>(r.drain_notices), r.close_code);
    csv << row << quote(r.close_reason) << "\n";
  }
  csv.flush();
  if (!csv) std::fprintf(stderr, "clamsim-wsload: cannot write %s\n", path.c_str());
  return static_cast<bool>(csv);
}

// Every session and every observer connected, the server stayed, the CSV was written.
bool run_held(const Options& opt, const Ramp& ramp, const Ending& e, bool csv_ok) {
  std::size_t connected = 0;
  for (const auto& r : e.results) connected += r.observing == 0 && r.connected ? 1 : 0;
  const bool watchers_ok = std::all_of(e.results.begin(), e.results.end(), [](const auto& r) {
    return r.observing == 0 || r.connected;
  });
  return connected >= static_cast<std::size_t>(opt.sessions) &&
         ramp.watchers >= static_cast<std::size_t>(opt.observers) && watchers_ok &&
         !e.server_gone && csv_ok && !g_stop;
}

int run_main(int argc, char** argv) {
  Options opt;
  Url url;
  if (const auto status = prepare(argc, argv, opt, url)) return *status;
  stop_on_signals();

  std::unique_ptr<loadgen::ServerProcess> spawned;
  try {
    if (!opt.spawn_server.empty()) spawned = spawn_server(opt, url);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clamsim-wsload: %s\n", e.what());
    return kExitFailed;
  }
  wsload::Fleet fleet(fleet_config(opt, url));
  try {
    fleet.start();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clamsim-wsload: %s\n", e.what());
    return kExitFailed;
  }

  std::optional<double> baseline_p99_s;
  if (opt.baseline_s > 0.0) baseline_p99_s = measure_baseline(opt, url);
  const Ramp ramp = ramp_up(fleet, opt);
  Window window = measure_window(fleet, opt);
  window.baseline_p99_s = baseline_p99_s;
  const Ending ending = finish(fleet, spawned.get(), opt);

  const std::string url_text =
      (opt.tls ? "wss://" : "ws://") + url.host + ":" + url.port + url.target;
  print_report(opt, url_text, ramp, window, ending);
  if (spawned) std::printf("server exit status: %d\n", ending.server_status);
  const bool csv_ok = opt.csv.empty() || write_csv(opt.csv, ending.results, window.seconds);
  if (ending.server_gone)
    std::fprintf(stderr, "clamsim-wsload: the server went away during the run\n");
  return run_held(opt, ramp, ending, csv_ok) ? kExitOk : kExitFailed;
}

}  // namespace

int main(int argc, char** argv) {
  if (clamsim::cli::print_version_if_asked(argc, argv, "clamsim-wsload")) return kExitOk;
  try {
    return run_main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clamsim-wsload: %s\n", e.what());
    return kExitFailed;
  }
}
