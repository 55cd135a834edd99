// clamsim-receiver: the classroom-PC client. Subscribes, sends the controls at 20 Hz,
// shows the frames as they come, records them, and reports Table 5.2 at exit.
// Exit status: 0 ok (also after Ctrl-C), 1 server unreachable / refused / lost,
// 2 bad arguments or input files.
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/version_flag.h"
#include "core/params.h"
#include "model/json_fields.h"
#include "cli/args.h"
#include "tools/client/client_orb.h"
#include "tools/client/corba_errors.h"
#include "tools/client/receiver_servants.h"
#include "tools/client/subscription.h"
#include "tools/receiver/frame_monitor.h"
#include "tools/receiver/joystick_source.h"
#include "tools/receiver/keyboard_source.h"
#include "tools/receiver/receiver_options.h"
#include "tools/receiver/script_source.h"
#include "tools/receiver/status_line.h"
#include "tools/receiver/summary.h"

namespace {

using namespace clamsim;

using clamsim::cli::kExitBadModel;
using clamsim::cli::kExitOk;
using clamsim::cli::kExitUsage;
constexpr int kExitFailed = clamsim::cli::kExitFailure;
constexpr double kControlPeriodS = core::kFramePeriod_s;  // controls at the frames' rate
constexpr unsigned kAdminTimeoutMs = 5000;
constexpr unsigned kSessionTimeoutMs = 1000;

volatile std::sig_atomic_t g_signals = 0;

// The first signal asks the main loop to finish (unsubscribe, summary, exit 0); a second
// one means the loop is stuck: put the terminal back and leave at once.
extern "C" void on_signal(int) {
  g_signals = g_signals + 1;
  if (g_signals > 1) {
    receiver::KeyboardSource::restore_from_signal();
    _exit(130);
  }
}

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

// The keyboard's layout, read before the terminal goes raw; its legend goes to stderr
// (the status line's stream) unless --quiet.
std::unique_ptr<receiver::KeyboardSource> make_keyboard(const receiver::ReceiverOptions& opt,
                                                        const char* argv0) {
  const std::string path =
      opt.keys_path.empty() ? receiver::default_keyboard_file(argv0) : opt.keys_path;
  auto keyboard = std::make_unique<receiver::KeyboardSource>(model::load_keyboard_layout(path),
                                                             opt.key_step_v);
  if (!opt.quiet) {
    std::fprintf(stderr, "clamsim-receiver: the browser's keys from %s; each press steps %g V "
                 "and holds\n%s", path.c_str(), static_cast<double>(opt.key_step_v),
                 keyboard->legend().c_str());
  }
  return keyboard;
}

// The keyboard's section of --help, from the layout --keyboard would read: the keys it
// names cannot drift from the ones the receiver uses.
std::string keys_help(const receiver::ReceiverOptions& opt, const char* argv0) {
  try {
    const std::string path =
        opt.keys_path.empty() ? receiver::default_keyboard_file(argv0) : opt.keys_path;
    const std::string legend = receiver::keyboard_legend(model::load_keyboard_layout(path));
    std::string indented = "  ";   // each line of the legend, two spaces in
    for (std::size_t i = 0; i < legend.size(); ++i)
      indented += legend[i] == '\n' && i + 1 < legend.size() ? std::string("\n  ") : std::string(1, legend[i]);
    return "Keys of --keyboard (from " + path + "; each press steps --key-step volts):\n" + indented;
  } catch (const std::exception& e) {
    return std::string("Keys of --keyboard: no layout to list (") + e.what() + ")\n";
  }
}

std::unique_ptr<receiver::ControlSource> make_source(const receiver::ReceiverOptions& opt,
                                                     const char* argv0) {
  switch (opt.input) {
    case receiver::Input::Script:
      return std::make_unique<receiver::ScriptSource>(opt.controls_path);
    case receiver::Input::Keyboard:
      return make_keyboard(opt, argv0);
    case receiver::Input::Joystick: {
      receiver::JoystickMapping mapping = opt.mapping_path.empty()
                                              ? receiver::default_mapping()
                                              : receiver::load_mapping(opt.mapping_path);
      return std::make_unique<receiver::JoystickSource>(opt.joystick_path, mapping);
    }
    case receiver::Input::Neutral: break;
  }
  return std::make_unique<receiver::NeutralSource>();
}

// The report the server sent when the task ended: one line about it, and saved with
// --report FILE (each new attempt's report replaces the last).
void on_task_report(const std::string& text, const receiver::ReceiverOptions& opt,
                    receiver::StatusLine& status, receiver::RunReport& report) {
  ++report.task_reports;
  std::string saved;
  if (!opt.report_path.empty()) {
    std::FILE* f = std::fopen(opt.report_path.c_str(), "w");
    bool ok = f != nullptr;
    if (ok) {
      ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() &&
           std::fputc('\n', f) != EOF;
      ok = std::fclose(f) == 0 && ok;
    }
    saved = ok ? " (saved to " + opt.report_path + ")"
               : " (NOT saved to " + opt.report_path + ": " + std::strerror(errno) + ")";
    if (ok) report.report_saved = opt.report_path;
  }
  if (opt.quiet && saved.empty()) return;
  const nlohmann::json r = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  status.finish();
  if (r.is_object() && r.contains("outcome") && r.contains("total")) {
    std::fprintf(stderr, "clamsim-receiver: task over: %s, %g points%s\n",
                 r["outcome"].get<std::string>().c_str(), r["total"].get<double>(), saved.c_str());
  } else {
    std::fprintf(stderr, "clamsim-receiver: task over%s\n", saved.c_str());
  }
}

// Everything local, checked before the network is touched: the options, the control
// source and the CSV. A bad flag or file ends the run here with its exit status.
struct Setup {
  receiver::ReceiverOptions opt;
  std::unique_ptr<receiver::ControlSource> source;
  std::unique_ptr<receiver::FrameCsv> csv;
  std::optional<double> duration_s;   // --duration, else the script's own
};

std::optional<int> prepare(int argc, char** argv, Setup& s) {
  try {
    s.opt = receiver::parse_receiver_options(argc, argv);
    if (s.opt.help) {
      std::fputs(receiver::receiver_usage(keys_help(s.opt, argv[0])).c_str(), stdout);
      std::fputs(("\n" + clamsim::cli::exit_codes_help()).c_str(), stdout);
      return kExitOk;
    }
    s.source = make_source(s.opt, argv[0]);
    s.duration_s = s.opt.duration_s;
    if (!s.duration_s) {
      if (auto* script = dynamic_cast<receiver::ScriptSource*>(s.source.get())) {
        s.duration_s = script->script().duration_s();
      }
    }
    if (!s.opt.csv_path.empty()) s.csv = std::make_unique<receiver::FrameCsv>(s.opt.csv_path);
    if (!s.opt.report_path.empty()) {
      const std::filesystem::path dir = std::filesystem::path(s.opt.report_path).parent_path();
      std::error_code ec;
      if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
        throw cli::UsageError("--report: no directory '" + dir.string() + "'");
      }
    }
  } catch (const cli::UsageError& e) {
    std::fprintf(stderr, "clamsim-receiver: %s\n", e.what());
    return kExitUsage;
  } catch (const model::ModelError& e) {
    std::fprintf(stderr, "clamsim-receiver: %s\n", e.what());
    return kExitBadModel;
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "clamsim-receiver: %s\n", e.what());
    return kExitUsage;
  }
  return std::nullopt;
}

