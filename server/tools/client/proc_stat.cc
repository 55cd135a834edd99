#include "tools/client/proc_stat.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace clamsim::client {

std::optional<ProcSample> read_proc(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  // the command name (field 2) is in parentheses and may contain spaces: start after it
  const auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(close + 1));
  std::vector<std::string> f;  // f[0] is field 3 (state)
  std::string token;
  while (rest >> token) f.push_back(token);
  if (f.size() < 22) return std::nullopt;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double page_mib = static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
  ProcSample s;
  s.cpu_s = (std::stod(f[14 - 3]) + std::stod(f[15 - 3])) / ticks;  // utime, stime
  s.threads = std::stol(f[20 - 3]);
  s.rss_mib = std::stod(f[24 - 3]) * page_mib;
  return s;
}

}  // namespace clamsim::client
