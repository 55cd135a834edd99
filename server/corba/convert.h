// The one place where IDL types meet core and session types, so the servants stay thin:
// they translate here and leave everything else to the session.
#pragma once

#include <string>

#include <clamx.hh>

#include "session/counters.h"
#include "session/frame_sink.h"

namespace clamsim::corba {

// Table 4.1 values, in order and units, as floats.
void to_display(const core::Outputs& out, CLAM::DisplayData display);
// Fills every field of f, reusing its sequences. world (the session's, null without one)
// gives the loads' masses.
void to_frame(const session::Frame& frame, CLAMX::Frame& f,
              const core::WorldParams* world = nullptr);
CLAMX::TaskScore to_score(const training::TaskScore& s);

CLAMX::SessionStats to_stats(const session::CounterSnapshot& c);

struct ServerFigures {
  unsigned long sessions = 0;
  unsigned long capacity = 0;
  std::string version;
  session::CounterSnapshot totals;
  std::uint64_t sessions_reaped = 0;
};
CLAMX::ServerStatus* to_status(const ServerFigures& s);

// What a subscriber asked for, in session terms.
struct SubscribeRequest {
  std::string model;             // "" = the server's default
  std::string scenario;          // "" = the model's initial pose
  double frame_period_s = 0.0;   // 0 = the server's default
  // Who subscribed: a client certificate the configured CA verified (IIOP over TLS). Only
  // then do the session's frames carry the trainee's name (docs/security.md).
  bool authenticated = false;
  std::string caller;            // "TLS, CN=..." / "TLS" / "plain IIOP", for the log
};
// Returns false and sets *error (naming the field) when an option is unusable.
bool from_options(const CLAMX::SubscribeOptions& o, SubscribeRequest* out, std::string* error);

// A task report (clamsim-report/1) with its "trainee" set to null, for receivers that may
// not learn names; "" when the text is not a JSON object (nothing of it is passed on).
std::string without_trainee(const std::string& report_json);

// "TRANSIENT (minor 0x41540002, COMPLETED_NO)" and the like, for logs and refusal reasons.
std::string describe(const CORBA::Exception& e);

}  // namespace clamsim::corba
