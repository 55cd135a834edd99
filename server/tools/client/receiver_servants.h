// The receiver's side of the thesis's interface: a CORBA object the server calls with a
// oneway per frame. Two servants, because the server picks the richest interface the
// receiver implements (_is_a): a receiver that wants the 2001 behaviour must not be a
// CLAMX::FrameClient at all, or it would be sent getFrame.
// Both translate IDL types to ReceivedFrame (this is the tools' one conversion point)
// and hand it to an observer, stamping the arrival time first.
#pragma once

#include <clam.hh>
#include <clamx.hh>
#include <memory>

#include "tools/client/received_frame.h"

namespace clamsim::client {

// CLAMX::NoticeClient: receives getFrame and the server's notices (and getDisplayData,
// should a server send it).
class FrameServant : public POA_CLAMX::NoticeClient {
 public:
  explicit FrameServant(std::shared_ptr<FrameObserver> observer);
  void getFrame(const CLAMX::Frame& f) override;
  void getDisplayData(const CLAM::DisplayData data) override;
  void notify(const CLAMX::ServerNotice& notice) override;

 private:
  std::shared_ptr<FrameObserver> observer_;  // shared: a call may outlive deactivation
};

// CLAMX::ObserverClient: an instructor's receiver watching a trainee's session
// (clamsim-receiver --observe): frames with the trainee's inputs and the events.
class ObserverServant : public POA_CLAMX::ObserverClient {
 public:
  explicit ObserverServant(std::shared_ptr<FrameObserver> observer);
  void getObserved(const CLAMX::ObservedFrame& f) override;
  void observationEnded(const char* reason) override;
  void getFrame(const CLAMX::Frame& f) override;
  void getDisplayData(const CLAM::DisplayData data) override;

 private:
  std::shared_ptr<FrameObserver> observer_;
};

// CLAM::CraneClamClient exactly as published: receives getDisplayData only.
class DisplayServant : public POA_CLAM::CraneClamClient {
 public:
  explicit DisplayServant(std::shared_ptr<FrameObserver> observer);
  void getDisplayData(const CLAM::DisplayData data) override;

 private:
  std::shared_ptr<FrameObserver> observer_;
};

// The conversions, exposed for tests.
ReceivedFrame from_idl(const CLAMX::Frame& f, double arrival_s);
ReceivedFrame from_idl(const CLAM::DisplayData data, double arrival_s);
ReceivedFrame from_idl(const CLAMX::ObservedFrame& f, double arrival_s);

}  // namespace clamsim::client
