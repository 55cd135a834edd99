// Command line of clamsim-receiver, the classroom-PC client (docs/receiver.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clamsim::receiver {

enum class Input { Neutral, Script, Keyboard, Joystick };

struct ReceiverOptions {
  std::string server;    // --server: corbaloc:, corbaname: or IOR: reference
  bool legacy = false;   // --legacy: the 2001 interface only
  bool bidir = false;    // --bidir: bidirectional GIOP
  std::string listen;    // --listen HOST[:PORT]: callback endpoint
  std::string tls_ca;    // --tls-ca FILE: IIOP over TLS, the server's CA
  std::string tls_cert;  // --tls-cert FILE: client certificate (with --tls-key)
  std::string tls_key;   // --tls-key FILE
  double rate_hz = 0.0;  // --rate: frames/s to ask for; 0 = server default
  std::string model;     // --model NAME
  std::string scenario;  // --scenario NAME
  Input input = Input::Neutral;
  std::string controls_path;         // --controls FILE
  std::string joystick_path;         // --joystick DEV
  std::string mapping_path;          // --mapping FILE ("" = built-in default)
  float key_step_v = 1.0f;           // --key-step V
  std::string keys_path;             // --keys FILE ("" = the default layout file)
  std::string csv_path;              // --csv FILE
  std::string report_path;           // --report FILE: the task's report, when it ends
  std::string trainee;                 // --trainee NAME: setTrainee after subscribing
  std::optional<double> restart_at_s;  // --restart-at S: restartTask once, S s in
  std::optional<double> duration_s;  // --duration S
  bool quiet = false;                // --quiet: no status line
  // --observe ID --ticket T: watch a trainee's session instead of driving one
  // (docs/receiver.md "Watching a trainee"); the ticket comes from the instructor page.
  std::uint64_t observe = 0;         // 0 = drive a session of our own
  std::string ticket;
  bool help = false;
  std::vector<std::string> orb_args;  // -ORBname value, passed to omniORB
};

// Throws cli::UsageError naming the offending argument.
ReceiverOptions parse_receiver_options(int argc, const char* const* argv);

// The --help text; `keys` is the keyboard's section, made from the key layout file
// (keys_help in receiver_main.cc), so the keys it names are the ones the receiver reads.
std::string receiver_usage(const std::string& keys);

}  // namespace clamsim::receiver
