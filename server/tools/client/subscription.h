// Talking to the server's factory and to one subscribed session, as the thesis's service
// receiver does (4.3.1): subscribe with a CraneClamClient, send GetControlInput oneways,
// unsubscribe. The extended path (CLAMX::Admin::subscribeWith) also reads the server's
// per-session counters, which give the "received" half of Table 5.2.
#pragma once

#include <array>
#include <clam.hh>
#include <clamx.hh>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "session/counters.h"

namespace clamsim::client {

// The server said no (CLAMX::Refused): over capacity, unknown model, bad frame rate.
class Refused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SubscribeSettings {
  float frame_rate_hz = 0.0f;          // 0 = server default (20 Hz)
  std::string model;                   // "" = server default
  std::string scenario;                // "" = the model's initial pose
  unsigned session_timeout_ms = 1000;  // every call on the session object, oneways included
};

// CLAMX::SessionStats in the server's own counter struct (session/counters.h); the
// counters the fixed IDL does not carry (restarts, reports) stay 0.
using SessionCounters = session::CounterSnapshot;

// "frames_sent 42, send_failures 0, ...": the counters CLAMX::SessionStats carries, in the
// IDL's order (corba/idl_fields.h), for the tools' summaries.
std::string counters_text(const SessionCounters& c);

// CLAMX::ServerStatus in plain types.
struct ServerStatusInfo {
  std::uint32_t sessions = 0;
  std::uint32_t capacity = 0;
  std::string version;
  std::uint64_t frames_sent = 0;
  std::uint64_t send_failures = 0;
  std::uint64_t sessions_reaped = 0;
};

class Subscription {
 public:
  Subscription(CLAM::CraneClam_ptr session, bool extended, unsigned timeout_ms);
  ~Subscription();  // unsubscribes if still subscribed; never throws
  Subscription(const Subscription&) = delete;
  Subscription& operator=(const Subscription&) = delete;

  // Oneway GetControlInput. False (with the reason) when the call raised: connection
  // lost, timed out.
  bool send_control(const std::array<float, 5>& volts, std::string* error = nullptr);
  // CLAMX::Session::restartTask: a new attempt at the task from the next frame on. False
  // (with the reason) for a legacy session or when the call failed.
  bool restart_task(std::string* error = nullptr);
  // CLAMX::Session::setTrainee: who is at the controls (the instructor's overview, the
  // reports). False (with the reason, e.g. the server's on a bad name) otherwise.
  bool set_trainee(const std::string& name, std::string* error = nullptr);
  // The server's counters for this session; nullopt for a legacy session or on failure.
  std::optional<SessionCounters> stats(std::string* error = nullptr);
  // Idempotent. False (with the reason) when the call failed; the session is gone either
  // way from our side.
  bool unsubscribe(std::string* error = nullptr);
  // Forget the session without calling the server (it is gone; it reaps on its side).
  void abandon() { subscribed_ = false; }
  bool extended() const { return extended_; }

 private:
  CLAM::CraneClam_var session_;
  CLAMX::Session_var extended_session_;
  bool extended_ = false;
  bool subscribed_ = true;
};

class ServerAdmin {
 public:
  // Narrows the reference: to CLAMX::Admin, or with `legacy` to CLAM::CraneClamAdmin.
  // This is the first call that reaches the server. Throws ClientError ("does not offer
  // CLAMX::Admin; use --legacy" for a 2001-only server).
  ServerAdmin(CORBA::Object_ptr reference, bool legacy, unsigned timeout_ms);

  // subscribe / subscribeWith. Throws Refused with the server's reason, or ClientError.
  std::unique_ptr<Subscription> subscribe(CORBA::Object_ptr client,
                                          const SubscribeSettings& settings);
  // Extended servers only; nullopt otherwise or on failure.
  std::optional<ServerStatusInfo> status(std::string* error = nullptr);
  bool legacy() const { return legacy_; }

 private:
  CLAM::CraneClamAdmin_var admin_;
  CLAMX::Admin_var extended_admin_;
  bool legacy_ = false;
};

}  // namespace clamsim::client