// Notes about the input that save a trainee a puzzle (unless --quiet).
void note_input(const receiver::ReceiverOptions& opt, receiver::ControlSource& source) {
  if (opt.quiet) return;
  if (auto* script = dynamic_cast<receiver::ScriptSource*>(&source)) {
    // the pose belongs to the server's session; a script cannot move the machine there
    if (script->script().initial() && opt.scenario.empty()) {
      std::fprintf(stderr,
                   "clamsim-receiver: note: %s:%d: the script's initial pose is not sent; the "
                   "server's start pose applies (--scenario NAME picks one of its poses)\n",
                   opt.controls_path.c_str(), script->script().initial_line());
    }
  }
  if (auto* js = dynamic_cast<receiver::JoystickSource*>(&source)) {
    if (js->axis_count() > 0) {
      std::fprintf(stderr, "clamsim-receiver: joystick '%s', %d axes, %d buttons\n",
                   js->name().c_str(), js->axis_count(), js->button_count());
    }
    // pads number their buttons by driver: say so rather than leave the button dead
    const std::optional<int> restart = js->mapping().restart_button;
    if (restart && js->button_count() > 0 && *restart >= js->button_count()) {
      std::fprintf(stderr,
                   "clamsim-receiver: note: the mapping's restart button %d is not on this "
                   "joystick (buttons 0..%d); see docs/receiver.md\n",
                   *restart, js->button_count() - 1);
    }
  }
}

