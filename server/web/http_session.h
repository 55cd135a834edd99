// One HTTP connection (Beast chat-multi's http_session): reads requests one at a time and
// answers static files from the web root and /vendor/three/, /healthz and /metrics, or
// hands the socket to a WebSocket session when /ws asks for an upgrade.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>
#include <optional>

#include "web/beast.h"
#include "web/shared_state.h"
#include "web/web_stream.h"

namespace clamsim::web {

struct HttpAnswer;  // auth_routes.h

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  // stream: plain, or TLS with its handshake done (tls_accept.h); buffer: bytes already
  // read from it that belong to the first request.
  HttpSession(WebStream&& stream, beast::flat_buffer&& buffer, std::shared_ptr<SharedState> state,
              ConnectionSlot slot);
  void run();
  // Whether this connection speaks TLS: route code uses it (cookies get Secure under TLS).
  bool tls() const { return stream_.tls(); }

 private:
  using Request = http::request<http::string_body>;

  void do_read();
  void on_header(beast::error_code ec, std::size_t bytes);
  void on_read(beast::error_code ec, std::size_t bytes);
  void handle(Request&& req);
  template <class Body>
  void send(http::response<Body>&& res);
  void on_write(bool close, beast::error_code ec, std::size_t bytes);
  // extra: more header fields (Content-Disposition)
  void send_text(const Request& req, http::status status, std::string body,
                 const char* content_type,
                 const std::vector<std::pair<std::string, std::string>>& extra = {});
  void send_report_list(const Request& req, const std::string& target, const std::string& path);
  void send_file(const Request& req);
  // the login routes (auth_routes.h), answered through send_answer
  void serve_auth(Request&& req, const std::string& path);
  void send_answer(const Request& req, HttpAnswer&& answer);
  // 421 for a Host this server does not answer for, 400 for none or a malformed one
  void refuse_host(const Request& req, const HostVerdict& host);

  WebStream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  ConnectionSlot slot_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace clamsim::web
