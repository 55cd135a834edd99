// Configuration of clamsim-server: config/server.json, then command-line flags over it.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/args.h"
#include "corba/options.h"
#include "base/event_log.h"
#include "web/web_options.h"

namespace clamsim::app {

// The CORBA side listens on this machine only unless told otherwise, like the web side.
inline corba::CorbaOptions loopback_corba() {
  corba::CorbaOptions c;
  c.host = "127.0.0.1";
  return c;
}

struct ServerOptions {
  std::string config_path;              // the file read; "" when none was
  std::string models_dir = "models";
  std::string scenarios_dir = "config/scenarios";
  std::string default_model = "t250";
  std::string world = "dam_intake";     // world scenario of every session; "none" = empty
  std::string report_dir = "reports";   // finished tasks' reports (docs/training-task.md)
  std::string state_dir = "state";      // accounts, generated TLS key (docs/security.md)
  // Session recordings (docs/recording.md): on by default, under the state directory.
  bool record = true;
  std::string record_dir;               // "" = <state_dir>/recordings
  unsigned record_frame_every = 20;     // /frames: every Nth frame
  double record_keep_days = 30.0;       // 0 = no age limit
  double record_keep_mb = 2000.0;       // 0 = no size limit
  std::string recordings_dir() const {
    return record_dir.empty() ? state_dir + "/recordings" : record_dir;
  }
  std::string keyboard_file = "config/keyboard.json";  // the browser's keys ("" = none)
  std::size_t max_sessions = 250;
  std::size_t max_sessions_per_client = 4;   // from one client address (0 = no cap)
  double drain_seconds = 120.0;         // SIGTERM: running sessions may go on this long
  base::LogFormat log_format = base::LogFormat::Text;
  double send_grace_s = 2.0;
  bool exit_with_parent = false;        // SIGTERM ourselves when the launching process ends
  corba::CorbaOptions corba = loopback_corba();  // host, port, publish, timeouts, naming
  bool web_enabled = true;              // --http-port off disables the web front end
  web::WebOptions web;                  // HTTP + WebSocket: address, port, files, origins,
                                        // TLS certificate and key
  bool tls_self_signed = false;         // make (once) and use STATE_DIR/tls/{cert,key}.pem
  bool help = false;
  bool help_markdown = false;           // --help-settings-markdown (docs/deploy.md's table)
  std::vector<std::string> notes;       // defaults that were dropped, printed at start-up
};

// A bad flag or config value; what() is one line naming it (the one reader's, cli/args.h).
using cli::UsageError;

// The environment as (name, value) pairs.
using Environment = std::vector<std::pair<std::string, std::string>>;

// Each setting from its flag, else its environment variable (env_name), else the config
// file (--config FILE, CLAMSIM_CONFIG, else config/server.json when it exists; relative
// paths inside are relative to the file's directory), else its default. Throws UsageError.
ServerOptions parse_server_options(int argc, const char* const* argv, const Environment& env);
// The same with the process's environment.
ServerOptions parse_server_options(int argc, const char* const* argv);

// "--max-sessions" -> "CLAMSIM_MAX_SESSIONS".
std::string env_name(const std::string& flag);

// --help, and the settings table of docs/deploy.md, both generated from the one list.
std::string server_usage();
std::string settings_markdown();

}  // namespace clamsim::app
