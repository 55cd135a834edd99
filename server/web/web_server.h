// The web front end: HTTP (the browser client's static files, /vendor/three/, /healthz,
// /metrics) and the WebSocket endpoint /ws, one session::Session per connection
// (docs/websocket-protocol.md). Runs its own I/O threads; sessions come from the shared
// registry, so CORBA and WebSocket subscribers count against the same limit. With a TLS
// certificate (WebOptions::tls_cert_file) the port speaks HTTPS and WSS only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "session/catalog.h"
#include "session/registry.h"
#include "web/web_options.h"

namespace clamsim::web {

class WebServer {
 public:
  // options.scene must be a JSON object (null counts as empty); otherwise throws
  // std::invalid_argument. A TLS certificate or key that does not load throws TlsError
  // (tls_context.h) naming the file. The registry and catalog must outlive the server; stop the
  // server before closing the registry.
  WebServer(WebOptions options, session::SessionRegistry& registry,
            const session::Catalog& catalog);
  ~WebServer();  // stop()
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  // Binds and listens (throws std::runtime_error naming the address when it cannot), then
  // runs the I/O threads. Once only.
  void start();
  // Closes the listener and every connection (WebSocket close 1001), removes this server's
  // sessions from the registry and joins the I/O threads. Idempotent; also from ~WebServer.
  void stop();

  // The bound port (the chosen one when options.port was 0); 0 before start().
  std::uint16_t port() const;
  // "127.0.0.1:8080", the bound address; "" before start().
  std::string endpoint() const;

  // Whether the port speaks TLS (WebOptions::tls_cert_file), and "https://HOST:PORT/" or
  // "http://HOST:PORT/" once started.
  bool tls() const;
  std::string url() const;
  std::string tls_cert_file() const;   // "" without TLS
  // Reads the TLS certificate and key again (SIGHUP): new connections get them, open ones
  // keep theirs. "" when done (or when TLS is off); otherwise why not, the old ones kept.
  std::string reload_tls();

  WebStats stats() const;
  std::string metrics_text() const;   // the body of GET /metrics

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace clamsim::web
