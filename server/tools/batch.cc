#include "tools/batch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tools/plot.h"

namespace clamsim::tools {
namespace {

namespace fs = std::filesystem;

const std::set<std::string> kColumns = {"name", "model", "controls", "world",
                                        "pick_place", "duration", "valve"};

std::string where(const std::string& path, std::size_t row) {
  return path + " line " + std::to_string(row + 2);  // the header is line 1
}

// One row's cells against the rules of the header comment; throws UsageError.
void check_row(const CsvTable& t, const std::string& path, std::size_t row) {
  const auto cell = [&](const std::string& c) { return t.has(c) ? t.text(row, c) : std::string(); };
  if (cell("model").empty()) throw UsageError(where(path, row) + ": no model");
  const bool script = !cell("controls").empty(), pick = !cell("pick_place").empty();
  if (script == pick)
    throw UsageError(where(path, row) + ": give exactly one of controls and pick_place");
  if (pick && cell("world").empty())
    throw UsageError(where(path, row) + ": pick_place needs a world");
  if (!cell("valve").empty() && cell("valve") != "model" && cell("valve") != "thesis")
    throw UsageError(where(path, row) + ": valve '" + cell("valve") +
                     "' is not a valve law (model, thesis)");
  for (const std::string& c : t.header()) {
    if (c != "duration" && c.front() != '/') continue;
    if (c == "duration" && cell(c).empty()) continue;
    const double v = t.number(row, c);
    if (!std::isfinite(v) || (c == "duration" && v <= 0))
      throw UsageError(where(path, row) + ": column " + c + ": '" + cell(c) +
                       "' is not a " + (c == "duration" ? "positive " : "") + "number");
  }
}

std::string json_number(double v) {
  return std::isfinite(v) ? nlohmann::json(v).dump() : "";
}

// A run's CSV as min/max/final per numeric column.
nlohmann::ordered_json column_metrics(const std::string& csv) {
  nlohmann::ordered_json m = nlohmann::ordered_json::object();
  const CsvTable t = CsvTable::read(csv);
  for (const std::string& c : t.header()) {
    double lo = INFINITY, hi = -INFINITY, last = NAN;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const double v = t.number(r, c);
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      last = v;
    }
    if (std::isfinite(last)) m[c] = {{"min", lo}, {"max", hi}, {"final", last}};
  }
  return m;
}

// gnuplot's single-quoted string
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("''") : std::string(1, ch);
  return out + "'";
}

// OUT/summary.png: each metric against the first parameter.
PlotResult plot_summary(const std::string& csv, const std::string& png, const std::string& x,
                        const std::vector<std::string>& metrics, const CsvTable& merged) {
  std::ostringstream g;
  g << "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
       "  set terminal pngcairo size 900,"
    << 260 * metrics.size() + 80
    << " font 'sans,10' noenhanced\n"
       "} else {\n  set terminal png size 900,"
    << 260 * metrics.size() + 80 << " noenhanced\n}\n"
    << "set output " << quoted(png) << "\nset datafile separator comma\nset grid\n"
    << "set key off\nset multiplot layout " << metrics.size() << ",1 title "
    << quoted("clamsim-sim --batch: " + std::to_string(merged.rows()) + " runs") << "\n";
  for (const std::string& m : metrics) {
    g << "set xlabel " << quoted(x) << "\nset ylabel " << quoted(m) << "\n"
      << "plot " << quoted(csv) << " using " << merged.column(x) << ":" << merged.column(m)
      << " skip 1 with linespoints pt 7\n";
  }
  g << "unset multiplot\nset output\n";
  return run_gnuplot(g.str(), png);
}

}  // namespace

BatchTable BatchTable::read(const std::string& path) {
  BatchTable b;
  b.path_ = path;
  try {
    b.table_ = CsvTable::read(path);
  } catch (const std::exception& e) {
    throw UsageError(std::string("--batch: ") + e.what());
  }
  for (const std::string& c : b.table_.header()) {
    if (kColumns.count(c) == 0 && (c.empty() || c.front() != '/'))
      throw UsageError(path + ": unknown column '" + c +
                       "' (columns: name, model, controls, world, pick_place, duration, "
                       "valve, and /json/pointer into the machine file)");
  }
  if (!b.table_.has("model")) throw UsageError(path + ": no 'model' column");
  if (b.table_.rows() == 0) throw UsageError(path + ": no rows");
  for (std::size_t r = 0; r < b.table_.rows(); ++r) check_row(b.table_, path, r);
  return b;
}

std::vector<std::string> BatchTable::parameters() const {
  std::vector<std::string> p;
  for (const std::string& c : table_.header())
    if (c.front() == '/') p.push_back(c);
  return p;
}

SimOptions BatchTable::options(std::size_t index, const SimOptions& base,
                               const std::string& dir) const {
  const auto cell = [&](const std::string& c) {
    return table_.has(c) ? table_.text(index, c) : std::string();
  };
  SimOptions o;
  o.rate_hz = base.rate_hz;
  o.quiet = base.quiet;
  o.model_path = cell("model");
  o.controls_path = cell("controls");
  o.world = cell("world");
  o.pick_place = cell("pick_place");
  if (!cell("duration").empty()) o.duration_s = table_.number(index, "duration");
  o.thesis_valve = cell("valve") == "thesis";
  for (const std::string& p : parameters())
    o.model_overrides.emplace_back(p, table_.number(index, p));
  o.csv_path = dir + "/run.csv";
  o.plot_path = dir + "/run.png";
  o.plot_if_gnuplot = true;
  return o;
}

