#include "auth/account_store.h"

#include <sys/stat.h>

namespace clamsim::auth {

AccountStore::AccountStore(std::string path, std::function<void(const std::string&)> warn)
    : path_(std::move(path)), warn_(std::move(warn)) {
  loaded_ = stamp();
  accounts_ = load_accounts(path_);
  if (auto w = permission_warning(path_); w && warn_) warn_(*w);
}

std::optional<AccountStore::Stamp> AccountStore::stamp() const {
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) return std::nullopt;
  Stamp s;
  s.dev = st.st_dev;
  s.ino = st.st_ino;
  s.size = st.st_size;
  s.mtime_ns = static_cast<long>(st.st_mtim.tv_sec) * 1000000000L + st.st_mtim.tv_nsec;
  return s;
}

void AccountStore::reload_if_changed() {
  const auto now = stamp();
  if (now == loaded_) return;
  loaded_ = now;  // a broken file is reported once, not at every login
  try {
    accounts_ = load_accounts(path_);
    if (auto w = permission_warning(path_); w && warn_) warn_(*w);
  } catch (const AccountsError& e) {
    if (warn_) warn_(std::string(e.what()) + "; keeping the accounts loaded before");
  }
}

std::optional<std::string> AccountStore::hash_of(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  reload_if_changed();
  for (const Account& a : accounts_)
    if (a.name == name) return a.hash;
  return std::nullopt;
}

std::size_t AccountStore::size() {
  std::lock_guard<std::mutex> lock(mutex_);
  reload_if_changed();
  return accounts_.size();
}

}  // namespace clamsim::auth
