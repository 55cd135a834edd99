// A minimal receiver process for the CORBA tests (not the real receiver tool). Built twice:
// clamsim-test-receiver implements CLAMX::FrameClient and subscribes with subscribeWith;
// clamsim-test-legacy-receiver (CLAMSIM_LEGACY_ONLY) is compiled against clam.idl alone,
// exactly like a 2001 receiver, and uses CraneClamAdmin::subscribe.
//
//   receiver CORBALOC [--frames N] [--rate HZ] [--sessions N]
// Subscribes --sessions times (default 1; one servant each) and prints "subscribed", then
// with --frames waits for N frames in all, prints
// "received N <frames|displays> ..." , unsubscribes, prints "unsubscribed" and exits 0.
// Without --frames it serves until killed.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#ifdef CLAMSIM_LEGACY_ONLY
#include <clam.hh>
#else
#include <clamx.hh>
#endif

namespace {

std::mutex mutex;
std::condition_variable cv;
unsigned long received = 0;
float last_display[8] = {};

void count(const float* display) {
  std::lock_guard<std::mutex> lock(mutex);
  ++received;
  for (int i = 0; i < 8; ++i) last_display[i] = display[i];
  cv.notify_all();
}

#ifdef CLAMSIM_LEGACY_ONLY
class Receiver final : public POA_CLAM::CraneClamClient {
 public:
  void getDisplayData(const CLAM::DisplayData d) override { count(d); }
};
constexpr const char* kWhat = "displays";
#else
class Receiver final : public POA_CLAMX::FrameClient {
 public:
  void getDisplayData(const CLAM::DisplayData d) override { count(d); }
  void getFrame(const CLAMX::Frame& f) override { count(f.display); }
};
constexpr const char* kWhat = "frames";
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORBALOC [--frames N] [--rate HZ]\n", argv[0]);
    return 2;
  }
  const std::string corbaloc = argv[1];
  unsigned long frames = 0;
  unsigned long sessions = 1;
  float rate_hz = 0.0f;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--frames") frames = std::strtoul(argv[i + 1], nullptr, 10);
    if (flag == "--rate") rate_hz = std::strtof(argv[i + 1], nullptr);
    if (flag == "--sessions") sessions = std::strtoul(argv[i + 1], nullptr, 10);
  }
  const char* options[][2] = {{"endPoint", "giop:tcp:127.0.0.1:"},
                              {"clientCallTimeOutPeriod", "5000"},
                              {nullptr, nullptr}};
  int orb_argc = 0;
  char* orb_argv[] = {nullptr};
  CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, orb_argv, "omniORB4", options);
  try {
    CORBA::Object_var obj = orb->resolve_initial_references("RootPOA");
    PortableServer::POA_var poa = PortableServer::POA::_narrow(obj);
    PortableServer::POAManager_var manager = poa->the_POAManager();
    manager->activate();
    CORBA::Object_var admin_obj = orb->string_to_object(corbaloc.c_str());
#ifdef CLAMSIM_LEGACY_ONLY
    (void)rate_hz;
    CLAM::CraneClamAdmin_var admin = CLAM::CraneClamAdmin::_narrow(admin_obj);
    std::vector<CLAM::CraneClam_var> subscribed;
#else
    CLAMX::Admin_var admin = CLAMX::Admin::_narrow(admin_obj);
    CLAMX::SubscribeOptions o;
    o.frame_rate_hz = rate_hz;
    o.model = CORBA::string_dup("");
    o.scenario = CORBA::string_dup("");
    std::vector<CLAMX::Session_var> subscribed;
#endif
    for (unsigned long n = 0; n < sessions; ++n) {
      auto* servant = new Receiver;
      PortableServer::ObjectId_var id = poa->activate_object(servant);
      servant->_remove_ref();
      obj = poa->id_to_reference(id);
      CLAM::CraneClamClient_var me = CLAM::CraneClamClient::_narrow(obj);
#ifdef CLAMSIM_LEGACY_ONLY
      subscribed.emplace_back(admin->subscribe(me));
#else
      subscribed.emplace_back(admin->subscribeWith(me, o));
#endif
    }
    std::printf("subscribed\n");
    std::fflush(stdout);
    if (frames == 0) {
      orb->run();  // until killed
      return 0;
    }
    {
      std::unique_lock<std::mutex> lock(mutex);
      if (!cv.wait_for(lock, std::chrono::seconds(20), [&] { return received >= frames; })) {
        std::printf("timed out after %lu %s\n", received, kWhat);
        return 1;
      }
      std::printf("received %lu %s, last display", received, kWhat);
      for (float v : last_display) std::printf(" %g", static_cast<double>(v));
      std::printf("\n");
    }
    for (auto& session : subscribed) session->unsubscribe();
    std::printf("unsubscribed\n");
    std::fflush(stdout);
    orb->destroy();
    return 0;
  } catch (const CORBA::Exception& e) {
    std::printf("CORBA exception %s\n", e._name());
    return 1;
  }
}