client::OrbSettings orb_settings_of(const receiver::ReceiverOptions& opt) {
  client::OrbSettings o;
  o.bidir = opt.bidir;
  o.listen = opt.listen;
  o.tls_ca = opt.tls_ca;
  o.tls_cert = opt.tls_cert;
  o.tls_key = opt.tls_key;
  o.server = opt.server;
  o.call_timeout_ms = kAdminTimeoutMs;
  o.orb_args = opt.orb_args;
  return o;
}

// What the control loop works with once the subscription stands.
struct Run {
  const receiver::ReceiverOptions& opt;
  receiver::ControlSource& source;
  receiver::FrameMonitor& monitor;
  client::Subscription& sub;
  receiver::RunReport& report;
  receiver::StatusLine& status;
  double period_s;
  std::array<float, 5> volts{};
  bool restart_sent = false;      // --restart-at fires once
  double failing_since = -1.0;    // time of the first failed send in a row
};

// A restart asked for by the trainee (R, the joystick's button) or due by --restart-at:
// a new attempt, and the source's held volts go back to neutral for it.
void restart_if_asked(Run& r, double t) {
  const bool due = r.opt.restart_at_s && !r.restart_sent && t >= *r.opt.restart_at_s;
  if (!r.source.take_restart_request() && !due) return;
  r.restart_sent = r.restart_sent || due;
  std::string error;
  if (r.sub.restart_task(&error)) {
    ++r.report.restarts;
    r.source.on_restart();
    r.volts = r.source.sample(t);
    r.monitor.set_volts(r.volts);
  } else {
    r.status.finish();
    std::fprintf(stderr, "clamsim-receiver: %s\n", error.c_str());
  }
}

