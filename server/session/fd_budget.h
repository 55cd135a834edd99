// The process's file descriptors as a budget shared by every transport (docs/security.md,
// "Descriptor exhaustion"). At start the soft limit is raised as far as the hard limit
// allows; each transport then refuses a new connection while fewer than a reserve of
// descriptors is left, instead of letting accept() fail with EMFILE (omniORB's accept
// loop then spins at a full core, and nothing else can open a file: reports, models).
#pragma once

#include <cstddef>
#include <string>

namespace clamsim::session {

// Descriptors kept free for files, the other transport's listener and outgoing
// connections to receivers.
inline constexpr std::size_t kFdReserve = 64;

struct FdLimit {
  std::size_t before = 0;   // soft limit found at start
  std::size_t soft = 0;     // soft limit now
  std::size_t hard = 0;
  std::string error;        // why it could not be raised, "" if it was or need not be
};

// Raises RLIMIT_NOFILE's soft limit to its hard limit (capped at `cap`).
FdLimit raise_fd_limit(std::size_t cap = 1 << 20);

// One line for the start-up banner: "file descriptors: 1024 -> 524288 (reserve 64)".
std::string describe(const FdLimit& limit);

// True while fewer than `reserve` descriptors are free below the soft limit. Cheap (a dup
// and a close): descriptors are handed out lowest first, so the lowest free one tells how
// many are in use.
bool fd_budget_exhausted(std::size_t reserve = kFdReserve);

}  // namespace clamsim::session
