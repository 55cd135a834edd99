#include "auth/instructor_access.h"

#include <sys/stat.h>

#include <chrono>
#include <filesystem>

#include "auth/accounts_file.h"
#include "auth/password_hash.h"
#include "auth/random.h"
#include "base/utc_time.h"

namespace clamsim::auth {

namespace fs = std::filesystem;

AccessPlan plan_instructor_access(const std::string& accounts_flag, bool beyond_loopback,
                                  const std::string& state_dir) {
  AccessPlan plan;
  if (!accounts_flag.empty()) {
    plan.accounts_file = accounts_flag;
  } else if (beyond_loopback) {
    plan.accounts_file = (fs::path(state_dir) / "accounts.json").string();
    plan.create_if_missing = true;
  }
  return plan;
}

std::optional<std::string> create_first_instructor(const std::string& path) {
  std::error_code ec;
  if (fs::exists(path, ec)) return std::nullopt;
  const fs::path dir = fs::path(path).parent_path();
  if (!dir.empty() && !fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) throw AccountsError(dir.string() + ": cannot create: " + ec.message());
    ::chmod(dir.c_str(), 0700);
  }
  // 96 bits, hex: easy to read off a terminal and type once
  const std::string password = random_hex(12);
  save_accounts(path, {Account{kFirstInstructor, hash_password(password),
                               base::iso8601_utc(std::chrono::system_clock::now())}});
  return password;
}

}  // namespace clamsim::auth