std::size_t batch_index(std::optional<long> flag, std::size_t rows) {
  std::string from = "--index";
  std::string text;
  if (flag) {
    text = std::to_string(*flag);
  } else {
    for (const char* var : {"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"}) {
      if (const char* v = std::getenv(var); v != nullptr && *v != '\0') {
        from = var;
        text = v;
        break;
      }
    }
    if (text.empty())
      throw UsageError("--batch needs the row: --index N, or JOB_COMPLETION_INDEX "
                       "(Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm job array)");
  }
  char* end = nullptr;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || n < 0 || static_cast<std::size_t>(n) >= rows)
    throw UsageError(from + " " + text + " is not a row of the table (0.." +
                     std::to_string(rows - 1) + ")");
  return static_cast<std::size_t>(n);
}

std::string run_dir(const std::string& out, std::size_t index) {
  char name[32];
  std::snprintf(name, sizeof name, "run-%04zu", index);
  return (fs::path(out) / name).string();
}

bool write_summary(const BatchTable& table, std::size_t index, const std::string& dir,
                   const RunFacts& facts) {
  nlohmann::ordered_json s;
  s["index"] = index;
  nlohmann::ordered_json row = nlohmann::ordered_json::object();
  for (const std::string& c : table.header()) row[c] = table.cell(index, c);
  s["row"] = row;
  s["exit_status"] = facts.exit_status;
  s["simulated_s"] = facts.simulated_s;
  s["wall_s"] = facts.wall_s;
  for (const auto& [name, count] : facts.health) s["health"][name] = count;
  try {
    s["columns"] = column_metrics(dir + "/run.csv");
  } catch (const std::exception& e) {
    s["columns"] = nlohmann::ordered_json::object();  // the run wrote no CSV
  }
  std::ofstream f(dir + "/summary.json");
  f << s.dump(1) << "\n";
  f.close();
  if (!f) std::fprintf(stderr, "clamsim-sim: cannot write %s/summary.json\n", dir.c_str());
  return static_cast<bool>(f);
}

int merge_batch(const BatchTable& table, const std::string& out,
                const std::vector<std::string>& metrics) {
  const std::vector<std::string> params = table.parameters();
  std::vector<nlohmann::json> runs(table.rows());
  std::vector<std::string> metric_names;  // the first summary's columns, in order
  std::size_t missing = 0, failed = 0;
  for (std::size_t i = 0; i < table.rows(); ++i) {
    std::ifstream f(run_dir(out, i) + "/summary.json");
    runs[i] = nlohmann::json::parse(f, nullptr, false);
    if (!f.is_open() || runs[i].is_discarded()) {
      runs[i] = nullptr;
      ++missing;
      continue;
    }
    failed += runs[i].value("exit_status", 1) != 0;
    if (metric_names.empty())
      for (const auto& [col, v] : runs[i]["columns"].items())
        for (const char* k : {"min", "max", "final"}) metric_names.push_back(col + "_" + k);
  }
  // an ordered copy: nlohmann::json sorts keys, the CSV keeps the run CSV's order
  std::ostringstream csv;
  csv << "index,name,status,wall_s";
  for (const auto& p : params) csv << "," << p;
  for (const auto& m : metric_names) csv << "," << m;
  csv << "\n";
  for (std::size_t i = 0; i < table.rows(); ++i) {
    const nlohmann::json& r = runs[i];
    const std::string name = table.header().end() != std::find(table.header().begin(),
                                                               table.header().end(), "name")
                                 ? table.cell(i, "name")
                                 : "";
    csv << i << "," << name << ","
        << (r.is_null() ? "missing" : r.value("exit_status", 1) == 0 ? "ok" : "failed") << ","
        << (r.is_null() ? "" : json_number(r.value("wall_s", NAN)));
    for (const auto& p : params) csv << "," << table.cell(i, p);
    for (const auto& m : metric_names) {
      const auto cut = m.find_last_of('_');
      const std::string col = m.substr(0, cut), key = m.substr(cut + 1);
      csv << ",";
      if (!r.is_null() && r["columns"].contains(col)) csv << json_number(r["columns"][col][key]);
    }
    csv << "\n";
  }
  const std::string csv_path = out + "/summary.csv";
  std::ofstream(csv_path) << csv.str();
  std::fprintf(stderr, "clamsim-sim: %zu runs, %zu missing, %zu failed; table %s\n",
               table.rows(), missing, failed, csv_path.c_str());
  int status = missing + failed > 0 ? 1 : 0;
  if (metrics.empty() || params.empty()) return status;
  const CsvTable merged = CsvTable::parse(csv.str(), csv_path);
  for (const auto& m : metrics) {
    if (!merged.has(m)) {
      std::fprintf(stderr, "clamsim-sim: --merge: no metric '%s' (e.g. %s)\n", m.c_str(),
                   metric_names.empty() ? "none: no run left a summary" : metric_names[1].c_str());
      return 2;
    }
  }
  const PlotResult plot = plot_summary(csv_path, out + "/summary.png", params.front(), metrics, merged);
  if (!plot.ok) {
    std::fprintf(stderr, "clamsim-sim: summary plot: %s\n", plot.message.c_str());
    return 1;
  }
  std::fprintf(stderr, "clamsim-sim: plot %s/summary.png\n", out.c_str());
  return status;
}

}  // namespace clamsim::tools
