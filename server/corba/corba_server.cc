#include "corba/corba_server.h"

#include <omniORB4/CORBA.h>
// after CORBA.h, which it needs
#include <omniORB4/BiDirPolicy.h>
#include <omniORB4/Naming.hh>
#include <omniORB4/omniORB.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "corba/admin_servant.h"
#include "corba/connection_guard.h"
#include "corba/listen_check.h"
#include "corba/object_key.h"
#include "corba/observation_servant.h"
#include "corba/observer_sender.h"
#include "corba/oneway_sink.h"
#include "corba/orb_setup.h"
#include "corba/session_host.h"
#include "corba/session_servant.h"

namespace clamsim::corba {

namespace {

constexpr const char* kAdminKey = "CraneClamAdmin";

Refusal::Kind refusal_kind(ClientProblem::Kind k) {
  switch (k) {
    case ClientProblem::Kind::Nil: return Refusal::Kind::NilClient;
    case ClientProblem::Kind::NotAClient: return Refusal::Kind::NotAClient;
    case ClientProblem::Kind::Unreachable: return Refusal::Kind::ClientUnreachable;
    case ClientProblem::Kind::None: break;
  }
  return Refusal::Kind::BadRequest;
}

}  // namespace

class CorbaServer::Impl final : public SessionHost {
 public:
  Impl(CorbaOptions options, session::SessionRegistry& registry, const session::Catalog& catalog)
      : options_(std::move(options)), registry_(registry), catalog_(catalog) {
    try {
      orb_ = init_orb(options_);
    } catch (const TlsConfigError& e) {
      throw CorbaConfigError(e.what());
    } catch (const CORBA::Exception& e) {
      throw CorbaError("cannot start the ORB: " + describe(e));
    }
  }

  void start();
  void stop_accepting();
  void shutdown();
  void unbind_naming();

  CLAMX::Session_ptr open_session(CLAM::CraneClamClient_ptr client,
                                  const SubscribeRequest& request) override;
  void close_session(std::uint64_t id) override;
  ServerFigures figures() const override;
  CLAMX::Observation_ptr observe(std::uint64_t session, CLAMX::FrameClient_ptr observer,
                                 const std::string& ticket, const std::string& caller) override;
  void stop_observation(std::uint64_t id) override;

  std::string corbaloc_;       // plain IIOP; "" when it is closed
  std::string tls_corbaloc_;   // IIOP over TLS; "" without TLS
  std::string published_;
  std::string naming_report_ = "naming service: not configured";

 private:
  // start()'s steps, in order
  CORBA::Object_ptr open_endpoint();
  void session_policies(PortableServer::POA_ptr root, CORBA::PolicyList& policies);
  CORBA::Object_ptr activate_admin(PortableServer::POA_ptr root, PortableServer::POA_ptr ins_poa,
                                   PortableServer::POAManager_ptr manager,
                                   const CORBA::PolicyList& policies);
  void publish_addresses(CORBA::Object_ptr ins_ref);

  void on_reaped(const session::Session& s);
  void deactivate(std::uint64_t id);
  void bind_naming();
  CLAMX::ObserverClient_ptr check_observer(CLAMX::FrameClient_ptr observer, bool* rich) const;
  void sweep_observations();   // forgets the watches that ended by themselves
  void stop_observations();    // every watch, at shutdown
  void deactivate_key(const std::string& key);   // mutex_ held

  const CorbaOptions options_;
  session::SessionRegistry& registry_;
  const session::Catalog& catalog_;

  CORBA::ORB_var orb_;
  PortableServer::POA_var sessions_poa_;
  CORBA::Object_var admin_ref_;
  CosNaming::NamingContextExt_var naming_;
  CosNaming::Name naming_name_;
  bool naming_bound_ = false;

