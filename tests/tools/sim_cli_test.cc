// clamsim-sim end to end: flags, exit codes, the CSV's shape and the plot.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

#include "cli/exit_codes.h"
#include "tool_run.h"
#include "version/version.h"

namespace {

namespace cli = clamsim::cli;
using clamsim::kVersion;
using clamsim::testing::slurp;

namespace fs = std::filesystem;

const std::string kSource = CLAMSIM_SOURCE_DIR;
const std::string kModel = kSource + "/models/t250.json";
const std::string kCraneSteps = kSource + "/config/scenarios/exp_5_1_2_crane_steps.ctl";

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) lines.push_back(l);
  return lines;
}

std::size_t fields(const std::string& line) {
  return static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
}

bool gnuplot_installed() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (!dir.empty() && access((dir + "/gnuplot").c_str(), X_OK) == 0) return true;
  }
  return false;
}

class SimCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "clamsim-sim-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Runs the simulator with stdout and stderr captured in files; env replaces the
  // environment when given.
  Result run(const std::vector<std::string>& args,
             const std::vector<std::string>* env = nullptr) const {
    const std::string out_path = (dir_ / "stdout.txt").string();
    const std::string err_path = (dir_ / "stderr.txt").string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    std::vector<std::string> all = {CLAMSIM_SIM_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_copy = env != nullptr ? *env : std::vector<std::string>{};
    std::vector<char*> envp;
    for (std::string& e : env_copy) envp.push_back(e.data());
    envp.push_back(nullptr);

    Result r;
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, CLAMSIM_SIM_BINARY, &actions, nullptr, argv.data(),
                               env != nullptr ? envp.data() : environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      ADD_FAILURE() << "cannot start " << CLAMSIM_SIM_BINARY;
      return r;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    return r;
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
  }

  // Expects exit status `code` and a one-line message containing `problem`.
  void expect_error(int code, const std::vector<std::string>& args,
                    const std::string& problem) const {
    const Result r = run(args);
    EXPECT_EQ(r.exit_code, code) << r.err;
    EXPECT_NE(r.err.find(problem), std::string::npos) << "stderr: " << r.err;
    EXPECT_EQ(r.out, "");
  }
  // A bad flag: cli::kExitUsage.
  void expect_usage_error(const std::vector<std::string>& args, const std::string& problem) const {
    expect_error(cli::kExitUsage, args, problem);
  }
  // A machine, scenario or control-script file that does not load: cli::kExitBadModel.
  void expect_file_error(const std::vector<std::string>& args, const std::string& problem) const {
    expect_error(cli::kExitBadModel, args, problem);
  }

  fs::path dir_;
};

