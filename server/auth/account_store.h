// The server's view of the accounts file: loaded at start (a malformed file stops the
// server with the loader's message), re-read when the file changes (clamsim-accounts
// writes it while the server runs), so an added or removed account counts at the next
// login. Thread-safe.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

#include "auth/accounts_file.h"

namespace clamsim::auth {

class AccountStore {
 public:
  // Throws AccountsError when the file cannot be loaded. `warn` gets one line for a file
  // that others may read, and for a changed file that no longer loads (the accounts
  // loaded before stay in force).
  AccountStore(std::string path, std::function<void(const std::string&)> warn);

  // The hash of `name`'s password, nothing when no such account.
  std::optional<std::string> hash_of(const std::string& name);
  const std::string& path() const { return path_; }
  std::size_t size();

 private:
  struct Stamp {
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    long mtime_ns = 0;
    bool operator==(const Stamp& o) const {
      return dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns;
    }
  };
  std::optional<Stamp> stamp() const;
  void reload_if_changed();  // with mutex_ held

  const std::string path_;
  const std::function<void(const std::string&)> warn_;
  std::mutex mutex_;
  std::vector<Account> accounts_;
  std::optional<Stamp> loaded_;
};

}  // namespace clamsim::auth
