// A native observer of a session (docs/corba.md "Observers"): the
// watched session pushes into this observer's own bounded queue (session/observers.h) and
// a thread of its own sends the frames as oneway calls, so a slow observer delays neither
// the session nor its trainee nor another observer. An ObserverClient gets getObserved
// (frame, volts, events); a plain FrameClient gets getFrame.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <clamx.hh>

#include "session/observers.h"
#include "session/session.h"

namespace clamsim::corba {

class ObserverSender {
 public:
  // Watches `watched` with `client` (already checked: not nil, reachable); call_ms bounds
  // each call. rich: the client is an ObserverClient. Returns null when the session has
  // already ended. Runs on an ORB thread.
  static std::shared_ptr<ObserverSender> start(std::shared_ptr<session::Session> watched,
                                               CLAMX::FrameClient_ptr client, bool rich,
                                               CORBA::ULong call_ms,
                                               std::shared_ptr<const std::atomic<bool>> stopping);
  ~ObserverSender();  // stop()
  ObserverSender(const ObserverSender&) = delete;
  ObserverSender& operator=(const ObserverSender&) = delete;

  // Ends the watch (the observer asked, or the server stops) and joins the thread. Never
  // from the sender's own thread. Idempotent.
  void stop();
  // The watch is over by itself (session ended, observer gone); stop() then returns at once.
  bool ended() const { return ended_.load(); }

  // An observer that has not taken a frame for this long is given up (its calls time out
  // or fail): the watch ends and the session forgets it.
  static constexpr std::chrono::seconds kGiveUp{5};

 private:
  struct Wake {   // shared with the queue's wake callback, which may outlive a detach
    std::mutex mutex;
    std::condition_variable cv;
    bool woken = false;
    bool stop = false;
  };
  ObserverSender(std::shared_ptr<session::Session> watched, CLAMX::FrameClient_ptr client,
                 bool rich, CORBA::ULong call_ms, std::shared_ptr<const std::atomic<bool>> stopping);
  void run();
  // Sends the batch's frames in seq order, each once; false when the observer is given up.
  bool send(const session::ObserverQueue::Batch& b);
  bool send_one(const session::ObservedFrame& f);
  void tell_ended(const std::string& reason);

  std::weak_ptr<session::Session> watched_;
  const session::MachineSetup machine_;   // for the loads' masses
  CLAMX::FrameClient_var client_;
  CLAMX::ObserverClient_var observer_client_;   // nil: a plain FrameClient
  std::shared_ptr<const std::atomic<bool>> stopping_;
  std::shared_ptr<Wake> wake_ = std::make_shared<Wake>();
  std::shared_ptr<session::ObserverQueue> queue_;
  CLAMX::ObservedFrame observed_;   // reused: only the sender thread touches it
  std::chrono::steady_clock::time_point last_ok_;
  std::uint64_t last_seq_ = 0;
  bool any_sent_ = false;
  std::atomic<bool> ended_{false};
  std::thread thread_;
};

}  // namespace clamsim::corba