// One control period: sample, restart, help, report, send. Returns an exit status when
// the run must end (the server lost), else nothing.
std::optional<int> control_step(Run& r, double t) {
  r.volts = r.source.sample(t);
  r.monitor.set_volts(r.volts);
  restart_if_asked(r, t);
  if (auto* keyboard = dynamic_cast<receiver::KeyboardSource*>(&r.source); keyboard != nullptr) {
    if (keyboard->take_help_request() && !r.opt.quiet) {
      r.status.finish();
      std::fputs(keyboard->legend().c_str(), stderr);
    }
    // the restart's question is asked even with --quiet: the key waits for its answer
    if (const std::string notice = keyboard->take_notice(); !notice.empty()) {
      r.status.finish();
      std::fprintf(stderr, "clamsim-receiver: %s\n", notice.c_str());
    }
  }
  if (auto text = r.monitor.take_report()) on_task_report(*text, r.opt, r.status, r.report);
  std::string send_error;
  if (r.sub.send_control(r.volts, &send_error)) {
    ++r.report.controls_sent;
    r.failing_since = -1.0;
  } else {
    ++r.report.control_failures;
    if (r.failing_since < 0.0) r.failing_since = t;
  }
  const receiver::MonitorSnapshot snap = r.monitor.snapshot(client::now_s());
  r.status.update(t, snap, r.volts, r.source.label());
  // controls failing for this long mean the server is gone
  constexpr double kSendTimeoutS = 3.0;
  if (r.failing_since >= 0.0 && t - r.failing_since > kSendTimeoutS) {
    r.status.finish();
    std::fprintf(stderr, "clamsim-receiver: lost the server: %s\n", send_error.c_str());
    r.report.server_lost = true;
    return kExitFailed;
  }
  // no frames for this long: the server is gone, or cannot reach us (--bidir?)
  if (snap.since_last_s > std::max(5.0, 3.0 * r.period_s)) {
    r.status.finish();
    std::fprintf(stderr, "clamsim-receiver: no frame from the server for %.0f s; giving up%s\n",
                 snap.since_last_s,
                 r.opt.bidir || !r.opt.tls_ca.empty() || r.failing_since >= 0.0
                     ? ""
                     : " (behind NAT or a firewall? try --bidir, or --listen with a "
                       "reachable address)");
    return kExitFailed;
  }
  return std::nullopt;
}

// Sends the controls at 20 Hz until the duration is up, a signal, the trainee's quit or
// the server is lost; returns the exit status so far.
int control_loop(Run& r, std::optional<double> duration_s, double t_sub) {
  using Clock = std::chrono::steady_clock;
  auto next = Clock::now();
  double t = 0.0;
  int exit_code = kExitOk;
  for (;;) {
    t = client::now_s() - t_sub;
    if (g_signals != 0 || r.source.quit_requested()) break;
    if (duration_s && t >= *duration_s) break;
    if (const auto failed = control_step(r, t)) {
      exit_code = *failed;
      break;
    }
    // absolute schedule: a late wake-up does not push every later sample back
    next += std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(kControlPeriodS));
    const auto now = Clock::now();
    if (next < now - std::chrono::seconds(1)) next = now;  // suspended: do not burst
    std::this_thread::sleep_until(next);
  }
  r.report.duration_s = t;
  return exit_code;
}

// After the loop: the last report and score, the server's counters, unsubscribing.
void end_session(Run& r) {
  r.status.finish();
  // a report that came with the last frames
  if (auto text = r.monitor.take_report()) on_task_report(*text, r.opt, r.status, r.report);
  if (const auto last = r.monitor.snapshot(client::now_s()).latest; last && last->score.enabled)
    r.report.task = last->score;
  if (r.report.server_lost) {
    r.sub.abandon();  // nobody to unsubscribe from; the server reaps on its side
  } else if (r.sub.extended()) {
    // the last controls are still in flight: give them a moment before reading counters
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::string error;
    r.report.server = r.sub.stats(&error);
    if (!r.report.server) std::fprintf(stderr, "clamsim-receiver: %s\n", error.c_str());
  }
  std::string error;
  if (!r.sub.unsubscribe(&error)) std::fprintf(stderr, "clamsim-receiver: %s\n", error.c_str());
}

// How a session ended: its exit status, and whether it ran at all (a refused or
// interrupted subscription has nothing to summarise).
struct SessionEnd {
  int exit_code = kExitOk;
  bool ran = false;
};

