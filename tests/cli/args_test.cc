// Tests for server/cli/args.{h,cc}: the one command-line reader of the server and every tool.
#include "cli/args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace clamsim::cli {
namespace {

FlagSet flags() {
  FlagSet f;
  f.valued = {"--csv", "--rate", "--server-arg", "--count"};
  f.switches = {"--quiet", "-q", "--help"};
  f.repeatable = f.verbatim = {"--server-arg"};
  return f;
}

// Reads `words` (without the program's name) with `f`.
Args read(std::vector<std::string> words, const FlagSet& f = flags()) {
  std::vector<const char*> argv = {"prog"};
  for (const auto& w : words) argv.push_back(w.c_str());
  return Args(static_cast<int>(argv.size()), argv.data(), f);
}

std::string error_of(std::vector<std::string> words, const FlagSet& f = flags()) {
  try {
    read(std::move(words), f);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CliArgs, BothSpellingsSwitchesAndOrder) {
  const Args a = read({"--csv", "-", "--rate=5", "-q"});
  EXPECT_EQ(a.text("--csv"), "-");   // "-" is a value (standard output)
  EXPECT_EQ(a.number("--rate", 0, 10), 5.0);
  EXPECT_TRUE(a.has("-q"));
  EXPECT_FALSE(a.has("--quiet"));
  ASSERT_EQ(a.given().size(), 2u);
  EXPECT_EQ(a.given()[0].first, "--csv");
  EXPECT_EQ(a.given()[1], (std::pair<std::string, std::string>{"--rate", "5"}));
  EXPECT_EQ(read({"--rate", "-3"}).text("--rate"), "-3");   // a negative number is a value
}

TEST(CliArgs, MistakesAreOneLineNamingTheArgument) {
  EXPECT_EQ(error_of({"--bogus"}), "unknown option '--bogus' (see --help)");
  EXPECT_EQ(error_of({"--csv"}), "--csv needs a value");
  EXPECT_EQ(error_of({"--csv", "--quiet"}), "--csv needs a value");   // the next flag
  EXPECT_EQ(error_of({"--csv", "-q"}), "--csv needs a value");        // a known switch
  EXPECT_EQ(error_of({"--csv", "a", "--csv", "b"}), "--csv given twice");
  EXPECT_EQ(error_of({"-q", "-q"}), "-q given twice");
  EXPECT_EQ(error_of({"--quiet=yes"}), "--quiet takes no value");
  EXPECT_EQ(error_of({"file.csv"}), "unknown option 'file.csv' (see --help)");
  EXPECT_EQ(error_of({"-ORBtraceLevel", "5"}), "unknown option '-ORBtraceLevel' (see --help)");
}

// An unknown flag names the ones it most likely meant, so a user need not read --help.
TEST(CliArgs, AnUnknownFlagSuggestsTheNearestKnownOnes) {
  FlagSet server;
  server.valued = {"--corba-port", "--corba-tls-port", "--http-port", "--host", "--duration",
                   "--scenario"};
  server.switches = {"--quiet", "-q", "--help"};
  // all its words among a flag's
  EXPECT_EQ(error_of({"--port", "1"}, server),
            "unknown option '--port'; did you mean --corba-port, --corba-tls-port or "
            "--http-port? (see --help)");
  // a beginning
  EXPECT_EQ(error_of({"--dur=5"}, server),
            "unknown option '--dur'; did you mean --duration? (see --help)");
  // a slip: two letters swapped, one missing, another case, one dash
  EXPECT_EQ(nearest_flags("--scneario", server), std::vector<std::string>{"--scenario"});
  EXPECT_EQ(nearest_flags("--scenaro", server), std::vector<std::string>{"--scenario"});
  EXPECT_EQ(nearest_flags("--Quiet", server), std::vector<std::string>{"--quiet"});
  EXPECT_EQ(nearest_flags("-quiet", server), std::vector<std::string>{"--quiet"});
  EXPECT_EQ(error_of({"--csv-file", "x"}),
            "unknown option '--csv-file'; did you mean --csv? (see --help)");
  // a beginning that fits many: the first five
  FlagSet many;
  many.valued = {"--ca", "--cb", "--cc", "--cd", "--ce", "--cf", "--cg"};
  EXPECT_EQ(error_of({"--c"}, many),
            "unknown option '--c'; did you mean one of --ca, --cb, --cc, --cd, --ce, ...? "
            "(see --help)");
  // nothing near: no guess
  EXPECT_EQ(nearest_flags("--zzzzzz", server), std::vector<std::string>{});
  EXPECT_EQ(nearest_flags("-x", flags()), std::vector<std::string>{});
  // a program's own hint for a flag it does not have
  FlagSet receiver = flags();
  receiver.hints["--port"] = "the server's port goes in --server corbaloc::HOST:PORT/Name";
  EXPECT_EQ(error_of({"--port", "1"}, receiver),
            "unknown option '--port': the server's port goes in --server "
            "corbaloc::HOST:PORT/Name (see --help)");
}

TEST(CliArgs, NumbersAreCheckedAgainstTheirRange) {
  const Args a = read({"--rate", "fast", "--count", "70"});
  try {
    a.number("--rate", 0, 10);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--rate: 'fast' is not a number");
  }
  try {
    a.integer("--count", 1, 64);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--count: 70 is outside 1..64");
  }
  EXPECT_EQ(parse_number("--x", "+2.5", 0, 3), 2.5);
  EXPECT_THROW(parse_number("--x", "inf", 0, 3), UsageError);
  EXPECT_THROW(a.required("--csv"), UsageError);
}

TEST(CliArgs, RepeatableVerbatimPositionalsAndOrbOptions) {
  FlagSet f = flags();
  f.positionals = true;
  f.orb_options = true;
  const Args a = read({"add", "--server-arg", "--max-sessions", "--server-arg", "3",
                       "-ORBtraceLevel", "5", "ada"},
                      f);
  EXPECT_EQ(a.all("--server-arg"), (std::vector<std::string>{"--max-sessions", "3"}));
  EXPECT_EQ(a.positionals(), (std::vector<std::string>{"add", "ada"}));
  EXPECT_EQ(a.orb_args(), (std::vector<std::string>{"-ORBtraceLevel", "5"}));
  EXPECT_EQ(error_of({"-x"}, f), "unknown option '-x' (see --help)");   // not an operand
}

}  // namespace
}  // namespace clamsim::cli
