// No heap allocation per frame on the send path (docs/architecture.md, "No heap
// allocation per frame"): frames of a real session in
// the dam world (loads resting, gripped and carried; contacts) encoded again and again
// through the WebSocket sink's encoder and buffers (a send queue holding the last few, as
// a browser reading a little behind does) and through the CORBA sink's conversion into its
// reused IDL frame. Counted by replacing the global operator new for this binary; only the
// test thread's allocations inside the measured loop count.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <array>
#include <future>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <string>
#include <vector>

#include "corba/convert.h"
#include "model/machine_file.h"
#include "model/scenario_file.h"
#include "session/clock.h"
#include "session/session.h"
#include "web/frame_buffers.h"
#include "web/frame_json.h"
#include "web/shared_state.h"
#include "web/websocket_session.h"

namespace net = boost::asio;

namespace {

thread_local bool counting = false;
std::atomic<long> allocations{0};

void* allocate(std::size_t n) {
  if (counting) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace clamsim {
namespace {

const std::string kSource = CLAMSIM_SOURCE_DIR;

// Keeps every frame the session hands it.
class KeepingSink : public session::FrameSink {
 public:
  bool deliver(const session::Frame& f) override {
    std::lock_guard<std::mutex> lock(mutex_);
    frames_.push_back(f);
    return true;
  }
  std::vector<session::Frame> frames() {
    std::lock_guard<std::mutex> lock(mutex_);
    return frames_;
  }
  std::size_t count() {
    std::lock_guard<std::mutex> lock(mutex_);
    return frames_.size();
  }

 private:
  std::mutex mutex_;
  std::vector<session::Frame> frames_;
};

// `n` frames of the shipped machine in the dam world: a while at rest, then swinging,
// lowering and closing the clam, so loads are touched and contacts come and go.
std::vector<session::Frame> dam_frames(std::size_t n) {
  session::MachineSetup m;
  m.name = "t250";
  m.params = std::make_shared<const core::MachineParams>(
      model::load_machine_file(kSource + "/models/t250.json"));
  model::Scenario s =
      model::load_scenario_file(kSource + "/config/scenarios/dam_intake.json", *m.params);
  m.initial = s.start;
  m.scenario = std::make_shared<const model::Scenario>(std::move(s));
  m.world_name = "dam_intake";
  auto sink = std::make_shared<KeepingSink>();
  session::ManualClock clock;
  session::SessionOptions o;
  o.report_dir = "";
  session::Session session(1, m, sink, o, clock);
  session.start();
  const double volts[4][5] = {{0, 0, 0, 0, 0}, {2, -1, 1, 3, 3}, {-2, 1, 0, 2, -3}, {0, 0, 0, -2, 2}};
  for (std::size_t phase = 0; phase < 4; ++phase) {
    session.submit_control(volts[phase], 5);
    const std::size_t until = n * (phase + 1) / 4;
    for (int i = 0; i < 200000 && sink->count() < until; ++i)
      std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  session.stop();
  std::vector<session::Frame> frames = sink->frames();
  frames.resize(std::min(frames.size(), n));
  return frames;
}

// Allocations by this thread while f runs.
template <class F>
long allocations_in(F&& f) {
  allocations = 0;
  counting = true;
  f();
  counting = false;
  return allocations.load();
}

class SendPath : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { frames_ = new std::vector<session::Frame>(dam_frames(400)); }
  static void TearDownTestSuite() { delete frames_; }
  static std::vector<session::Frame>* frames_;
};
std::vector<session::Frame>* SendPath::frames_ = nullptr;

TEST_F(SendPath, FramesCoverLoadsAndContacts) {
  ASSERT_EQ(frames_->size(), 400u);
  bool loads = false, contacts = false;
  for (const session::Frame& f : *frames_) {
    loads = loads || f.outputs.load_count > 0;
    contacts = contacts || f.outputs.contact_count > 0;
  }
  EXPECT_TRUE(loads);
  EXPECT_TRUE(contacts);
}

// The WebSocket sink's work on the session thread: take a buffer, encode into it, hand it
// on. The send queue (8 by default) holds the last few texts as a browser reading behind
// does; texts it lets go of go back to the pool.
TEST_F(SendPath, WebSocketEncodingAllocatesNothingOnceWarm) {
  const auto ids = nlohmann::ordered_json::array({"log_1", "log_2", "branch", 4});
  const web::DisplayEncoder encoder(ids);
  web::FrameBuffers buffers(8 + 4);
  // the last 8 texts, oldest overwritten (a ring: the test's own queue allocates nothing)
  std::array<std::shared_ptr<const std::string>, 8> queue;
  std::size_t next = 0, bytes = 0;
  auto send_all = [&] {
    for (const session::Frame& f : *frames_) {
      std::shared_ptr<std::string> b = buffers.take();
      encoder.encode(f, *b);
      buffers.written(*b);
      bytes += b->size();
      queue[next] = std::move(b);
      next = (next + 1) % queue.size();
    }
  };
  send_all();  // warm-up: the buffers grow to the largest frame
  send_all();
  bytes = 0;
  EXPECT_EQ(allocations_in(send_all), 0);
  EXPECT_GT(bytes, frames_->size() * 500);   // real frames were written
  EXPECT_LE(buffers.size(), 12u);
  // and they are the frames display_json gives
  EXPECT_EQ(*queue[(next + queue.size() - 1) % queue.size()],
            web::display_json(frames_->back(), ids));
}

// The CORBA sink's conversion into the IDL frame it keeps (oneway_sink.h): the sequences
// of loads and contact markers keep their storage while they hold something. omniORB frees
// a sequence's buffer when its length is set to 0, so a list that empties and fills again
// takes one allocation then: the bound is how often that happens in these frames.
TEST_F(SendPath, CorbaConversionAllocatesOnlyWhenAListRefills) {
  CLAMX::Frame idl;
  auto convert_all = [&] {
    for (const session::Frame& f : *frames_) corba::to_frame(f, idl, nullptr);
  };
  long refills = 0;
  const std::size_t n = frames_->size();
  for (std::size_t i = 0; i < n; ++i) {  // the pass is repeated: frame 0 follows the last
    const core::Outputs& before = (*frames_)[(i + n - 1) % n].outputs;
    const core::Outputs& now = (*frames_)[i].outputs;
    refills += (before.contact_count == 0 && now.contact_count > 0) ? 1 : 0;
    refills += (before.load_count == 0 && now.load_count > 0) ? 1 : 0;
  }
  convert_all();
  const long allocations = allocations_in(convert_all);
  EXPECT_LE(allocations, refills) << "in " << n << " frames";
  EXPECT_LT(allocations, static_cast<long>(n) / 100);
}

// The whole of WebSocketSink::deliver on the session thread, through a real SharedState and
// a real strand made as the listener makes it, run by an I/O thread (the connection itself
// gone, so the strand's side only lets go of the text): the buffer, the encoding and
// asio's post (its operations in the sink's PostMemory slots) take nothing from the heap.
TEST_F(SendPath, WebSocketDeliverAllocatesNothingOnceWarm) {
  net::io_context ioc;
  auto work = net::make_work_guard(ioc);
  std::thread io([&] { ioc.run(); });
  session::ManualClock clock;
  {
    session::SessionRegistry registry(session::RegistryOptions{}, clock);
    const session::Catalog catalog(kSource + "/models", kSource + "/config/scenarios", "t250");
    web::WebOptions wo;
    wo.web_root = kSource + "/web";
    auto state = std::make_shared<web::SharedState>(wo, registry, catalog,
                                                    nlohmann::ordered_json::object());
    auto strand = net::make_strand(ioc);
    web::WebSocketSink sink(state, strand, {}, 2.0, 0, 8, nlohmann::ordered_json::array(),
                            "test", "127.0.0.1");
    // frames come 50 ms apart, and the strand has long sent one when the next comes: wait
    // (not counted) for the strand to have run everything posted so far
    auto strand_done = [&] {
      counting = false;
      std::promise<void> done;
      net::post(strand, [&done] { done.set_value(); });
      done.get_future().wait();
    };
    auto deliver_all = [&] {
      const bool counted = counting;
      for (const session::Frame& f : *frames_) {
        ASSERT_TRUE(sink.deliver(f));
        strand_done();
        counting = counted;
      }
    };
    deliver_all();  // warm-up: buffers grow
    deliver_all();
    const long n = allocations_in(deliver_all);
    EXPECT_EQ(n, 0) << static_cast<double>(n) / static_cast<double>(frames_->size())
                    << " allocations per frame";
    state->stop_posts();
  }
  work.reset();
  io.join();
}

// Encoding without the pool, as the send path once did: a new string per frame at least.
TEST_F(SendPath, CountingSeesAllocations) {
  long n = allocations_in([&] {
    for (const session::Frame& f : *frames_) (void)web::display_json(f);
  });
  EXPECT_GE(n, static_cast<long>(frames_->size()));
}

}  // namespace
}  // namespace clamsim
