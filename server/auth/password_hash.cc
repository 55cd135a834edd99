#include "auth/password_hash.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "auth/random.h"

namespace clamsim::auth {

namespace {

constexpr std::size_t kSaltBytes = 16;
constexpr std::size_t kHashBytes = 32;
// bounds on what a stored entry may ask for (ln=20, r=16 is 2 GiB: refused)
constexpr int kMinLog2N = 10, kMaxLog2N = 20;
constexpr int kMaxR = 16, kMaxP = 4;
constexpr std::uint64_t kMaxMemory = 512ull << 20;

struct Parsed {
  ScryptCost cost;
  std::string salt;
  std::string hash;
};

std::uint64_t memory_needed(const ScryptCost& c) {
  // scrypt's V array is 128 r N bytes, B is 128 r p; a little room for the rest
  const std::uint64_t r = static_cast<std::uint64_t>(c.r);
  return 128 * r * (std::uint64_t{1} << c.log2_n) + 128 * r * static_cast<std::uint64_t>(c.p) +
         (1u << 20);
}

std::string derive(std::string_view password, std::string_view salt, const ScryptCost& c) {
  std::string out(kHashBytes, '\0');
  if (EVP_PBE_scrypt(password.data(), password.size(),
                     reinterpret_cast<const unsigned char*>(salt.data()), salt.size(),
                     std::uint64_t{1} << c.log2_n, static_cast<std::uint64_t>(c.r),
                     static_cast<std::uint64_t>(c.p), memory_needed(c),
                     reinterpret_cast<unsigned char*>(out.data()), out.size()) != 1)
    throw std::runtime_error("scrypt failed (OpenSSL EVP_PBE_scrypt)");
  return out;
}

bool read_int(std::string_view text, std::string_view key, int* out) {
  if (text.substr(0, key.size()) != key) return false;
  text.remove_prefix(key.size());
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

std::optional<Parsed> parse(std::string_view stored, std::string* why) {
  const auto fail = [why](const char* what) {
    if (why) *why = what;
    return std::nullopt;
  };
  const auto parts = split(stored, '$');
  if (parts.size() != 5 || !parts[0].empty() || parts[1] != "scrypt")
    return fail("not of the form $scrypt$ln=..,r=..,p=..$salt$hash");
  const auto params = split(parts[2], ',');
  Parsed p;
  if (params.size() != 3 || !read_int(params[0], "ln=", &p.cost.log2_n) ||
      !read_int(params[1], "r=", &p.cost.r) || !read_int(params[2], "p=", &p.cost.p))
    return fail("scrypt parameters are not ln=N,r=N,p=N");
  if (p.cost.log2_n < kMinLog2N || p.cost.log2_n > kMaxLog2N || p.cost.r < 1 ||
      p.cost.r > kMaxR || p.cost.p < 1 || p.cost.p > kMaxP ||
      memory_needed(p.cost) > kMaxMemory)
    return fail("scrypt parameters out of bounds (ln 10-20, r 1-16, p 1-4, at most 512 MiB)");
  auto salt = base64_decode(parts[3]);
  auto hash = base64_decode(parts[4]);
  if (!salt || salt->size() < kSaltBytes) return fail("salt is not base64 of 16 or more bytes");
  if (!hash || hash->size() != kHashBytes) return fail("hash is not base64 of 32 bytes");
  p.salt = std::move(*salt);
  p.hash = std::move(*hash);
  return p;
}

std::string format(const ScryptCost& c, std::string_view salt, std::string_view hash) {
  return "$scrypt$ln=" + std::to_string(c.log2_n) + ",r=" + std::to_string(c.r) +
         ",p=" + std::to_string(c.p) + "$" + base64_encode(salt) + "$" + base64_encode(hash);
}

}  // namespace

std::string hash_password(std::string_view password, const ScryptCost& cost) {
  const std::string salt = random_bytes(kSaltBytes);
  return format(cost, salt, derive(password, salt, cost));
}

bool verify_password(std::string_view password, std::string_view stored) {
  const auto p = parse(stored, nullptr);
  if (!p) return false;
  const std::string got = derive(password, p->salt, p->cost);
  return CRYPTO_memcmp(got.data(), p->hash.data(), kHashBytes) == 0;
}

bool verify_dummy(std::string_view password) {
  // made once, with the default cost, so it takes as long as a real account's check
  static const std::string dummy = hash_password("no account has this password");
  verify_password(password, dummy);
  return false;
}

std::string hash_problem(std::string_view stored) {
  std::string why;
  return parse(stored, &why) ? std::string() : why;
}

}  // namespace clamsim::auth
