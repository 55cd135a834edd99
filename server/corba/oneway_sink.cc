#include "corba/oneway_sink.h"

#include <omniORB4/omniORB.h>

#include <utility>

#include "corba/convert.h"

namespace clamsim::corba {

namespace {

constexpr const char* kClientId = "IDL:CLAM/CraneClamClient:1.0";
constexpr const char* kFrameClientId = "IDL:CLAMX/FrameClient:1.0";

}  // namespace

std::shared_ptr<OnewaySink> OnewaySink::connect(CLAM::CraneClamClient_ptr client,
                                                const SinkTimeouts& timeouts,
                                                std::shared_ptr<const std::atomic<bool>> stopping,
                                                std::shared_ptr<const model::Scenario> scenario,
                                                ClientProblem* problem) {
  if (CORBA::is_nil(client)) {
    *problem = {ClientProblem::Kind::Nil, "the client reference is nil"};
    return nullptr;
  }
  CLAM::CraneClamClient_var checked = CLAM::CraneClamClient::_duplicate(client);
  CLAMX::FrameClient_var rich;
  try {
    omniORB::setClientCallTimeout(checked, timeouts.setup_ms);
    // The proxy was made for the parameter's static type, so its own _is_a would answer
    // "CraneClamClient" without asking. Trust the repository id the reference carries when
    // it names one of ours; otherwise ask the object itself.
    omniObjRef* ref = checked->_PR_getobj();
    const std::string carried = ref->_mostDerivedRepoId();
    bool is_client = carried == kClientId || carried == kFrameClientId;
    if (!is_client) is_client = ref->_remote_is_a(kClientId);
    if (!is_client) {
      *problem = {ClientProblem::Kind::NotAClient,
                  "the client reference (" + carried + ") is not a " + kClientId};
      return nullptr;
    }
    const bool is_rich = carried == kFrameClientId || ref->_remote_is_a(kFrameClientId);
    if (is_rich) {
      rich = CLAMX::FrameClient::_unchecked_narrow(checked);
      omniORB::setClientCallTimeout(rich, timeouts.call_ms);
    }
  } catch (const CORBA::SystemException& e) {
    *problem = {ClientProblem::Kind::Unreachable,
                "the server cannot reach the client reference: " + describe(e)};
    return nullptr;
  }
  omniORB::setClientCallTimeout(checked, timeouts.call_ms);
  return std::shared_ptr<OnewaySink>(
      new OnewaySink(checked._retn(), rich._retn(), std::move(stopping), std::move(scenario)));
}

OnewaySink::OnewaySink(CLAM::CraneClamClient_ptr client, CLAMX::FrameClient_ptr frame_client,
                       std::shared_ptr<const std::atomic<bool>> stopping,
                       std::shared_ptr<const model::Scenario> scenario)
    : client_(client),
      frame_client_(frame_client),
      stopping_(std::move(stopping)),
      scenario_(std::move(scenario)) {}

bool OnewaySink::deliver(const session::Frame& frame) {
  if (stopping_ && stopping_->load(std::memory_order_relaxed)) return false;
  try {
    if (!CORBA::is_nil(frame_client_)) {
      to_frame(frame, frame_, scenario_ ? &scenario_->world : nullptr);
      frame_client_->getFrame(frame_);
    } else {
      to_display(frame.outputs, display_);
      client_->getDisplayData(display_);
    }
    return true;
  } catch (const CORBA::Exception&) {
    // TIMEOUT (receiver not reading), TRANSIENT (gone), COMM_FAILURE, OBJECT_NOT_EXIST...:
    // the session counts the failure and the registry reaps after the grace period.
    return false;
  }
}

}  // namespace clamsim::corba
