// clamsim-server's life: load the catalog, start the registry and the transports, serve
// until SIGINT/SIGTERM, then shut down in order and print the counters.
#pragma once

#include "app/server_options.h"

namespace clamsim::app {

// Block SIGINT and SIGTERM in the calling thread, before any other thread exists, so every
// thread inherits the mask and run_server() receives them with sigwait. Ignores SIGPIPE.
void block_stop_signals();

// Returns the exit status: 0 after a clean stop, 1 when the server could not start, 2 for
// an unusable model or scenario directory.
int run_server(const ServerOptions& options);

}  // namespace clamsim::app
