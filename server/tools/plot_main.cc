// clamsim-plot: draws a run's CSV after the fact, the same figure as clamsim-sim --plot;
// for clamsim-receiver's --csv record as well as clamsim-sim's table.
// Exit status (cli/exit_codes.h): 1 the plot failed (gnuplot missing or failing), 2 bad
// arguments or a CSV that cannot be plotted.
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/exit_codes.h"
#include "cli/version_flag.h"
#include "tools/plot.h"

namespace {

using clamsim::cli::kExitFailure;
using clamsim::cli::kExitUsage;

constexpr const char* kUsage = R"(Usage: clamsim-plot CSV OUT [--title TEXT] [--note TEXT]
Draws a run's CSV (clamsim-sim --csv or clamsim-receiver --csv) as the figure of
clamsim-sim --plot: SVG or PNG by OUT's extension. Needs gnuplot on PATH.
  --title TEXT  which run it is, e.g. "dam_intake, trainee Ada, 2026-11-29" (default: the
                CSV's file name and when it was written)
  --note TEXT   a line under the figure's caption (default: "record CSV")
  --help        this text
  --version     the version
)";

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

int usage_error(const std::string& what) {
  // the reader's own messages already point to --help
  std::fprintf(stderr, "clamsim-plot: %s%s\n", what.c_str(),
               what.find("--help") == std::string::npos ? " (see --help)" : "");
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  if (clamsim::cli::print_version_if_asked(argc, argv, "clamsim-plot")) return clamsim::cli::kExitOk;
  clamsim::cli::FlagSet flags;
  flags.valued = {"--note", "--title"};
  flags.switches = {"--help", "-h"};
  flags.positionals = true;   // CSV and OUT
  std::optional<clamsim::cli::Args> args;
  try {
    args.emplace(argc, argv, flags);
  } catch (const clamsim::cli::UsageError& e) {
    return usage_error(e.what());
  }
  if (args->has("--help") || args->has("-h")) {
    std::printf("%s\n%s", kUsage, clamsim::cli::exit_codes_help().c_str());
    return clamsim::cli::kExitOk;
  }
  clamsim::tools::PlotRequest request;
  request.note = args->text("--note").value_or("");
  const std::vector<std::string>& positional = args->positionals();
  if (positional.size() != 2)
    return usage_error("expected CSV and OUT, got " + std::to_string(positional.size()) +
                       " file name(s)");
  request.csv_path = positional[0];
  request.out_path = positional[1];
  if (!ends_with(request.out_path, ".svg") && !ends_with(request.out_path, ".png"))
    return usage_error("OUT '" + request.out_path + "' must end in .svg or .png");
  if (request.note.empty()) request.note = "record " + request.csv_path;
  request.title = args->text("--title").value_or("");
  if (request.title.empty()) {
    // the CSV holds no scenario or name: its file name and when it was written say which run
    struct stat st {};
    request.title = std::filesystem::path(request.csv_path).filename().string();
    if (stat(request.csv_path.c_str(), &st) == 0)
      request.title += ", " + clamsim::tools::utc_minute(static_cast<long long>(st.st_mtime));
  }

  const clamsim::tools::PlotResult r = clamsim::tools::draw_plot(request);
  if (!r.ok) {
    std::fprintf(stderr, "clamsim-plot: %s\n", r.message.c_str());
    return r.bad_input ? kExitUsage : kExitFailure;
  }
  if (!r.message.empty()) std::fprintf(stderr, "%s\n", r.message.c_str());
  return 0;
}