  std::atomic<bool> accepting_{false};
  // Read by every sink on its session thread: true makes sends return at once.
  const std::shared_ptr<std::atomic<bool>> stopping_ = std::make_shared<std::atomic<bool>>(false);
  std::mutex mutex_;     // orders deactivations against shutdown; guards keys_
  bool shut_down_ = false;
  // session id -> its servant's object id (random, object_key.h); the only way from the
  // public number to the object, and it never leaves the server
  std::unordered_map<std::uint64_t, std::string> keys_;
  // native observers (observer_sender.h), by an internal number; guarded by mutex_
  struct Watch {
    std::string key;   // its Observation's object id
    std::shared_ptr<ObserverSender> sender;
  };
  std::unordered_map<std::uint64_t, Watch> watches_;
  std::uint64_t next_watch_ = 1;
};

// The root POA, whose first resolution opens the endpoint; a port that cannot be listened
// on is named in the error (omniORB's own lines only when ours cannot say what went wrong).
CORBA::Object_ptr CorbaServer::Impl::open_endpoint() {
  CORBA::Object_var obj;
  try {
    HeldOrbLog held;
    try {
      obj = orb_->resolve_initial_references("RootPOA");  // opens the endpoint
    } catch (const CORBA::INITIALIZE&) {
      const std::string problem = listen_problem(options_);
      if (problem.empty()) throw;
      held.discard();
      throw CorbaError(problem);
    }
  } catch (const CORBA::INITIALIZE& e) {
    throw CorbaError("cannot listen on " + orb_arguments(options_).front().second + ": " +
                     describe(e));
  }
  return obj._retn();
}

// Sessions: transient references with our own ids, so a reaped session's servant can be
// found from the session id alone. With --bidir yes also BiDirPolicy BOTH, like the admin's
// POA (activate_admin), so a session may be reached over a bidirectional connection.
void CorbaServer::Impl::session_policies(PortableServer::POA_ptr root,
                                         CORBA::PolicyList& policies) {
  policies.length(options_.bidir_on() ? 2 : 1);
  policies[0] = root->create_id_assignment_policy(PortableServer::USER_ID);
  if (options_.bidir_on()) {
    CORBA::Any both;
    both <<= BiDirPolicy::BOTH;
    policies[1] = orb_->create_policy(BiDirPolicy::BIDIRECTIONAL_POLICY_TYPE, both);
  }
}

// The admin servant under the plain object key "CraneClamAdmin" of omniINSPOA; returns the
// reference corbaloc reaches (the admin's own, or with --bidir its forwarder's).
CORBA::Object_ptr CorbaServer::Impl::activate_admin(PortableServer::POA_ptr root,
                                                    PortableServer::POA_ptr ins_poa,
                                                    PortableServer::POAManager_ptr manager,
                                                    const CORBA::PolicyList& policies) {
  PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId(kAdminKey);
  CORBA::Object_var ins_ref;
  auto* admin = new AdminServant(*this);
  if (options_.bidir_on()) {
    // omniORB ties the client reference a receiver passes to subscribe to the receiver's
    // bidirectional connection only when the admin's POA has BiDirPolicy BOTH, and
    // omniINSPOA's policies are fixed: the admin lives in "admin" (same policies as the
    // sessions) and the corbaloc object forwards every call to it.
    PortableServer::POA_var admin_poa = root->create_POA("admin", manager, policies);
    admin_poa->activate_object_with_id(oid, admin);
    admin->_remove_ref();  // the POA owns it now
    admin_ref_ = admin_poa->id_to_reference(oid);
    auto* forwarder = new AdminForwarder(admin_ref_);
    ins_poa->activate_object_with_id(oid, forwarder);
    forwarder->_remove_ref();
    ins_ref = ins_poa->id_to_reference(oid);
  } else {
    ins_poa->activate_object_with_id(oid, admin);
    admin->_remove_ref();  // the POA owns it now
    admin_ref_ = ins_poa->id_to_reference(oid);
    ins_ref = CORBA::Object::_duplicate(admin_ref_);
  }
  return ins_ref._retn();
}

// corbaloc_, tls_corbaloc_ and published_ from the addresses the ORB listens on (the ports
// it chose when they were 0); the connection guard learns the ports.
void CorbaServer::Impl::publish_addresses(CORBA::Object_ptr ins_ref) {
  const Address a = first_address(ins_ref);
  const Address tls = tls_address(ins_ref);
  const bool any = options_.host.empty() || options_.host == "0.0.0.0";
  const std::string host = uri_host(any ? a.host : options_.host);
  // the ones chosen when they were 0
  const int port = !options_.plain_on() ? -1 : options_.port > 0 ? options_.port
                                                                  : static_cast<int>(a.port);
  const int tls_port = options_.tls_on() ? static_cast<int>(tls.port) : -1;
  set_connection_guard_ports(port, tls_port);
  if (port >= 0) corbaloc_ = "corbaloc::" + host + ":" + std::to_string(port) + "/" + kAdminKey;
  if (tls_port >= 0)
    tls_corbaloc_ = "corbaloc:ssliop:" + host + ":" + std::to_string(tls_port) + "/" + kAdminKey;
  published_ = uri_host(a.host) + ":" + std::to_string(port >= 0 ? a.port : tls.port);
  if (tls_port >= 0) published_ += port >= 0 ? " (TLS on port " + std::to_string(tls_port) + ")"
                                             : " (TLS only)";
}

void CorbaServer::Impl::start() {
  CORBA::Object_var obj = open_endpoint();
  try {
    PortableServer::POA_var root = PortableServer::POA::_narrow(obj);
    PortableServer::POAManager_var manager = root->the_POAManager();
    CORBA::PolicyList policies;
    session_policies(root, policies);
    sessions_poa_ = root->create_POA("sessions", manager, policies);

    // The admin: omniINSPOA gives the plain object key "CraneClamAdmin", which is what
    // corbaloc::HOST:PORT/CraneClamAdmin asks for (thesis 4.3.4, without ORBacus's BootManager).
    obj = orb_->resolve_initial_references("omniINSPOA");
    PortableServer::POA_var ins_poa = PortableServer::POA::_narrow(obj);
    CORBA::Object_var ins_ref = activate_admin(root, ins_poa, manager, policies);
    for (CORBA::ULong i = 0; i < policies.length(); ++i) policies[i]->destroy();

    PortableServer::POAManager_var ins_manager = ins_poa->the_POAManager();
    ins_manager->activate();
    manager->activate();
    publish_addresses(ins_ref);
  } catch (const CORBA::Exception& e) {
    throw CorbaError("cannot activate the admin object: " + describe(e));
  }
  accepting_ = true;
  bind_naming();
}

void CorbaServer::Impl::bind_naming() {
  if (options_.naming_service.empty()) return;
  const std::string where = options_.naming_service;
  const auto timeout = static_cast<CORBA::ULong>(options_.setup_timeout_ms);
  try {
    CORBA::Object_var obj = orb_->string_to_object(where.c_str());
    omniORB::setClientCallTimeout(obj, timeout);
    naming_ = CosNaming::NamingContextExt::_narrow(obj);
    if (CORBA::is_nil(naming_)) {
      naming_report_ = "naming service: " + where + " is not a naming context; serving without it";
      return;
    }
    omniORB::setClientCallTimeout(naming_, timeout);
    CosNaming::Name_var name = naming_->to_name(options_.naming_name.c_str());
    naming_name_ = name.in();
    // create the intermediate contexts of a compound name ("clamsim/admin")
    for (CORBA::ULong n = 1; n < naming_name_.length(); ++n) {
      CosNaming::Name prefix;
      prefix.length(n);
      for (CORBA::ULong i = 0; i < n; ++i) prefix[i] = naming_name_[i];
      try {
        CosNaming::NamingContext_var ctx = naming_->bind_new_context(prefix);
      } catch (const CosNaming::NamingContext::AlreadyBound&) {
      }
    }
    naming_->rebind(naming_name_, admin_ref_);
    naming_bound_ = true;
    naming_report_ = "naming service: bound \"" + options_.naming_name + "\" in " + where;
  } catch (const CosNaming::NamingContext::InvalidName&) {
    naming_report_ = "naming service: \"" + options_.naming_name +
                     "\" is not a valid name; serving without it";
  } catch (const CORBA::Exception& e) {
    naming_report_ = "naming service: unavailable at " + where + " (" + describe(e) +
                     "); serving without it";
  }
}

void CorbaServer::Impl::unbind_naming() {
  if (!naming_bound_) return;
  naming_bound_ = false;
  try {
    naming_->unbind(naming_name_);
  } catch (const CORBA::Exception&) {
    // the naming service went away first; nothing to undo
  }
}

void CorbaServer::Impl::stop_accepting() {
  accepting_ = false;
  stopping_->store(true);
  unbind_naming();
}

void CorbaServer::Impl::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shut_down_) return;
    shut_down_ = true;
  }
  stop_accepting();
  stop_observations();
  try {
    naming_ = CosNaming::NamingContextExt::_nil();
    admin_ref_ = CORBA::Object::_nil();
    sessions_poa_ = PortableServer::POA::_nil();
    orb_->shutdown(true);  // destroys the POAs: every servant is deactivated and deleted
    orb_->destroy();
  } catch (const CORBA::Exception& e) {
    std::fprintf(stderr, "corba: shutdown: %s\n", describe(e).c_str());
  }
}

