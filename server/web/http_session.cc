#include "web/http_session.h"

#include <cassert>
#include <chrono>

#include "training/report_index.h"
#include "web/auth_routes.h"
#include "web/static_files.h"
#include "web/http_limits.h"
#include "web/report_list.h"
#include "web/status_pages.h"
#include "web/url.h"
#include "web/websocket_session.h"

namespace clamsim::web {

namespace {

constexpr const char* kReportPrefix = "/api/reports/";  // + a report's file name
constexpr const char* kReportsCsv = "/api/reports.csv";

HostVerdict check_host(const http::request<http::string_body>& req, const SharedState& state) {
  return state.hosts().check(req.count(http::field::host), to_std(req[http::field::host]));
}

std::string peer_text(beast::tcp_stream& stream) {
  beast::error_code ec;
  const tcp::endpoint e = stream.socket().remote_endpoint(ec);
  return ec ? std::string("an unknown peer") : e.address().to_string();
}

}  // namespace

HttpSession::HttpSession(WebStream&& stream, beast::flat_buffer&& buffer,
                         std::shared_ptr<SharedState> state, ConnectionSlot slot)
    : stream_(std::move(stream)), buffer_(std::move(buffer)), state_(std::move(state)),
      slot_(std::move(slot)) {}

void HttpSession::run() {
  // the accept handler ran on the listener's strand; continue on this socket's own
  net::dispatch(stream_.get_executor(),
                beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
  assert(on_strand(stream_.get_executor()));
  parser_.emplace();
  parser_->body_limit(kMaxRequestBody);
  parser_->header_limit(kMaxHeaderBytes);
  beast::get_lowest_layer(stream_).expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(state_->options().http_timeout_s)));
  // the header first: a chunked body is refused before any of it is parsed
  http::async_read_header(stream_, buffer_, *parser_,
                          beast::bind_front_handler(&HttpSession::on_header, shared_from_this()));
}

// Boost 1.74's parser can assert (debug builds) or misread (release) on chunk trailers that
// arrive a few bytes at a time (found by clamsim-fuzz, docs/security.md "Fuzzing"). Our few
// bodies are small JSON that browsers send with Content-Length, so chunked bodies are
// refused outright.
void HttpSession::on_header(beast::error_code ec, std::size_t bytes) {
  assert(on_strand(stream_.get_executor()));
  if (ec) return on_read(ec, bytes);
  if (parser_->chunked()) {
    state_->counters().http_bad_requests.fetch_add(1);
    http::response<http::string_body> res{http::status::length_required, 11};
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.body() = "chunked request bodies are not accepted: send Content-Length (at most " +
                 std::to_string(kMaxRequestBody) + " bytes)\n";
    res.keep_alive(false);
    res.prepare_payload();
    return send(std::move(res));
  }
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  assert(on_strand(stream_.get_executor()));
  if (ec == http::error::end_of_stream) {
    beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_send, ec);
    return;
  }
  if (ec) {
    // malformed or oversized requests get a 400 where the stream still allows it
    if (ec != beast::error::timeout && ec != net::error::operation_aborted &&
        ec != net::error::connection_reset && ec != net::error::eof) {
      state_->counters().http_bad_requests.fetch_add(1);
      http::response<http::string_body> res{http::status::bad_request, 11};
      res.set(http::field::content_type, "text/plain; charset=utf-8");
      res.body() = "bad request: " + ec.message() + "\n";
      res.keep_alive(false);
      res.prepare_payload();
      send(std::move(res));
    }
    return;
  }
  handle(parser_->release());
}

