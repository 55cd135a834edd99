// The Boost.Asio / Boost.Beast headers and namespace aliases of the transport files.
#pragma once

#include <string>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

namespace clamsim::web {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// Every connection's socket runs on its own strand; handlers assert they are on it
// (threads cross by posting, and each side checks it is on its own thread: a session thread
// never touches a socket; docs/architecture.md, Threads).
inline bool on_strand(const net::any_io_executor& ex) {
  if (const auto* s = ex.target<net::strand<net::io_context::executor_type>>())
    return s->running_in_this_thread();
  return true;
}

inline std::string to_std(beast::string_view s) { return std::string(s.data(), s.size()); }

}  // namespace clamsim::web
