#include "tools/wsload/ws_fleet.h"

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "tools/client/received_frame.h"
#include "tools/wsload/frame_head.h"
#include "web/web_stream.h"

namespace clamsim::wsload {
namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using beast::error_code;

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

struct Fleet::Impl {
  FleetConfig config;
  net::io_context ioc;
  net::executor_work_guard<net::io_context::executor_type> work{ioc.get_executor()};
  tcp::resolver::results_type endpoints;
  std::shared_ptr<net::ssl::context> tls;   // null: plain ws://
  std::vector<std::thread> threads;
  std::atomic<std::size_t> settled{0};
  std::atomic<std::size_t> open{0};
  std::atomic<std::size_t> running{0};  // clients with handlers still pending
  std::atomic<double> window_start_s{kInf};
  std::atomic<double> window_end_s{kInf};

  class Client;
  std::vector<std::shared_ptr<Client>> clients;

  bool in_window(double t) const {
    return t >= window_start_s.load() && t < window_end_s.load();
  }
};

class Fleet::Impl::Client : public std::enable_shared_from_this<Client> {
 public:
  Client(Impl& fleet, std::size_t index, std::int64_t observe)
      : fleet_(fleet),
        index_(index),
        target_(observe > 0 ? fleet.config.target +
                                  (fleet.config.target.find('?') == std::string::npos ? "?" : "&") +
                                  "observe=" + std::to_string(observe)
                            : fleet.config.target),
        strand_(net::make_strand(fleet.ioc)),
        timer_(strand_) {
    r_.observing = observe;
  }

  void start() {
    ++fleet_.running;
    connect();
  }

  // Posted on the strand at the end.
  void stop() {
    stopping_ = true;
    timer_.cancel();
    if (waiting_) finish();  // between connections: nothing to close
    if (!open_ || closing_) return;
    closing_ = true;
    ws_->async_close(websocket::close_code::normal,
                    [self = shared_from_this()](const error_code&) { self->finish(); });
  }

  const ClientResult& result() const { return r_; }
  std::int64_t session() const { return session_.load(); }
  auto executor() { return strand_; }

 private:
  // A fresh stream on this client's strand: the first connection and every reconnect.
  void connect() {
    waiting_ = false;
    ++generation_;
    if (ws_) retired_.push_back(std::move(ws_));  // an aborted write may still name it
    ws_ = std::make_unique<websocket::stream<web::WebStream>>(
        fleet_.tls ? web::WebStream(beast::tcp_stream(strand_), fleet_.tls)
                   : web::WebStream(beast::tcp_stream(strand_)));
    buffer_.consume(buffer_.size());
    queue_.clear();
    beast::get_lowest_layer(*ws_).expires_after(std::chrono::seconds(10));
    beast::get_lowest_layer(*ws_).async_connect(
        fleet_.endpoints, [self = shared_from_this()](const error_code& ec, const tcp::endpoint&) {
          self->on_connect(ec);
        });
  }

  void on_connect(const error_code& ec) {
    if (ec) return fail("connect: " + ec.message());
    beast::get_lowest_layer(*ws_).expires_never();
    // as browsers do: a ping right after a control must not wait for the control's ACK
    error_code ignored;
    beast::get_lowest_layer(*ws_).socket().set_option(tcp::no_delay(true), ignored);
    ws_->set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws_->text(true);
    if (fleet_.tls) return tls_handshake();
    ws_handshake();
  }

  void tls_handshake() {
    auto& tls = ws_->next_layer().tls_stream();
    SSL_set_tlsext_host_name(tls.native_handle(), fleet_.config.host.c_str());
    if (!fleet_.config.tls_insecure)
      tls.set_verify_callback(net::ssl::host_name_verification(fleet_.config.host));
    beast::get_lowest_layer(*ws_).expires_after(std::chrono::seconds(10));
    tls.async_handshake(net::ssl::stream_base::client,
                        [self = shared_from_this()](const error_code& ec) {
                          if (ec) return self->fail("TLS handshake: " + ec.message());
                          beast::get_lowest_layer(*self->ws_).expires_never();
                          self->ws_handshake();
                        });
  }

  void ws_handshake() {
    ws_->async_handshake(fleet_.config.host + ":" + fleet_.config.port, target_,
                        [self = shared_from_this()](const error_code& e) {
                          self->on_handshake(e);
                        });
  }

  void on_handshake(const error_code& ec) {
    if (ec) return fail("handshake: " + ec.message());
    open_ = true;
    ++fleet_.open;
    read();
  }

  void read() {
    ws_->async_read(buffer_, [self = shared_from_this()](const error_code& ec, std::size_t) {
      self->on_read(ec);
    });
  }

  void on_read(const error_code& ec) {
    const double arrival = client::now_s();
    if (ec) return on_closed(ec);
    const std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    handle(text, arrival);
    read();
  }

