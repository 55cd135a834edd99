#include "app/server.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "app/transport.h"
#include "auth/observe_tickets.h"
#include "cli/exit_codes.h"
#include "corba/corba_server.h"
#include "model/json_fields.h"
#include "session/catalog.h"
#include "session/clock.h"
#include "session/registry.h"
#include "web/tls_context.h"

namespace clamsim::app {

namespace {

constexpr auto kShutdownBudget = std::chrono::milliseconds(1900);  // the promise is 2 s

// The signals run_server() takes with sigwait: SIGINT and SIGTERM stop, SIGHUP reloads.
sigset_t handled_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

using HupHandler = std::function<void()>;

// The next stop signal; SIGHUPs on the way are handed to on_hup.
int wait_for_stop_signal(const HupHandler& on_hup) {
  const sigset_t set = handled_signals();
  for (;;) {
    int sig = 0;
    if (sigwait(&set, &sig) != 0) continue;
    if (sig != SIGHUP) return sig;
    on_hup();
  }
}

// A stop signal within `timeout`, or 0 (also after a SIGHUP, handed to on_hup).
int wait_for_stop_signal(std::chrono::milliseconds timeout, const HupHandler& on_hup) {
  const sigset_t set = handled_signals();
  timespec ts{static_cast<time_t>(timeout.count() / 1000),
              static_cast<long>(timeout.count() % 1000) * 1000000L};
  const int sig = sigtimedwait(&set, nullptr, &ts);
  if (sig == SIGHUP) on_hup();
  return sig > 0 && sig != SIGHUP ? sig : 0;
}

// Exits the process if the ordered shutdown overruns its budget: a hung shutdown must not
// keep a container or a terminal waiting.
class Watchdog {
 public:
  explicit Watchdog(std::chrono::milliseconds budget)
      : thread_([this, budget] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!cv_.wait_for(lock, budget, [this] { return done_; })) {
            std::fprintf(stderr, "clamsim-server: shutdown took longer than %lld ms, exiting\n",
                         static_cast<long long>(budget.count()));
            std::fflush(stdout);
            std::_Exit(cli::kExitFailure);
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// "what frames_sent=12 send_failures=0 ...": every counter of session/counters.h, the
// same list /metrics walks.
void print_counters(const char* what, const session::CounterSnapshot& c) {
  std::string line = what;
  for (const session::CounterField& f : session::kCounterFields)
    line += std::string(" ") + f.name + "=" + std::to_string(c.*f.member);
  std::printf("%s\n", line.c_str());
}

}  // namespace

void block_stop_signals() {
  const sigset_t set = handled_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

bool stop_with_parent(pid_t parent) {
  // A launcher that ended before main() ran left us to init (PID 1): the parent read
  // first thing is then already the adopter, and no death signal would ever come.
  if (parent == 1) return false;
  // PR_SET_PDEATHSIG follows the parent thread that forked us; the harnesses spawn from
  // their main thread. SIGINT (stop at once, no drain) is blocked and taken by
  // run_server's sigwait like any other.
  if (prctl(PR_SET_PDEATHSIG, SIGINT) != 0) return false;
  return getppid() == parent;  // it may have ended between main() and the request
}

namespace {

void print_banner(const ServerOptions& o, const session::Catalog& catalog,
                  const std::vector<std::unique_ptr<Transport>>& transports) {
  std::printf("clamsim-server %s: %zu model(s), %zu scenario(s), default model %s, world %s, "
              "max %zu sessions, %s",
              o.corba.version.c_str(), catalog.models().size(), catalog.scenarios().size(),
              o.default_model.c_str(),
              catalog.default_world().empty() ? "none" : catalog.default_world().c_str(),
              o.max_sessions, corba::to_string(o.corba.concurrency));
  if (o.corba.concurrency == corba::Concurrency::ThreadPool)
    std::printf(" (%d threads)", o.corba.pool_threads);
  if (o.corba.bidir_on()) std::printf(", bidirectional GIOP accepted");
  if (o.corba.tls_on())
    std::printf(", IIOP over TLS (client certificates %s)%s",
                o.corba.tls_require_client_cert ? "required" : "optional",
                o.corba.plain_on() ? " and plain IIOP" : " only");
  std::printf("%s%s\n", o.config_path.empty() ? "" : ", config ", o.config_path.c_str());
  for (const auto& note : o.notes) std::printf("%s\n", note.c_str());
  if (!catalog.default_world().empty())
    std::printf("task reports: %s\n", o.report_dir.c_str());
  if (o.record) std::printf("recordings: %s\n", o.recordings_dir().c_str());
  for (const auto& t : transports)
    for (const auto& line : t->ready_lines()) std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

// SIGTERM: no new sessions (/readyz 503, subscribe and /ws refused), every client told
// how long it has, until the last session ends, the time is up, or another stop signal
// comes. Returns the signal that cut it short, or 0.
int drain(const ServerOptions& o, session::SessionRegistry& registry,
          std::vector<std::unique_ptr<Transport>>& transports, const base::EventLog& log,
          const HupHandler& on_hup) {
  const auto started = std::chrono::steady_clock::now();
  registry.begin_drain(o.drain_seconds);
  for (auto& t : transports) t->begin_drain();
  log.write("drain_start", {{"sessions", registry.size()}, {"drain_seconds", o.drain_seconds}});
  const auto deadline = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(o.drain_seconds));
  int sig = 0;
  while (registry.size() > 0 && std::chrono::steady_clock::now() < deadline && sig == 0)
    sig = wait_for_stop_signal(std::chrono::milliseconds(100), on_hup);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
                          .count();
  log.write("drain_end", {{"sessions_left", registry.size()},
                          {"seconds", std::round(took * 10.0) / 10.0},
                          {"ended_by", sig == SIGINT    ? "SIGINT"
                                       : sig == SIGTERM ? "second SIGTERM"
                                       : registry.size() > 0 ? "time up"
                                                             : "last session ended"}});
  return sig;
}

// SIGHUP: every transport reads its certificates again; live sessions go on.
void reload_certificates(std::vector<std::unique_ptr<Transport>>& transports,
                         const base::EventLog& log) {
  for (auto& t : transports) {
    const std::string why = t->reload();
    log.write("reload", {{"transport", t->name()}, {"ok", why.empty()}, {"reason", why}});
  }
}

// Stop accepting -> stop every session -> print their counters -> release the transports.
void shut_down_in_order(session::SessionRegistry& registry,
                        std::vector<std::unique_ptr<Transport>>& transports) {
  registry.begin_stop();  // from here every session ends as stopped by the server
  for (auto& t : transports) t->stop_accepting();
  // the sessions alive now, kept so their final counters can be printed once stopped
  std::vector<std::shared_ptr<session::Session>> live = registry.sessions();
  registry.close();  // stops them all at once, forgets them, keeps their counters
  for (const auto& s : live) {
    const std::string what = "session " + std::to_string(s->id()) + " (" + s->machine().name + "):";
    print_counters(what.c_str(), s->counters());
  }
  live.clear();  // before the transports release their references
  for (auto& t : transports) t->shutdown();

  std::printf("server: sessions_created=%llu sessions_reaped=%llu\n",
              static_cast<unsigned long long>(registry.sessions_created()),
              static_cast<unsigned long long>(registry.sessions_reaped()));
  print_counters("server:", registry.totals());
  std::fflush(stdout);
}

}  // namespace

namespace {

// "" when reports can be written to dir (created when missing), else why not. Checked at
// start so that a wrong directory is found by whoever starts the server, not when the
// first trainee's report is lost.
std::string report_dir_problem(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create " + dir + ": " + ec.message();
  std::string probe = (fs::path(dir) / ".clamsim-write-check-XXXXXX").string();
  const int fd = mkstemp(probe.data());
  if (fd < 0) return "cannot write in " + dir + ": " + std::strerror(errno);
  close(fd);
  unlink(probe.c_str());
  return "";
}

// The catalog, or the exit status when it cannot be loaded (its message printed).
int load_catalog(const ServerOptions& o, std::unique_ptr<session::Catalog>* out) {
  try {
    *out = std::make_unique<session::Catalog>(o.models_dir, o.scenarios_dir, o.default_model,
                                              o.world == "none" ? "" : o.world);
    return cli::kExitOk;
  } catch (const session::UnknownDefault& e) {
    std::fprintf(stderr, "clamsim-server: %s\n", e.what());
    return cli::kExitUsage;
  } catch (const model::ModelError& e) {
    std::fprintf(stderr, "clamsim-server: %s\n", e.what());
    return cli::kExitBadModel;
  }
}

}  // namespace

namespace {

// The CORBA transport's admin reference from its ready lines (plain IIOP when open, else
// TLS): where an observer's ticket is redeemed.
std::string corba_reference(const Transport& corba) {
  for (const std::string& line : corba.ready_lines())
    if (line.rfind("ready corbaloc:", 0) == 0) return line.substr(6);
  return "";
}

}  // namespace

int run_server(const ServerOptions& o) {
  std::unique_ptr<session::Catalog> catalog;
  if (const int status = load_catalog(o, &catalog); status != cli::kExitOk) return status;
  if (const std::string problem = report_dir_problem(o.report_dir); !problem.empty()) {
    std::fprintf(stderr, "clamsim-server: --report-dir: %s\n", problem.c_str());
    return cli::kExitUsage;
  }

  if (o.record) {
    if (const std::string problem = report_dir_problem(o.recordings_dir()); !problem.empty()) {
      std::fprintf(stderr, "clamsim-server: --record-dir: %s\n", problem.c_str());
      return cli::kExitUsage;
    }
  }

  session::SteadyClock clock;
  const base::EventLog log(o.log_format);
  session::RegistryOptions ro;
  ro.log = &log;
  ro.max_sessions = o.max_sessions;
  ro.max_sessions_per_client = o.max_sessions_per_client;
  ro.send_grace_s = o.send_grace_s;
  ro.report_dir = o.report_dir;
  ro.recording.enabled = o.record;
  ro.recording.dir = o.recordings_dir();
  ro.recording.frame_every = o.record_frame_every;
  ro.recording.keep = {o.record_keep_days, o.record_keep_mb};
  // Destroyed (reaper joined) before the transports: a reap racing the shutdown may still
  // call a transport's handler.
  auto registry = std::make_unique<session::SessionRegistry>(ro, clock);

  // One table of observer tickets: the web front end issues them to instructors, the CORBA
  // admin redeems them (docs/corba.md "Observers"). Without the web, nobody can issue one.
  ServerOptions wired = o;
  if (o.web_enabled) {
    const auto tickets = std::make_shared<auth::ObserveTickets>();
    wired.corba.observe_tickets = tickets;
    wired.web.access.observe_tickets = tickets;
  }
  std::vector<std::unique_ptr<Transport>> transports;
  try {
    transports.push_back(make_corba_transport(wired, *registry, *catalog));
    if (o.web_enabled) transports.push_back(make_web_transport(wired, *registry, *catalog, log));
    for (auto& t : transports) t->start();
    if (wired.corba.observe_tickets)
      wired.corba.observe_tickets->set_redeem_at(corba_reference(*transports.front()));
  } catch (const corba::CorbaConfigError& e) {  // a TLS file named by a setting
    std::fprintf(stderr, "clamsim-server: %s\n", e.what());
    return cli::kExitUsage;
  } catch (const web::TlsError& e) {  // the same on the web side
    std::fprintf(stderr, "clamsim-server: %s\n", e.what());
    return cli::kExitUsage;
  } catch (const model::ModelError& e) {  // the keyboard layout, a data file like a model
    std::fprintf(stderr, "clamsim-server: %s\n", e.what());
    return cli::kExitBadModel;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clamsim-server: %s\n", e.what());
    return cli::kExitFailure;
  }
  print_banner(o, *catalog, transports);

  const HupHandler on_hup = [&] { reload_certificates(transports, log); };
  int sig = wait_for_stop_signal(on_hup);
  if (sig == SIGTERM && o.drain_seconds > 0.0 && registry->size() > 0) {
    std::printf("drain: SIGTERM, up to %g s for %zu session(s); SIGINT or SIGTERM again "
                "stops at once\n", o.drain_seconds, registry->size());
    std::fflush(stdout);
    if (const int again = drain(o, *registry, transports, log, on_hup)) sig = again;
  }
  const Watchdog watchdog(kShutdownBudget);
  std::printf("shutdown: %s\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
  shut_down_in_order(*registry, transports);
  registry.reset();
  return cli::kExitOk;
}

}  // namespace clamsim::app
