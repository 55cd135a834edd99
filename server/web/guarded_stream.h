// The WebSocket's next layer: the connection's WebStream (plain or TLS, web_stream.h) plus
// two checks Beast cannot make (docs/security.md, "WebSocket abuse"). It sits above TLS,
// so it sees the decrypted bytes.
//
// Frames in. Beast answers every ping and silently skips empty continuation frames, and
// reports neither, so a rate limit on messages never sees them (555,250 pings in 5 s were
// all answered). This layer follows the client's frame headers in the raw bytes it reads
// and calls on_frame for each frame of any kind, so every frame counts against the limit.
//
// Reasons out. Beast fails a read on a protocol error (1002), invalid UTF-8 in a text
// message (1007) or a message over read_message_max (1009) by sending a close frame with
// the code alone. This layer recognises exactly that frame - an unmasked server close
// frame whose payload is the two code bytes - as it is written, and sends it with a short
// reason instead. Everything else passes through unchanged.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/write.hpp>

#include "web/beast.h"
#include "web/web_stream.h"

namespace clamsim::web {

// The reason sent with Beast's code-only close `code`; "" = leave the frame as it is.
const char* beast_close_reason(std::uint16_t code);

// Follows RFC 6455 frame headers through a byte stream (the client's side: masked or not,
// any length) and counts complete headers. Malformed streams are Beast's to reject.
class FrameCounter {
 public:
  // Feeds bytes; returns how many frame headers completed within them.
  std::size_t feed(const unsigned char* data, std::size_t n);

 private:
  std::uint64_t payload_left_ = 0;
  std::array<unsigned char, 14> header_{};
  std::size_t have_ = 0;   // header bytes so far
  std::size_t need_ = 2;   // header bytes of this frame, known after the first two
};

class GuardedStream {
 public:
  using executor_type = WebStream::executor_type;

  explicit GuardedStream(WebStream&& stream) : next_(std::move(stream)) {}

  executor_type get_executor() noexcept { return next_.get_executor(); }
  WebStream& next_layer() noexcept { return next_; }
  const WebStream& next_layer() const noexcept { return next_; }

  // Called on the reading strand with the number of frames that just arrived.
  void on_frames(std::function<void(std::size_t)> fn) { on_frames_ = std::move(fn); }

  template <class MutableBufferSequence, class ReadHandler>
  void async_read_some(const MutableBufferSequence& buffers, ReadHandler&& handler) {
    auto ex = net::get_associated_executor(handler, get_executor());
    next_.async_read_some(
        buffers, net::bind_executor(ex, [this, buffers, h = std::forward<ReadHandler>(handler)](
                                            beast::error_code ec, std::size_t n) mutable {
          count(buffers, n);
          std::move(h)(ec, n);
        }));
  }

  template <class ConstBufferSequence, class WriteHandler>
  void async_write_some(const ConstBufferSequence& buffers, WriteHandler&& handler) {
    std::array<unsigned char, 4> head{};
    if (net::buffer_size(buffers) == head.size()) {
      net::buffer_copy(net::buffer(head), buffers);
      // 0x88: FIN + close opcode; 0x02: unmasked, two payload bytes (the code alone)
      const auto code = static_cast<std::uint16_t>(head[2] << 8 | head[3]);
      const std::string reason =
          head[0] == 0x88 && head[1] == 0x02 ? beast_close_reason(code) : "";
      if (!reason.empty()) {
        auto frame = std::make_shared<std::string>();
        frame->push_back(static_cast<char>(0x88));
        frame->push_back(static_cast<char>(2 + reason.size()));   // reasons are < 124 bytes
        frame->push_back(static_cast<char>(head[2]));
        frame->push_back(static_cast<char>(head[3]));
        *frame += reason;
        auto ex = net::get_associated_executor(handler, get_executor());
        // the caller's 4 bytes count as written once the whole replacement is out
        net::async_write(next_, net::buffer(*frame),
                         net::bind_executor(ex, [frame, h = std::forward<WriteHandler>(handler)](
                                                    beast::error_code ec, std::size_t) mutable {
                           std::move(h)(ec, ec ? std::size_t{0} : std::size_t{4});
                         }));
        return;
      }
    }
    next_.async_write_some(buffers, std::forward<WriteHandler>(handler));
  }

 private:
  template <class MutableBufferSequence>
  void count(const MutableBufferSequence& buffers, std::size_t n) {
    std::size_t frames = 0;
    for (auto it = net::buffer_sequence_begin(buffers);
         n > 0 && it != net::buffer_sequence_end(buffers); ++it) {
      const net::mutable_buffer b = *it;
      const std::size_t k = std::min(n, b.size());
      frames += counter_.feed(static_cast<const unsigned char*>(b.data()), k);
      n -= k;
    }
    if (frames > 0 && on_frames_) on_frames_(frames);
  }

  WebStream next_;
  FrameCounter counter_;
  std::function<void(std::size_t)> on_frames_;
};

// Beast tears the connection down through these (found by argument-dependent lookup).
inline void teardown(beast::role_type role, GuardedStream& s, beast::error_code& ec) {
  teardown(role, s.next_layer(), ec);
}

template <class TeardownHandler>
void async_teardown(beast::role_type role, GuardedStream& s, TeardownHandler&& handler) {
  async_teardown(role, s.next_layer(), std::forward<TeardownHandler>(handler));
}

}  // namespace clamsim::web
