#include "auth/accounts_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "auth/password_hash.h"
#include "auth/random.h"

namespace clamsim::auth {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxFileBytes = 4 << 20;  // thousands of accounts; refuse anything huge

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw AccountsError(path + ": " + what);
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot read: ") + std::strerror(errno));
  std::ostringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  if (text.size() > kMaxFileBytes) fail(path, "larger than 4 MiB, not an accounts file");
  return text;
}

std::string string_field(const std::string& path, const nlohmann::json& entry, std::size_t i,
                         const char* key) {
  const auto it = entry.find(key);
  const std::string where = "accounts[" + std::to_string(i) + "]." + key;
  if (it == entry.end()) fail(path, where + " is missing");
  if (!it->is_string()) fail(path, where + " is a " + it->type_name() + ", expected a string");
  return it->get<std::string>();
}

Account read_entry(const std::string& path, const nlohmann::json& entry, std::size_t i) {
  if (!entry.is_object()) fail(path, "accounts[" + std::to_string(i) + "] is not an object");
  Account a;
  a.name = string_field(path, entry, i, "name");
  a.hash = string_field(path, entry, i, "hash");
  a.created = string_field(path, entry, i, "created");
  if (const std::string why = account_name_problem(a.name); !why.empty())
    fail(path, "accounts[" + std::to_string(i) + "].name: " + why);
  if (const std::string why = hash_problem(a.hash); !why.empty())
    fail(path, "accounts[" + std::to_string(i) + "] (" + a.name + ").hash: " + why);
  return a;
}

void write_all(int fd, const std::string& text, const std::string& tmp) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(tmp, std::string("cannot write: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

// the directory entry of the rename must reach the disk too
void sync_directory(const fs::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

std::string account_name_problem(std::string_view name) {
  if (name.empty()) return "empty; give 1-64 characters";
  if (name.size() > 64) return "longer than 64 characters";
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-' || c == '@';
    if (!ok) return "may hold only letters, digits and . _ - @";
  }
  return "";
}

std::vector<Account> load_accounts(const std::string& path) {
  const std::string text = read_all(path);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    fail(path, std::string("not JSON: ") + e.what());
  }
  if (!doc.is_object()) fail(path, "expected a JSON object");
  const auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string() || *schema != kAccountsSchema)
    fail(path, std::string("\"schema\" must be \"") + kAccountsSchema +
                   "\" (not an accounts file, or from a newer clamsim)");
  const auto list = doc.find("accounts");
  if (list == doc.end() || !list->is_array()) fail(path, "\"accounts\" must be an array");
  std::vector<Account> out;
  std::set<std::string> names;
  for (std::size_t i = 0; i < list->size(); ++i) {
    Account a = read_entry(path, (*list)[i], i);
    if (!names.insert(a.name).second) fail(path, "account '" + a.name + "' appears twice");
    out.push_back(std::move(a));
  }
  return out;
}

void save_accounts(const std::string& path, const std::vector<Account>& accounts) {
  nlohmann::ordered_json doc;
  doc["schema"] = kAccountsSchema;
  doc["accounts"] = nlohmann::ordered_json::array();
  for (const Account& a : accounts)
    doc["accounts"].push_back({{"name", a.name}, {"hash", a.hash}, {"created", a.created}});
  const std::string text = doc.dump(2) + "\n";

  const fs::path target(path);
  const fs::path tmp = target.parent_path() / ("." + target.filename().string() + "." +
                                               random_hex(6) + ".tmp");
  // O_EXCL: never write through a file (or link) someone placed there
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) fail(tmp.string(), std::string("cannot create: ") + std::strerror(errno));
  try {
    ::fchmod(fd, 0600);  // whatever the umask
    write_all(fd, text, tmp.string());
    if (::fsync(fd) != 0) fail(tmp.string(), std::string("fsync: ") + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, std::string("cannot replace: ") + std::strerror(err));
  }
  sync_directory(target.parent_path());
}

std::optional<std::string> permission_warning(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  if ((st.st_mode & 077) == 0) return std::nullopt;
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return path + " is readable by other users (mode " + mode + "); chmod 600 " + path;
}

}  // namespace clamsim::auth
