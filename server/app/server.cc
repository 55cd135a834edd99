#include "app/server.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "app/transport.h"
#include "model/json_fields.h"
#include "session/catalog.h"
#include "session/clock.h"
#include "session/registry.h"

namespace clamsim::app {

namespace {

constexpr auto kShutdownBudget = std::chrono::milliseconds(1900);  // the promise is 2 s

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

int wait_for_stop_signal() {
  const sigset_t set = stop_signals();
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
  return sig;
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
            std::_Exit(1);
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

void print_counters(const char* what, const session::CounterSnapshot& c) {
  std::printf("%s frames_sent=%llu send_failures=%llu controls_received=%llu "
              "controls_rejected=%llu controls_clamped=%llu late_frames=%llu skipped_frames=%llu "
              "restarts=%llu reports_written=%llu report_failures=%llu\n",
              what, static_cast<unsigned long long>(c.frames_sent),
              static_cast<unsigned long long>(c.send_failures),
              static_cast<unsigned long long>(c.controls_received),
              static_cast<unsigned long long>(c.controls_rejected),
              static_cast<unsigned long long>(c.controls_clamped),
              static_cast<unsigned long long>(c.late_frames),
              static_cast<unsigned long long>(c.skipped_frames),
              static_cast<unsigned long long>(c.restarts),
              static_cast<unsigned long long>(c.reports_written),
              static_cast<unsigned long long>(c.report_failures));
}

}  // namespace

void block_stop_signals() {
  const sigset_t set = stop_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

bool stop_with_parent(pid_t parent) {
  // PR_SET_PDEATHSIG follows the parent thread that forked us; the harnesses spawn from
  // their main thread. SIGTERM is blocked and taken by run_server's sigwait like any other.
  if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) return false;
  return getppid() == parent;
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
  if (o.corba.bidir) std::printf(", bidirectional GIOP accepted");
  std::printf("%s%s\n", o.config_path.empty() ? "" : ", config ", o.config_path.c_str());
  for (const auto& note : o.notes) std::printf("%s\n", note.c_str());
  if (!catalog.default_world().empty())
    std::printf("task reports: %s\n", o.report_dir.c_str());
  for (const auto& t : transports)
    for (const auto& line : t->ready_lines()) std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

// Stop accepting -> stop every session -> print their counters -> release the transports.
void shut_down_in_order(session::SessionRegistry& registry,
                        std::vector<std::unique_ptr<Transport>>& transports) {
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

int run_server(const ServerOptions& o) {
  std::unique_ptr<session::Catalog> catalog;
  try {
    catalog = std::make_unique<session::Catalog>(o.models_dir, o.scenarios_dir, o.default_model,
                                                 o.world == "none" ? "" : o.world);
  } catch (const model::ModelError& e) {
    std::fprintf(stderr, "clamsim-server: %s\n", e.what());
    return 2;
  }

  session::SteadyClock clock;
  session::RegistryOptions ro;
  ro.max_sessions = o.max_sessions;
  ro.send_grace_s = o.send_grace_s;
  ro.report_dir = o.report_dir;
  // Destroyed (reaper joined) before the transports: a reap racing the shutdown may still
  // call a transport's handler.
  auto registry = std::make_unique<session::SessionRegistry>(ro, clock);

  std::vector<std::unique_ptr<Transport>> transports;
  try {
    transports.push_back(make_corba_transport(o, *registry, *catalog));
    if (o.web_enabled) transports.push_back(make_web_transport(o, *registry, *catalog));
    for (auto& t : transports) t->start();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clamsim-server: %s\n", e.what());
    return 1;
  }
  print_banner(o, *catalog, transports);

  const int sig = wait_for_stop_signal();
  const Watchdog watchdog(kShutdownBudget);
  std::printf("shutdown: %s\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
  shut_down_in_order(*registry, transports);
  registry.reset();
  return 0;
}

}  // namespace clamsim::app