CLAMX::Session_ptr CorbaServer::Impl::open_session(CLAM::CraneClamClient_ptr client,
                                                   const SubscribeRequest& request) {
  if (!accepting_) throw Refusal{Refusal::Kind::ShuttingDown, "server is shutting down"};
  // what was asked for first: a bad request is refused without calling the receiver
  session::MachineSetup setup;
  std::string why;
  if (!catalog_.resolve(request.model, request.scenario, &setup, &why))
    throw Refusal{Refusal::Kind::BadRequest, why};

  // drawn before anything is started, so a failing random source refuses cleanly
  const std::string key = random_session_key();

  ClientProblem problem;
  const SinkTimeouts timeouts{static_cast<CORBA::ULong>(options_.call_timeout_ms),
                              static_cast<CORBA::ULong>(options_.setup_timeout_ms)};
  std::shared_ptr<OnewaySink> sink =
      OnewaySink::connect(client, timeouts, stopping_, setup.scenario, request.authenticated,
                          &problem);
  if (!sink) throw Refusal{refusal_kind(problem.kind), problem.reason};

  std::shared_ptr<session::Session> s = registry_.create(
      std::move(setup), sink, request.frame_period_s,
      [this](const std::shared_ptr<session::Session>& reaped) { on_reaped(*reaped); }, &why);
  if (!s) {
    Refusal::Kind kind = Refusal::Kind::BadRequest;
    if (registry_.closed() || !accepting_)
      kind = Refusal::Kind::ShuttingDown;
    else if (registry_.draining())
      kind = Refusal::Kind::Draining;
    else if (request.frame_period_s == 0.0 || registry_.size() >= registry_.capacity())
      kind = Refusal::Kind::ServerFull;
    throw Refusal{kind, why};
  }

  const std::uint64_t id = s->id();
  auto* servant = new SessionServant(s, *this);
  PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId(key.c_str());
  CORBA::Object_var ref;
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shut_down_) throw Refusal{Refusal::Kind::ShuttingDown, "server is shutting down"};
    sessions_poa_->activate_object_with_id(oid, servant);
    keys_.emplace(id, key);
    ref = sessions_poa_->id_to_reference(oid);
  } catch (...) {
    servant->_remove_ref();
    registry_.remove(id);
    throw;
  }
  servant->_remove_ref();  // the POA owns it now
  if (options_.tls_on()) {
    // who may see names is decided here, once per session (docs/security.md)
    std::printf("corba: session %llu subscribed over %s: trainee names %s\n",
                static_cast<unsigned long long>(id), request.caller.c_str(),
                request.authenticated ? "shown" : "hidden");
    std::fflush(stdout);
  }
  // reaped between create and activation (only if the receiver died at once): undo
  if (!registry_.find(id)) deactivate(id);
  return CLAMX::Session::_unchecked_narrow(ref);
}

