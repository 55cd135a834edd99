#include "corba/oneway_sink.h"

#include <omniORB4/IIOP.h>
#include <omniORB4/omniIOR.h>
#include <omniORB4/omniORB.h>

#include <utility>

#include "corba/convert.h"
#include "session/server_wide.h"

namespace clamsim::corba {

namespace {

constexpr const char* kClientId = "IDL:CLAM/CraneClamClient:1.0";
constexpr const char* kFrameClientId = "IDL:CLAMX/FrameClient:1.0";
constexpr const char* kNoticeClientId = "IDL:CLAMX/NoticeClient:1.0";

// "host:port" of the first IIOP profile of a reference (where its frames go), "" when it
// has none.
std::string reference_address(CORBA::Object_ptr obj) {
  omniIOR* ior = obj->_PR_getobj()->_getIOR();
  std::string address;
  try {
    const IOP::TaggedProfileList& profiles = ior->iopProfiles();
    for (CORBA::ULong i = 0; i < profiles.length() && address.empty(); ++i) {
      if (profiles[i].tag != IOP::TAG_INTERNET_IOP) continue;
      IIOP::ProfileBody body;
      IIOP::unmarshalProfile(profiles[i], body);
      const std::string host(body.address.host);
      address = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
                std::to_string(body.address.port);
    }
  } catch (const CORBA::Exception&) {
    address.clear();  // a profile we cannot read names no peer
  }
  ior->release();
  return address;
}

}  // namespace

std::shared_ptr<OnewaySink> OnewaySink::connect(CLAM::CraneClamClient_ptr client,
                                                const SinkTimeouts& timeouts,
                                                std::shared_ptr<const std::atomic<bool>> stopping,
                                                std::shared_ptr<const model::Scenario> scenario,
                                                bool reveal_names, ClientProblem* problem) {
  if (CORBA::is_nil(client)) {
    *problem = {ClientProblem::Kind::Nil, "the client reference is nil"};
    return nullptr;
  }
  CLAM::CraneClamClient_var checked = CLAM::CraneClamClient::_duplicate(client);
  CLAMX::FrameClient_var rich;
  CLAMX::NoticeClient_var notices;
  try {
    omniORB::setClientCallTimeout(checked, timeouts.setup_ms);
    // The proxy was made for the parameter's static type, so its own _is_a would answer
    // "CraneClamClient" without asking. Trust the repository id the reference carries when
    // it names one of ours; otherwise ask the object itself.
    omniObjRef* ref = checked->_PR_getobj();
    const std::string carried = ref->_mostDerivedRepoId();
    bool is_client = carried == kClientId || carried == kFrameClientId ||
                     carried == kNoticeClientId;
    if (!is_client) is_client = ref->_remote_is_a(kClientId);
    if (!is_client) {
      *problem = {ClientProblem::Kind::NotAClient,
                  "the client reference (" + carried + ") is not a " + kClientId};
      return nullptr;
    }
    // the richest interface it implements; ask the object only what its id leaves open
    bool takes_notices = carried == kNoticeClientId;
    bool is_rich = takes_notices || carried == kFrameClientId;
    if (!is_rich) is_rich = ref->_remote_is_a(kFrameClientId);
    if (is_rich && !takes_notices && carried != kFrameClientId)
      takes_notices = ref->_remote_is_a(kNoticeClientId);
    if (is_rich) {
      rich = CLAMX::FrameClient::_unchecked_narrow(checked);
      omniORB::setClientCallTimeout(rich, timeouts.call_ms);
    }
    if (takes_notices) {
      notices = CLAMX::NoticeClient::_unchecked_narrow(checked);
      omniORB::setClientCallTimeout(notices, timeouts.call_ms);
    }
  } catch (const CORBA::SystemException& e) {
    *problem = {ClientProblem::Kind::Unreachable,
                "the server cannot reach the client reference: " + describe(e)};
    return nullptr;
  }
  omniORB::setClientCallTimeout(checked, timeouts.call_ms);
  return std::shared_ptr<OnewaySink>(new OnewaySink(checked._retn(), rich._retn(),
                                                    notices._retn(), std::move(stopping),
                                                    std::move(scenario), reveal_names));
}

OnewaySink::OnewaySink(CLAM::CraneClamClient_ptr client, CLAMX::FrameClient_ptr frame_client,
                       CLAMX::NoticeClient_ptr notice_client,
                       std::shared_ptr<const std::atomic<bool>> stopping,
                       std::shared_ptr<const model::Scenario> scenario, bool reveal_names)
    : client_(client),
      frame_client_(frame_client),
      notice_client_(notice_client),
      peer_(reference_address(client)),
      stopping_(std::move(stopping)),
      scenario_(std::move(scenario)),
      reveal_names_(reveal_names) {}

void OnewaySink::send_drain_notice(double seconds_left) {
  const long whole = session::drain_whole_seconds(seconds_left);
  if (whole < 0 || whole == drain_notice_s_) return;
  drain_notice_s_ = whole;
  CLAMX::ServerNotice notice;
  notice.kind = "drain";
  notice.seconds_left = static_cast<double>(whole);
  notice.message = session::drain_notice_text(whole).c_str();
  notice_client_->notify(notice);
}

// Who drives now and the instructor's messages, for the receiver's status line.
void OnewaySink::send_instructor_notices(const session::FrameNotices& n) {
  CLAMX::ServerNotice notice;
  notice.seconds_left = -1.0;
  if (n.control_changed) {
    notice.kind = "control";
    notice.message = session::control_notice_text(n.control).c_str();
    notice_client_->notify(notice);
  }
  for (const session::InstructorMessage& m : n.messages) {
    notice.kind = "instructor_message";
    notice.message = (m.from + ": " + m.text).c_str();
    notice_client_->notify(notice);
  }
}

bool OnewaySink::deliver(const session::Frame& frame) {
  if (stopping_ && stopping_->load(std::memory_order_relaxed)) return false;
  try {
    if (!CORBA::is_nil(frame_client_)) {
      to_frame(frame, frame_, scenario_ ? &scenario_->world : nullptr);
      // once per task at most: the frame that ends it
      if (frame.report && !reveal_names_)
        frame_.task_report_json = without_trainee(*frame.report).c_str();
      frame_client_->getFrame(frame_);
      if (!CORBA::is_nil(notice_client_)) {
        send_drain_notice(frame.drain_s_left);
        if (frame.notices) send_instructor_notices(*frame.notices);
      }
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
