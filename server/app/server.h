// clamsim-server's life: load the catalog, start the registry and the transports, serve
// until SIGINT/SIGTERM, then shut down in order and print the counters.
#pragma once

#include <sys/types.h>

#include "app/server_options.h"

namespace clamsim::app {

// Block SIGINT, SIGTERM and SIGHUP in the calling thread, before any other thread exists,
// so every thread inherits the mask and run_server() receives them with sigwait. Ignores
// SIGPIPE.
void block_stop_signals();

// --exit-with-parent: have the kernel send SIGTERM (an ordered stop) when the process
// that started us ends. `parent` is getppid() read first thing in main(); false when that
// parent is already gone: reparented before the request took effect, or before main()
// ran (the parent read is then init, PID 1, which a launcher never is).
bool stop_with_parent(pid_t parent);

// Returns the exit status (cli/exit_codes.h): kExitOk after a clean stop, kExitFailure
// when a transport could not start (port in use), kExitUsage for a setting that names
// something unusable (default model or world not there, report directory not writable,
// a TLS file), kExitBadModel for a model or scenario file that does not load.
int run_server(const ServerOptions& options);

}  // namespace clamsim::app
