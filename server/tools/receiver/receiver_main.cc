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

#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/version_flag.h"
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
constexpr double kControlPeriodS = 0.05;  // 20 Hz, the thesis's sampling rate
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

int run_main(int argc, char** argv) {
  receiver::ReceiverOptions opt;
  std::unique_ptr<receiver::ControlSource> source;
  std::unique_ptr<receiver::FrameCsv> csv;
  std::optional<double> duration_s;
  // everything local is checked before the network is touched: a bad file is exit 2
  try {
    opt = receiver::parse_receiver_options(argc, argv);
    if (opt.help) {
      std::fputs(receiver::receiver_usage(), stdout);
      std::fputs(("\n" + clamsim::cli::exit_codes_help()).c_str(), stdout);
      return kExitOk;
    }
    source = make_source(opt, argv[0]);
    duration_s = opt.duration_s;
    if (!duration_s) {
      if (auto* script = dynamic_cast<receiver::ScriptSource*>(source.get())) {
        duration_s = script->script().duration_s();
      }
    }
    if (!opt.csv_path.empty()) csv = std::make_unique<receiver::FrameCsv>(opt.csv_path);
    if (!opt.report_path.empty()) {
      const std::filesystem::path dir = std::filesystem::path(opt.report_path).parent_path();
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
  if (auto* script = dynamic_cast<receiver::ScriptSource*>(source.get())) {
    // the pose belongs to the server's session; a script cannot move the machine there
    if (script->script().initial() && opt.scenario.empty() && !opt.quiet) {
      std::fprintf(stderr,
                   "clamsim-receiver: note: %s:%d: the script's initial pose is not sent; the "
                   "server's start pose applies (--scenario NAME picks one of its poses)\n",
                   opt.controls_path.c_str(), script->script().initial_line());
    }
  }
  if (auto* js = dynamic_cast<receiver::JoystickSource*>(source.get())) {
    if (js->axis_count() > 0 && !opt.quiet) {
      std::fprintf(stderr, "clamsim-receiver: joystick '%s', %d axes, %d buttons\n",
                   js->name().c_str(), js->axis_count(), js->button_count());
    }
    // pads number their buttons by driver: say so rather than leave the button dead
    const std::optional<int> restart = js->mapping().restart_button;
    if (restart && js->button_count() > 0 && *restart >= js->button_count() && !opt.quiet) {
      std::fprintf(stderr,
                   "clamsim-receiver: note: the mapping's restart button %d is not on this "
                   "joystick (buttons 0..%d); see docs/receiver.md\n",
                   *restart, js->button_count() - 1);
    }
  }

  // from here on Ctrl-C ends the run through the main loop (and the terminal is restored)
  install_signal_handlers();

  const double period_s = opt.rate_hz > 0.0 ? 1.0 / opt.rate_hz : 0.05;
  auto monitor = std::make_shared<receiver::FrameMonitor>(period_s, std::move(csv));

  client::OrbSettings orb_settings;
  orb_settings.bidir = opt.bidir;
  orb_settings.listen = opt.listen;
  orb_settings.tls_ca = opt.tls_ca;
  orb_settings.tls_cert = opt.tls_cert;
  orb_settings.tls_key = opt.tls_key;
  orb_settings.server = opt.server;
  orb_settings.call_timeout_ms = kAdminTimeoutMs;
  orb_settings.orb_args = opt.orb_args;

  receiver::RunReport report;
  report.legacy = opt.legacy;
  report.period_s = period_s;
  int exit_code = 0;
  try {
    client::ClientOrb orb(orb_settings);
    CORBA::Object_var reference = orb.resolve(opt.server);
    client::ServerAdmin admin(reference.in(), opt.legacy, kAdminTimeoutMs);

    PortableServer::ServantBase* servant =
        opt.legacy ? static_cast<PortableServer::ServantBase*>(new client::DisplayServant(monitor))
                   : static_cast<PortableServer::ServantBase*>(new client::FrameServant(monitor));
    PortableServer::ObjectId_var servant_id;
    CORBA::Object_var me = orb.activate(servant, servant_id.out());

    if (g_signals != 0) {
      std::fprintf(stderr, "clamsim-receiver: interrupted before subscribing\n");
      orb.deactivate(servant_id.in());
      return 0;
    }
    client::SubscribeSettings sub_settings;
    sub_settings.frame_rate_hz = static_cast<float>(opt.rate_hz);
    sub_settings.model = opt.model;
    sub_settings.scenario = opt.scenario;
    sub_settings.session_timeout_ms = kSessionTimeoutMs;
    monitor->start(client::now_s());
    std::unique_ptr<client::Subscription> sub;
    try {
      sub = admin.subscribe(me.in(), sub_settings);
    } catch (const client::Refused& r) {
      std::fprintf(stderr, "clamsim-receiver: the server refused the subscription: %s\n", r.what());
      orb.deactivate(servant_id.in());
      return kExitFailed;
    }
    if (!opt.trainee.empty()) {
      std::string trainee_error;
      if (!sub->set_trainee(opt.trainee, &trainee_error)) {
        std::fprintf(stderr, "clamsim-receiver: --trainee: %s\n", trainee_error.c_str());
        orb.deactivate(servant_id.in());
        return kExitUsage;
      }
    }
    const double t_sub = client::now_s();
    monitor->start(t_sub);

    // no frames for this long means the server is gone (or cannot reach us: --bidir?);
    // controls failing for this long mean it is gone
    const double frame_timeout_s = std::max(5.0, 3.0 * period_s);
    constexpr double kSendTimeoutS = 3.0;
    double failing_since = -1.0;  // time of the first failed send in a row
    bool restart_sent = false;    // --restart-at fires once
    bool server_lost = false;
    receiver::StatusLine status(opt.quiet);
    std::array<float, 5> volts{};
    using Clock = std::chrono::steady_clock;
    auto next = Clock::now();
    double t = 0.0;
    for (std::uint64_t k = 0;; ++k) {
      t = client::now_s() - t_sub;
      if (g_signals != 0 || source->quit_requested()) break;
      if (duration_s && t >= *duration_s) break;
      volts = source->sample(t);
      monitor->set_volts(volts);
      const bool restart_due = opt.restart_at_s && !restart_sent && t >= *opt.restart_at_s;
      if (source->take_restart_request() || restart_due) {
        restart_sent = restart_sent || restart_due;
        std::string restart_error;
        if (sub->restart_task(&restart_error)) {
          ++report.restarts;
          source->on_restart();
          volts = source->sample(t);
          monitor->set_volts(volts);
        } else {
          status.finish();
          std::fprintf(stderr, "clamsim-receiver: %s\n", restart_error.c_str());
        }
      }
      if (auto* keyboard = dynamic_cast<receiver::KeyboardSource*>(source.get());
          keyboard != nullptr && keyboard->take_help_request() && !opt.quiet) {
        status.finish();
        std::fputs(keyboard->legend().c_str(), stderr);
      }
      if (auto text = monitor->take_report()) on_task_report(*text, opt, status, report);
      std::string send_error;
      if (sub->send_control(volts, &send_error)) {
        ++report.controls_sent;
        failing_since = -1.0;
      } else {
        ++report.control_failures;
        if (failing_since < 0.0) failing_since = t;
      }
      const receiver::MonitorSnapshot snap = monitor->snapshot(client::now_s());
      status.update(t, snap, volts, source->label());
      if (failing_since >= 0.0 && t - failing_since > kSendTimeoutS) {
        status.finish();
        std::fprintf(stderr, "clamsim-receiver: lost the server: %s\n", send_error.c_str());
        server_lost = true;
        report.server_lost = true;
        exit_code = kExitFailed;
        break;
      }
      if (snap.since_last_s > frame_timeout_s) {
        status.finish();
        // the server takes our controls but its frames do not reach us
        std::fprintf(stderr, "clamsim-receiver: no frame from the server for %.0f s; giving up%s\n",
                     snap.since_last_s,
                     opt.bidir || !opt.tls_ca.empty() || failing_since >= 0.0
                         ? ""
                         : " (behind NAT or a firewall? try --bidir, or --listen with a "
                           "reachable address)");
        exit_code = kExitFailed;
        break;
      }
      // absolute schedule: a late wake-up does not push every later sample back
      next += std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(kControlPeriodS));
      const auto now = Clock::now();
      if (next < now - std::chrono::seconds(1)) next = now;  // suspended: do not burst
      std::this_thread::sleep_until(next);
      (void)k;
    }
    report.duration_s = t;
    status.finish();
    // a report that came with the last frames
    if (auto text = monitor->take_report()) on_task_report(*text, opt, status, report);
    if (const auto last = monitor->snapshot(client::now_s()).latest; last && last->score.enabled)
      report.task = last->score;

    if (server_lost) {
      sub->abandon();  // nobody to unsubscribe from; the server reaps on its side
    } else if (sub->extended()) {
      // the last controls are still in flight: give them a moment before reading counters
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::string error;
      report.server = sub->stats(&error);
      if (!report.server) std::fprintf(stderr, "clamsim-receiver: %s\n", error.c_str());
    }
    std::string error;
    if (!sub->unsubscribe(&error)) std::fprintf(stderr, "clamsim-receiver: %s\n", error.c_str());
    orb.deactivate(servant_id.in());
    report.frames = monitor->stats();
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
    std::fprintf(stderr, "clamsim-receiver: writing '%s' failed\n", opt.csv_path.c_str());
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
