// CLAMX::Observation: one native observer's watch of a session (docs/corba.md
// "Observers"); stop() hands the end to the host, which stops the sender and deactivates
// this servant. Thin, like SessionServant.
#pragma once

#include <cstdint>

#include <clamx.hh>

#include "corba/session_host.h"

namespace clamsim::corba {

class ObservationServant final : public POA_CLAMX::Observation {
 public:
  ObservationServant(std::uint64_t id, SessionHost& host) : id_(id), host_(host) {}
  void stop() override { host_.stop_observation(id_); }

 private:
  const std::uint64_t id_;
  SessionHost& host_;
};

}  // namespace clamsim::corba
