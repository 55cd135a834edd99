// corba/corba_server.cc and corba/object_key.cc: session references are capabilities. A
// session's object key holds 128 random bits, unrelated to the session number or to any
// other session's key, and a key that was not handed out reaches nothing (OBJECT_NOT_EXIST).
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>

#include "corba/object_key.h"
#include "test_support.h"
// after test_support.h, whose generated header brings CORBA.h
#include <omniORB4/IIOP.h>
#include <omniORB4/omniIOR.h>

namespace clamsim::corba::test {
namespace {

// The object key of the first IIOP profile of ref, as bytes.
std::string object_key(CORBA::Object_ptr ref) {
  omniIOR* ior = ref->_PR_getobj()->_getIOR();
  std::string key;
  const IOP::TaggedProfileList& profiles = ior->iopProfiles();
  for (CORBA::ULong i = 0; i < profiles.length() && key.empty(); ++i) {
    if (profiles[i].tag != IOP::TAG_INTERNET_IOP) continue;
    IIOP::ProfileBody body;
    IIOP::unmarshalProfile(profiles[i], body);
    key.assign(reinterpret_cast<const char*>(body.object_key.get_buffer()),
               body.object_key.length());
  }
  ior->release();
  return key;
}

// A reference to `key` on the server at `corbaloc` (its admin's corbaloc), every byte
// %-escaped as corbaloc allows: what an attacker who guessed the key would build.
CLAMX::Session_ptr forge(const std::string& corbaloc, const std::string& key) {
  std::string url = corbaloc.substr(0, corbaloc.rfind('/') + 1);
  char hex[4];
  for (unsigned char c : key) {
    std::snprintf(hex, sizeof hex, "%%%02x", c);
    url += hex;
  }
  CORBA::Object_var obj = orb()->string_to_object(url.c_str());
  return CLAMX::Session::_unchecked_narrow(obj);
}

// The last 32 characters of a session key: the random id the server drew (the rest is
// omniORB's POA prefix, the same for every session of one server).
std::string random_part(const std::string& key) { return key.substr(key.size() - 32); }

TEST(ObjectKey, HoldsAtLeast128BitsAndNeverRepeats) {
  static_assert(kSessionKeyBits >= 128);
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string k = random_session_key();
    ASSERT_EQ(k.size(), kSessionKeyBits / 4) << k;
    ASSERT_EQ(k.find_first_not_of("0123456789abcdef"), std::string::npos) << k;
    EXPECT_TRUE(seen.insert(k).second) << "a key repeated: " << k;
  }
}

TEST(CorbaServer, SessionKeysAreRandomAndUnrelatedToTheSessionNumber) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> rec1, rec2;
  CLAMX::Session_var s1 = admin->subscribeWith(rec1.client(), default_options());
  CLAMX::Session_var s2 = admin->subscribeWith(rec2.client(), default_options());
  const std::string k1 = object_key(s1), k2 = object_key(s2);
  ASSERT_GE(k1.size(), 32u);
  ASSERT_EQ(k1.size(), k2.size());
  const std::string r1 = random_part(k1), r2 = random_part(k2);
  // the POA prefix is shared; the id is the whole difference
  EXPECT_EQ(k1.substr(0, k1.size() - 32), k2.substr(0, k2.size() - 32));
  for (const std::string& k : {k1, k2}) {
    EXPECT_EQ(random_part(k).find("session"), std::string::npos) << k;
    EXPECT_EQ(random_part(k).find_first_not_of("0123456789abcdef"), std::string::npos) << k;
  }
  // a fresh server numbers its sessions 1 and 2; neither number is in either key
  for (const char* id : {"-1", "-2", "\x01", "\x02"})
    for (const std::string& r : {r1, r2}) EXPECT_EQ(r.find(id), std::string::npos) << r;
  // two independent draws share about 2 of their 32 hex digits in place (1 in 16 each;
  // 12 or more has a probability below 1e-6); a counter or a key derived from the
  // previous one shares most of them
  std::size_t same_digits = 0;
  for (std::size_t i = 0; i < r1.size(); ++i) same_digits += r1[i] == r2[i];
  EXPECT_LT(same_digits, 12u) << r1 << " vs " << r2 << ": the keys share too many digits";
  s1->unsubscribe();
  s2->unsubscribe();
}

TEST(CorbaServer, AForgedSessionKeyGetsObjectNotExist) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  CLAMX::Admin_var admin = server.admin();
  Activated<FrameRecorder> victim_rx, attacker_rx;
  CLAMX::Session_var victim = admin->subscribeWith(victim_rx.client(), default_options());
  CLAMX::Session_var own = admin->subscribeWith(attacker_rx.client(), default_options());
  ASSERT_TRUE(victim_rx->wait_frames(2, Ms(5000)));
  const std::string own_key = object_key(own);
  const std::string prefix = own_key.substr(0, own_key.size() - 32);

  // what the attacker can build from their own reference and the public session numbers
  std::string flipped = own_key;
  flipped.back() = flipped.back() == '0' ? '1' : '0';
  const std::string forged_keys[] = {
      prefix + "session-1",                 // the old scheme, victim's number
      prefix + "session-2",                 // ... and the attacker's own
      prefix + std::string(32, '0'),
      flipped,                              // one digit off the attacker's own key
      prefix + random_session_key(),
  };
  for (const std::string& key : forged_keys) {
    CLAMX::Session_var forged = forge(server.corbaloc(), key);
    EXPECT_THROW(forged->stats(), CORBA::OBJECT_NOT_EXIST) << key;
    EXPECT_THROW(forged->setTrainee("mallory"), CORBA::OBJECT_NOT_EXIST) << key;
    EXPECT_THROW(forged->restartTask(), CORBA::OBJECT_NOT_EXIST) << key;
    EXPECT_THROW(forged->unsubscribe(), CORBA::OBJECT_NOT_EXIST) << key;
  }
  // the victim's session is untouched and still served; the attacker's own key works
  EXPECT_NO_THROW(own->stats());
  victim_rx->reset();
  EXPECT_TRUE(victim_rx->wait_frames(3, Ms(5000))) << "the victim's session was disturbed";
  EXPECT_NO_THROW(victim->stats());
  // and the real key, rebuilt through the same corbaloc path, does reach it: the forging
  // above failed because of the key, not because of how the reference was built
  CLAMX::Session_var again = forge(server.corbaloc(), object_key(victim));
  EXPECT_NO_THROW(again->stats());
  victim->unsubscribe();
  own->unsubscribe();
}

}  // namespace
}  // namespace clamsim::corba::test