// Subscribes with our servant and runs the session to its end.
SessionEnd run_session(Setup& s, const std::shared_ptr<receiver::FrameMonitor>& shared_monitor,
                       receiver::RunReport& report) {
  const receiver::ReceiverOptions& opt = s.opt;
  receiver::FrameMonitor& monitor = *shared_monitor;
  client::ClientOrb orb(orb_settings_of(opt));
  CORBA::Object_var reference = orb.resolve(opt.server);
  client::ServerAdmin admin(reference.in(), opt.legacy, kAdminTimeoutMs);

  PortableServer::ServantBase* servant =
      opt.legacy
          ? static_cast<PortableServer::ServantBase*>(new client::DisplayServant(shared_monitor))
          : static_cast<PortableServer::ServantBase*>(new client::FrameServant(shared_monitor));
  PortableServer::ObjectId_var servant_id;
  CORBA::Object_var me = orb.activate(servant, servant_id.out());

  if (g_signals != 0) {
    std::fprintf(stderr, "clamsim-receiver: interrupted before subscribing\n");
    orb.deactivate(servant_id.in());
    return {kExitOk, false};
  }
  client::SubscribeSettings sub_settings;
  sub_settings.frame_rate_hz = static_cast<float>(opt.rate_hz);
  sub_settings.model = opt.model;
  sub_settings.scenario = opt.scenario;
  sub_settings.session_timeout_ms = kSessionTimeoutMs;
  monitor.start(client::now_s());
  std::unique_ptr<client::Subscription> sub;
  try {
    sub = admin.subscribe(me.in(), sub_settings);
  } catch (const client::Refused& r) {
    // a name the server does not have is this command line's mistake: name the flag (the
    // server's reason lists the names it has)
    const std::string why = r.what();
    for (const auto& [prefix, flag] : {std::pair<const char*, const char*>{"unknown scenario", "--scenario"},
                                       {"unknown model", "--model"}}) {
      if (why.rfind(prefix, 0) == 0) {
        std::fprintf(stderr, "clamsim-receiver: %s: the server refused it: %s\n", flag, why.c_str());
        orb.deactivate(servant_id.in());
        return {kExitUsage, false};
      }
    }
    std::fprintf(stderr, "clamsim-receiver: the server refused the subscription: %s\n", why.c_str());
    orb.deactivate(servant_id.in());
    return {kExitFailed, false};
  }
  if (!opt.trainee.empty()) {
    std::string trainee_error;
    if (!sub->set_trainee(opt.trainee, &trainee_error)) {
      std::fprintf(stderr, "clamsim-receiver: --trainee: %s\n", trainee_error.c_str());
      orb.deactivate(servant_id.in());
      return {kExitUsage, false};
    }
  }
  const double t_sub = client::now_s();
  monitor.start(t_sub);
  receiver::StatusLine status(opt.quiet);
  Run run{opt, *s.source, monitor, *sub, report, status, report.period_s};
  const int exit_code = control_loop(run, s.duration_s, t_sub);
  end_session(run);
  orb.deactivate(servant_id.in());
  report.frames = monitor.stats();
  return {exit_code, true};
}

// --observe: one line per event the watched session brings (status line cleared first).
void print_events(receiver::FrameMonitor& monitor, receiver::StatusLine& status,
                  receiver::RunReport& report, bool quiet) {
  const std::vector<std::string> events = monitor.take_events();
  report.events_seen += events.size();
  if (quiet || events.empty()) return;
  status.finish();
  for (const std::string& e : events) std::fprintf(stderr, "clamsim-receiver: event: %s\n", e.c_str());
}

