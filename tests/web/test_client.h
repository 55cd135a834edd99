// A real Beast HTTP / WebSocket client for the web tests. Every operation is bounded in
// time: the client runs its own io_context only until the operation completes or its
// deadline passes. A read that times out stays pending and is picked up by the next read.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

namespace clamsim::testing {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Seconds = std::chrono::duration<double>;

// Runs ioc until *done or the deadline. False on timeout.
inline bool run_until(net::io_context& ioc, const bool& done, Seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
  while (!done && std::chrono::steady_clock::now() < deadline) {
    if (ioc.stopped()) ioc.restart();
    ioc.run_one_until(deadline);
  }
  return done;
}

struct HttpReply {
  int status = 0;           // 0: no answer
  std::string content_type;
  std::string body;
};

inline HttpReply http_request(std::uint16_t port, const std::string& target,
                              http::verb method = http::verb::get, Seconds timeout = Seconds(5)) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  HttpReply reply;
  beast::error_code ec;
  stream.socket().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
  if (ec) return reply;
  http::request<http::empty_body> req{method, target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  req.keep_alive(false);
  bool done = false;
  http::async_write(stream, req, [&](beast::error_code e, std::size_t) {
    ec = e;
    done = true;
  });
  if (!run_until(ioc, done, timeout) || ec) return reply;
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(16 * 1024 * 1024);
  if (method == http::verb::head) parser.skip(true);
  done = false;
  http::async_read(stream, buffer, parser, [&](beast::error_code e, std::size_t) {
    ec = e;
    done = true;
  });
  if (!run_until(ioc, done, timeout) || ec) return reply;
  auto res = parser.release();
  reply.status = static_cast<int>(res.result_int());
  reply.content_type = std::string(res[http::field::content_type]);
  reply.body = std::move(res.body());
  return reply;
}

class WsClient {
 public:
  struct Message {
    enum class Kind { Text, Binary, Closed, Error, Timeout };
    Kind kind = Kind::Timeout;
    std::string text;
    beast::error_code ec;
  };

  // Opens the connection and does the handshake. rcvbuf > 0 shrinks the socket's receive
  // buffer first (a slow reader that fills up quickly).
  bool connect(std::uint16_t port, const std::string& target = "/ws",
               const std::string& origin = "", int rcvbuf = 0) {
    beast::error_code ec;
    auto& sock = beast::get_lowest_layer(ws_).socket();
    sock.open(tcp::v4(), ec);
    if (rcvbuf > 0) sock.set_option(net::socket_base::receive_buffer_size(rcvbuf), ec);
    sock.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
    if (ec) return false;
    if (!origin.empty())
      ws_.set_option(websocket::stream_base::decorator(
          [origin](websocket::request_type& req) { req.set(http::field::origin, origin); }));
    bool done = false;
    ws_.async_handshake("127.0.0.1:" + std::to_string(port), target,
                        [&](beast::error_code e) {
                          ec = e;
                          done = true;
                        });
    return run_until(ioc_, done, Seconds(5)) && !ec;
  }

  // The next message, or Closed (see close_reason()), Error, or Timeout (still pending).
  Message read(Seconds timeout = Seconds(2)) {
    if (!reading_) {
      reading_ = true;
      read_done_ = false;
      ws_.async_read(buffer_, [this](beast::error_code e, std::size_t) {
        read_ec_ = e;
        read_done_ = true;
      });
    }
    Message m;
    if (!run_until(ioc_, read_done_, timeout)) return m;
    reading_ = false;
    if (read_ec_ == websocket::error::closed) {
      m.kind = Message::Kind::Closed;
    } else if (read_ec_) {
      m.kind = Message::Kind::Error;
      m.ec = read_ec_;
    } else {
      m.kind = ws_.got_text() ? Message::Kind::Text : Message::Kind::Binary;
      m.text = beast::buffers_to_string(buffer_.data());
    }
    buffer_.consume(buffer_.size());
    return m;
  }

  // The next message parsed as JSON, skipping none; nullopt when it is not a text message.
  std::optional<nlohmann::json> read_json(Seconds timeout = Seconds(2)) {
    Message m = read(timeout);
    if (m.kind != Message::Kind::Text) return std::nullopt;
    return nlohmann::json::parse(m.text);
  }

  // The next message of the given type within the timeout, skipping others.
  std::optional<nlohmann::json> read_type(const std::string& type, Seconds timeout = Seconds(3),
                                          int max_messages = 500) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
    for (int i = 0; i < max_messages; ++i) {
      const auto left = deadline - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) break;
      auto j = read_json(std::chrono::duration_cast<Seconds>(left));
      if (!j) return std::nullopt;
      if ((*j)["type"] == type) return j;
    }
    return std::nullopt;
  }

  // Reads (and discards) until the server closes; the close code, or -1.
  int read_until_closed(Seconds timeout = Seconds(5), int max_messages = 2000) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
    for (int i = 0; i < max_messages; ++i) {
      const auto left = deadline - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) break;
      Message m = read(std::chrono::duration_cast<Seconds>(left));
      if (m.kind == Message::Kind::Closed) return static_cast<int>(ws_.reason().code);
      if (m.kind == Message::Kind::Error || m.kind == Message::Kind::Timeout) return -1;
    }
    return -1;
  }

  bool write(const std::string& text, bool binary = false, Seconds timeout = Seconds(2)) {
    ws_.binary(binary);
    bool done = false;
    beast::error_code ec;
    ws_.async_write(net::buffer(text), [&](beast::error_code e, std::size_t) {
      ec = e;
      done = true;
    });
    return run_until(ioc_, done, timeout) && !ec;
  }

  std::string close_reason() const { return std::string(ws_.reason().reason.c_str()); }

  void close() {
    bool done = false;
    ws_.async_close(websocket::close_code::normal, [&](beast::error_code) { done = true; });
    run_until(ioc_, done, Seconds(2));
  }

 private:
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_{ioc_};
  beast::flat_buffer buffer_;
  bool reading_ = false;
  bool read_done_ = false;
  beast::error_code read_ec_;
};

}  // namespace clamsim::testing
