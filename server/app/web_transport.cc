// The HTTP + WebSocket front end behind the app's Transport interface.
#include "app/transport.h"
#include "web/web_server.h"

namespace clamsim::app {

namespace {

// The browser draws the world the sessions work in: the default world's client scene
// (an empty object without one).
web::WebOptions with_scene(const ServerOptions& o, const session::Catalog& catalog,
                           const session::EventLog& log) {
  web::WebOptions w = o.web;
  if (const auto world = catalog.world()) w.scene = world->client_scene;
  w.log = [&log](const std::string& line) {
    const std::string prefix = "web: ";  // the web layer's lines name their layer
    log.write("web", {{"message", line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : line}});
  };
  return w;
}

class WebTransport final : public Transport {
 public:
  WebTransport(const ServerOptions& o, session::SessionRegistry& registry,
               const session::Catalog& catalog, const session::EventLog& log)
      : server_(with_scene(o, catalog, log), registry, catalog) {}

  const char* name() const override { return "web"; }
  void start() override { server_.start(); }
  std::vector<std::string> ready_lines() const override {
    return {"ready http://" + server_.endpoint() + "/"};
  }
  // Closing the listener also closes every browser connection and removes its sessions,
  // so nothing is left for shutdown().
  void stop_accepting() override { server_.stop(); }
  void shutdown() override { server_.stop(); }

 private:
  web::WebServer server_;
};

}  // namespace

std::unique_ptr<Transport> make_web_transport(const ServerOptions& options,
                                              session::SessionRegistry& registry,
                                              const session::Catalog& catalog,
                                              const session::EventLog& log) {
  return std::make_unique<WebTransport>(options, registry, catalog, log);
}

}  // namespace clamsim::app
