// A real Beast HTTP / WebSocket client for the web tests. Every operation is bounded in
// time: the client runs its own io_context only until the operation completes or its
// deadline passes. A read that times out stays pending and is picked up by the next read.
// Beast's client code is compiled once, in test_client.cc (the clamsim_test_web_client
// library): instantiated in every test file that included it, it had made each of them
// several times larger and slower to build under ASan.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/beast/http/verb.hpp>
#include <boost/system/error_code.hpp>
#include <nlohmann/json.hpp>

namespace clamsim::testing {

namespace http = boost::beast::http;
using Seconds = std::chrono::duration<double>;

struct HttpReply {
  int status = 0;           // 0: no answer
  std::string content_type;
  std::string body;
};

// One request on a fresh connection to 127.0.0.1:port; status 0 when no answer came.
HttpReply http_request(std::uint16_t port, const std::string& target,
                       http::verb method = http::verb::get, Seconds timeout = Seconds(5));

class WsClient {
 public:
  struct Message {
    enum class Kind { Text, Binary, Closed, Error, Timeout };
    Kind kind = Kind::Timeout;
    std::string text;
    boost::system::error_code ec;
  };

  WsClient();
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // Connect from this local address (any 127.x.y.z is this machine, seen as another client).
  void connect_from(const std::string& address);
  // Send this Cookie header with the handshake (an instructor's login).
  void set_cookie(const std::string& cookie);

  // Opens the connection and does the handshake. rcvbuf > 0 shrinks the socket's receive
  // buffer first (a slow reader that fills up quickly).
  bool connect(std::uint16_t port, const std::string& target = "/ws",
               const std::string& origin = "", int rcvbuf = 0);

  // The next message, or Closed (see close_reason()), Error, or Timeout (still pending).
  Message read(Seconds timeout = Seconds(2));

  // The next message parsed as JSON, skipping none; nullopt when it is not a text message.
  std::optional<nlohmann::json> read_json(Seconds timeout = Seconds(2));

  // The next message of the given type within the timeout, skipping others.
  std::optional<nlohmann::json> read_type(const std::string& type, Seconds timeout = Seconds(3),
                                          int max_messages = 500);

  // Reads (and discards) until the server closes; the close code, or -1.
  int read_until_closed(Seconds timeout = Seconds(5), int max_messages = 2000);

  bool write(const std::string& text, bool binary = false, Seconds timeout = Seconds(2));

  std::string close_reason() const;
  int close_code() const;   // of the close frame received (0 before one)

  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
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