void HttpSession::handle(Request&& req) {
  WebCounters& c = state_->counters();
  c.http_requests.fetch_add(1);
  const std::string target = to_std(req.target());
  const std::string path(split_target(target).path);

  if (const HostVerdict host = check_host(req, *state_); !host.allowed())
    return refuse_host(req, host);
  if (websocket::is_upgrade(req)) {
    if (path != "/ws") {
      c.http_not_found.fetch_add(1);
      return send_text(req, http::status::not_found, "no WebSocket endpoint here; use /ws\n",
                       "text/plain; charset=utf-8");
    }
    // the WebSocket session takes the socket (and the connection slot) over, in the role
    // its query asks for
    beast::get_lowest_layer(stream_).expires_never();
    make_websocket_session(std::move(stream_), state_, std::move(slot_), target)
        ->run(std::move(req));
    return;
  }
  if (is_auth_route(path)) return serve_auth(std::move(req), path);
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    c.http_bad_requests.fetch_add(1);
    http::response<http::string_body> res{http::status::method_not_allowed, req.version()};
    res.set(http::field::allow, "GET, HEAD");
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.body() = "method not allowed\n";
    res.keep_alive(req.keep_alive());
    res.prepare_payload();
    return send(std::move(res));
  }
  if (path == "/healthz")
    return send_text(req, http::status::ok, health_json(state_->registry()), "application/json");
  if (path == "/livez" || path == "/readyz") {
    const Probe p = path == "/livez" ? liveness(state_->registry(), state_->options().stall_limit_s)
                                     : readiness(state_->registry());
    return send_text(req, static_cast<http::status>(p.status), p.body, "application/json");
  }
  if (path == "/metrics")
    return send_text(req, http::status::ok,
                     metrics_text(state_->registry(), state_->stats()),
                     "text/plain; version=0.0.4; charset=utf-8");
  if (is_instructor_route(path))
    if (auto denied = require_instructor(req, *state_)) return send_answer(req, std::move(*denied));
  if (path == "/api/sessions")
    return send_text(req, http::status::ok, sessions_json(state_->registry()), "application/json");
  if (path == "/api/reports" || path == kReportsCsv) return send_report_list(req, target, path);
  if (path.rfind(kReportPrefix, 0) == 0) {
    const std::string name = path.substr(std::string(kReportPrefix).size());
    if (auto text = training::read_report(state_->registry().report_dir(), name))
      return send_text(req, http::status::ok, std::move(*text), "application/json");
    c.http_not_found.fetch_add(1);
    return send_text(req, http::status::not_found, "no report named '" + name + "'\n",
                     "text/plain; charset=utf-8");
  }
  if (path == "/ws") {
    c.http_bad_requests.fetch_add(1);
    return send_text(req, http::status::bad_request, "/ws expects a WebSocket upgrade\n",
                     "text/plain; charset=utf-8");
  }
  send_file(req);
}

// The finished tasks, filtered by the query (report_list.h): JSON for the page, CSV to
// save; a malformed filter is 400 naming the parameter.
void HttpSession::send_report_list(const Request& req, const std::string& target,
                                   const std::string& path) {
  ReportFilter filter;
  std::string error;
  if (!parse_report_filter(split_target(target).query, &filter, &error)) {
    state_->counters().http_bad_requests.fetch_add(1);
    return send_text(req, http::status::bad_request, error + "\n", "text/plain; charset=utf-8");
  }
  const auto reports = filtered_reports(state_->registry().report_dir(), filter);
  if (path != kReportsCsv)
    return send_text(req, http::status::ok, reports_json(reports), "application/json");
  send_text(req, http::status::ok, reports_csv(reports), "text/csv; charset=utf-8",
            {{"Content-Disposition", "attachment; filename=\"clamsim-reports.csv\""}});
}

void HttpSession::send_text(const Request& req, http::status status, std::string body,
                            const char* content_type,
                            const std::vector<std::pair<std::string, std::string>>& extra) {
  http::response<http::string_body> res{status, req.version()};
  res.set(http::field::content_type, content_type);
  for (const auto& [name, value] : extra) res.insert(name, value);
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  res.body() = std::move(body);
  res.prepare_payload();
  if (req.method() == http::verb::head) {
    // HEAD: the same headers, no body
    http::response<http::empty_body> head{status, req.version()};
    head.base() = res.base();
    head.content_length(res.body().size());
    return send(std::move(head));
  }
  send(std::move(res));
}

