// The accounts file: instructors' names, password hashes and creation dates, as JSON
//
//   {"schema": "clamsim-accounts/1",
//    "accounts": [{"name": "instructor", "hash": "$scrypt$...", "created": "2026-11-24T10:00:00Z"}]}
//
// written atomically (a temporary file in the same directory, fsync, rename) with mode
// 0600, so a crash leaves the old file or the new one and no other user can read hashes.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace clamsim::auth {

inline constexpr const char* kAccountsSchema = "clamsim-accounts/1";

struct Account {
  std::string name;
  std::string hash;      // password_hash.h's format
  std::string created;   // ISO 8601 UTC
};

// A file that cannot be read or is not an accounts file; what() names the file and the
// problem.
class AccountsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "" when `name` may name an account, else why not: 1-64 characters of letters, digits and
// . _ - @ (names appear in logs and on the instructor page).
std::string account_name_problem(std::string_view name);

// Throws AccountsError: unreadable, not JSON, wrong schema, a field missing or of the wrong
// type, a bad name, a malformed hash, a name twice.
std::vector<Account> load_accounts(const std::string& path);

// Replaces `path` atomically with mode 0600. Throws AccountsError naming what failed.
void save_accounts(const std::string& path, const std::vector<Account>& accounts);

// A warning when the file is readable by its group or by others, else nothing.
std::optional<std::string> permission_warning(const std::string& path);

}  // namespace clamsim::auth
