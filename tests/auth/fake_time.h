// A clock the auth tests move by hand, for the tables that take an injected NowFn (logins,
// the failed-login tracker, observer tickets): expiry is tested without waiting.
#pragma once

#include "auth/login_sessions.h"

namespace clamsim::auth::testing {

struct FakeTime {
  Instant now{};
  NowFn fn() {
    return [this] { return now; };
  }
};

}  // namespace clamsim::auth::testing
