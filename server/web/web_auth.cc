#include "web/web_auth.h"

#include <algorithm>

#include <boost/asio/post.hpp>
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

std::optional<std::string> WebAuth::check_password(const std::string& name,
                                                   const std::string& password) {
  const std::optional<std::string> hash = accounts_ ? accounts_->hash_of(name) : std::nullopt;
  if (!hash) return auth::verify_dummy(password) ? std::optional<std::string>(name) : std::nullopt;
  if (!auth::verify_password(password, *hash)) return std::nullopt;
  return name;
}

bool WebAuth::hash(std::function<void()> job) {
  if (stopped_) return false;
  if (waiting_.fetch_add(1) >= kMaxWaiting) {
    waiting_.fetch_sub(1);
    return false;
  }
  boost::asio::post(pool_, [this, job = std::move(job)] {
    job();
    waiting_.fetch_sub(1);
  });
  return true;
}

void WebAuth::stop() {
  if (stopped_.exchange(true)) return;
  pool_.join();
}

bool WebAuth::class_code_matches(const std::string& given) const {
  if (options_.class_code.empty()) return true;
  // hashed first, so the comparison's length does not depend on what was given
  const std::string a = sha256(given), b = sha256(options_.class_code);
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace clamsim::web
