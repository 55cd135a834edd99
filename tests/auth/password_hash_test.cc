#include "auth/password_hash.h"

#include <gtest/gtest.h>

#include <regex>
#include <vector>

#include "auth/random.h"

namespace clamsim::auth {
namespace {

// the cheapest cost the verifier accepts keeps these tests quick; the format is the same
const ScryptCost kCheap{10, 8, 1};

TEST(PasswordHash, FormatIsSelfDescribing) {
  const std::string h = hash_password("correct horse battery", kCheap);
  EXPECT_TRUE(std::regex_match(h, std::regex(R"(\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=)")))
      << h;
  EXPECT_EQ(hash_problem(h), "");
}

TEST(PasswordHash, DefaultCostIsLn15) {
  const std::string h = hash_password("correct horse battery");
  EXPECT_EQ(h.rfind("$scrypt$ln=15,r=8,p=1$", 0), 0u) << h;
  EXPECT_TRUE(verify_password("correct horse battery", h));
}

TEST(PasswordHash, VerifiesRightAndRefusesWrong) {
  const std::string h = hash_password("correct horse battery", kCheap);
  EXPECT_TRUE(verify_password("correct horse battery", h));
  EXPECT_FALSE(verify_password("correct horse batterx", h));
  EXPECT_FALSE(verify_password("", h));
}

TEST(PasswordHash, SaltDiffersEachTime) {
  EXPECT_NE(hash_password("same password", kCheap), hash_password("same password", kCheap));
}

TEST(PasswordHash, TamperedEntriesAreRefused) {
  const std::string h = hash_password("correct horse battery", kCheap);
  std::string flipped = h;
  flipped[flipped.size() - 3] = flipped[flipped.size() - 3] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(verify_password("correct horse battery", flipped));
  // the cost raised in the text: a different hash, not a pass
  std::string cost = h;
  cost.replace(cost.find("ln=10"), 5, "ln=11");
  EXPECT_FALSE(verify_password("correct horse battery", cost));
}

TEST(PasswordHash, MalformedEntriesNameTheProblem) {
  EXPECT_NE(hash_problem("plaintext"), "");
  EXPECT_NE(hash_problem("$pbkdf2$ln=10,r=8,p=1$AAAA$AAAA").find("not of the form"), std::string::npos);
  EXPECT_NE(hash_problem("$scrypt$ln=x,r=8,p=1$AAAA$AAAA").find("parameters"), std::string::npos);
  // a cost that would need gigabytes is refused before anything is allocated
  const std::string salt = base64_encode(std::string(16, 's'));
  const std::string hash = base64_encode(std::string(32, 'h'));
  EXPECT_NE(hash_problem("$scrypt$ln=20,r=16,p=1$" + salt + "$" + hash).find("out of bounds"),
            std::string::npos);
  EXPECT_FALSE(verify_password("x", "$scrypt$ln=20,r=16,p=1$" + salt + "$" + hash));
  EXPECT_NE(hash_problem("$scrypt$ln=10,r=8,p=1$" + salt + "$AAAA").find("32 bytes"), std::string::npos);
  EXPECT_NE(hash_problem("$scrypt$ln=10,r=8,p=1$%%%%$" + hash).find("salt"), std::string::npos);
}

TEST(PasswordHash, DummyNeverPasses) {
  EXPECT_FALSE(verify_dummy("no account has this password"));
  EXPECT_FALSE(verify_dummy(""));
}

TEST(Random, Base64RoundTripAndStrictDecoding) {
  for (const std::string& s : std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)})
    EXPECT_EQ(base64_decode(base64_encode(s)), s);
  EXPECT_FALSE(base64_decode("QUJD\n").has_value());
  EXPECT_FALSE(base64_decode("QUJ").has_value());
  EXPECT_EQ(random_hex(32).size(), 64u);
  EXPECT_NE(random_hex(32), random_hex(32));
}

}  // namespace
}  // namespace clamsim::auth
