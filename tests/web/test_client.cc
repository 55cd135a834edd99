#include "test_client.h"

#include "client_wait.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

namespace clamsim::testing {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

HttpReply http_request(std::uint16_t port, const std::string& target, http::verb method,
                       Seconds timeout) {
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


struct WsClient::Impl {
  std::string from;     // local address to connect from; "" = any
  std::string cookie;   // the handshake's Cookie header; "" = none
  net::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  beast::flat_buffer buffer;
  bool reading = false;
  bool read_done = false;
  beast::error_code read_ec;
};

WsClient::WsClient() : impl_(std::make_unique<Impl>()) {}
WsClient::~WsClient() = default;

void WsClient::connect_from(const std::string& address) { impl_->from = address; }
void WsClient::set_cookie(const std::string& cookie) { impl_->cookie = cookie; }

bool WsClient::connect(std::uint16_t port, const std::string& target, const std::string& origin,
                       int rcvbuf) {
  Impl& c = *impl_;
  beast::error_code ec;
  auto& sock = beast::get_lowest_layer(c.ws).socket();
  sock.open(tcp::v4(), ec);
  if (rcvbuf > 0) sock.set_option(net::socket_base::receive_buffer_size(rcvbuf), ec);
  if (!c.from.empty()) sock.bind(tcp::endpoint(net::ip::make_address(c.from), 0), ec);
  sock.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
  if (ec) return false;
  if (!origin.empty() || !c.cookie.empty())
    c.ws.set_option(websocket::stream_base::decorator(
        [origin, cookie = c.cookie](websocket::request_type& req) {
          if (!origin.empty()) req.set(http::field::origin, origin);
          if (!cookie.empty()) req.set(http::field::cookie, cookie);
        }));
  bool done = false;
  c.ws.async_handshake("127.0.0.1:" + std::to_string(port), target, [&](beast::error_code e) {
    ec = e;
    done = true;
  });
  return run_until(c.ioc, done, Seconds(5)) && !ec;
}

WsClient::Message WsClient::read(Seconds timeout) {
  Impl& c = *impl_;
  if (!c.reading) {
    c.reading = true;
    c.read_done = false;
    c.ws.async_read(c.buffer, [&c](beast::error_code e, std::size_t) {
      c.read_ec = e;
      c.read_done = true;
    });
  }
  Message m;
  if (!run_until(c.ioc, c.read_done, timeout)) return m;
  c.reading = false;
  if (c.read_ec == websocket::error::closed) {
    m.kind = Message::Kind::Closed;
  } else if (c.read_ec) {
    m.kind = Message::Kind::Error;
    m.ec = c.read_ec;
  } else {
    m.kind = c.ws.got_text() ? Message::Kind::Text : Message::Kind::Binary;
    m.text = beast::buffers_to_string(c.buffer.data());
  }
  c.buffer.consume(c.buffer.size());
  return m;
}

std::optional<nlohmann::json> WsClient::read_json(Seconds timeout) {
  Message m = read(timeout);
  if (m.kind != Message::Kind::Text) return std::nullopt;
  return nlohmann::json::parse(m.text);
}

std::optional<nlohmann::json> WsClient::read_type(const std::string& type, Seconds timeout,
                                                  int max_messages) {
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

int WsClient::read_until_closed(Seconds timeout, int max_messages) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
  for (int i = 0; i < max_messages; ++i) {
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) break;
    Message m = read(std::chrono::duration_cast<Seconds>(left));
    if (m.kind == Message::Kind::Closed) return static_cast<int>(impl_->ws.reason().code);
    if (m.kind == Message::Kind::Error || m.kind == Message::Kind::Timeout) return -1;
  }
  return -1;
}

bool WsClient::write(const std::string& text, bool binary, Seconds timeout) {
  Impl& c = *impl_;
  c.ws.binary(binary);
  bool done = false;
  beast::error_code ec;
  c.ws.async_write(net::buffer(text), [&](beast::error_code e, std::size_t) {
    ec = e;
    done = true;
  });
  return run_until(c.ioc, done, timeout) && !ec;
}

std::string WsClient::close_reason() const {
  return std::string(impl_->ws.reason().reason.c_str());
}

int WsClient::close_code() const { return static_cast<int>(impl_->ws.reason().code); }

void WsClient::close() {
  Impl& c = *impl_;
  bool done = false;
  c.ws.async_close(websocket::close_code::normal, [&](beast::error_code) { done = true; });
  run_until(c.ioc, done, Seconds(2));
}

}  // namespace clamsim::testing
