// The rule (docs/security.md, "Instructor accounts"): whenever an accounts file is
// configured, instructor data needs a login, loopback included. Without one, the data is
// open only while the web front end listens on loopback alone; listening beyond it, the
// server uses STATE_DIR/accounts.json, creating it with a first instructor and a one-time
// password when it does not exist.
#pragma once

#include <optional>
#include <string>

namespace clamsim::auth {

inline constexpr const char* kFirstInstructor = "instructor";

struct AccessPlan {
  std::string accounts_file;   // "" = no login needed (loopback alone, no --accounts)
  bool create_if_missing = false;  // the STATE_DIR default: make the first instructor
};

// accounts_flag: --accounts ("" when not given); beyond_loopback: the web front end listens
// on an address other than loopback.
AccessPlan plan_instructor_access(const std::string& accounts_flag, bool beyond_loopback,
                                  const std::string& state_dir);

// When `path` does not exist: creates it (and its directory, mode 0700) with one account
// kFirstInstructor whose random password is returned, stored only hashed. Nothing when the
// file exists. Throws AccountsError naming what failed.
std::optional<std::string> create_first_instructor(const std::string& path);

}  // namespace clamsim::auth
