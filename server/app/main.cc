// clamsim-server: the real-time simulation server (docs/corba.md).
#include <cstdio>

#include "app/server.h"
#include "app/server_options.h"

int main(int argc, char** argv) {
  using namespace clamsim::app;
  block_stop_signals();  // first: every thread started later inherits the mask
  ServerOptions options;
  try {
    options = parse_server_options(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "clamsim-server: %s\n", e.what());
    return 2;
  }
  if (options.help) {
    std::fputs(server_usage(), stdout);
    return 0;
  }
  options.corba.version = CLAMSIM_VERSION;
  return run_server(options);
}
