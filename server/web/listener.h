// Accepts TCP connections and hands each to an HTTP session on its own strand
// (Beast chat-multi's listener).
#pragma once

#include <memory>

#include "web/beast.h"
#include "web/shared_state.h"

namespace clamsim::web {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // Opens, binds and listens at once, so the port is known before run(). Throws
  // std::runtime_error naming the endpoint when it cannot.
  Listener(net::io_context& ioc, const tcp::endpoint& endpoint,
           std::shared_ptr<SharedState> state);

  void run();
  // From any thread: close the acceptor; no new connections.
  void stop();
  tcp::endpoint local_endpoint() const { return endpoint_; }

 private:
  void do_accept();
  void on_accept(beast::error_code ec, tcp::socket socket);

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_;
  std::shared_ptr<SharedState> state_;
  tcp::endpoint endpoint_;
};

}  // namespace clamsim::web
