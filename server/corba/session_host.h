// What the servants need from the server that activated them: open and close sessions,
// read the figures. Implemented by CorbaServer; keeps the servants thin and testable.
#pragma once

#include <cstdint>
#include <string>

#include <clamx.hh>

#include "corba/convert.h"

namespace clamsim::corba {

// Why subscribe said no; the admin servant turns it into the right exception.
struct Refusal {
  enum class Kind {
    ServerFull, ShuttingDown, Draining, NilClient, NotAClient, ClientUnreachable, BadRequest
  };
  Kind kind;
  std::string reason;
};

class SessionHost {
 public:
  virtual ~SessionHost() = default;
  // Starts a session sending to client; returns its (new) reference. Throws Refusal.
  virtual CLAMX::Session_ptr open_session(CLAM::CraneClamClient_ptr client,
                                          const SubscribeRequest& request) = 0;
  // Stops the session and deactivates its servant (unsubscribe). Never from a session thread.
  virtual void close_session(std::uint64_t id) = 0;
  virtual ServerFigures figures() const = 0;
  // Starts a native observer of session `session` (docs/corba.md "Observers") once the
  // ticket is redeemed; returns its Observation. caller: the connection, for the log.
  // Throws Refusal.
  virtual CLAMX::Observation_ptr observe(std::uint64_t session, CLAMX::FrameClient_ptr observer,
                                         const std::string& ticket,
                                         const std::string& caller) = 0;
  // Ends an observation (Observation::stop). Never from a session thread.
  virtual void stop_observation(std::uint64_t id) = 0;
};

}  // namespace clamsim::corba