  void handle(const std::string& text, double arrival) {
    // frames, the bulk, by their head alone; the rest as whole documents
    const FrameHead head = read_frame_head(text);
    if (head.type == "display") {
      if (!fleet_.in_window(arrival)) return;
      if (!head.seq || !head.t) {
        ++r_.bad_messages;
        return;
      }
      client::ReceivedFrame f;
      f.arrival_s = arrival;
      f.extended = true;
      f.seq = *head.seq;
      f.sim_time_s = *head.t;
      r_.arrivals.add(f);
      return;
    }
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("type") || !j["type"].is_string()) {
      ++r_.bad_messages;
      return;
    }
    const std::string& type = j["type"].get_ref<const std::string&>();
    if (type == "pong") {
      ++r_.pongs;
      if (fleet_.in_window(arrival) && j.contains("t") && j["t"].is_number()) {
        r_.rtt_ms.push_back(arrival * 1000.0 - j["t"].get<double>());
      }
    } else if (type == "hello") {
      if (hello_seen_) return;  // one per connection
      hello_seen_ = true;
      if (r_.connected) {  // a reconnect: a new session, maybe on another server
        ++r_.reconnects;
        r_.closed_later = false;
        r_.arrivals.new_stream();
      } else {
        ++fleet_.settled;
      }
      r_.connected = true;
      if (j.contains("session") && j["session"].is_number_integer()) {
        r_.server_session = j["session"].get<std::int64_t>();
        session_ = r_.server_session;
      }
      if (j.contains("frame_period_s") && j["frame_period_s"].is_number()) {
        r_.frame_period_s = j["frame_period_s"].get<double>();
        if (r_.reconnects == 0) r_.arrivals = client::ArrivalStats(r_.frame_period_s);
      }
      start_ticks();
    } else if (type == "error") {
      ++r_.errors;
    } else if (type == "drain") {
      ++r_.drain_notices;
    } else {
      ++r_.bad_messages;
    }
  }

  void start_ticks() {
    const double hz = controls() ? fleet_.config.control_hz : fleet_.config.ping_hz;
    if (hz <= 0) return;
    period_ = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(1.0 / hz));
    ping_every_ = fleet_.config.ping_hz > 0
                      ? std::max<long>(1, std::lround(hz / fleet_.config.ping_hz))
                      : 0;
    next_tick_ = std::chrono::steady_clock::now();
    tick();
  }

  void tick() {
    if (stopping_ || !open_) return;
    if (controls()) {
      double v0 = 0.0;
      if (fleet_.config.swing_volts != 0.0) {  // a 10 s sine, phase by client
        v0 = fleet_.config.swing_volts *
             std::sin(2.0 * M_PI * (client::now_s() / 10.0 + static_cast<double>(index_) * 0.1));
      }
      nlohmann::json c = {{"type", "control"}, {"volts", {v0, 0.0, 0.0, 0.0, 0.0}}};
      send(c.dump());
      ++r_.controls_sent;
    }
    if (ping_every_ > 0 && ticks_ % ping_every_ == 0) {
      nlohmann::json p = {{"type", "ping"}, {"id", r_.pings_sent}, {"t", client::now_s() * 1000.0}};
      send(p.dump());
      ++r_.pings_sent;
    }
    ++ticks_;
    next_tick_ += period_;
    timer_.expires_at(next_tick_);
    timer_.async_wait([self = shared_from_this()](const error_code& ec) {
      if (!ec) self->tick();
    });
  }

  void send(std::string message) {
    if (queue_.size() >= 64) return;  // the server stopped reading; do not grow without bound
    queue_.push_back(std::move(message));
    if (queue_.size() == 1) write();
  }

  void write() {
    ws_->async_write(net::buffer(queue_.front()),
                    [self = shared_from_this(), gen = generation_](const error_code& ec,
                                                                   std::size_t) {
                      if (ec || gen != self->generation_) return;  // the read side says why
                      self->queue_.pop_front();
                      if (!self->queue_.empty() && !self->closing_) self->write();
                    });
  }

  void on_closed(const error_code& ec) {
    timer_.cancel();
    if (stopping_) {  // our own close at the end (the read completes aborted or closed)
      if (open_) {
        open_ = false;
        --fleet_.open;
      }
      if (!closing_) finish();
      return;
    }
    if (ec == websocket::error::closed) {
      r_.close_code = static_cast<int>(ws_->reason().code);
      r_.close_reason = std::string(ws_->reason().reason.c_str());
    } else if (r_.close_reason.empty()) {
      r_.close_reason = ec.message();
    }
    if (open_) {
      open_ = false;
      --fleet_.open;
    }
    if (r_.connected && fleet_.config.reconnect_s >= 0) return reconnect_later();
    if (!r_.connected) {
      if (ec == websocket::error::closed) {
        r_.refused = true;
      } else {
        r_.failed = true;
      }
      ++fleet_.settled;
    } else {
      r_.closed_later = true;
    }
    if (!closing_) finish();
  }

  // After a session ended (or a reconnect failed): wait, then connect again. Until a new
  // hello the client counts as closed.
  void reconnect_later() {
    error_code ignored;  // aborts a write still pending, before the queue is cleared
    beast::get_lowest_layer(*ws_).socket().close(ignored);
    waiting_ = true;
    r_.closed_later = true;
    hello_seen_ = false;
    timer_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(fleet_.config.reconnect_s)));
    timer_.async_wait([self = shared_from_this()](const error_code& ec) {
      if (!ec && !self->stopping_) self->connect();
    });
  }

  // an observer never sends control (the server would refuse it)
  bool controls() const { return fleet_.config.control_hz > 0 && r_.observing == 0; }

  void fail(const std::string& why) {
    if (r_.connected && fleet_.config.reconnect_s >= 0) {  // a reconnect attempt failed
      r_.close_reason = why;
      return reconnect_later();
    }
    r_.failed = true;
    r_.close_reason = why;
    ++fleet_.settled;
    finish();
  }

  void finish() {
    if (finished_) return;
    finished_ = true;
    --fleet_.running;
  }

  Impl& fleet_;
  std::size_t index_;
  const std::string target_;   // the config's, or its ?observe=ID
  std::atomic<std::int64_t> session_{-1};
  net::strand<net::io_context::executor_type> strand_;
  net::steady_timer timer_;
  std::unique_ptr<websocket::stream<web::WebStream>> ws_;   // plain or TLS (web/web_stream.h)
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  std::chrono::steady_clock::duration period_{};
  std::chrono::steady_clock::time_point next_tick_{};
  long ping_every_ = 0;
  long ticks_ = 0;
  bool open_ = false;
  bool hello_seen_ = false;  // on the current connection
  bool waiting_ = false;     // to reconnect
  std::uint64_t generation_ = 0;  // connections made; a handler of an older one is stale
  std::vector<std::unique_ptr<websocket::stream<web::WebStream>>> retired_;
  bool closing_ = false;
  bool stopping_ = false;
  bool finished_ = false;
  ClientResult r_;
};