void CorbaServer::Impl::close_session(std::uint64_t id) {
  registry_.remove(id);  // stops and joins the session thread (this is an ORB thread)
  deactivate(id);        // deleted once this unsubscribe call has returned
}

void CorbaServer::Impl::on_reaped(const session::Session& s) {
  // reaper thread: the session is already stopped and out of the registry
  const auto c = s.counters();
  std::printf("reaped session %llu: no successful send for longer than the grace period "
              "(frames_sent=%llu send_failures=%llu)\n",
              static_cast<unsigned long long>(s.id()),
              static_cast<unsigned long long>(c.frames_sent),
              static_cast<unsigned long long>(c.send_failures));
  std::fflush(stdout);
  deactivate(s.id());
}

void CorbaServer::Impl::deactivate(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (shut_down_) return;  // the ORB shutdown deactivates everything
  const auto found = keys_.find(id);
  if (found == keys_.end()) return;  // unsubscribe and the reaper raced; the other one did it
  const std::string key = found->second;
  keys_.erase(found);
  deactivate_key(key);
}

void CorbaServer::Impl::deactivate_key(const std::string& key) {
  try {
    PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId(key.c_str());
    sessions_poa_->deactivate_object(oid);
  } catch (const PortableServer::POA::ObjectNotActive&) {
    // two ends raced (unsubscribe and the reaper, stop and a sweep); the other one did it
  } catch (const CORBA::Exception& e) {
    std::fprintf(stderr, "corba: deactivate %s: %s\n", key.c_str(), describe(e).c_str());
  }
}

