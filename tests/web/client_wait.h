// The test clients' one blocking primitive (test_client.cc, tls_client.cc): run the
// client's own io_context until its operation is done or the deadline passes.
#pragma once

#include <chrono>

#include <boost/asio/io_context.hpp>

namespace clamsim::testing {

// Runs ioc until *done or the deadline. False on timeout.
inline bool run_until(boost::asio::io_context& ioc, const bool& done,
                      std::chrono::duration<double> timeout) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
  while (!done && std::chrono::steady_clock::now() < deadline) {
    if (ioc.stopped()) ioc.restart();
    ioc.run_one_until(deadline);
  }
  return done;
}

}  // namespace clamsim::testing
