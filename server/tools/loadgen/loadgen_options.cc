#include "tools/loadgen/loadgen_options.h"

#include "cli/args.h"

namespace clamsim::loadgen {

const char* loadgen_usage() {
  return R"(Usage: clamsim-loadgen --server REF --sessions N --duration S [options]
       clamsim-loadgen --spawn-server PATH --sessions N --duration S [options]

Subscribes N receivers (N servants, N subscriptions) in this one process to a running
clamsim server, measures every frame's arrival for S seconds and reports frames per
second, inter-arrival time (min / mean / standard deviation, as Amoretti et al. measure
event fan-out), lateness against the ideal 50 ms schedule (p50 / p99 / max), lost frames
(sequence gaps) and the server's CPU. Unsubscribes all at the end.

Server:
  --server REF             corbaloc::HOST:PORT/CraneClamAdmin, corbaname:... or IOR:...
  --server-pid PID         read this process's CPU time from /proc (the server's)
  --spawn-server PATH      start PATH (clamsim-server) on 127.0.0.1 and a free port, use
                           it, stop it at the end; its CPU is read automatically
  --server-arg ARG         one more argument for the spawned server (repeatable), e.g.
                           --server-arg --models-dir --server-arg /srv/models
Load:
  --sessions N             receivers to subscribe (1..10000)
  --duration S             measurement window [s] (default 10)
  --warmup S               wait after the last subscription before measuring (default 1)
  --baseline S             first measure one session alone for S seconds, then add the
                           others: the report compares the loaded p99 lateness with this
                           single-session p99 of the same run
  --legacy                 subscribe with the 2001 interface (getDisplayData, no seq)
  --rate HZ                frames per second to ask for (default: the server's, 20)
  --model NAME             machine model to ask for
  --subscribe-rate R       subscriptions per second while ramping up (default: one
                           every 0.382 frame periods, 19.1 ms, which spreads the
                           sessions' frame times evenly over the period)
  --subscribe-timeout-ms T bound on each subscribe call (default 5000)
  --control-rate HZ        GetControlInput per session per second (default 20; 0 = none)
  --controls FILE          control script every session sends (default 0 V)
  --bidir                  bidirectional GIOP (see docs/receiver.md)
  --listen HOST[:PORT]     the address the server calls back
Report:
  --late-limit-ms MS       a session is "held" at its rate with p99 lateness <= MS (2)
  --csv FILE               one row per session
  --help                   this text
  --version                print the version and exit
omniORB options (-ORBname value) are passed to the ORB.

A run fails (1 below) when some subscription fails or the server goes away.
)";
}

LoadgenOptions parse_loadgen_options(int argc, const char* const* argv) {
  cli::FlagSet flags;
  flags.valued = {"--server", "--sessions", "--duration", "--warmup", "--baseline", "--csv", "--server-pid",
                  "--spawn-server", "--server-arg", "--subscribe-rate", "--subscribe-timeout-ms",
                  "--control-rate", "--controls", "--rate", "--model", "--listen",
                  "--late-limit-ms"};
  flags.switches = {"--legacy", "--bidir", "--help", "-h"};
  flags.repeatable = flags.verbatim = {"--server-arg"};
  flags.orb_options = true;
  const cli::Args a(argc, argv, flags);
  LoadgenOptions o;
  if (a.has("--help") || a.has("-h")) {
    o.help = true;
    return o;
  }
  o.spawn_server = a.text("--spawn-server").value_or("");
  o.server = a.text("--server").value_or("");
  if (o.server.empty() && o.spawn_server.empty()) {
    throw cli::UsageError("--server is required (or --spawn-server PATH)");
  }
  o.server_args = a.all("--server-arg");
  if (!o.server_args.empty() && o.spawn_server.empty()) {
    throw cli::UsageError("--server-arg needs --spawn-server");
  }
  if (const auto pid = a.integer("--server-pid", 1, 1L << 30)) {
    if (!o.spawn_server.empty()) {
      throw cli::UsageError("--server-pid and --spawn-server exclude each other");
    }
    o.server_pid = static_cast<pid_t>(*pid);
  }
  if (!a.has("--sessions")) throw cli::UsageError("--sessions is required");
  o.sessions = static_cast<int>(*a.integer("--sessions", 1, 10000));
  o.duration_s = a.number("--duration", 0.5, 86400).value_or(10.0);
  o.warmup_s = a.number("--warmup", 0.0, 600).value_or(1.0);
  o.baseline_s = a.number("--baseline", 0.5, 3600).value_or(0.0);
  o.legacy = a.has("--legacy");
  o.csv_path = a.text("--csv").value_or("");
  o.subscribe_rate = a.number("--subscribe-rate", 0.1, 100000).value_or(0.0);
  o.subscribe_timeout_ms =
      static_cast<unsigned>(a.integer("--subscribe-timeout-ms", 10, 600000).value_or(5000));
  o.control_rate_hz = a.number("--control-rate", 0.0, 1000).value_or(20.0);
  o.controls_path = a.text("--controls").value_or("");
  o.rate_hz = a.number("--rate", 0.1, 1000).value_or(0.0);
  o.model = a.text("--model").value_or("");
  if (o.legacy && (a.has("--rate") || a.has("--model"))) {
    throw cli::UsageError("--rate and --model need the extended interface, not --legacy");
  }
  o.bidir = a.has("--bidir");
  o.listen = a.text("--listen").value_or("");
  o.late_limit_ms = a.number("--late-limit-ms", 0.0, 10000).value_or(2.0);
  o.orb_args = a.orb_args();
  return o;
}

}  // namespace clamsim::loadgen
