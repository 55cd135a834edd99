// The CORBA transport behind the app's Transport interface.
#include "app/transport.h"
#include "corba/corba_server.h"

namespace clamsim::app {

namespace {

class CorbaTransport final : public Transport {
 public:
  CorbaTransport(const ServerOptions& o, session::SessionRegistry& registry,
                 const session::Catalog& catalog)
      : server_(o.corba, registry, catalog) {}

  const char* name() const override { return "corba"; }
  void start() override { server_.start(); }
  std::vector<std::string> ready_lines() const override {
    std::vector<std::string> lines = {server_.naming_report(),
                                      "corba: references carry " + server_.published()};
    if (!server_.corbaloc().empty()) lines.push_back("ready " + server_.corbaloc());
    if (!server_.tls_corbaloc().empty()) lines.push_back("ready " + server_.tls_corbaloc());
    return lines;
  }
  void begin_drain() override { server_.withdraw_from_naming(); }
  void stop_accepting() override { server_.stop_accepting(); }
  void shutdown() override { server_.shutdown(); }

 private:
  corba::CorbaServer server_;
};

}  // namespace

std::unique_ptr<Transport> make_corba_transport(const ServerOptions& options,
                                                session::SessionRegistry& registry,
                                                const session::Catalog& catalog) {
  return std::make_unique<CorbaTransport>(options, registry, catalog);
}

}  // namespace clamsim::app
