// Why the CORBA endpoint did not open, in one line naming the port and its setting,
// instead of omniORB's own log lines ("Unable to create an endpoint of this description").
#pragma once

#include <mutex>
#include <string>

#include "corba/options.h"

namespace clamsim::corba {

// While alive, omniORB's log lines are kept instead of printed; the destructor prints them
// unless discard() was called (the caller said what went wrong in its own words).
class HeldOrbLog {
 public:
  HeldOrbLog();
  ~HeldOrbLog();
  HeldOrbLog(const HeldOrbLog&) = delete;
  HeldOrbLog& operator=(const HeldOrbLog&) = delete;
  void discard();

 private:
  bool discard_ = false;
};

// Tries to bind each endpoint the options open (plain IIOP, then TLS) the way omniORB
// does, and names the first that cannot be opened: "--corba-port 10150: port 10150 on
// 127.0.0.1 is in use (another server?); choose another, or 0 for any free port".
// "" when every endpoint could be bound (the failure lies elsewhere).
std::string listen_problem(const CorbaOptions& o);

}  // namespace clamsim::corba