TEST_F(SimCli, ShortRunWritesHeaderAndOneRowPerInterval) {
  const std::string csv = path("run.csv");
  const Result r = run({"--model", kModel, "--controls", kCraneSteps, "--duration", "2", "--csv",
                        csv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(slurp(csv));
  ASSERT_EQ(lines.size(), 1u + 201u);   // header + t = 0, 0.01, ..., 2.00
  EXPECT_EQ(lines[0].rfind("time_s,swing_V,boom_V,telescope_V,hoist1_V,hoist2_V,swing_deg,"
                           "boom_deg,telescope_m,clam_to_tip_m,opening_deg,cable1_m,cable2_m,"
                           "load_kg,",
                           0),
            0u)
      << lines[0];
  for (const char* col : {"T1_N", "T2_N", "theta2_clam_deg", "vA_up_m_s", "vC_up_m_s",
                          "working", "geo", "load", "squeeze_N", "energy_J", "hook_load_kg",
                          "radius_m", "load_moment_pct", "tilt_deg"}) {
    EXPECT_NE(lines[0].find(col), std::string::npos) << col;
  }
  for (std::size_t i = 1; i < lines.size(); ++i) {
    ASSERT_EQ(fields(lines[i]), fields(lines[0])) << "row " << i << ": " << lines[i];
  }
  EXPECT_EQ(lines[1].rfind("0.000000,0,0,0,0,0,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[101].rfind("1.000000,3,3,3,0,0,", 0), 0u) << lines[101];   // the step
  EXPECT_EQ(lines.back().rfind("2.000000,", 0), 0u) << lines.back();
  // the summary: simulated and wall time, real-time factor, health counters
  EXPECT_NE(r.err.find("simulated 2.000 s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("real time"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nonfinite_resets=0"), std::string::npos) << r.err;
}

TEST_F(SimCli, RateSetsTheRowIntervalAndQuietIsQuiet) {
  const std::string csv = path("run.csv");
  const Result r = run({"--model=" + kModel, "--controls=" + kCraneSteps, "--duration=1",
                        "--rate=20", "--csv=" + csv, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto lines = lines_of(slurp(csv));
  ASSERT_EQ(lines.size(), 1u + 21u);
  EXPECT_EQ(lines[2].rfind("0.050000,", 0), 0u) << lines[2];
}

TEST_F(SimCli, CsvToStdoutAndDurationFromTheScript) {
  write("s.ctl", "initial swing_deg=0 boom_deg=30 telescope_m=12 clam_depth_m=8 "
                 "clam_theta2_deg=40\nduration 0.5\nstep 0 1 0 0 0 0\n");
  const Result r = run({"--model", kModel, "--controls", path("s.ctl"), "--csv", "-", "--rate",
                        "10", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 1u + 6u);
  EXPECT_EQ(lines[0].rfind("time_s,", 0), 0u);
}

TEST_F(SimCli, InitialPoseFromTheMachineFileWhenTheScriptHasNone) {
  write("s.ctl", "step 0 0 0 0 0 0\n");
  const std::string csv = path("run.csv");
  const Result r = run({"--model", kModel, "--controls", path("s.ctl"), "--duration", "0.1",
                        "--csv", csv, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines_of(slurp(csv)).size(), 1u + 11u);
}

TEST_F(SimCli, WorldRunsTheScenarioAndRecordsTheLoads) {
  write("s.ctl", "duration 1\nstep 0 0 0 0 0 0\n");
  const std::string csv = path("run.csv");
  const Result r = run({"--model", kModel, "--controls", path("s.ctl"), "--world",
                        kSource + "/config/scenarios/dam_intake.json", "--csv", csv, "--rate",
                        "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(slurp(csv));
  ASSERT_EQ(lines.size(), 1u + 11u);
  const std::string& header = lines[0];
  EXPECT_NE(header.find(",load_moment_pct,tilt_deg,nonphysical_warnings,log1_x_m,log1_y_m,log1_z_m,log1_held,log2_x_m"),
            std::string::npos)
      << header;
  EXPECT_EQ(header.substr(header.size() - 40), "crate_x_m,crate_y_m,crate_z_m,crate_held")
      << header;
  for (std::size_t i = 1; i < lines.size(); ++i) ASSERT_EQ(fields(lines[i]), fields(header));
  // the world's start pose (boom 20 deg), and log1 floating where the file put it
  std::vector<std::string> cells;
  std::istringstream last(lines.back());
  for (std::string c; std::getline(last, c, ',');) cells.push_back(c);
  std::vector<std::string> names;
  std::istringstream h(header);
  for (std::string c; std::getline(h, c, ',');) names.push_back(c);
  auto value = [&](const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    EXPECT_NE(it, names.end()) << name;
    return std::stod(cells.at(static_cast<std::size_t>(it - names.begin())));
  };
  EXPECT_NEAR(value("boom_deg"), 20.0, 0.5);
  EXPECT_NEAR(value("log1_x_m"), 10.83, 0.3);
  EXPECT_NEAR(value("log1_z_m"), -2.54, 0.3);
  EXPECT_LT(value("stump_z_m"), -20.0);
  EXPECT_EQ(value("log1_held"), 0.0);
  EXPECT_NE(r.err.find("world: rack_gate_hits=0"), std::string::npos) << r.err;
}

TEST_F(SimCli, WorldByNameAndBrokenWorldsExitThree) {
  // a bare name is config/scenarios/NAME.json under the working directory
  expect_file_error({"--model", kModel, "--controls", kCraneSteps, "--csv", path("x.csv"),
                      "--world", "atlantis"},
                     "config/scenarios/atlantis.json: cannot open file");
  write("w.json", R"({"schema": "clamsim-scenario/1", "name": "w"})");
  expect_file_error({"--model", kModel, "--controls", kCraneSteps, "--csv", path("x.csv"),
                      "--world", path("w.json")},
                     "w.json: water_level_m: missing");
}

TEST_F(SimCli, PickPlaceLetsTheScriptedOperatorDriveAndSaysWhereTheLoadEnded) {
  // Cut short at 5 s the operator is still moving over the log: the CSV is written, the
  // controls it used are in it, and the run says the errand failed (exit 1). The whole
  // errand is tested, much faster, in tests/core/experiment_513_test.cc.
  const std::string csv = path("pp.csv");
  const Result r = run({"--model", kModel, "--world", kSource + "/config/scenarios/dam_intake.json",
                        "--pick-place", "log3", "--duration", "5", "--rate", "10", "--csv", csv});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("pick-and-place FAILED (operator: move over); log3 at"), std::string::npos)
      << r.err;
  const auto lines = lines_of(slurp(csv));
  ASSERT_EQ(lines.size(), 1u + 51u);
  // the operator runs the telescope out towards the log: full telescope_V (column 4), and
  // the telescope grows
  auto cell = [&](std::size_t row, std::size_t column) {
    std::istringstream in(lines.at(row));
    std::string c;
    for (std::size_t i = 0; i <= column; ++i) std::getline(in, c, ',');
    return std::stod(c);
  };
  EXPECT_DOUBLE_EQ(cell(10, 3), 5.0);
  EXPECT_GT(cell(51, 8), cell(1, 8) + 0.3) << "telescope_m";
}

TEST_F(SimCli, PickPlaceNeedsAWorldALoadItHasAndNoScript) {
  const std::string world = kSource + "/config/scenarios/dam_intake.json";
  expect_usage_error({"--model", kModel, "--pick-place", "log3", "--csv", path("x.csv")},
                     "--pick-place needs --world");
  expect_usage_error({"--model", kModel, "--world", world, "--pick-place", "log3", "--controls",
                      kCraneSteps, "--csv", path("x.csv")},
                     "--pick-place replaces --controls");
  expect_usage_error({"--model", kModel, "--world", world, "--pick-place", "log9", "--csv",
                      path("x.csv")},
                     "--pick-place: no load 'log9' in " + world + " (its loads: log1, log2, log3, stump, crate)");
}

TEST_F(SimCli, HelpDocumentsEveryFlag) {
  const Result r = run({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* flag : {"--model", "--controls", "--duration", "--csv", "--rate", "--plot",
                           "--world", "--pick-place", "--quiet", "--help", "--version"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
  }
  EXPECT_NE(r.out.find(cli::exit_codes_help()), std::string::npos) << r.out;
}

TEST_F(SimCli, VersionPrintsTheOneVersion) {
  const Result r = run({"--version"});
  EXPECT_EQ(r.exit_code, cli::kExitOk);
  EXPECT_EQ(r.out, std::string("clamsim-sim ") + kVersion + "\n");
}

TEST_F(SimCli, BadFlagsExitTwoNamingTheProblem) {
  const std::vector<std::string> ok = {"--model", kModel, "--controls", kCraneSteps, "--csv",
                                       path("x.csv")};
  auto with = [&ok](std::vector<std::string> extra) {
    std::vector<std::string> a = ok;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  expect_usage_error(with({"--bogus"}), "unknown option '--bogus'");
  expect_usage_error(with({"--rate", "fast"}), "--rate: 'fast' is not a number");
  expect_usage_error(with({"--rate", "0"}), "--rate: must be positive");
  expect_usage_error(with({"--rate", "1e6"}), "--rate 1000000 Hz is finer than the integrator");
  expect_usage_error(with({"--duration", "-3"}), "--duration: must be positive");
  expect_usage_error(with({"--duration"}), "--duration needs a value");
  expect_usage_error(with({"--plot", path("x.pdf")}), "must end in .svg or .png");
  expect_usage_error(with({"--model", kModel}), "--model given twice");
  expect_usage_error({"--controls", kCraneSteps, "--csv", path("x.csv")}, "--model is required");
  expect_usage_error({"--model", kModel, "--csv", path("x.csv")}, "--controls is required");
  expect_usage_error({"--model", kModel, "--controls", kCraneSteps}, "--csv is required");
  EXPECT_FALSE(fs::exists(path("x.csv")));
}

// --chirp: a Bode table, a row per tone, the gain's unit in its header; the plot when asked.
TEST_F(SimCli, ChirpWritesABodeTableAndPlot) {
  std::vector<std::string> args = {"--model", kModel, "--chirp", "main_hoist", "--chirp-from",
                                   "0.5", "--chirp-to", "2", "--chirp-tones", "3", "--csv",
                                   path("bode.csv")};
  if (gnuplot_installed()) {
    args.push_back("--plot");
    args.push_back(path("bode.svg"));
  }
  const Result r = run(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("main_hoist sweep, 3 tones"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tension per rope speed peaks at"), std::string::npos) << r.err;
  const std::vector<std::string> rows = lines_of(slurp(path("bode.csv")));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].rfind("frequency_Hz,periods,gain_m_s_per_V,phase_deg,", 0), 0u) << rows[0];
  EXPECT_NE(rows[0].find("tension_per_speed_N_s_per_m"), std::string::npos) << rows[0];
  EXPECT_EQ(rows[1].rfind("0.5,", 0), 0u) << rows[1];
  EXPECT_EQ(rows[3].rfind("2,", 0), 0u) << rows[3];
  for (const std::string& row : rows) EXPECT_EQ(fields(row), fields(rows[0])) << row;
  if (gnuplot_installed()) {
    const std::string svg = slurp(path("bode.svg"));
    EXPECT_NE(svg.find("frequency [Hz]"), std::string::npos);
    EXPECT_NE(svg.find("phase [deg]"), std::string::npos);
  }
}

TEST_F(SimCli, BadChirpFlagsExitTwoNamingTheProblemAndTheChoices) {
  const std::vector<std::string> ok = {"--model", kModel, "--chirp", "boom", "--csv",
                                       path("x.csv")};
  auto with = [&ok](std::vector<std::string> extra) {
    std::vector<std::string> a = ok;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  expect_usage_error({"--model", kModel, "--chirp", "hoist1", "--csv", path("x.csv")},
                     "--chirp: 'hoist1' is not a channel (swing, boom, telescope, main_hoist, "
                     "aux_hoist)");
  expect_usage_error(with({"--chirp-amplitude", "0"}), "--chirp-amplitude: must be positive");
  expect_usage_error(with({"--chirp-offset", "up"}), "--chirp-offset: 'up' is not a number");
  expect_usage_error(with({"--chirp-offset", "-2", "--chirp-amplitude", "4"}),
                     "reach 6 V, past full stick: |offset| + amplitude must be at most 5 V");
  expect_usage_error(with({"--chirp-from", "2", "--chirp-to", "1"}),
                     "--chirp-from must be below --chirp-to");
  expect_usage_error(with({"--chirp-to", "100"}), "--chirp-to: at most 50 Hz");
  expect_usage_error(with({"--chirp-tones", "1"}), "--chirp-tones: 1 is outside 2..200");
  expect_usage_error(with({"--world", "dam_intake"}), "--world does not go with --chirp");
  expect_usage_error(with({"--duration", "3"}), "--duration with --chirp is the length of the");
  expect_usage_error({"--model", kModel, "--chirp", "boom"}, "--chirp needs --csv OUT");
  expect_usage_error({"--model", kModel, "--controls", kCraneSteps, "--csv", path("x.csv"),
                      "--chirp-to", "3"},
                     "--chirp-to goes with --chirp CHANNEL");
  EXPECT_FALSE(fs::exists(path("x.csv")));
}

TEST_F(SimCli, FileErrorsExitThreeWithTheLoadersMessage) {
  const std::string csv = path("x.csv");
  expect_file_error({"--model", path("none.json"), "--controls", kCraneSteps, "--csv", csv},
                     "none.json");
  expect_file_error({"--model", kModel, "--controls", path("none.ctl"), "--csv", csv},
                     "none.ctl");
  write("bad.ctl", "step 0 0 0 0 0 0\nstep 1 0 0 0 9 0\n");
  expect_file_error({"--model", kModel, "--controls", path("bad.ctl"), "--csv", csv},
                     "bad.ctl:2: voltage 3");
  write("far.ctl", "initial swing_deg=0 boom_deg=80 telescope_m=12 clam_depth_m=8 "
                   "clam_theta2_deg=40\nstep 0 0 0 0 0 0\n");
  expect_file_error({"--model", kModel, "--controls", path("far.ctl"), "--csv", csv},
                     "far.ctl:1: initial boom_deg=80 is outside");
  write("nodur.ctl", "step 0 0 0 0 0 0\n");
  expect_usage_error({"--model", kModel, "--controls", path("nodur.ctl"), "--csv", csv},
                     "--duration is required");
  write("bad.json", "{ not json");
  expect_file_error({"--model", path("bad.json"), "--controls", kCraneSteps, "--csv", csv},
                     "bad.json");
  expect_usage_error({"--model", kModel, "--controls", kCraneSteps, "--csv",
                      path("no/such/dir/x.csv")},
                     "--csv: cannot write");
}

// The shipped machine file with `from` (which must occur once) replaced by `to`.
std::string shipped_with(const std::string& from, const std::string& to) {
  std::string text = slurp(kModel);
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from << " occurs twice";
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// A number outside its physical range does not load (docs/machine-file.md): exit 3 with the
// field, its range and unit, and no CSV.
TEST_F(SimCli, AModelNumberOutOfItsRangeExitsThreeNamingTheFieldAndRange) {
  write("huge.json", shipped_with("{\"value\": 3240,", "{\"value\": 1e308,"));
  const std::string csv = path("x.csv");
  expect_file_error({"--model", path("huge.json"), "--controls", kCraneSteps, "--csv", csv,
                     "--quiet"},
                    "crane.links.boom_base.mass_kg: expected a number in [1, 200000] kg, got "
                    "1e+308");
  EXPECT_FALSE(fs::exists(csv));
}

// A model inside every field's range can still make the dynamics blow up (here a rope as
// stiff as any on a 3 kg grab, ringing far faster than the step): the run stops at the first
// non-finite step, says when and what even with --quiet, exits 1 and writes no NaN row.
TEST_F(SimCli, ARunThatGoesNonFiniteStopsAndFailsLoudlyEvenQuiet) {
  std::string text = slurp(kModel);
  const auto replace_all = [&text](const std::string& from, const std::string& to, int count) {
    int n = 0;
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
      ++n;
    }
    EXPECT_EQ(n, count) << from;
  };
  replace_all("{\"value\": 1.1e7,", "{\"value\": 1e9,", 2);  // both winches' ropes
  replace_all("\"link1_mass_kg\":      {\"value\": 25,", "\"link1_mass_kg\": {\"value\": 1,", 1);
  replace_all("\"link2_mass_kg\":      {\"value\": 350,", "\"link2_mass_kg\": {\"value\": 1,", 1);
  replace_all("\"link3_mass_kg\":      {\"value\": 25,", "\"link3_mass_kg\": {\"value\": 1,", 1);
  write("stiff.json", text);
  const std::string csv = path("run.csv");
  const Result r = run({"--model", path("stiff.json"), "--controls", kCraneSteps, "--duration",
                        "2", "--csv", csv, "--quiet"});
  EXPECT_EQ(r.exit_code, cli::kExitFailure) << r.err;
  EXPECT_NE(r.err.find("clamsim-sim: the run went non-finite at t = "), std::string::npos)
      << r.err;
  const std::string rows = slurp(csv);
  EXPECT_EQ(rows.find("nan"), std::string::npos) << rows.substr(0, 2000);
  EXPECT_EQ(rows.find("inf"), std::string::npos) << rows.substr(0, 2000);
  EXPECT_GE(lines_of(rows).size(), 2u);  // the header and the rows before it
}

TEST_F(SimCli, PlotWritesAnSvg) {
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  const std::string svg = path("run.svg");
  const Result r = run({"--model", kModel, "--controls", kCraneSteps, "--duration", "2", "--csv",
                        path("run.csv"), "--plot", svg, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = slurp(svg);
  ASSERT_FALSE(text.empty());
  EXPECT_TRUE(text.rfind("<?xml", 0) == 0 || text.rfind("<svg", 0) == 0) << text.substr(0, 80);
}

TEST_F(SimCli, PlotWithoutGnuplotStillWritesTheCsv) {
  const std::vector<std::string> env = {"PATH=" + dir_.string()};   // no gnuplot here
  const std::string csv = path("run.csv");
  const Result r = run({"--model", kModel, "--controls", kCraneSteps, "--duration", "0.2",
                        "--csv", csv, "--plot", path("run.png"), "--quiet"},
                       &env);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("gnuplot is not installed"), std::string::npos) << r.err;
  EXPECT_EQ(lines_of(slurp(csv)).size(), 1u + 21u);
  EXPECT_FALSE(fs::exists(path("run.png")));
}

}  // namespace

// --batch (docs/scaling.md): the shipped 20-row rope sweep, its paths made absolute, run
// row by row through the entry point the Indexed Job (JOB_COMPLETION_INDEX), the Slurm
// array (SLURM_ARRAY_TASK_ID) and scripts/batch-run.sh (--index) use, then merged.
class SimBatch : public SimCli {
 protected:
  std::string table(const std::string& text) const {
    const std::string path = (dir_ / "table.csv").string();
    std::ofstream(path) << text;
    return path;
  }
  std::string shipped_sweep() const {
    std::string t = slurp(kSource + "/config/batch/rope_stiffness_sweep.csv");
    for (const std::string from : {"models/", "config/scenarios/"}) {
      for (auto at = t.find("," + from); at != std::string::npos; at = t.find("," + from, at + 1))
        t.insert(at + 1, kSource + "/");
    }
    return t;
  }
};

TEST_F(SimBatch, TwentyRowSweepRunsAndMerges) {
  const std::string t = table(shipped_sweep());
  const std::string out = (dir_ / "out").string();
  for (int i = 0; i < 20; ++i) {
    Result r;
    if (i % 3 == 0) {
      r = run({"--batch", t, "--index", std::to_string(i), "--out", out, "--quiet"});
    } else {
      const std::vector<std::string> env = {
          (i % 3 == 1 ? "JOB_COMPLETION_INDEX=" : "SLURM_ARRAY_TASK_ID=") + std::to_string(i),
          "PATH=" + std::string(std::getenv("PATH"))};
      r = run({"--batch", t, "--out", out, "--quiet"}, &env);
    }
    ASSERT_EQ(r.exit_code, 0) << "row " << i << "\n" << r.err;
    char run_dir[32];
    std::snprintf(run_dir, sizeof run_dir, "/run-%04d/", i);
    EXPECT_TRUE(fs::exists(out + run_dir + "run.csv")) << i;
    const std::string summary = slurp(out + run_dir + "summary.json");
    EXPECT_NE(summary.find("\"index\": " + std::to_string(i)), std::string::npos) << summary;
    EXPECT_NE(summary.find("\"T1_N\""), std::string::npos) << summary;
  }
  const Result merged = run({"--batch", t, "--out", out, "--merge", "T1_N_max"});
  EXPECT_EQ(merged.exit_code, gnuplot_installed() ? 0 : 1) << merged.err;
  EXPECT_NE(merged.err.find("20 runs, 0 missing, 0 failed"), std::string::npos) << merged.err;
  const auto rows = lines_of(slurp(out + "/summary.csv"));
  ASSERT_EQ(rows.size(), 21u);
  EXPECT_EQ(rows[0].rfind("index,name,status,wall_s,/hydraulics/winches/main_hoist/rope_EA_N,", 0), 0u)
      << rows[0];
  // the design question's answer: a stiffer rope, a higher peak (docs/scaling.md)
  const auto column = [&](const std::string& row, const std::string& name) {
    std::vector<std::string> names, cells;
    std::istringstream h(rows[0]), c(row);
    for (std::string f; std::getline(h, f, ',');) names.push_back(f);
    for (std::string f; std::getline(c, f, ',');) cells.push_back(f);
    const auto at = std::find(names.begin(), names.end(), name) - names.begin();
    return std::stod(cells.at(static_cast<std::size_t>(at)));
  };
  // The whole reeved rope (~13 m along the boom + 8 m hanging) makes EA/L 0.38 of the hanging
  // rope's, and the winch's oil and the telescope's support are springs in series with it (the
  // telescope's oil along d3, through the three-section boom's 2:1 cable, a quarter as stiff as
  // a direct cylinder's): the snatch part of the peak grows about 1.9x over the sweep (a
  // rope-only spring: sqrt(20) = 4.5x), the peak 1.4x (13.3 to 18.6 kN, docs/scaling.md). Row
  // to row the peaks scatter by up to 3 kN (the clam is still bouncing from the earlier steps
  // when the winch reverses, and the telescope's mode joins in), so compare the means of the
  // softest five and the stiffest five, and the two ends.
  double soft = 0.0, stiff = 0.0;
  for (int i = 1; i <= 5; ++i) soft += column(rows[static_cast<std::size_t>(i)], "T1_N_max") / 5;
  for (int i = 16; i <= 20; ++i) stiff += column(rows[static_cast<std::size_t>(i)], "T1_N_max") / 5;
  EXPECT_LT(soft * 1.1, stiff);
  EXPECT_LT(column(rows[1], "T1_N_max") * 1.3, column(rows[20], "T1_N_max"));
  if (gnuplot_installed()) {
    EXPECT_TRUE(fs::exists(out + "/summary.png"));
  }
}

TEST_F(SimBatch, BadTablesAndIndicesAreRefused) {
  const std::string good = shipped_sweep();
  const std::string out = (dir_ / "out").string();
  const auto refused = [&](const std::string& text, std::vector<std::string> args,
                           int code, const std::string& message) {
    const std::string t = table(text);
    std::vector<std::string> all = {"--batch", t, "--out", out};
    all.insert(all.end(), args.begin(), args.end());
    const std::vector<std::string> env = {"PATH=" + std::string(std::getenv("PATH"))};
    const Result r = run(all, &env);
    EXPECT_EQ(r.exit_code, code) << text.substr(0, 80) << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  };
  refused(good, {"--index", "20"}, 2, "--index 20 is not a row of the table (0..19)");
  refused(good, {}, 2, "--batch needs the row: --index N, or JOB_COMPLETION_INDEX");
  refused("name,model,controls,speed\nx," + kModel + "," + kCraneSteps + ",3\n", {"--index", "0"},
          2, "unknown column 'speed' (columns: name, model, controls");
  refused("model,controls,/anti_swing/stiffness_N_per_m\n" + kModel + "," + kCraneSteps +
              ",stiff\n",
          {"--index", "0"}, 2, "line 2: column /anti_swing/stiffness_N_per_m: 'stiff' is not a number");
  refused("model,controls,pick_place\n" + kModel + "," + kCraneSteps + ",log3\n", {"--index", "0"},
          2, "line 2: give exactly one of controls and pick_place");
  refused("model,controls,/anti_swing/nosuch\n" + kModel + "," + kCraneSteps + ",1\n",
          {"--index", "0"}, 3, "no parameter /anti_swing/nosuch");
  refused(good, {"--index", "0", "--model", kModel}, 2, "--model comes from the table's row");
}