CLAMX::ObserverClient_ptr CorbaServer::Impl::check_observer(CLAMX::FrameClient_ptr observer,
                                                            bool* rich) const {
  if (CORBA::is_nil(observer))
    throw Refusal{Refusal::Kind::NilClient, "the observer reference is nil"};
  CLAMX::FrameClient_var checked = CLAMX::FrameClient::_duplicate(observer);
  try {
    omniORB::setClientCallTimeout(checked, static_cast<CORBA::ULong>(options_.setup_timeout_ms));
    // as for subscribers (oneway_sink.cc): the carried id first, else ask the object
    omniObjRef* ref = checked->_PR_getobj();
    const std::string carried = ref->_mostDerivedRepoId();
    *rich = carried == "IDL:CLAMX/ObserverClient:1.0" ||
            (carried != "IDL:CLAMX/FrameClient:1.0" &&
             ref->_remote_is_a("IDL:CLAMX/ObserverClient:1.0"));
  } catch (const CORBA::SystemException& e) {
    throw Refusal{Refusal::Kind::ClientUnreachable,
                  "the server cannot reach the observer reference: " + describe(e)};
  }
  omniORB::setClientCallTimeout(checked, static_cast<CORBA::ULong>(options_.call_timeout_ms));
  return CLAMX::ObserverClient::_unchecked_narrow(checked);
}

