#include "session/fd_budget.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace clamsim::session {

FdLimit raise_fd_limit(std::size_t cap) {
  FdLimit out;
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0) {
    out.error = std::string("getrlimit: ") + std::strerror(errno);
    return out;
  }
  out.before = out.soft = static_cast<std::size_t>(r.rlim_cur);
  out.hard = static_cast<std::size_t>(r.rlim_max);
  const rlim_t want = std::min<rlim_t>(r.rlim_max, static_cast<rlim_t>(cap));
  if (want <= r.rlim_cur) return out;
  rlimit raised = r;
  raised.rlim_cur = want;
  if (setrlimit(RLIMIT_NOFILE, &raised) != 0) {
    out.error = std::string("setrlimit: ") + std::strerror(errno);
    return out;
  }
  out.soft = static_cast<std::size_t>(want);
  return out;
}

std::string describe(const FdLimit& l) {
  std::string s = "file descriptors: ";
  if (l.soft != l.before)
    s += "soft limit raised from " + std::to_string(l.before) + " to " + std::to_string(l.soft);
  else
    s += "soft limit " + std::to_string(l.soft) + " (hard " + std::to_string(l.hard) + ")";
  s += ", " + std::to_string(kFdReserve) + " kept in reserve";
  if (!l.error.empty()) s += " (not raised: " + l.error + ")";
  return s;
}

bool fd_budget_exhausted(std::size_t reserve) {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return false;
  // open() returns the lowest free descriptor: every one below it is in use
  const int lowest = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (lowest < 0) return errno == EMFILE || errno == ENFILE;
  close(lowest);
  return static_cast<std::size_t>(lowest) + reserve >= static_cast<std::size_t>(r.rlim_cur);
}

}  // namespace clamsim::session
