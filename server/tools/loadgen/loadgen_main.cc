// clamsim-loadgen: N receivers in one process against a running (or spawned) server; the
// figures of docs/loadgen.md. Exit status: 0 every session subscribed and was measured,
// 1 some subscription failed or the server went away, 2 bad arguments.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/exit_codes.h"
#include "cli/version_flag.h"
#include "core/params.h"
#include "model/json_fields.h"
#include "cli/args.h"
#include "tools/client/client_orb.h"
#include "tools/client/corba_errors.h"
#include "tools/client/proc_stat.h"
#include "tools/loadgen/fleet.h"
#include "tools/loadgen/load_report.h"
#include "tools/loadgen/loadgen_options.h"
#include "tools/loadgen/server_process.h"

namespace {

using namespace clamsim;

using clamsim::cli::kExitBadModel;
using clamsim::cli::kExitOk;
using clamsim::cli::kExitUsage;
constexpr int kExitFailed = clamsim::cli::kExitFailure;
constexpr double kServerReadyTimeoutS = 20.0;

std::atomic<bool> g_stop{false};

extern "C" void on_signal(int) { g_stop = true; }

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

// Sleeps until `until` (steady seconds) or a stop signal.
void wait_until(double until_s) {
  while (!g_stop && client::now_s() < until_s) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::optional<loadgen::CpuFigures> cpu_between(const std::optional<client::ProcSample>& a,
                                               const std::optional<client::ProcSample>& b,
                                               double wall_s) {
  if (!a || !b) return std::nullopt;
  loadgen::CpuFigures c;
  c.cpu_s = b->cpu_s - a->cpu_s;
  c.wall_s = wall_s;
  c.threads = b->threads;
  c.rss_mib = b->rss_mib;
  if (a->context_switches >= 0 && b->context_switches >= 0)
    c.context_switches = b->context_switches - a->context_switches;
  return c;
}

// The options and the control script, checked before anything starts; an exit status
// when the run ends here (help, a bad flag or file).
std::optional<int> prepare(int argc, char** argv, loadgen::LoadgenOptions& opt,
                           std::unique_ptr<model::ControlScript>& script) {
  try {
    opt = loadgen::parse_loadgen_options(argc, argv);
    if (opt.help) {
      std::fputs(loadgen::loadgen_usage(), stdout);
      std::fputs(("\n" + clamsim::cli::exit_codes_help()).c_str(), stdout);
      return kExitOk;
    }
    if (!opt.controls_path.empty()) {
      script =
          std::make_unique<model::ControlScript>(model::load_control_script(opt.controls_path));
    }
  } catch (const cli::UsageError& e) {
    std::fprintf(stderr, "clamsim-loadgen: %s\n", e.what());
    return kExitUsage;
  } catch (const model::ModelError& e) {
    std::fprintf(stderr, "clamsim-loadgen: %s\n", e.what());
    return kExitBadModel;
  }
  return std::nullopt;
}

// --spawn-server: starts it on loopback with free ports and room for every session, and
// points the options at it. Throws std::runtime_error when it does not come up.
std::unique_ptr<loadgen::ServerProcess> spawn_server(loadgen::LoadgenOptions& opt) {
  // the loadgen may ask for more than the server's default limit on purpose; raise it so
  // the limit is not what is measured, unless the caller set it
  const std::vector<std::string> args = loadgen::server_args_with_defaults(
      opt.server_args, {{"--host", "127.0.0.1"},
                        {"--corba-port", "0"},
                        {"--http-port", "0"},
                        {"--max-sessions", std::to_string(std::max(opt.sessions, 250))}});
  auto spawned =
      std::make_unique<loadgen::ServerProcess>(opt.spawn_server, args, kServerReadyTimeoutS);
  if (opt.server.empty()) opt.server = spawned->reference();
  opt.server_pid = spawned->pid();
  return spawned;
}

loadgen::LoadReport report_head(const loadgen::LoadgenOptions& opt, double period_s) {
  loadgen::LoadReport report;
  report.reference = opt.server;
  report.legacy = opt.legacy;
  report.requested = opt.sessions;
  report.window_s = opt.duration_s;
  report.nominal_hz = 1.0 / period_s;
  report.late_limit_s = opt.late_limit_ms * 1e-3;
  report.server_pid = opt.server_pid;
  return report;
}

// --baseline: the first session alone for opt.baseline_s, with its controls, before the
// others join: its p99 lateness [s] (0 when it got no frame).
double measure_baseline(const loadgen::LoadgenOptions& opt, loadgen::Fleet& fleet,
                        const model::ControlScript* script) {
  if (fleet.slots().empty() || !fleet.slots().front()->sub) return 0.0;
  fleet.start_controls(opt.control_rate_hz, script);
  const double start_s = client::now_s() + opt.warmup_s;
  fleet.set_window(start_s, start_s + opt.baseline_s);
  wait_until(start_s + opt.baseline_s);
  fleet.stop_controls();
  const std::vector<double> late = fleet.slots().front()->recorder->window_stats().lateness_s();
  std::fprintf(stderr, "clamsim-loadgen: one session alone: %zu frames, p99 lateness %.2f ms\n",
               late.size(), late.empty() ? 0.0 : client::percentile(late, 99) * 1e3);
  return late.empty() ? 0.0 : client::percentile(late, 99);
}

// The measured window: CPU of the server and of this process around it. Returns false
// when the server went away.
bool measure_window(const loadgen::LoadgenOptions& opt, loadgen::Fleet& fleet,
                    loadgen::LoadReport& report) {
  const double start_s = client::now_s() + opt.warmup_s;
  const double end_s = start_s + opt.duration_s;
  fleet.set_window(start_s, end_s);
  wait_until(start_s);
  const auto server_before = opt.server_pid ? client::read_proc(*opt.server_pid) : std::nullopt;
  const auto self_before = client::read_proc(getpid());
  const auto machine_before = client::read_machine();
  wait_until(end_s);
  const auto machine_after = client::read_machine();
  if (machine_before && machine_after)
    report.machine_busy = client::busy_between(*machine_before, *machine_after);
  const double wall_s = std::min(client::now_s(), end_s) - start_s;
  const auto server_after = opt.server_pid ? client::read_proc(*opt.server_pid) : std::nullopt;
  const auto self_after = client::read_proc(getpid());
  if (g_stop) {
    std::fprintf(stderr, "clamsim-loadgen: interrupted; reporting %.1f s\n", wall_s);
    report.window_s = std::max(wall_s, 1e-3);
  }
  report.server_cpu = cpu_between(server_before, server_after, wall_s);
  report.loadgen_cpu = cpu_between(self_before, self_after, wall_s);
  if (opt.server_pid && !server_after) {
    std::fprintf(stderr, "clamsim-loadgen: the server (pid %d) is gone\n",
                 static_cast<int>(*opt.server_pid));
    return false;
  }
  return true;
}

// Subscribes the fleet, drives and measures it, collects the server's counters and
// unsubscribes; the exit status. Throws client::ClientError and CORBA exceptions.
int run_fleet(const loadgen::LoadgenOptions& opt, const model::ControlScript* script,
              double period_s, loadgen::LoadReport& report) {
  client::OrbSettings orb_settings;
  orb_settings.bidir = opt.bidir;
  orb_settings.listen = opt.listen;
  orb_settings.call_timeout_ms = opt.subscribe_timeout_ms;
  orb_settings.orb_args = opt.orb_args;
  client::ClientOrb orb(orb_settings);
  CORBA::Object_var reference = orb.resolve(opt.server);
  client::ServerAdmin admin(reference.in(), opt.legacy, opt.subscribe_timeout_ms);

  loadgen::FleetSettings fs;
  fs.legacy = opt.legacy;
  fs.period_s = period_s;
  fs.subscribe.frame_rate_hz = static_cast<float>(opt.rate_hz);
  fs.subscribe.model = opt.model;
  fs.subscribe.session_timeout_ms = 1000;
  loadgen::Fleet fleet(orb, admin, fs);
  int exit_code = kExitOk;
  const double spacing_s = opt.subscribe_rate > 0.0 ? 1.0 / opt.subscribe_rate
                                                    : loadgen::phase_spreading_spacing(period_s);
  int alone = 0;
  if (opt.baseline_s > 0.0) {
    alone = fleet.subscribe_all(1, spacing_s, g_stop).subscribed;
    report.baseline_s = opt.baseline_s;
    report.baseline_p99_s = measure_baseline(opt, fleet, script);
  }
  report.ramp = fleet.subscribe_all(opt.sessions - alone, spacing_s, g_stop);
  report.ramp.subscribed += alone;
  if (report.ramp.subscribed < opt.sessions) exit_code = kExitFailed;
  fleet.start_controls(opt.control_rate_hz, script);
  if (!measure_window(opt, fleet, report)) exit_code = kExitFailed;
  fleet.stop_controls();
  // the last controls are in flight; the counters are read once they have landed
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  fleet.collect_server_stats();
  report.server_status = admin.status();
  loadgen::summarize(fleet, report);
  report.unsubscribe_failures = fleet.unsubscribe_all();
  return exit_code;
}

int run_main(int argc, char** argv) {
  loadgen::LoadgenOptions opt;
  std::unique_ptr<model::ControlScript> script;
  if (const auto done = prepare(argc, argv, opt, script)) return *done;
  install_signal_handlers();

  std::unique_ptr<loadgen::ServerProcess> spawned;
  if (!opt.spawn_server.empty()) {
    try {
      spawned = spawn_server(opt);
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "clamsim-loadgen: %s\n", e.what());
      return kExitFailed;
    }
  }
  const double period_s = opt.rate_hz > 0.0 ? 1.0 / opt.rate_hz : core::kFramePeriod_s;
  loadgen::LoadReport report = report_head(opt, period_s);
  int exit_code = kExitOk;
  try {
    exit_code = run_fleet(opt, script.get(), period_s, report);
  } catch (const client::ClientError& e) {
    std::fprintf(stderr, "clamsim-loadgen: %s\n", e.what());
    return kExitFailed;
  } catch (const CORBA::Exception& e) {
    std::fprintf(stderr, "clamsim-loadgen: %s\n", client::describe(e).c_str());
    return kExitFailed;
  }

  loadgen::print_report(stdout, report);
  std::fflush(stdout);
  if (!opt.csv_path.empty()) {
    try {
      loadgen::write_csv(opt.csv_path, report);
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "clamsim-loadgen: %s\n", e.what());
      exit_code = kExitFailed;
    }
  }
  if (spawned) {
    const int status = spawned->stop();
    if (status != 0) {
      std::fprintf(stderr, "clamsim-loadgen: the server exited with status %d\n", status);
    }
  }
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  if (clamsim::cli::print_version_if_asked(argc, argv, "clamsim-loadgen")) return kExitOk;
  try {
    return run_main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clamsim-loadgen: %s\n", e.what());
    return kExitFailed;
  }
}
