// clamsim-accounts: add, remove and list instructors in the server's accounts file. Made
// for scripts: the password is one line on standard input, nothing is asked twice, exit 0
// on success, 2 on a usage error, 1 when the file cannot be read or written.
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "auth/accounts_file.h"
#include "auth/password_hash.h"
#include "cli/args.h"
#include "cli/exit_codes.h"
#include "cli/version_flag.h"
#include "base/utc_time.h"

namespace {

using namespace clamsim::auth;
namespace cli = clamsim::cli;

constexpr std::size_t kMinPassword = 10;
constexpr std::size_t kMaxPassword = 256;

constexpr const char* kUsage = R"(Usage: clamsim-accounts --file FILE COMMAND

Manages the instructors' accounts of clamsim-server (--accounts FILE, or
STATE_DIR/accounts.json). The server re-reads the file when it changes.

Commands:
  add NAME       a new instructor; the password is one line on standard input
                 (10-256 characters)
  passwd NAME    a new password for an existing instructor, read the same way
  remove NAME    delete an instructor; their logins end at their next request
  list           names and creation dates (never the hashes)

Options:
  --help         this text
  --version      print the version and exit

Names: 1-64 letters, digits and . _ - @. The file is written atomically with mode 0600.
A file that cannot be read or written, a name taken (add) or unknown (passwd, remove) is
a failure (1 below).

Example:
  printf '%s\n' "$PASSWORD" | clamsim-accounts --file state/accounts.json add ada
)";

using cli::UsageError;

struct Request {
  std::string file;
  std::string command;
  std::string name;
};

Request parse_args(int argc, char** argv) {
  cli::FlagSet flags;
  flags.valued = {"--file"};
  flags.positionals = true;   // the command and its NAME
  const cli::Args args(argc, argv, flags);
  Request a;
  a.file = args.text("--file").value_or("");
  const std::vector<std::string>& rest = args.positionals();
  if (a.file.empty()) throw UsageError("--file FILE is required");
  if (rest.empty()) throw UsageError("no command; give add NAME, passwd NAME, remove NAME or list");
  a.command = rest[0];
  const bool takes_name = a.command == "add" || a.command == "passwd" || a.command == "remove";
  if (!takes_name && a.command != "list")
    throw UsageError("unknown command '" + a.command + "'; give add, passwd, remove or list");
  if (takes_name && rest.size() != 2) throw UsageError(a.command + " takes one NAME");
  if (!takes_name && rest.size() != 1) throw UsageError("list takes no argument");
  if (takes_name) {
    a.name = rest[1];
    if (const std::string why = account_name_problem(a.name); !why.empty())
      throw UsageError("NAME '" + a.name + "': " + why);
  }
  return a;
}

// One line from standard input; on a terminal, without echo.
std::string read_password(const std::string& name) {
  const bool tty = ::isatty(STDIN_FILENO) != 0;
  termios saved{};
  if (tty) {
    std::fprintf(stderr, "password for %s: ", name.c_str());
    ::tcgetattr(STDIN_FILENO, &saved);
    termios quiet = saved;
    quiet.c_lflag &= static_cast<tcflag_t>(~ECHO);
    ::tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
  }
  std::string line;
  std::getline(std::cin, line);
  if (tty) {
    ::tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    std::fprintf(stderr, "\n");
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.empty())
    throw UsageError("no password: give it as one line on standard input");
  if (line.size() < kMinPassword)
    throw UsageError("password too short: " + std::to_string(line.size()) +
                     " characters, at least " + std::to_string(kMinPassword));
  if (line.size() > kMaxPassword)
    throw UsageError("password too long: at most " + std::to_string(kMaxPassword) + " characters");
  return line;
}

std::vector<Account> load_or_empty(const std::string& file, bool may_be_missing) {
  std::error_code ec;
  if (may_be_missing && !std::filesystem::exists(file, ec)) return {};
  return load_accounts(file);
}

int run(const Request& a) {
  std::vector<Account> accounts = load_or_empty(a.file, a.command == "add");
  if (auto w = permission_warning(a.file)) std::fprintf(stderr, "warning: %s\n", w->c_str());
  const auto found = std::find_if(accounts.begin(), accounts.end(),
                                  [&](const Account& x) { return x.name == a.name; });
  if (a.command == "list") {
    for (const Account& x : accounts) std::printf("%s\t%s\n", x.name.c_str(), x.created.c_str());
    return cli::kExitOk;
  }
  if (a.command == "add" && found != accounts.end()) {
    std::fprintf(stderr, "clamsim-accounts: %s: '%s' exists already (passwd changes its "
                 "password)\n", a.file.c_str(), a.name.c_str());
    return cli::kExitFailure;
  }
  if (a.command != "add" && found == accounts.end()) {
    std::fprintf(stderr, "clamsim-accounts: %s: no account '%s'\n", a.file.c_str(),
                 a.name.c_str());
    return cli::kExitFailure;
  }
  if (a.command == "remove") {
    accounts.erase(found);
  } else {
    const std::string hash = hash_password(read_password(a.name));
    if (a.command == "add")
      accounts.push_back(Account{a.name, hash,
                                 clamsim::base::iso8601_utc(std::chrono::system_clock::now())});
    else
      found->hash = hash;
  }
  save_accounts(a.file, accounts);
  std::fprintf(stderr, "%s: %s %s\n", a.file.c_str(),
               a.command == "add" ? "added" : a.command == "remove" ? "removed" : "new password for",
               a.name.c_str());
  return cli::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(kUsage, stdout);
      std::fputs(("\n" + cli::exit_codes_help()).c_str(), stdout);
      return cli::kExitOk;
    }
  if (cli::print_version_if_asked(argc, argv, "clamsim-accounts")) return cli::kExitOk;
  try {
    return run(parse_args(argc, argv));
  } catch (const UsageError& e) {
    const std::string what = e.what();   // the reader's own messages already point to --help
    std::fprintf(stderr, "clamsim-accounts: %s%s\n", what.c_str(),
                 what.find("--help") == std::string::npos ? " (see --help)" : "");
    return cli::kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clamsim-accounts: %s\n", e.what());
    return cli::kExitFailure;
  }
}
