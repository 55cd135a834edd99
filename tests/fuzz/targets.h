// What the fuzz driver feeds and what it checks (docs/security.md, "Fuzzing"). Each target
// takes one input, must neither crash nor throw, and checks properties that hold for every
// input; it returns a short label of what happened so the driver can show how varied the
// outcomes were. A broken property throws Violation.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "web/host_check.h"
#include "web/static_files.h"

namespace clamsim::fuzz {

struct Violation : std::logic_error {
  using std::logic_error::logic_error;
};

// A served directory with a few files, and a secret beside it that no path may reach.
class WebRootFixture {
 public:
  WebRootFixture();
  ~WebRootFixture();
  const std::vector<web::StaticMount>& mounts() const { return mounts_; }
  const web::HostPolicy& hosts() const { return hosts_; }
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path base_, root_;
  std::vector<web::StaticMount> mounts_;
  web::HostPolicy hosts_;
};

// HTTP: Beast's request parser as the server configures it (web/http_limits.h), fed in
// random pieces (split_seed), then what the server does with a parsed request before its
// routes: target split and decoding, the Host check, the Origin check, static file lookup.
// Properties: a file found lies inside its mount; parse results do not depend on how the
// bytes were split; every refusal carries a reason.
std::string http_request(std::string_view bytes, std::uint64_t split_seed,
                         const WebRootFixture& fixture);

// WebSocket text messages (web/client_message.h). Properties: an invalid message has a known
// error code and a message; a control message carries five finite voltages.
std::string ws_message(std::string_view bytes);

// The WebSocket frame counter under the flood limit (web/guarded_stream.h). Property: the
// count does not depend on how the bytes arrive, and never exceeds one frame per 2 bytes.
std::string ws_frames(std::string_view bytes, std::uint64_t split_seed);

// A session recording written as text (recording_target.cc says how), made into an MCAP
// file at `path` and read back as a replay reads it. Properties: refused with a reason, or
// read whole with every input applicable and within its range.
std::string recording(std::string_view text, const std::string& path);

// Well-formed inputs and grammar fragments of each target, for the mutator.
std::vector<std::string> http_seeds();
std::vector<std::string> http_tokens();
std::vector<std::string> ws_message_seeds();
std::vector<std::string> ws_message_tokens();
std::vector<std::string> ws_frame_seeds();
std::vector<std::string> recording_seeds();
std::vector<std::string> recording_tokens();

}  // namespace clamsim::fuzz