CLAMX::Observation_ptr CorbaServer::Impl::observe(std::uint64_t session,
                                                  CLAMX::FrameClient_ptr observer,
                                                  const std::string& ticket,
                                                  const std::string& caller) {
  if (!accepting_) throw Refusal{Refusal::Kind::ShuttingDown, "server is shutting down"};
  if (!options_.observe_tickets)
    throw Refusal{Refusal::Kind::BadRequest,
                  "this server issues no observer tickets (it runs without its web front end)"};
  // the ticket first: without one, nothing is learnt about the sessions
  std::string why;
  const auto redeemed = options_.observe_tickets->redeem(ticket, session, &why);
  if (!redeemed) throw Refusal{Refusal::Kind::BadRequest, why};
  std::shared_ptr<session::Session> watched = registry_.find(session);
  if (!watched)
    throw Refusal{Refusal::Kind::BadRequest, "no live session " + std::to_string(session) +
                                                 " (it ended or never started)"};
  bool rich = false;
  CLAMX::ObserverClient_var client = check_observer(observer, &rich);
  sweep_observations();
  std::shared_ptr<ObserverSender> sender = ObserverSender::start(
      watched, client, rich, static_cast<CORBA::ULong>(options_.call_timeout_ms), stopping_);
  if (!sender)
    throw Refusal{Refusal::Kind::BadRequest, "session " + std::to_string(session) + " has ended"};
  const std::string key = random_session_key();
  CORBA::Object_var ref;
  std::uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shut_down_) throw Refusal{Refusal::Kind::ShuttingDown, "server is shutting down"};
    id = next_watch_++;
    auto* servant = new ObservationServant(id, *this);
    PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId(key.c_str());
    sessions_poa_->activate_object_with_id(oid, servant);
    servant->_remove_ref();  // the POA owns it now
    watches_.emplace(id, Watch{key, sender});
    ref = sessions_poa_->id_to_reference(oid);
  }
  std::printf("corba: %s observes session %llu (%s, %s)\n", redeemed->instructor.c_str(),
              static_cast<unsigned long long>(session), caller.c_str(),
              rich ? "ObserverClient" : "FrameClient");
  std::fflush(stdout);
  return CLAMX::Observation::_unchecked_narrow(ref);
}

void CorbaServer::Impl::stop_observation(std::uint64_t id) {
  std::shared_ptr<ObserverSender> sender;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = watches_.find(id);
    if (found == watches_.end()) return;
    sender = found->second.sender;
    if (!shut_down_) deactivate_key(found->second.key);
    watches_.erase(found);
  }
  sender->stop();  // joins the sender's thread, outside the lock
}

void CorbaServer::Impl::sweep_observations() {
  std::vector<std::shared_ptr<ObserverSender>> ended;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = watches_.begin(); it != watches_.end();) {
      if (!it->second.sender->ended()) {
        ++it;
        continue;
      }
      if (!shut_down_) deactivate_key(it->second.key);
      ended.push_back(it->second.sender);
      it = watches_.erase(it);
    }
  }
  for (const auto& s : ended) s->stop();  // their threads have finished: a join
}

void CorbaServer::Impl::stop_observations() {
  std::vector<std::shared_ptr<ObserverSender>> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [id, w] : watches_) all.push_back(w.sender);
    watches_.clear();
  }
  for (const auto& s : all) s->stop();
}

ServerFigures CorbaServer::Impl::figures() const {
  ServerFigures f;
  f.sessions = registry_.size();
  f.capacity = registry_.capacity();
  f.version = options_.version;
  f.totals = registry_.totals();
  f.sessions_reaped = registry_.sessions_reaped();
  return f;
}

CorbaServer::CorbaServer(CorbaOptions options, session::SessionRegistry& registry,
                         const session::Catalog& catalog)
    : impl_(std::make_unique<Impl>(std::move(options), registry, catalog)) {}

CorbaServer::~CorbaServer() { impl_->shutdown(); }

void CorbaServer::start() { impl_->start(); }
std::string CorbaServer::corbaloc() const { return impl_->corbaloc_; }
std::string CorbaServer::tls_corbaloc() const { return impl_->tls_corbaloc_; }
std::string CorbaServer::published() const { return impl_->published_; }
std::string CorbaServer::naming_report() const { return impl_->naming_report_; }
void CorbaServer::stop_accepting() { impl_->stop_accepting(); }
void CorbaServer::withdraw_from_naming() { impl_->unbind_naming(); }
void CorbaServer::shutdown() { impl_->shutdown(); }

}  // namespace clamsim::corba
