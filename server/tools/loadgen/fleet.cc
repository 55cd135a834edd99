#include "tools/loadgen/fleet.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>

#include "tools/client/corba_errors.h"
#include "tools/client/receiver_servants.h"

namespace clamsim::loadgen {
namespace {

using Clock = std::chrono::steady_clock;

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

constexpr int kMaxErrorsInARow = 5;

}  // namespace

Fleet::Fleet(client::ClientOrb& orb, client::ServerAdmin& admin, FleetSettings settings)
    : orb_(orb), admin_(admin), settings_(std::move(settings)) {}

Fleet::~Fleet() {
  stop_controls();
  unsubscribe_all();
}

double phase_spreading_spacing(double period_s) {
  const double golden = (1.0 + std::sqrt(5.0)) / 2.0;
  return period_s * (2.0 - golden);
}

RampResult Fleet::subscribe_all(int n, double spacing_s, const std::atomic<bool>& stop) {
  RampResult r;
  const auto t0 = Clock::now();
  const int first = static_cast<int>(slots_.size());
  int errors_in_a_row = 0;
  for (int i = 0; i < n && !stop; ++i) {
    std::this_thread::sleep_until(t0 + seconds(static_cast<double>(i) * spacing_s));
    auto slot = std::make_unique<SessionSlot>();
    slot->index = first + i;
    slot->recorder = std::make_shared<SessionRecorder>(settings_.period_s);
    PortableServer::ServantBase* servant =
        settings_.legacy
            ? static_cast<PortableServer::ServantBase*>(new client::DisplayServant(slot->recorder))
            : static_cast<PortableServer::ServantBase*>(new client::FrameServant(slot->recorder));
    CORBA::Object_var ref = orb_.activate(servant, slot->servant_id.out());
    try {
      slot->sub = admin_.subscribe(ref.in(), settings_.subscribe);
      slot->subscribed = true;
      ++r.subscribed;
      errors_in_a_row = 0;
    } catch (const client::Refused& e) {
      slot->failure = e.what();
      slot->refused = true;
      ++r.refused;
    } catch (const client::ClientError& e) {
      slot->failure = e.what();
      ++r.failed;
      ++errors_in_a_row;
    }
    if (!slot->sub) orb_.deactivate(slot->servant_id.in());
    // the first refusal of each kind is worth seeing at once; the rest go in the report
    if (!slot->sub && r.refused + r.failed == 1) {
      std::fprintf(stderr, "clamsim-loadgen: session %d not subscribed: %s\n", first + i,
                   slot->failure.c_str());
    }
    slots_.push_back(std::move(slot));
    if ((i + 1) % 50 == 0 || i + 1 == n) {
      std::fprintf(stderr, "clamsim-loadgen: %d/%d subscribed\n", r.subscribed, n);
    }
    if (errors_in_a_row >= kMaxErrorsInARow) {
      std::fprintf(stderr, "clamsim-loadgen: %d errors in a row; not subscribing more\n",
                   errors_in_a_row);
      break;
    }
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

void Fleet::start_controls(double rate_hz, const model::ControlScript* script) {
  if (rate_hz <= 0.0 || controls_.joinable()) return;
  controls_stop_ = false;
  controls_ = std::thread([this, rate_hz, script] { control_loop(rate_hz, script); });
}

void Fleet::stop_controls() {
  controls_stop_ = true;
  if (controls_.joinable()) controls_.join();
}

// Each session's control goes out at its own moment in the period, session i at i/N of it,
// as N classroom PCs' timers would: sending all N at once put a burst of N upcalls on the
// server's ORB threads every period, and the frames due during it waited behind it.
// The thread sleeps only when the next send is at least kMinSleep ahead, so it wakes about
// once a millisecond however many sessions there are.
void Fleet::control_loop(double rate_hz, const model::ControlScript* script) {
  constexpr auto kMinSleep = std::chrono::microseconds(500);
  const auto t0 = Clock::now();
  const double period_s = 1.0 / rate_hz;
  for (std::uint64_t k = 0; !controls_stop_; ++k) {
    const double t = static_cast<double>(k) * period_s;
    std::array<float, 5> volts{};
    if (script != nullptr) {
      const core::Control c = script->at(t);
      for (std::size_t i = 0; i < volts.size(); ++i) volts[i] = static_cast<float>(c.volts[i]);
    }
    const double n = static_cast<double>(slots_.size());
    for (std::size_t i = 0; i < slots_.size() && !controls_stop_; ++i) {
      const auto at = t0 + seconds(t + period_s * static_cast<double>(i) / n);
      if (at - Clock::now() >= kMinSleep) std::this_thread::sleep_until(at);
      send_control(*slots_[i], volts);
    }
    // absolute schedule; after a stall skip ahead instead of bursting
    auto next = t0 + seconds(static_cast<double>(k + 1) * period_s);
    const auto now = Clock::now();
    if (next < now) {
      k = static_cast<std::uint64_t>(std::chrono::duration<double>(now - t0).count() * rate_hz);
      next = t0 + seconds(static_cast<double>(k + 1) * period_s);
    }
    std::this_thread::sleep_until(next);
  }
}

void Fleet::send_control(SessionSlot& slot, const std::array<float, 5>& volts) {
  if (!slot.sub) return;
  if (slot.sub->send_control(volts)) {
    ++slot.controls_sent;
  } else {
    ++slot.controls_failed;
  }
}

void Fleet::set_window(double start_s, double end_s) {
  for (auto& slot : slots_) slot->recorder->set_window(start_s, end_s);
}

void Fleet::collect_server_stats() {
  int errors_in_a_row = 0;
  for (auto& slot : slots_) {
    if (!slot->sub || !slot->sub->extended()) continue;
    // a server that is gone would cost a timeout per session: stop asking after a few
    if (errors_in_a_row >= kMaxErrorsInARow) break;
    slot->server = slot->sub->stats();
    errors_in_a_row = slot->server ? 0 : errors_in_a_row + 1;
  }
}

int Fleet::unsubscribe_all() {
  int failures = 0;
  int errors_in_a_row = 0;
  for (auto& slot : slots_) {
    if (!slot->sub) continue;
    std::string error;
    if (errors_in_a_row >= kMaxErrorsInARow) {
      ++failures;  // not even tried: the server stopped answering
    } else if (!slot->sub->unsubscribe(&error)) {
      ++failures;
      ++errors_in_a_row;
    } else {
      errors_in_a_row = 0;
    }
    orb_.deactivate(slot->servant_id.in());
    slot->sub->abandon();
    slot->sub.reset();
  }
  return failures;
}

}  // namespace clamsim::loadgen
