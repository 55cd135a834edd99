#include "tools/client/client_orb.h"

#include <omniORB4/BiDirPolicy.h>

#include <algorithm>
#include <cctype>

#include "corba/tls_context.h"
#include "tools/client/corba_errors.h"

namespace clamsim::client {
namespace {

bool starts_with_nocase(const std::string& s, const std::string& prefix) {
  if (s.size() < prefix.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), s.begin(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
}

std::string endpoint_of(const std::string& listen) {
  // "HOST" or "HOST:PORT"; a bare host takes any free port
  if (listen.find(':') == std::string::npos) return "giop:tcp:" + listen + ":";
  return "giop:tcp:" + listen;
}

}  // namespace

std::string with_giop_1_2(const std::string& reference) {
  if (!starts_with_nocase(reference, "corbaloc:")) return reference;
  // corbaloc:[iiop]:[version@]host[:port][,[iiop]:...]/key; only iiop addresses get a version
  const std::size_t slash = reference.find('/');
  const std::string addresses =
      reference.substr(9, slash == std::string::npos ? std::string::npos : slash - 9);
  const std::string key = slash == std::string::npos ? "" : reference.substr(slash);
  std::string out = reference.substr(0, 9);
  std::size_t start = 0;
  while (start <= addresses.size()) {
    const std::size_t comma = addresses.find(',', start);
    std::string a =
        addresses.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t colon = a.find(':');
    const std::string protocol = colon == std::string::npos ? "" : a.substr(0, colon);
    if (colon != std::string::npos &&
        (protocol.empty() || protocol == "iiop" || protocol == "ssliop") &&
        a.find('@') == std::string::npos) {
      a.insert(colon + 1, "1.2@");
    }
    if (start != 0) out += ',';
    out += a;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out + key;
}

std::string tls_host(const std::string& reference) {
  if (!starts_with_nocase(reference, "corbaloc:")) return "";
  const std::size_t at = reference.find("ssliop:");
  if (at == std::string::npos) return "";
  std::string address = reference.substr(at + 7);
  address = address.substr(0, address.find_first_of(",/"));
  if (const std::size_t v = address.find('@'); v != std::string::npos) address.erase(0, v + 1);
  if (!address.empty() && address.front() == '[') return address.substr(1, address.find(']') - 1);
  return address.substr(0, address.find(':'));
}

ClientOrb::ClientOrb(const OrbSettings& settings)
    : bidir_(settings.bidir || !settings.tls_ca.empty()) {
  if (!settings.tls_ca.empty()) {
    corba::TlsSetup tls;
    tls.ca = settings.tls_ca;
    tls.cert = settings.tls_cert;
    tls.key = settings.tls_key;
    tls.ca_flag = "--tls-ca";
    tls.cert_flag = "--tls-cert";
    tls.key_flag = "--tls-key";
    tls.expected_host = tls_host(settings.server);
    const std::string problem = corba::check_tls_files(tls);
    if (!problem.empty()) throw ClientFileError(problem);
    corba::install_tls_context(tls);
    note_tls_in_use();
  } else {
    corba::install_tls_off();
  }
  const std::string call_timeout = std::to_string(settings.call_timeout_ms);
  const std::string connect_timeout = std::to_string(settings.connect_timeout_ms);
  const std::string endpoint = endpoint_of(settings.listen);
  std::vector<std::pair<const char*, const char*>> options = {
      {"clientCallTimeOutPeriod", call_timeout.c_str()},
      {"clientConnectTimeOutPeriod", connect_timeout.c_str()},
  };
  if (!settings.listen.empty()) options.emplace_back("endPoint", endpoint.c_str());
  if (!settings.tls_ca.empty()) {
    // TLS only, never plain IIOP; the server's frames come back over our connection
    options.emplace_back("offerBiDirectionalGIOP", "1");
    options.emplace_back("clientTransportRule", "* ssl,bidir");
  } else if (settings.bidir) {
    // GIOP 1.2 is omniORB's default; bidir needs it. The rule lets every server address
    // use a bidirectional connection.
    options.emplace_back("offerBiDirectionalGIOP", "1");
    options.emplace_back("clientTransportRule", "* unix,ssl,tcp,bidir");
  }
  const char* flat[8][2] = {};  // omniORB's const char* options[][2], null-terminated
  std::size_t n = 0;
  for (const auto& [k, v] : options) {
    flat[n][0] = k;
    flat[n][1] = v;
    ++n;
  }

  std::vector<std::string> argv_text = {"clamsim-client"};
  argv_text.insert(argv_text.end(), settings.orb_args.begin(), settings.orb_args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(argv_text.size());

  try {
    orb_ = CORBA::ORB_init(argc, argv.data(), "omniORB4", flat);
    if (argc > 1) throw ClientError(std::string("unknown ORB option '") + argv[1] + "'");

    CORBA::Object_var obj = orb_->resolve_initial_references("RootPOA");
    PortableServer::POA_var root = PortableServer::POA::_narrow(obj);
    PortableServer::POAManager_var manager = root->the_POAManager();
    CORBA::PolicyList policies;
    if (bidir_) {
      // omniORB refuses callbacks arriving over a bidirectional connection unless the
      // target's POA has this policy (OBJ_ADAPTER_BiDirNotAllowed)
      CORBA::Any value;
      value <<= BiDirPolicy::BOTH;
      policies.length(1);
      policies[0] = orb_->create_policy(BiDirPolicy::BIDIRECTIONAL_POLICY_TYPE, value);
    }
    poa_ = root->create_POA("receivers", manager, policies);
    manager->activate();
  } catch (const CORBA::Exception& e) {
    if (!CORBA::is_nil(orb_)) {
      try {
        orb_->destroy();
      } catch (...) {
      }
    }
    throw ClientError("cannot start the ORB: " + describe(e));
  }
}

ClientOrb::~ClientOrb() {
  try {
    orb_->destroy();
  } catch (...) {
    // nothing useful to do at exit
  }
}

CORBA::Object_ptr ClientOrb::resolve(const std::string& reference) {
  if (!starts_with_nocase(reference, "corbaloc:") && !starts_with_nocase(reference, "corbaname:") &&
      !starts_with_nocase(reference, "IOR:")) {
    throw ClientError("'" + reference +
                      "' is not an object reference (expected corbaloc:, corbaname: or IOR:)");
  }
  try {
    // a corbaloc without a version means GIOP 1.0, and omniORB only does bidirectional
    // GIOP over 1.2 connections
    const std::string ref = bidir_ ? with_giop_1_2(reference) : reference;
    CORBA::Object_var obj = orb_->string_to_object(ref.c_str());
    if (CORBA::is_nil(obj)) throw ClientError("'" + reference + "' is a nil reference");
    return obj._retn();
  } catch (const CORBA::Exception& e) {
    std::string msg = "cannot resolve '" + reference + "': " + describe(e);
    const std::string h = hint(e);
    if (!h.empty()) msg += "; " + h;
    throw ClientError(msg);
  }
}

CORBA::Object_ptr ClientOrb::activate(PortableServer::ServantBase* servant,
                                      PortableServer::ObjectId_out id) {
  PortableServer::ObjectId_var oid = poa_->activate_object(servant);
  servant->_remove_ref();  // the POA holds the only reference now
  CORBA::Object_ptr ref = poa_->id_to_reference(oid.in());
  id = oid._retn();
  return ref;
}

void ClientOrb::deactivate(const PortableServer::ObjectId& id) {
  try {
    poa_->deactivate_object(id);
  } catch (const CORBA::Exception&) {
    // already gone
  }
}

}  // namespace clamsim::client
