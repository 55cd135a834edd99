#include "session/counters.h"

namespace clamsim::session {

CounterSnapshot& CounterSnapshot::operator+=(const CounterSnapshot& o) {
  for (const CounterField& f : kCounterFields) this->*f.member += o.*f.member;
  return *this;
}

CounterSnapshot Counters::snapshot() const {
  CounterSnapshot s;
  for (const CounterField& f : kCounterFields)
    s.*f.member = (this->*f.live).load(std::memory_order_relaxed);
  return s;
}

}  // namespace clamsim::session
