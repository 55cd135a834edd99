// Passwords are stored only as a slow salted hash: scrypt (RFC 7914) from OpenSSL, in a
// self-describing text form, so the cost can be raised later without breaking old entries:
//
//   $scrypt$ln=15,r=8,p=1$<16-byte salt, base64>$<32-byte hash, base64>
//
// ln=15, r=8 costs 32 MiB and about 0.1 s of one core per hash on the build machine: cheap
// for one login, expensive for guessing.
#pragma once

#include <string>
#include <string_view>

namespace clamsim::auth {

struct ScryptCost {
  int log2_n = 15;   // N = 2^log2_n
  int r = 8;
  int p = 1;
};

// A fresh random salt each call. Throws std::runtime_error if OpenSSL fails.
std::string hash_password(std::string_view password, const ScryptCost& cost = {});

// True when `stored` is well formed and holds the hash of `password`, compared in
// constant time. A malformed entry (or one whose cost is out of bounds, so a tampered
// file cannot make us allocate gigabytes) is false.
bool verify_password(std::string_view password, std::string_view stored);

// Does the work of verify_password against a fixed hash and returns false: for names that
// have no account, so the time of an answer does not tell which names exist.
bool verify_dummy(std::string_view password);

// "" when `stored` is a hash this code can verify, else what is wrong with it.
std::string hash_problem(std::string_view stored);

}  // namespace clamsim::auth
