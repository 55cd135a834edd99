#include "tools/client/corba_errors.h"

#include <cstring>

namespace clamsim::client {

std::string describe(const CORBA::Exception& e) {
  std::string text = e._name();
  if (const auto* sys = CORBA::SystemException::_downcast(&e)) {
    const char* minor = sys->NP_minorString();
    if (minor != nullptr) text += std::string(" (") + minor + ")";
  }
  return text;
}

std::string hint(const CORBA::Exception& e) {
  const std::string name = e._name();
  if (name == "TRANSIENT") return "is the server running and reachable at that address?";
  if (name == "TIMEOUT") return "the server did not answer in time";
  if (name == "OBJECT_NOT_EXIST") return "the address is right but no such object is there";
  if (name == "BAD_PARAM") return "the reference string is malformed";
  if (name == "COMM_FAILURE") return "the connection to the server broke";
  return "";
}

}  // namespace clamsim::client