// --observe ID --ticket T: watches a trainee's session (the frames, the trainee's volts,
// the events) until the duration is up, a signal, or the server ends the watch.
SessionEnd run_observation(Setup& s, const std::shared_ptr<receiver::FrameMonitor>& shared_monitor,
                           receiver::RunReport& report) {
  const receiver::ReceiverOptions& opt = s.opt;
  receiver::FrameMonitor& monitor = *shared_monitor;
  client::ClientOrb orb(orb_settings_of(opt));
  CORBA::Object_var reference = orb.resolve(opt.server);
  client::ServerAdmin admin(reference.in(), false, kAdminTimeoutMs);
  PortableServer::ObjectId_var servant_id;
  CORBA::Object_var me = orb.activate(new client::ObserverServant(shared_monitor), servant_id.out());
  const double t0 = client::now_s();
  monitor.start(t0);
  std::unique_ptr<client::Observation> watch;
  try {
    watch = admin.observe(opt.observe, me.in(), opt.ticket, kSessionTimeoutMs);
  } catch (const client::Refused& r) {
    std::fprintf(stderr, "clamsim-receiver: the server refused to let us observe: %s\n", r.what());
    orb.deactivate(servant_id.in());
    return {kExitFailed, false};
  }
  report.observed_session = opt.observe;
  receiver::StatusLine status(opt.quiet);
  double t = 0.0;
  for (;;) {
    t = client::now_s() - t0;
    if (g_signals != 0 || (s.duration_s && t >= *s.duration_s)) break;
    print_events(monitor, status, report, opt.quiet);
    if (auto text = monitor.take_report()) on_task_report(*text, opt, status, report);
    if (auto why = monitor.observation_ended()) {
      report.observation_end = *why;
      break;
    }
    const receiver::MonitorSnapshot snap = monitor.snapshot(client::now_s());
    const auto volts = snap.latest && snap.latest->trainee_volts ? *snap.latest->trainee_volts
                                                                 : std::array<float, 5>{};
    status.update(t, snap, volts, "trainee");
    std::this_thread::sleep_for(std::chrono::duration<double>(kControlPeriodS));
  }
  status.finish();
  print_events(monitor, status, report, opt.quiet);
  if (const auto last = monitor.snapshot(client::now_s()).latest; last && last->score.enabled)
    report.task = last->score;
  std::string error;
  // after the server's end too: it forgets the watch at once
  if (!watch->stop(&error) && report.observation_end.empty())
    std::fprintf(stderr, "clamsim-receiver: %s\n", error.c_str());
  if (!report.observation_end.empty() && !opt.quiet)
    std::fprintf(stderr, "clamsim-receiver: the watch ended: %s\n", report.observation_end.c_str());
  orb.deactivate(servant_id.in());
  report.duration_s = t;
  report.frames = monitor.stats();
  return {kExitOk, true};
}

int run_main(int argc, char** argv) {
  Setup s;
  if (const auto done = prepare(argc, argv, s)) return *done;
  note_input(s.opt, *s.source);
  // from here on Ctrl-C ends the run through the main loop (and the terminal is restored)
  install_signal_handlers();

  receiver::RunReport report;
  report.legacy = s.opt.legacy;
  report.period_s = s.opt.rate_hz > 0.0 ? 1.0 / s.opt.rate_hz : core::kFramePeriod_s;
  auto monitor = std::make_shared<receiver::FrameMonitor>(report.period_s, std::move(s.csv));
  int exit_code = kExitOk;
  try {
    const SessionEnd end = s.opt.observe != 0 ? run_observation(s, monitor, report)
                                              : run_session(s, monitor, report);
    if (!end.ran) return end.exit_code;
    exit_code = end.exit_code;
  } catch (const client::ClientFileError& e) {
    std::fprintf(stderr, "clamsim-receiver: %s\n", e.what());
    return kExitUsage;
  } catch (const client::ClientError& e) {
    std::fprintf(stderr, "clamsim-receiver: %s\n", e.what());
    return kExitFailed;
  } catch (const CORBA::Exception& e) {
    std::fprintf(stderr, "clamsim-receiver: %s\n", client::describe(e).c_str());
    return kExitFailed;
  }
  if (!monitor->close_csv()) {
    std::fprintf(stderr, "clamsim-receiver: writing '%s' failed\n", s.opt.csv_path.c_str());
    exit_code = kExitFailed;
  }
  receiver::print_summary(stdout, report);
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe fails a write instead of killing us
  if (clamsim::cli::print_version_if_asked(argc, argv, "clamsim-receiver")) return kExitOk;
  try {
    return run_main(argc, argv);
  } catch (const std::exception& e) {
    receiver::KeyboardSource::restore_from_signal();
    std::fprintf(stderr, "clamsim-receiver: %s\n", e.what());
    return kExitFailed;
  }
}
