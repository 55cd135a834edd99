// The CORBA side of a session: each frame goes to the receiver as one oneway call, getFrame
// when the receiver is a CLAMX::FrameClient, else the thesis's getDisplayData. Runs on the
// session thread; the reference's call timeout bounds every send (omniORB's oneway
// blocks when the receiver stops reading, forever without a timeout; docs/architecture.md,
// "A slow client never slows a session").
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include <clamx.hh>

#include "model/scenario_file.h"
#include "session/frame_sink.h"

namespace clamsim::corba {

struct SinkTimeouts {
  CORBA::ULong call_ms = 20;     // each frame
  CORBA::ULong setup_ms = 1000;  // the _is_a checks at subscribe time
};

// Why a client reference was not accepted.
struct ClientProblem {
  enum class Kind { None, Nil, NotAClient, Unreachable };
  Kind kind = Kind::None;
  std::string reason;
};

class OnewaySink final : public session::FrameSink {
 public:
  // Checks the reference once (nil, is_a CraneClamClient, is_a FrameClient) with the setup
  // timeout, then arms the frame timeout. Returns null and fills *problem when refused.
  // Runs on an ORB thread (the subscribe call), never on a session thread. scenario is the
  // session's world (null = none): the frames' load poses carry its masses. reveal_names
  // false: task reports reach the receiver with the trainee's name taken out.
  static std::shared_ptr<OnewaySink> connect(CLAM::CraneClamClient_ptr client,
                                             const SinkTimeouts& timeouts,
                                             std::shared_ptr<const std::atomic<bool>> stopping,
                                             std::shared_ptr<const model::Scenario> scenario,
                                             bool reveal_names, ClientProblem* problem);

  // Session thread only. False when the call failed (timeout, connection refused, ...) or
  // the server is stopping; never throws.
  bool deliver(const session::Frame& frame) override;
  const char* transport() const override { return "corba"; }
  // The address the receiver's reference carries ("host:port"), "" when it has none.
  std::string peer() const override { return peer_; }

  bool rich() const { return !CORBA::is_nil(frame_client_); }
  bool takes_notices() const { return !CORBA::is_nil(notice_client_); }

 private:
  OnewaySink(CLAM::CraneClamClient_ptr client, CLAMX::FrameClient_ptr frame_client,
             CLAMX::NoticeClient_ptr notice_client,
             std::shared_ptr<const std::atomic<bool>> stopping,
             std::shared_ptr<const model::Scenario> scenario, bool reveal_names);
  void send_instructor_notices(const session::FrameNotices& n);
  void send_drain_notice(double seconds_left);

  CLAM::CraneClamClient_var client_;
  CLAMX::FrameClient_var frame_client_;     // nil for legacy receivers
  CLAMX::NoticeClient_var notice_client_;   // nil unless the receiver takes notices
  std::string peer_;
  long drain_notice_s_ = -1;                // whole seconds last announced
  std::shared_ptr<const std::atomic<bool>> stopping_;
  std::shared_ptr<const model::Scenario> scenario_;
  bool reveal_names_;                       // the subscriber proved who it is (TLS)
  CLAMX::Frame frame_;                      // reused: only the session thread touches it
  CLAM::DisplayData display_{};
};

}  // namespace clamsim::corba
