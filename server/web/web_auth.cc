#include "web/web_auth.h"

#include <algorithm>

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "auth/password_hash.h"

namespace clamsim::web {

namespace {

auth::LoginLimits login_limits(const AccessOptions& o) {
  auth::LoginLimits l;
  l.idle_s = o.login_idle_s;
  l.max_s = o.login_max_s;
  return l;
}

auth::ThrottlePolicy throttle_policy(const AccessOptions& o) {
  auth::ThrottlePolicy p;
  p.lockout_after = o.failures_before_lockout;
  p.lockout_s = o.lockout_s;
  // slowed down from well before the lockout: a third of the way there
  p.slow_after = std::max(1, o.failures_before_lockout / 3);
  return p;
}

std::string sha256(const std::string& text) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), md);
  return std::string(reinterpret_cast<const char*>(md), sizeof md);
}

}  // namespace

WebAuth::WebAuth(const AccessOptions& options, std::function<void(const std::string&)> warn)
    : options_(options), logins_(login_limits(options)),
      throttle_(throttle_policy(options), options.event_log) {
  if (!options_.accounts_file.empty())
    accounts_ = std::make_unique<auth::AccountStore>(options_.accounts_file, std::move(warn));
}

WebAuth::~WebAuth() { stop(); }

std::optional<WebAuth::Verified> WebAuth::check_password(const std::string& name,
                                                         const std::string& password) {
  const std::optional<std::string> hash = accounts_ ? accounts_->hash_of(name) : std::nullopt;
  if (!hash) {
    auth::verify_dummy(password);  // the same time as a real check; never a login
    return std::nullopt;
  }
  if (!auth::verify_password(password, *hash)) return std::nullopt;
  return Verified{name, *hash};
}

WebAuth::LoginCheck WebAuth::check_login(std::string_view token, bool touch) {
  const auth::Login l = logins_.check(token, touch);
  switch (l.state) {
    case auth::LoginState::Live: break;
    case auth::LoginState::Expired: return {"", "expired"};
    case auth::LoginState::LoggedOut: return {"", "logged out"};
    case auth::LoginState::Unknown: return {"", "unknown login"};
  }
  // the account as the file says now: clamsim-accounts may have changed it since
  const std::optional<std::string> hash = accounts_ ? accounts_->hash_of(l.name) : std::nullopt;
  if (!hash) return {"", "account removed"};
  if (*hash != l.credential) return {"", "password changed"};
  return {l.name, ""};
}

bool WebAuth::hash(const std::string& client, std::function<void()> job) {
  return hashing_.push(client, std::move(job));
}

void WebAuth::stop() { hashing_.stop(); }

bool WebAuth::class_code_matches(const std::string& given) const {
  if (options_.class_code.empty()) return true;
  // hashed first, so the comparison's length does not depend on what was given
  const std::string a = sha256(given), b = sha256(options_.class_code);
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace clamsim::web
