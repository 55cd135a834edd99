// Object ids of session servants as capabilities (docs/security.md, "Session takeover"):
// 128 bits from the kernel's cryptographic random source, written as 32 hex digits. The
// session's public number (/api/sessions, logs) never appears in the key, so knowing it,
// or holding a reference to another session, does not let anyone reach a session.
#pragma once

#include <cstddef>
#include <string>

namespace clamsim::corba {

constexpr std::size_t kSessionKeyBits = 128;

// A fresh session object id. Throws std::runtime_error naming the cause when the kernel
// cannot supply random bytes (never falls back to a weaker source).
std::string random_session_key();

}  // namespace clamsim::corba