void HttpSession::serve_auth(Request&& req, const std::string& path) {
  // a login answers later, from its password check: the request lives until then
  auto held = std::make_shared<Request>(std::move(req));
  serve_auth_route(*held, path, peer_text(beast::get_lowest_layer(stream_)), *state_,
                   stream_.get_executor(),
                   [self = shared_from_this(), held](HttpAnswer a) {
                     self->send_answer(*held, std::move(a));
                   });
}

void HttpSession::send_answer(const Request& req, HttpAnswer&& a) {
  http::response<http::string_body> res{a.status, req.version()};
  res.set(http::field::content_type, a.content_type);
  res.set(http::field::cache_control, "no-store");
  for (const auto& [name, value] : a.headers) res.insert(name, value);
  res.keep_alive(req.keep_alive());
  res.body() = std::move(a.body);
  res.prepare_payload();
  send(std::move(res));
}

void HttpSession::send_file(const Request& req) {
  WebCounters& c = state_->counters();
  const std::string target = to_std(req.target());
  const std::string path(split_target(target).path);
  const StaticLookup found = resolve_static(path, state_->mounts());
  if (found.status == StaticLookup::Status::BadRequest) {
    c.http_bad_requests.fetch_add(1);
    return send_text(req, http::status::bad_request, "bad request: " + found.reason + "\n",
                     "text/plain; charset=utf-8");
  }
  http::file_body::value_type body;
  beast::error_code ec;
  if (found.status == StaticLookup::Status::Found)
    body.open(found.file.c_str(), beast::file_mode::scan, ec);
  if (found.status != StaticLookup::Status::Found || ec) {
    c.http_not_found.fetch_add(1);
    return send_text(req, http::status::not_found, "not found\n", "text/plain; charset=utf-8");
  }
  const auto size = body.size();
  const std::string_view type = mime_type(found.file.filename().string());
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    res.set(http::field::content_type, beast::string_view(type.data(), type.size()));
    res.set(http::field::cache_control, "no-cache");
    res.content_length(size);
    res.keep_alive(req.keep_alive());
    return send(std::move(res));
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  res.set(http::field::content_type, beast::string_view(type.data(), type.size()));
  res.set(http::field::cache_control, "no-cache");
  res.content_length(size);
  res.keep_alive(req.keep_alive());
  send(std::move(res));
}

void HttpSession::refuse_host(const Request& req, const HostVerdict& host) {
  state_->counters().http_bad_requests.fetch_add(1);
  state_->log("web: refused a request from " + peer_text(beast::get_lowest_layer(stream_)) +
              ": " + host.reason);
  http::response<http::string_body> res{host.kind == HostVerdict::Kind::NotAllowed
                                            ? http::status::misdirected_request
                                            : http::status::bad_request,
                                        req.version()};
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.body() = host.reason + "\n";
  res.keep_alive(false);
  res.prepare_payload();
  send(std::move(res));
}

template <class Body>
void HttpSession::send(http::response<Body>&& res) {
  if (!state_->server_header().empty()) res.set(http::field::server, state_->server_header());
  state_->security_headers().apply(res, stream_.tls());
  const bool close = res.need_eof();
  // the response must live until the write completes
  auto sp = std::make_shared<http::response<Body>>(std::move(res));
  http::async_write(stream_, *sp,
                    [self = shared_from_this(), sp, close](beast::error_code ec, std::size_t n) {
                      self->on_write(close, ec, n);
                    });
}

void HttpSession::on_write(bool close, beast::error_code ec, std::size_t) {
  assert(on_strand(stream_.get_executor()));
  if (ec) return;
  if (close) {
    beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_send, ec);
    return;
  }
  do_read();
}

}  // namespace clamsim::web
