// The HTTP + WebSocket front end behind the app's Transport interface.
#include <cstdio>
#include <filesystem>

#include "app/transport.h"
#include "auth/instructor_access.h"
#include "model/keyboard_file.h"
#include "web/self_signed.h"
#include "web/shared_state.h"
#include "web/tls_context.h"
#include "web/web_server.h"

namespace clamsim::app {

namespace {

// Who may read instructor data (auth/instructor_access.h): an accounts file when one is
// configured; listening beyond loopback without one, STATE_DIR/accounts.json, created with
// a first instructor whose password is printed here once. Throws auth::AccountsError.
void plan_access(const ServerOptions& o, web::WebOptions& w, const base::EventLog& log) {
  const auth::AccessPlan plan = auth::plan_instructor_access(
      o.web.access.accounts_file, !web::listens_on_loopback_only(o.web), o.state_dir);
  w.access.accounts_file = plan.accounts_file;
  w.access.event_log = &log;
  if (plan.create_if_missing) {
    if (const auto password = auth::create_first_instructor(plan.accounts_file)) {
      std::fprintf(stderr,
                   "clamsim-server: created %s with the instructor account '%s', password: %s\n"
                   "clamsim-server: this password is shown only this once; change it now:\n"
                   "  clamsim-accounts --file %s passwd %s\n",
                   plan.accounts_file.c_str(), auth::kFirstInstructor, password->c_str(),
                   plan.accounts_file.c_str(), auth::kFirstInstructor);
      std::fflush(stderr);
    }
  }
  log.write("instructor_access",
            {{"login", plan.accounts_file.empty() ? "not required (loopback only)" : "required"},
             {"accounts", plan.accounts_file}});
}

// The browser draws the world the sessions work in: the default world's client scene
// (an empty object without one).
web::WebOptions with_scene(const ServerOptions& o, const session::Catalog& catalog,
                           const base::EventLog& log) {
  web::WebOptions w = o.web;
  if (const auto world = catalog.world()) w.scene = world->client_scene;
  // checked now: a broken layout stops the start (model::ModelError), not a trainee's page
  if (!o.keyboard_file.empty())
    w.keyboard = model::to_json(model::load_keyboard_layout(o.keyboard_file));
  if (o.tls_self_signed) {
    // made once, reused on every start (web/self_signed.h); printed by ready_lines()
    const web::SelfSignedFiles files = web::ensure_self_signed(
        std::filesystem::path(o.state_dir) / "tls",
        web::self_signed_names(o.web.all_interfaces ? "0.0.0.0" : o.web.address,
                               o.web.allowed_hosts));
    w.tls_cert_file = files.cert_file;
    w.tls_key_file = files.key_file;
    log.write("tls", {{"message", std::string(files.created ? "created" : "using") +
                                      " the self-signed certificate " + files.cert_file},
                      {"sha256", files.fingerprint}});
  }
  plan_access(o, w, log);
  // the login cookie goes over https only when the page came over it
  w.access.secure_cookie = !w.tls_cert_file.empty();
  w.log = [&log](const std::string& line) {
    const std::string prefix = "web: ";  // the web layer's lines name their layer
    log.write("web", {{"message", line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : line}});
  };
  return w;
}

class WebTransport final : public Transport {
 public:
  WebTransport(const ServerOptions& o, session::SessionRegistry& registry,
               const session::Catalog& catalog, const base::EventLog& log)
      : server_(with_scene(o, catalog, log), registry, catalog) {}

  const char* name() const override { return "web"; }
  void start() override { server_.start(); }
  std::vector<std::string> ready_lines() const override {
    std::vector<std::string> lines;
    // the certificate browsers will show, so it can be checked on a classroom PC
    if (server_.tls())
      lines.push_back("tls: certificate " + server_.tls_cert_file() + ", SHA-256 " +
                      web::sha256_fingerprint(server_.tls_cert_file()));
    lines.push_back("ready " + server_.url());
    return lines;
  }
  std::string reload() override { return server_.reload_tls(); }
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
                                              const base::EventLog& log) {
  return std::make_unique<WebTransport>(options, registry, catalog, log);
}

}  // namespace clamsim::app
