#include "web/web_server.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "web/beast.h"
#include "web/io_loop.h"
#include "web/listener.h"
#include "web/shared_state.h"
#include "web/status_pages.h"
#include "web/websocket_session.h"

namespace clamsim::web {

namespace {

// How long stop() lets browsers answer the close handshake before dropping them.
constexpr auto kCloseGrace = std::chrono::seconds(1);

// The scenario's client scene goes out as it is (model::Scenario validated it); only its
// shape is checked here, so a wiring mistake fails at start-up, not in every browser.
nlohmann::ordered_json checked_scene(nlohmann::ordered_json scene) {
  if (scene.is_null()) return nlohmann::ordered_json::object();
  if (!scene.is_object())
    throw std::invalid_argument(std::string("web: the scene must be a JSON object, got ") +
                                scene.type_name());
  return scene;
}

}  // namespace

struct WebServer::Impl {
  // declared first, destroyed last: everything below holds sockets of this context
  net::io_context ioc;
  // before state: replays' players, joined off the I/O threads, may hold the last reference
  // to the state; they are all joined before the context goes
  session::PlayerReaper reaper;
  std::shared_ptr<SharedState> state;
  std::shared_ptr<Listener> listener;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  std::vector<std::thread> threads;
  std::mutex lifecycle;
  std::atomic<bool> started{false};   // bound and endpoint_text are set before this
  bool stopped = false;
  tcp::endpoint bound;
  std::string endpoint_text;

  Impl(WebOptions options, session::SessionRegistry& registry, const session::Catalog& catalog)
      : ioc(options.threads > 0 ? options.threads : 1) {
    nlohmann::ordered_json scene = checked_scene(std::move(options.scene));  // one copy
    state = std::make_shared<SharedState>(std::move(options), registry, catalog,
                                          std::move(scene));
    state->set_player_reaper(reaper);
  }
};

WebServer::WebServer(WebOptions options, session::SessionRegistry& registry,
                     const session::Catalog& catalog)
    : impl_(std::make_unique<Impl>(std::move(options), registry, catalog)) {}

WebServer::~WebServer() { stop(); }

void WebServer::start() {
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.lifecycle);
  if (m.started) return;
  const WebOptions& o = m.state->options();
  beast::error_code ec;
  const net::ip::address address =
      o.all_interfaces ? net::ip::address(net::ip::address_v4::any())
                       : net::ip::make_address(o.address, ec);
  if (ec) throw std::runtime_error("web: bad listen address \"" + o.address + "\"");
  m.listener = std::make_shared<Listener>(m.ioc, tcp::endpoint(address, o.port), m.state);
  m.bound = m.listener->local_endpoint();
  const std::string host = m.bound.address().to_string();
  m.endpoint_text = (m.bound.address().is_v6() ? "[" + host + "]" : host) + ":" +
                    std::to_string(m.bound.port());
  m.listener->run();
  m.work.emplace(m.ioc.get_executor());
  const int n = o.threads > 0 ? o.threads : 1;
  const std::chrono::microseconds tick(o.io_tick_us);
  for (int i = 0; i < n; ++i)
    m.threads.emplace_back([&ioc = m.ioc, tick] { run_io_loop(ioc, tick); });
  m.started = true;
  m.state->log("web: listening on " + url());
}

void WebServer::stop() {
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.lifecycle);
  if (!m.started || m.stopped) return;
  m.stopped = true;
  m.state->begin_stop();
  m.listener->stop();
  // Every session is asked to stop at once, so their threads wind down together; each
  // connection then sends its close frame before it joins its (already ending) session.
  // Joining one at a time on the I/O threads took a frame each: with 100 sessions under
  // load most browsers got no close frame before the shutdown budget ran out.
  session::SessionRegistry& registry = m.state->registry();
  for (const std::uint64_t id : m.state->owned_sessions())
    if (auto s = registry.find(id)) {
      // as the registry's own removal would on a server stop: the running task is
      // reported "interrupted", flagged before the thread is asked to end
      if (registry.stopping()) s->interrupt_task();
      s->request_stop();
    }
  for (const auto& weak : m.state->connections())
    if (auto ws = weak.lock()) ws->shutdown();
  const auto deadline = std::chrono::steady_clock::now() + kCloseGrace;
  while (m.state->open_websockets() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  // From here no thread of ours is posted to; then no session of ours runs.
  m.state->stop_posts();
  for (const std::uint64_t id : m.state->owned_sessions()) {
    m.state->registry().remove(id);
    m.state->disown_session(id);
  }
  m.work.reset();
  m.ioc.stop();
  for (auto& t : m.threads) t.join();
  m.threads.clear();
  m.state->log("web: stopped");
}

std::uint16_t WebServer::port() const { return impl_->started ? impl_->bound.port() : 0; }

std::string WebServer::endpoint() const { return impl_->started ? impl_->endpoint_text : ""; }

bool WebServer::tls() const { return impl_->state->tls() != nullptr; }

std::string WebServer::url() const {
  if (!impl_->started) return "";
  return std::string(tls() ? "https://" : "http://") + impl_->endpoint_text + "/";
}

std::string WebServer::tls_cert_file() const {
  return tls() ? impl_->state->tls()->cert_file() : "";
}

std::string WebServer::reload_tls() {
  TlsContextHolder* holder = impl_->state->tls();
  if (!holder) return "";
  std::string why = holder->reload();
  impl_->state->log(why.empty() ? "web: TLS certificate reloaded from " + holder->cert_file()
                                : "web: TLS reload failed, keeping the old certificate: " + why);
  return why;
}

WebStats WebServer::stats() const { return impl_->state->stats(); }

std::string WebServer::metrics_text() const {
  return web::metrics_text(impl_->state->registry(), impl_->state->stats());
}

}  // namespace clamsim::web
