// Minor codes of the standard system exceptions the legacy CLAM::CraneClamAdmin raises
// (it has no user exception to carry a reason). 'CL' = 0x434C in the top 16 bits.
// The extended CLAMX::Admin raises CLAMX::Refused with the reason text instead.
#pragma once

#include <cstdint>

namespace clamsim::corba::minor {

constexpr std::uint32_t kServerFull = 0x434C0001;         // NO_RESOURCES: session limit reached
constexpr std::uint32_t kShuttingDown = 0x434C0002;       // NO_RESOURCES: server is stopping
constexpr std::uint32_t kNilClient = 0x434C0003;          // BAD_PARAM: nil client reference
constexpr std::uint32_t kNotAClient = 0x434C0004;         // BAD_PARAM: not a CLAM::CraneClamClient
constexpr std::uint32_t kClientUnreachable = 0x434C0005;  // BAD_PARAM: server cannot reach it
constexpr std::uint32_t kBadRequest = 0x434C0006;         // BAD_PARAM: any other refusal
constexpr std::uint32_t kDraining = 0x434C0007;           // NO_RESOURCES: draining (SIGTERM),
                                                          // no new sessions: try another server

}  // namespace clamsim::corba::minor
