// Configuration of clamsim-server: config/server.json, then command-line flags over it.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "corba/options.h"
#include "web/web_options.h"

namespace clamsim::app {

struct ServerOptions {
  std::string config_path;              // the file read; "" when none was
  std::string models_dir = "models";
  std::string scenarios_dir = "config/scenarios";
  std::string default_model = "t250";
  std::string world = "dam_intake";     // world scenario of every session; "none" = empty
  std::string report_dir = "reports";   // finished tasks' reports (docs/training-task.md)
  std::size_t max_sessions = 250;
  double send_grace_s = 2.0;
  bool exit_with_parent = false;        // SIGTERM ourselves when the launching process ends
  corba::CorbaOptions corba;            // host, port, publish, concurrency, timeouts, naming
  bool web_enabled = true;              // --http-port off disables the web front end
  web::WebOptions web;                  // HTTP + WebSocket: address, port, files, origins
  bool help = false;
  std::vector<std::string> notes;       // defaults that were dropped, printed at start-up
};

// A bad flag or config value; what() is one line naming it.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads --config FILE (else config/server.json when it exists), then applies the flags.
// Relative paths inside the config file are relative to the file's directory. Throws
// UsageError.
ServerOptions parse_server_options(int argc, const char* const* argv);

const char* server_usage();

}  // namespace clamsim::app
