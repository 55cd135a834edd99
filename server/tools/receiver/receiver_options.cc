#include "tools/receiver/receiver_options.h"

#include "cli/args.h"
#include "core/params.h"

namespace clamsim::receiver {

std::string receiver_usage(const std::string& keys) {
  return R"(Usage: clamsim-receiver --server REF [input] [options]

Subscribes to a clamsim server as a service receiver (thesis ch. 4), sends the five
control voltages 20 times a second (oneway GetControlInput) and receives a frame every
50 ms (oneway getFrame, or getDisplayData with --legacy). Shows a live status line on a
terminal and prints the thesis's Table 5.2 counts at exit.

Connection:
  --server REF         corbaloc::HOST:PORT/CraneClamAdmin, corbaname::HOST:PORT#NAME
                       or IOR:...
  --legacy             the 2001 interface only: CLAM::CraneClamAdmin::subscribe, frames
                       as getDisplayData (no sequence numbers)
  --bidir              bidirectional GIOP: the server sends frames back over this
                       receiver's own connection (behind NAT or a firewall); the server
                       must accept it (docs/receiver.md)
  --listen HOST[:PORT] the address the server calls back (default: omniORB's choice)
  --tls-ca FILE        IIOP over TLS (--server corbaloc:ssliop:HOST:PORT/CraneClamAdmin):
                       the PEM CA that signed the server's certificate, which must
                       also name HOST; frames come back over the same connection
  --tls-cert FILE      with --tls-key: this receiver's client certificate (PEM), so
  --tls-key FILE       the server knows who it is (needed when it requires one)
  --rate HZ            frames per second to ask for (default: the server's, 20)
  --model NAME         machine model to ask for (default: the server's)
  --scenario NAME      from the server's config/scenarios: a world (its loads and
                       task, at its start pose) or a .ctl start pose in the server's
                       world
  --trainee NAME       who is at the controls: the instructor's overview shows it and
                       the task's reports carry it (1-40 characters)
Input (at most one; without one the receiver sends 0 V, a pure observer):
  --controls FILE      control script (docs/control-script.md); t = 0 at subscription
  --keyboard           keys on this terminal, the browser's layout from the key layout
                       file (each press steps 1 V and holds); its legend is printed at
                       start and on the help key
  --keys FILE          the key layout (default: config/keyboard.json from the working
                       directory, else ../share/clamsim/keyboard.json from the binary)
  --key-step V         volts per key press (default 1)
  --joystick DEV       Linux joystick, e.g. /dev/input/js0
  --mapping FILE       which axes drive the signals and which button restarts the task
                       (default: config/joystick-default.json's layout, button 9)
Output:
  --csv FILE           one row per frame received
  --report FILE        save the training task's report (JSON) here when the task ends
  --restart-at S       start a new attempt at the task S seconds after subscribing
                       (restartTask; by hand: the keyboard's restart key, below, or
                       the joystick's restart button)
  --duration S         stop after S seconds (default: the script's duration line, else
                       run until Ctrl-C or the keyboard's quit key, below)
  --observe ID         watch session ID (an instructor's view: the trainee's frames,
                       inputs and events) instead of driving a session; needs
  --ticket T           a ticket from the instructor page ("Receiver ticket"), used once
  --quiet              no status line
  --help               this text
  --version            print the version and exit
omniORB options (-ORBname value, e.g. -ORBtraceLevel 10) are passed to the ORB.

)" + keys + R"(
Ctrl-C ends a run normally (exit status 0). A server that cannot be reached, refuses the
subscription or stops sending is a failure at run time (1).
)";
}

namespace {

// --observe ID --ticket T: an instructor's receiver watching a session; nothing that drives
// or shapes a session of its own goes with it.
void read_observe(const cli::Args& a, ReceiverOptions& o) {
  if (a.has("--observe") != a.has("--ticket"))
    throw cli::UsageError(a.has("--observe")
                              ? "--observe needs --ticket (POST /api/sessions/ID/observe-ticket, "
                                "or \"Receiver ticket\" on the instructor page)"
                              : "--ticket needs --observe SESSION_ID");
  if (!a.has("--observe")) return;
  const std::string id = *a.text("--observe");
  if (id.empty() || id.size() > 19 || id.find_first_not_of("0123456789") != std::string::npos ||
      std::stoull(id) == 0)
    throw cli::UsageError("--observe: expected a session number (as the instructor page lists "
                          "them), got '" + id.substr(0, 40) + "'");
  o.observe = std::stoull(id);
  o.ticket = *a.text("--ticket");
  for (const char* f : {"--legacy", "--controls", "--keyboard", "--joystick", "--rate", "--model",
                        "--scenario", "--trainee", "--restart-at"})
    if (a.has(f))
      throw cli::UsageError(std::string(f) + " drives or shapes a session of its own; it cannot "
                            "be used with --observe, which watches a trainee's");
}

// Where the server is and how to reach it (TLS, a listening address, the 2001 interface),
// and what session to ask it for.
void read_connection(const cli::Args& a, ReceiverOptions& o) {
  o.legacy = a.has("--legacy");
  o.bidir = a.has("--bidir");
  o.listen = a.text("--listen").value_or("");
  o.tls_ca = a.text("--tls-ca").value_or("");
  o.tls_cert = a.text("--tls-cert").value_or("");
  o.tls_key = a.text("--tls-key").value_or("");
  if ((a.has("--tls-cert") || a.has("--tls-key")) && !a.has("--tls-ca"))
    throw cli::UsageError("--tls-cert and --tls-key need --tls-ca (the server's CA)");
  if (a.has("--tls-cert") != a.has("--tls-key"))
    throw cli::UsageError(a.has("--tls-cert") ? "--tls-cert needs --tls-key"
                                                 : "--tls-key needs --tls-cert");
  if (a.has("--tls-ca") && a.has("--legacy"))
    throw cli::UsageError("--legacy cannot be used with --tls-ca: the server's question to "
                             "a 2001 receiver over its own connection times out "
                             "(docs/corba.md, \"Known limitation\")");
  if (a.has("--tls-ca") && a.has("--listen"))
    throw cli::UsageError("--listen cannot be used with --tls-ca: over TLS the server "
                             "sends frames back over this receiver's own connection");
  o.rate_hz = a.number("--rate", 0.1, 1000.0).value_or(0.0);
  o.model = a.text("--model").value_or("");
  o.scenario = a.text("--scenario").value_or("");
  o.trainee = a.text("--trainee").value_or("");
  if (a.has("--trainee") && o.trainee.find_first_not_of(" \t") == std::string::npos)
    throw cli::UsageError("--trainee: the name is empty");
  if (o.legacy) {
    for (const char* f :
         {"--rate", "--model", "--scenario", "--report", "--restart-at", "--trainee"}) {
      if (a.has(f)) {
        throw cli::UsageError(std::string(f) +
                                 " needs the extended interface; it cannot be used with --legacy");
      }
    }
  }
}

// At most one input: a control script, this terminal's keys or a joystick, with its own
// options.
void read_input(const cli::Args& a, ReceiverOptions& o) {
  int inputs = 0;
  if (a.has("--controls")) {
    o.input = Input::Script;
    o.controls_path = *a.text("--controls");
    ++inputs;
  }
  if (a.has("--keyboard")) {
    o.input = Input::Keyboard;
    ++inputs;
  }
  if (a.has("--joystick")) {
    o.input = Input::Joystick;
    o.joystick_path = *a.text("--joystick");
    ++inputs;
  }
  if (inputs > 1) {
    throw cli::UsageError("--controls, --keyboard and --joystick are alternatives; give one");
  }
  if (a.has("--mapping")) {
    if (o.input != Input::Joystick) throw cli::UsageError("--mapping needs --joystick");
    o.mapping_path = *a.text("--mapping");
  }
  if (a.has("--key-step")) {
    if (o.input != Input::Keyboard) throw cli::UsageError("--key-step needs --keyboard");
    o.key_step_v = static_cast<float>(*a.number("--key-step", 0.1, core::kFullStick_V));
  }
  if (a.has("--keys")) {
    if (o.input != Input::Keyboard) throw cli::UsageError("--keys needs --keyboard");
    o.keys_path = *a.text("--keys");
  }
}

}  // namespace

ReceiverOptions parse_receiver_options(int argc, const char* const* argv) {
  cli::FlagSet flags;
  flags.valued = {"--server", "--listen", "--rate", "--model", "--scenario", "--controls",
                  "--joystick", "--mapping", "--key-step", "--keys", "--csv", "--duration",
                  "--report", "--restart-at", "--trainee", "--tls-ca", "--tls-cert", "--tls-key",
                  "--observe", "--ticket"};
  flags.switches = {"--legacy", "--bidir", "--keyboard", "--quiet", "--help", "-h"};
  // the server's flags, tried here: the receiver finds the server by one reference
  const std::string where = "the server's host and CORBA port (its --corba-port) go in --server "
                            "corbaloc::HOST:PORT/CraneClamAdmin";
  for (const char* f : {"--port", "--corba-port", "--host"}) flags.hints[f] = where;
  flags.orb_options = true;
  const cli::Args a(argc, argv, flags);
  ReceiverOptions o;
  if (a.has("--help") || a.has("-h")) {
    o.help = true;
    o.keys_path = a.text("--keys").value_or("");  // whose keys the help lists
    return o;
  }
  o.server = a.required("--server");
  read_connection(a, o);
  read_input(a, o);
  read_observe(a, o);
  o.csv_path = a.text("--csv").value_or("");
  o.report_path = a.text("--report").value_or("");
  o.restart_at_s = a.number("--restart-at", 0.0, 1e7);
  o.duration_s = a.number("--duration", 0.05, 1e7);
  o.quiet = a.has("--quiet");
  o.orb_args = a.orb_args();
  return o;
}

}  // namespace clamsim::receiver
