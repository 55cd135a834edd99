// A real Beast HTTP / WebSocket client for the web tests. Every operation is bounded in
// time: the client runs its own io_context only until the operation completes or its
// deadline passes. A read that times out stays pending and is picked up by the next read.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
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

  // Connect from this local address (any 127.x.y.z is this machine, seen as another client).
  void connect_from(const std::string& address) { from_ = address; }
  // Send this Cookie header with the handshake (an instructor's login).
  void set_cookie(const std::string& cookie) { cookie_ = cookie; }

  // Opens the connection and does the handshake. rcvbuf > 0 shrinks the socket's receive
  // buffer first (a slow reader that fills up quickly).
  bool connect(std::uint16_t port, const std::string& target = "/ws",
               const std::string& origin = "", int rcvbuf = 0) {
    beast::error_code ec;
    auto& sock = beast::get_lowest_layer(ws_).socket();
    sock.open(tcp::v4(), ec);
    if (rcvbuf > 0) sock.set_option(net::socket_base::receive_buffer_size(rcvbuf), ec);
    if (!from_.empty()) sock.bind(tcp::endpoint(net::ip::make_address(from_), 0), ec);
    sock.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
    if (ec) return false;
    if (!origin.empty() || !cookie_.empty())
      ws_.set_option(websocket::stream_base::decorator(
          [origin, cookie = cookie_](websocket::request_type& req) {
            if (!origin.empty()) req.set(http::field::origin, origin);
            if (!cookie.empty()) req.set(http::field::cookie, cookie);
          }));
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
  std::string from_;   // local address to connect from; "" = any
  std::string cookie_;   // the handshake's Cookie header; "" = none
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_{ioc_};
  beast::flat_buffer buffer_;
  bool reading_ = false;
  bool read_done_ = false;
  beast::error_code read_ec_;
};

// A plain TCP connection for what no well-behaved client sends: requests without or with
// a foreign Host, half-sent requests, hand-made WebSocket frames. Blocking sends, reads
// bounded by a timeout; closed by the destructor.
class RawConnection {
 public:
  RawConnection() = default;
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  ~RawConnection() { close(); }

  // from: the local address to connect from (any 127.x.y.z is this machine too)
  bool connect(std::uint16_t port, const char* from = "127.0.0.1") {
    close();
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return false;
    sockaddr_in local{};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, from, &local.sin_addr);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) return false;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    timeval tv{5, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    return ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  bool send(const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }
  // Appends what arrives within timeout to received(); false once the peer closed (or
  // reset) the connection.
  bool read_for(Seconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
    for (int i = 0; i < 100000; ++i) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return true;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return true;
      char buf[65536];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        open_ = false;
        return false;
      }
      in_.append(buf, static_cast<std::size_t>(n));
    }
    return true;
  }
  // Reads until pred(received()) holds, the peer closes, or the timeout.
  template <class Pred>
  bool read_until(Pred pred, Seconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
    for (int i = 0; i < 100000 && !pred(in_); ++i) {
      if (std::chrono::steady_clock::now() >= deadline) break;
      if (!read_for(Seconds(0.05)) && !pred(in_)) return false;
    }
    return pred(in_);
  }
  // True once the server closed the connection (EOF or reset) within timeout.
  bool closed_by_peer(Seconds timeout) {
    for (int i = 0; i < 100000 && open_; ++i) {
      const auto before = in_.size();
      read_for(timeout);
      if (open_ && in_.size() == before) break;  // nothing more within timeout
    }
    return !open_;
  }
  const std::string& received() const { return in_; }
  int status() const {  // the HTTP status of the first response received, 0 if none
    if (in_.rfind("HTTP/1.", 0) != 0 || in_.size() < 12) return 0;
    return std::atoi(in_.substr(9, 3).c_str());
  }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  bool open_ = true;
  std::string in_;
};

// A client frame (masked, as RFC 6455 requires of clients unless `masked` is false).
inline std::string ws_frame(unsigned char opcode, bool fin, const std::string& payload,
                            bool masked = true, unsigned char extra_bits = 0) {
  std::string f;
  f.push_back(static_cast<char>((fin ? 0x80 : 0) | extra_bits | opcode));
  const unsigned char mask_bit = masked ? 0x80 : 0;
  if (payload.size() < 126) {
    f.push_back(static_cast<char>(mask_bit | payload.size()));
  } else if (payload.size() < 65536) {
    f.push_back(static_cast<char>(mask_bit | 126));
    f.push_back(static_cast<char>(payload.size() >> 8));
    f.push_back(static_cast<char>(payload.size() & 0xFF));
  } else {
    f.push_back(static_cast<char>(mask_bit | 127));
    for (int i = 7; i >= 0; --i)
      f.push_back(static_cast<char>((static_cast<std::uint64_t>(payload.size()) >> (8 * i)) & 0xFF));
  }
  const unsigned char key[4] = {0x12, 0x34, 0x56, 0x78};
  if (masked) f.append(reinterpret_cast<const char*>(key), 4);
  for (std::size_t i = 0; i < payload.size(); ++i)
    f.push_back(static_cast<char>(masked ? payload[i] ^ key[i % 4] : payload[i]));
  return f;
}

inline std::string ws_upgrade_request(std::uint16_t port, const std::string& host = "",
                                      const std::string& extra_headers = "") {
  return "GET /ws HTTP/1.1\r\nHost: " + (host.empty() ? "127.0.0.1:" + std::to_string(port) : host) +
         "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
         extra_headers + "\r\n";
}

// The server's close frame among the frames after the 101 response in `bytes`, if it came.
struct CloseFrame {
  int code = -1;
  std::string reason;
};
inline std::optional<CloseFrame> find_close_frame(const std::string& bytes) {
  std::size_t i = bytes.find("\r\n\r\n");
  if (i == std::string::npos) return std::nullopt;
  i += 4;
  for (int frames = 0; frames < 1000000 && i + 2 <= bytes.size(); ++frames) {
    const unsigned char op = static_cast<unsigned char>(bytes[i]) & 0x0F;
    std::uint64_t len = static_cast<unsigned char>(bytes[i + 1]) & 0x7F;
    std::size_t head = 2;
    if (len == 126 || len == 127) {
      const std::size_t n = len == 126 ? 2 : 8;
      if (i + 2 + n > bytes.size()) return std::nullopt;
      len = 0;
      for (std::size_t k = 0; k < n; ++k) len = (len << 8) | static_cast<unsigned char>(bytes[i + 2 + k]);
      head += n;
    }
    if (i + head + len > bytes.size()) return std::nullopt;
    if (op == 0x8) {
      CloseFrame c;
      if (len >= 2)
        c.code = (static_cast<unsigned char>(bytes[i + head]) << 8) |
                 static_cast<unsigned char>(bytes[i + head + 1]);
      if (len > 2) c.reason = bytes.substr(i + head + 2, static_cast<std::size_t>(len - 2));
      return c;
    }
    i += head + static_cast<std::size_t>(len);
  }
  return std::nullopt;
}

}  // namespace clamsim::testing
