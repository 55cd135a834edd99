#include "tools/client/proc_stat.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace clamsim::client {

namespace {

// voluntary_ctxt_switches + nonvoluntary_ctxt_switches of one thread; -1 when unreadable.
long long thread_switches(const std::filesystem::path& status) {
  std::ifstream in(status);
  std::string key;
  long long value = 0, sum = 0;
  int found = 0;
  while (in >> key) {
    if (key == "voluntary_ctxt_switches:" || key == "nonvoluntary_ctxt_switches:") {
      if (!(in >> value)) return -1;
      sum += value;
      ++found;
    }
  }
  return found == 2 ? sum : -1;
}

long long context_switches(pid_t pid) {
  std::error_code ec;
  std::filesystem::directory_iterator tasks("/proc/" + std::to_string(pid) + "/task", ec);
  if (ec) return -1;
  long long total = 0;
  for (const auto& t : tasks) {
    const long long n = thread_switches(t.path() / "status");
    if (n >= 0) total += n;  // a thread that ended while we looked
  }
  return total;
}

}  // namespace

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
  s.context_switches = context_switches(pid);
  return s;
}

std::optional<MachineSample> read_machine() {
  std::ifstream in("/proc/stat");
  std::string cpu;
  if (!in || !(in >> cpu) || cpu != "cpu") return std::nullopt;
  // user nice system idle iowait irq softirq steal (guest time is inside user)
  std::vector<double> t;
  double v = 0.0;
  for (int i = 0; i < 8 && in >> v; ++i) t.push_back(v);
  if (t.size() < 8) return std::nullopt;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  MachineSample m;
  for (double x : t) m.total_s += x / ticks;
  m.busy_s = m.total_s - (t[3] + t[4]) / ticks;  // less idle and iowait
  return m;
}

double busy_between(const MachineSample& before, const MachineSample& after) {
  const double total = after.total_s - before.total_s;
  return total > 0.0 ? (after.busy_s - before.busy_s) / total : 0.0;
}

}  // namespace clamsim::client
