#include "web/listener.h"

#include <sstream>
#include <stdexcept>

#include "session/fd_budget.h"
#include "web/http_session.h"
#include "web/tls_accept.h"

namespace clamsim::web {

namespace {

std::string describe(const tcp::endpoint& e) {
  return e.address().to_string() + ":" + std::to_string(e.port());
}

std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// Counts a refusal under its reason and says why, for the log.
std::string note_refusal(ClientLimits::Admit admit, const std::string& client,
                         const ClientLimits& l, WebCounters& c) {
  switch (admit) {
    case ClientLimits::Admit::TotalFull:
      c.refused_limit.fetch_add(1);
      return "web: refused a connection: " + std::to_string(l.total_limit()) +
             " open (the limit)";
    case ClientLimits::Admit::ClientFull:
      c.refused_per_client.fetch_add(1);
      return "web: refused a connection from " + client + ": it has " +
             std::to_string(l.per_client_limit()) + " open (the per-client limit)";
    case ClientLimits::Admit::ClientRate:
      c.refused_rate.fetch_add(1);
      return "web: refused a connection from " + client + ": more than " +
             number(l.rate().per_second) + " new connections a second (burst " +
             number(l.rate().burst) + ")";
    case ClientLimits::Admit::Ok:
      break;
  }
  return "";
}

}  // namespace

Listener::Listener(net::io_context& ioc, const tcp::endpoint& endpoint,
                   std::shared_ptr<SharedState> state)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), retry_(acceptor_.get_executor()),
      state_(std::move(state)) {
  beast::error_code ec;
  auto check = [&](const char* what) {
    if (ec)
      throw std::runtime_error("web: cannot " + std::string(what) + " " + describe(endpoint) +
                               ": " + ec.message());
  };
  acceptor_.open(endpoint.protocol(), ec);
  check("open");
  acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  check("set SO_REUSEADDR on");
  acceptor_.bind(endpoint, ec);
  // the usual mistake, said as the CORBA port's is: the flag to change, and how
  if (ec == net::error::address_in_use)
    throw std::runtime_error("--http-port " + std::to_string(endpoint.port()) + ": port " +
                             std::to_string(endpoint.port()) + " on " +
                             endpoint.address().to_string() +
                             " is in use (another server?); choose another, or 0 for any free "
                             "port");
  check("bind");
  acceptor_.listen(net::socket_base::max_listen_connections, ec);
  check("listen on");
  endpoint_ = acceptor_.local_endpoint(ec);
  check("read the address of");
}

void Listener::run() {
  net::dispatch(acceptor_.get_executor(),
                beast::bind_front_handler(&Listener::do_accept, shared_from_this()));
}

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    beast::error_code ec;
    self->retry_.cancel();
    self->acceptor_.close(ec);
  });
}

void Listener::do_accept() {
  if (!acceptor_.is_open()) return;
  // each connection gets its own strand
  acceptor_.async_accept(net::make_strand(ioc_),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) {
    // e.g. out of file descriptors: back off instead of spinning
    state_->log("web: accept failed: " + ec.message());
    retry_.expires_after(std::chrono::milliseconds(100));
    retry_.async_wait([self = shared_from_this()](beast::error_code e) {
      if (!e) self->do_accept();
    });
    return;
  }
  const WebOptions& o = state_->options();
  WebCounters& c = state_->counters();
  beast::error_code peer_ec;
  const tcp::endpoint peer = socket.remote_endpoint(peer_ec);
  if (peer_ec) {  // gone already
    beast::error_code ignored;
    socket.close(ignored);
    return do_accept();
  }
  const std::string client = peer.address().to_string();
  if (session::fd_budget_exhausted()) {
    // keep the reserve for files and the other transport (fd_budget.h)
    c.refused_descriptors.fetch_add(1);
    state_->log("web: refused a connection from " + client +
                ": out of file descriptors (keeping " + std::to_string(session::kFdReserve) +
                " in reserve)");
    beast::error_code ignored;
    socket.close(ignored);
    return do_accept();
  }
  const ClientLimits::Admit admit = state_->limits().admit(client);
  if (admit != ClientLimits::Admit::Ok) {
    state_->log(note_refusal(admit, client, state_->limits(), c));
    beast::error_code ignored;
    socket.close(ignored);
  } else {
    ConnectionSlot slot(state_, client);
    if (o.socket_send_buffer_bytes > 0) {
      beast::error_code ignored;
      socket.set_option(net::socket_base::send_buffer_size(o.socket_send_buffer_bytes), ignored);
    }
    beast::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    if (state_->tls())
      std::make_shared<TlsAccept>(std::move(socket), state_, std::move(slot))->run();
    else
      std::make_shared<HttpSession>(WebStream(beast::tcp_stream(std::move(socket))),
                                    beast::flat_buffer(), state_, std::move(slot))
          ->run();
  }
  do_accept();
}

}  // namespace clamsim::web
