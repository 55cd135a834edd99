// clamsim-server: the real-time simulation server (docs/corba.md).
#include <unistd.h>

#include <cstdio>

#include "app/server.h"
#include "app/server_options.h"
#include "cli/exit_codes.h"
#include "cli/version_flag.h"
#include "session/fd_budget.h"
#include "version/version.h"

int main(int argc, char** argv) {
  using namespace clamsim::app;
  namespace cli = clamsim::cli;
  const pid_t parent = getppid();  // before anything can make us an orphan unnoticed
  if (cli::print_version_if_asked(argc, argv, "clamsim-server")) return cli::kExitOk;
  block_stop_signals();  // first: every thread started later inherits the mask
  ServerOptions options;
  try {
    options = parse_server_options(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "clamsim-server: %s\n", e.what());
    return cli::kExitUsage;
  }
  if (options.help || options.help_markdown) {
    std::fputs((options.help ? server_usage() : settings_markdown()).c_str(), stdout);
    return cli::kExitOk;
  }
  if (options.exit_with_parent && !stop_with_parent(parent)) {
    std::fprintf(stderr, "clamsim-server: --exit-with-parent: the process that started the "
                         "server has already ended; not starting\n");
    return cli::kExitFailure;
  }
  options.corba.version = clamsim::kVersion;
  // as many descriptors as allowed, the transports keep a reserve (session/fd_budget.h)
  options.notes.push_back(clamsim::session::describe(clamsim::session::raise_fd_limit()));
  return run_server(options);
}