Fleet::Fleet(FleetConfig config) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
}

Fleet::~Fleet() {
  if (!impl_->threads.empty()) stop(0.5);
}

void Fleet::start() {
  tcp::resolver resolver(impl_->ioc);
  error_code ec;
  impl_->endpoints = resolver.resolve(impl_->config.host, impl_->config.port, ec);
  if (ec) {
    throw std::runtime_error("cannot resolve " + impl_->config.host + ":" + impl_->config.port +
                             ": " + ec.message());
  }
  if (impl_->config.tls) {
    auto ctx = std::make_shared<net::ssl::context>(net::ssl::context::tls_client);
    if (!impl_->config.tls_insecure) {
      ctx->load_verify_file(impl_->config.tls_ca, ec);
      if (ec)
        throw std::runtime_error("--tls-ca " + impl_->config.tls_ca + ": " + ec.message());
      ctx->set_verify_mode(net::ssl::verify_peer);
    }
    impl_->tls = std::move(ctx);
  }
  const int n = std::max(1, std::min(2, impl_->config.threads));
  for (int i = 0; i < n; ++i) impl_->threads.emplace_back([this] { impl_->ioc.run(); });
}

void Fleet::add_client(std::int64_t observe) {
  auto c = std::make_shared<Impl::Client>(*impl_, impl_->clients.size(), observe);
  impl_->clients.push_back(c);
  net::post(c->executor(), [c] { c->start(); });
}

std::int64_t Fleet::server_session(std::size_t i) const {
  return i < impl_->clients.size() ? impl_->clients[i]->session() : -1;
}

std::size_t Fleet::settled() const { return impl_->settled.load(); }
std::size_t Fleet::open() const { return impl_->open.load(); }
void Fleet::open_window(double start_s) { impl_->window_start_s.store(start_s); }
void Fleet::close_window(double end_s) { impl_->window_end_s.store(end_s); }

void Fleet::stop(double grace_s) {
  for (auto& c : impl_->clients) net::post(c->executor(), [c] { c->stop(); });
  const double deadline = client::now_s() + grace_s;
  while (impl_->running.load() > 0 && client::now_s() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  impl_->work.reset();
  impl_->ioc.stop();
  for (auto& t : impl_->threads) t.join();
  impl_->threads.clear();
}

std::vector<ClientResult> Fleet::results() const {
  std::vector<ClientResult> out;
  out.reserve(impl_->clients.size());
  for (const auto& c : impl_->clients) out.push_back(c->result());
  return out;
}

}  // namespace clamsim::wsload
