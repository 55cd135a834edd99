#include "corba/observer_sender.h"

#include <algorithm>
#include <vector>

#include <omniORB4/omniORB.h>

#include "corba/convert.h"

namespace clamsim::corba {

std::shared_ptr<ObserverSender> ObserverSender::start(
    std::shared_ptr<session::Session> watched, CLAMX::FrameClient_ptr client, bool rich,
    CORBA::ULong call_ms, std::shared_ptr<const std::atomic<bool>> stopping) {
  std::shared_ptr<ObserverSender> s(
      new ObserverSender(watched, client, rich, call_ms, std::move(stopping)));
  if (!watched->attach_observer(s->queue_)) return nullptr;
  s->thread_ = std::thread([raw = s.get()] { raw->run(); });
  return s;
}

ObserverSender::ObserverSender(std::shared_ptr<session::Session> watched,
                               CLAMX::FrameClient_ptr client, bool rich, CORBA::ULong call_ms,
                               std::shared_ptr<const std::atomic<bool>> stopping)
    : watched_(watched),
      machine_(watched->machine()),
      client_(CLAMX::FrameClient::_duplicate(client)),
      stopping_(std::move(stopping)),
      last_ok_(std::chrono::steady_clock::now()) {
  // every call bounded (a oneway blocks forever on an observer that stops reading)
  omniORB::setClientCallTimeout(client_, call_ms);
  if (rich) {
    observer_client_ = CLAMX::ObserverClient::_unchecked_narrow(client);
    omniORB::setClientCallTimeout(observer_client_, call_ms);
  }
  queue_ = std::make_shared<session::ObserverQueue>([wake = wake_] {
    {
      std::lock_guard<std::mutex> lock(wake->mutex);
      wake->woken = true;
    }
    wake->cv.notify_one();
  });
}

ObserverSender::~ObserverSender() { stop(); }

void ObserverSender::stop() {
  {
    std::lock_guard<std::mutex> lock(wake_->mutex);
    wake_->stop = true;
  }
  wake_->cv.notify_one();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void ObserverSender::run() {
  std::string reason;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(wake_->mutex);
      // woken by a frame, or once a second to notice a stalled observer or a stop
      wake_->cv.wait_for(lock, std::chrono::seconds(1),
                         [&] { return wake_->woken || wake_->stop; });
      if (wake_->stop) {
        reason = "the watch was stopped";
        break;
      }
      wake_->woken = false;
    }
    const session::ObserverQueue::Batch b = queue_->take();
    if (!send(b)) {
      reason = "the observer did not take frames for " + std::to_string(kGiveUp.count()) +
               " s; watch again when it can keep up";
      break;
    }
    if (b.ended) {
      reason = b.end_reason;
      break;
    }
  }
  if (auto watched = watched_.lock()) watched->detach_observer(queue_.get());
  tell_ended(reason);
  ended_ = true;
}

bool ObserverSender::send(const session::ObserverQueue::Batch& b) {
  // the newest frames and the frames with events, merged in seq order, each once
  std::vector<const session::ObservedFrame*> order;
  order.reserve(b.frames.size() + b.event_frames.size());
  for (const auto& f : b.event_frames) order.push_back(f.get());
  for (const auto& f : b.frames) order.push_back(f.get());
  std::sort(order.begin(), order.end(),
            [](const auto* x, const auto* y) { return x->frame.seq < y->frame.seq; });
  order.erase(std::unique(order.begin(), order.end()), order.end());
  const auto now = std::chrono::steady_clock::now();
  for (const session::ObservedFrame* f : order) {
    if (any_sent_ && f->frame.seq <= last_seq_) continue;
    if (send_one(*f)) {
      last_ok_ = now;
      any_sent_ = true;
      last_seq_ = f->frame.seq;
    }
  }
  return now - last_ok_ < kGiveUp;
}

bool ObserverSender::send_one(const session::ObservedFrame& f) {
  if (stopping_ && stopping_->load(std::memory_order_relaxed)) return false;
  const core::WorldParams* world = machine_.scenario ? &machine_.scenario->world : nullptr;
  try {
    to_frame(f.frame, observed_.data, world);
    // the trainee's name never travels to an observer in a report: the instructor page
    // has it, and the observer's own connection proved nothing about it
    if (f.frame.report) observed_.data.task_report_json = without_trainee(*f.frame.report).c_str();
    if (CORBA::is_nil(observer_client_)) {
      client_->getFrame(observed_.data);
      return true;
    }
    for (std::size_t i = 0; i < f.volts.size(); ++i)
      observed_.volts[i] = static_cast<CORBA::Float>(f.volts[i]);
    observed_.events.length(static_cast<CORBA::ULong>(f.event_count));
    for (std::size_t i = 0; i < f.event_count; ++i)
      observed_.events[static_cast<CORBA::ULong>(i)] = session::to_string(f.events[i].kind);
    observer_client_->getObserved(observed_);
    return true;
  } catch (const CORBA::Exception&) {
    return false;  // TIMEOUT, TRANSIENT, ...: counted by the give-up clock
  }
}

void ObserverSender::tell_ended(const std::string& reason) {
  if (CORBA::is_nil(observer_client_)) return;
  try {
    observer_client_->observationEnded(reason.c_str());
  } catch (const CORBA::Exception&) {
    // the observer is gone already
  }
}

}  // namespace clamsim::corba
