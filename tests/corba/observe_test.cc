// Native observers (docs/corba.md "Observers"): an instructor's receiver
// watches a trainee's CORBA session with a ticket from the web front end. The real server,
// the real web front end for the ticket, receivers in this process.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../web/test_client.h"
#include "test_support.h"

namespace clamsim::corba::test {
namespace {

// One HTTP/1.1 request to 127.0.0.1:port; the reply's body, status in *status (0: none).
std::string http_call(int port, const std::string& method, const std::string& path,
                      const std::string& extra_headers, int* status) {
  const int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  timeval limit{5, 0};
  setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  std::string reply;
  const std::string host = "127.0.0.1:" + std::to_string(port);
  if (connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    const std::string body = method == "POST" ? "{}" : "";
    const std::string request = method + " " + path + " HTTP/1.1\r\nHost: " + host +
                                "\r\nConnection: close\r\nContent-Length: " +
                                std::to_string(body.size()) + "\r\n" + extra_headers + "\r\n" +
                                body;
    if (send(s, request.data(), request.size(), MSG_NOSIGNAL) ==
        static_cast<ssize_t>(request.size())) {
      char buf[4096];
      for (ssize_t n; (n = recv(s, buf, sizeof buf, 0)) > 0;) reply.append(buf, n);
    }
  }
  close(s);
  *status = reply.rfind("HTTP/1.1 ", 0) == 0 ? std::stoi(reply.substr(9, 3)) : 0;
  const std::size_t at = reply.find("\r\n\r\n");
  return at == std::string::npos ? std::string() : reply.substr(at + 4);
}

// What this server's own instructor page sends with a POST.
std::string same_origin(int port) {
  return "Origin: http://127.0.0.1:" + std::to_string(port) +
         "\r\nContent-Type: application/json\r\n";
}

// The server's web port, from its ready line.
int web_port(ServerProcess& server) {
  const std::string line = server.process().wait_for_line("ready http://", Ms(5000));
  return line.empty() ? 0 : std::stoi(line.substr(line.rfind(':') + 1));
}

// POST /api/sessions/ID/observe-ticket; the ticket, "" when refused (*status says why).
std::string ticket_for(int port, std::uint64_t session, int* status) {
  const std::string body = http_call(port, "POST",
                                     "/api/sessions/" + std::to_string(session) + "/observe-ticket",
                                     same_origin(port), status);
  const auto j = nlohmann::json::parse(body, nullptr, false);
  return *status == 200 && j.is_object() && j.contains("ticket") ? j["ticket"].get<std::string>()
                                                                 : std::string();
}

// The live session's number as /api/sessions lists it (the only one).
std::uint64_t only_session(int port) {
  int status = 0;
  const auto j = nlohmann::json::parse(http_call(port, "GET", "/api/sessions", "", &status),
                                       nullptr, false);
  if (status != 200 || !j.is_object() || !j.contains("sessions") || j["sessions"].size() != 1)
    return 0;
  return j["sessions"][0]["id"].get<std::uint64_t>();
}

// An instructor's receiver: CLAMX::ObserverClient, recording what it is shown.
class ObserverRecorder final : public POA_CLAMX::ObserverClient {
 public:
  void getObserved(const CLAMX::ObservedFrame& f) override {
    std::lock_guard<std::mutex> lock(mutex_);
    seqs_.push_back(f.data.seq);
    volts_ = {f.volts[0], f.volts[1], f.volts[2], f.volts[3], f.volts[4]};
    for (CORBA::ULong i = 0; i < f.events.length(); ++i) events_.emplace_back(f.events[i].in());
    cv_.notify_all();
  }
  void observationEnded(const char* reason) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = reason;
    cv_.notify_all();
  }
  void getFrame(const CLAMX::Frame&) override { plain_frames_.fetch_add(1); }
  void getDisplayData(const CLAM::DisplayData) override { plain_frames_.fetch_add(1); }

  bool wait(const std::function<bool()>& pred, Ms timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, timeout, pred);
  }
  std::vector<std::uint64_t> seqs() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return seqs_;
  }
  std::array<float, 5> volts() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return volts_;
  }
  bool saw(const std::string& event) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::find(events_.begin(), events_.end(), event) != events_.end();
  }
  std::string ended() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return ended_;
  }
  std::size_t plain_frames() const { return plain_frames_.load(); }

  // guarded by mutex_, for wait() predicates
  mutable std::mutex mutex_;
  std::vector<std::uint64_t> seqs_;
  std::array<float, 5> volts_{};
  std::vector<std::string> events_;
  std::string ended_;

 private:
  std::condition_variable cv_;
  std::atomic<std::size_t> plain_frames_{0};
};

CLAMX::FrameClient_ptr as_frame_client(CLAM::CraneClamClient_ptr c) {
  CLAM::CraneClamClient_var owned = c;
  return CLAMX::FrameClient::_narrow(owned.in());
}

// observe() with the server's refusal as text ("" when accepted; *out gets the watch).
std::string try_observe(CLAMX::Admin_ptr admin, std::uint64_t session, CLAMX::FrameClient_ptr who,
                        const std::string& ticket, CLAMX::Observation_var* out = nullptr) {
  try {
    CLAMX::Observation_var o = admin->observe(session, who, ticket.c_str());
    if (out != nullptr) *out = o._retn();
    return "";
  } catch (const CLAMX::Refused& r) {
    return std::string(r.reason.in());
  }
}

// A server with one trainee's CORBA session running: where every test here starts.
struct OneTrainee {
  ServerProcess server;
  int port = 0;
  CLAMX::Admin_var admin;
  Activated<FrameRecorder> trainee;
  CLAMX::Session_var session;
  std::uint64_t id = 0;

  OneTrainee() {
    if (!server.ready() || (port = web_port(server)) == 0) return;
    admin = server.admin();
    session = admin->subscribeWith(trainee.client(), default_options());
    if (trainee->wait_frames(2, Ms(10000))) id = only_session(port);
  }
  bool ready() const { return id != 0; }
};

TEST(CorbaObserve, AnInstructorsReceiverSeesTheTraineesFramesVoltsAndEvents) {
  OneTrainee t;
  ASSERT_TRUE(t.ready()) << t.server.process().output();
  const int port = t.port;
  const std::uint64_t id = t.id;
  CLAMX::Admin_var& admin = t.admin;
  Activated<FrameRecorder>& trainee = t.trainee;
  CLAMX::Session_var& session = t.session;

  int status = 0;
  const std::string ticket = ticket_for(port, id, &status);
  ASSERT_EQ(status, 200);
  ASSERT_EQ(ticket.size(), 64u);
  Activated<ObserverRecorder> instructor;
  CLAMX::FrameClient_var me = as_frame_client(instructor.client());
  CLAMX::Observation_var watch;
  ASSERT_EQ(try_observe(admin, id, me, ticket, &watch), "");
  EXPECT_EQ(try_observe(admin, id, me, ticket).rfind("unknown ticket", 0), 0u)
      << "a ticket is used once";

  // the trainee's inputs reach the observer with the frames they drove
  const CLAM::ControlSignal volts = {0.0f, 2.5f, 0.0f, -1.0f, 0.0f};
  ASSERT_TRUE(instructor->wait(
      [&] {
        session->GetControlInput(volts);
        return instructor->volts_[1] == 2.5f && instructor->volts_[3] == -1.0f;
      },
      Ms(10000)));
  // the same numbered frames as the trainee's, in order (a control is in the next frame, so
  // the first observed frame may already carry it: wait for a second)
  ASSERT_TRUE(instructor->wait([&] { return instructor->seqs_.size() >= 2; }, Ms(10000)));
  const auto seqs = instructor->seqs();
  ASSERT_GE(seqs.size(), 2u);
  for (std::size_t i = 1; i < seqs.size(); ++i) ASSERT_GT(seqs[i], seqs[i - 1]);
  EXPECT_LE(seqs.back(), trainee->summary().last_seq);
  EXPECT_EQ(instructor->plain_frames(), 0u) << "an ObserverClient gets getObserved";

  // a restart shows as an event
  session->restartTask();
  EXPECT_TRUE(instructor->wait([&] {
    return std::find(instructor->events_.begin(), instructor->events_.end(), "restart") !=
           instructor->events_.end();
  }, Ms(10000)));

  // the trainee leaving ends the watch, with the reason
  session->unsubscribe();
  EXPECT_TRUE(instructor->wait([&] { return !instructor->ended_.empty(); }, Ms(10000)));
  EXPECT_NE(instructor->ended().find("ended"), std::string::npos) << instructor->ended();
  watch->stop();   // after the end: harmless
}

TEST(CorbaObserve, BadTicketsAreRefusedSayingWhyAndTellNothingAboutSessions) {
  OneTrainee t;
  ASSERT_TRUE(t.ready()) << t.server.process().output();
  const int port = t.port;
  const std::uint64_t id = t.id;
  CLAMX::Admin_var& admin = t.admin;
  Activated<FrameRecorder>& trainee = t.trainee;
  CLAMX::Session_var& session = t.session;
  Activated<ObserverRecorder> instructor;
  CLAMX::FrameClient_var me = as_frame_client(instructor.client());

  EXPECT_EQ(try_observe(admin, id, me, "").rfind("unknown ticket", 0), 0u);
  EXPECT_EQ(try_observe(admin, id, me, std::string(64, 'a')).rfind("unknown ticket", 0), 0u);
  // without a ticket, an unknown session reads exactly like a known one
  EXPECT_EQ(try_observe(admin, 999, me, "x"), try_observe(admin, id, me, "x"));
  int status = 0;
  const std::string ticket = ticket_for(port, id, &status);
  EXPECT_NE(try_observe(admin, id + 1, me, ticket).find("for session " + std::to_string(id)),
            std::string::npos);
  // nil observer
  const std::string another = ticket_for(port, id, &status);
  EXPECT_NE(try_observe(admin, id, CLAMX::FrameClient::_nil(), another).find("nil"),
            std::string::npos);

  // the web side: a ticket needs a live session, a POST from this server's pages
  ticket_for(port, 999, &status);
  EXPECT_EQ(status, 404);
  http_call(port, "POST", "/api/sessions/abc/observe-ticket", same_origin(port), &status);
  EXPECT_EQ(status, 400);
  http_call(port, "POST", "/api/sessions/" + std::to_string(id) + "/observe-ticket",
            "Origin: http://evil.example\r\nContent-Type: application/json\r\n", &status);
  EXPECT_EQ(status, 403);
  http_call(port, "GET", "/api/sessions/" + std::to_string(id) + "/observe-ticket", "", &status);
  EXPECT_EQ(status, 405);
  EXPECT_EQ(trainee->summary().gaps, 0u) << "refusals never disturb the trainee";
  session->unsubscribe();
}

TEST(CorbaObserve, StoppingAWatchLeavesTheTraineeAndOtherObserversAlone) {
  OneTrainee t;
  ASSERT_TRUE(t.ready()) << t.server.process().output();
  const int port = t.port;
  const std::uint64_t id = t.id;
  CLAMX::Admin_var& admin = t.admin;
  Activated<FrameRecorder>& trainee = t.trainee;
  CLAMX::Session_var& session = t.session;
  int status = 0;
  Activated<ObserverRecorder> a, b;
  CLAMX::FrameClient_var ra = as_frame_client(a.client()), rb = as_frame_client(b.client());
  CLAMX::Observation_var wa, wb;
  ASSERT_EQ(try_observe(admin, id, ra, ticket_for(port, id, &status), &wa), "");
  ASSERT_EQ(try_observe(admin, id, rb, ticket_for(port, id, &status), &wb), "");
  ASSERT_TRUE(a->wait([&] { return a->seqs_.size() >= 3; }, Ms(10000)));
  wa->stop();
  const std::size_t a_then = a->seqs().size();
  const std::size_t b_then = b->seqs().size();
  ASSERT_TRUE(b->wait([&] { return b->seqs_.size() >= b_then + 10; }, Ms(10000)))
      << "the other observer goes on";
  EXPECT_LE(a->seqs().size(), a_then + 1) << "at most one frame in flight after stop()";
  trainee->reset();
  ASSERT_TRUE(trainee->wait_frames(10, Ms(10000)));
  EXPECT_EQ(trainee->summary().gaps, 0u);
  session->unsubscribe();
}

// clamsim-receiver --observe: the real classroom receiver as the instructor's.
TEST(CorbaObserve, TheReceiverWatchesWithATicketAndRecordsTheTraineesVolts) {
  OneTrainee t;
  ASSERT_TRUE(t.ready()) << t.server.process().output();
  const std::uint64_t id = t.id;
  CLAMX::Session_var& session = t.session;
  int status = 0;
  const std::string ticket = ticket_for(t.port, id, &status);
  ASSERT_EQ(status, 200);
  const std::string csv = ::testing::TempDir() + "/observe_" + std::to_string(getpid()) + ".csv";
  ChildProcess rx({clamsim_receiver_binary(), "--server", t.server.corbaloc(), "--observe",
                   std::to_string(id), "--ticket", ticket, "--csv", csv, "--quiet",
                   "--duration", "30"});
  // the trainee holds 1.5 V on the boom; the receiver's CSV shows it; then the trainee leaves
  const CLAM::ControlSignal volts = {0.0f, 1.5f, 0.0f, 0.0f, 0.0f};
  ASSERT_TRUE(eventually(
      [&] {
        session->GetControlInput(volts);
        std::ifstream in(csv);
        std::string line, all;
        while (std::getline(in, line)) all += line + "\n";
        return all.find(",1.5,") != std::string::npos;
      },
      Ms(15000), Ms(100)))
      << rx.output();
  session->unsubscribe();
  ASSERT_EQ(rx.wait_exit(Ms(15000)), 0) << rx.output();
  const std::string out = rx.output();
  EXPECT_NE(out.find("watching session " + std::to_string(id)), std::string::npos) << out;
  EXPECT_NE(out.find("watch ended: "), std::string::npos) << out;
  EXPECT_EQ(out.find("watch ended: stopped here"), std::string::npos)
      << "the session's end, not ours: " << out;
  std::remove(csv.c_str());
}

TEST(CorbaObserve, TheReceiverNamesABadTicketAndExitsOne) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  ChildProcess rx({clamsim_receiver_binary(), "--server", server.corbaloc(), "--observe", "1",
                   "--ticket", "nonsense", "--quiet"});
  ASSERT_EQ(rx.wait_exit(Ms(15000)), 1) << rx.output();
  EXPECT_NE(rx.output().find("refused to let us observe: unknown ticket"), std::string::npos)
      << rx.output();
}

// An instructor in a browser takes the controls of a CORBA trainee and sends a
// message; the trainee's receiver is told both through notify (its status line), and its
// own GetControlInput stops driving until the controls are handed back.
TEST(CorbaObserve, AReceiverIsToldWhoDrivesAndGetsTheInstructorsMessage) {
  OneTrainee t;
  ASSERT_TRUE(t.ready()) << t.server.process().output();
  clamsim::testing::WsClient instructor;
  ASSERT_TRUE(instructor.connect(static_cast<std::uint16_t>(t.port),
                                 "/ws?observe=" + std::to_string(t.id)));
  ASSERT_TRUE(instructor.read_type("hello"));
  ASSERT_TRUE(instructor.write(R"({"type":"take_control"})"));
  const auto granted = instructor.read_type("control_answer");
  ASSERT_TRUE(granted);
  ASSERT_EQ((*granted)["result"], "granted") << *granted;
  const auto told = [&](const std::string& kind) {
    return eventually([&] { return t.trainee->summary().last_notice_kind == kind; }, Ms(5000));
  };
  ASSERT_TRUE(told("control"));
  EXPECT_EQ(t.trainee->summary().last_notice_message,
            "The instructor is driving: your stick is ignored");
  EXPECT_EQ(t.trainee->summary().last_notice_seconds, -1.0);

  // the receiver's own stick is ignored while the instructor drives: the frames' inputs,
  // as the instructor sees them, stay at the instructor's neutral
  const CLAM::ControlSignal swing = {4.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  t.session->GetControlInput(swing);
  for (int i = 0; i < 10; ++i) {
    const auto in = instructor.read_type("inputs", clamsim::testing::Seconds(0.3));
    if (in) {
      EXPECT_EQ((*in)["volts"][0], 0.0) << "the receiver's swing reached the machine";
    }
  }

  ASSERT_TRUE(instructor.write(R"({"type":"message","text":"Slow down near the rack"})"));
  ASSERT_TRUE(told("instructor_message"));
  EXPECT_EQ(t.trainee->summary().last_notice_message, "instructor: Slow down near the rack");

  ASSERT_TRUE(instructor.write(R"({"type":"release_control"})"));
  ASSERT_TRUE(told("control"));
  EXPECT_EQ(t.trainee->summary().last_notice_message, "You are driving");
  bool swinging = false;
  for (int i = 0; i < 40 && !swinging; ++i) {
    t.session->GetControlInput(swing);
    const auto in = instructor.read_type("inputs", clamsim::testing::Seconds(0.3));
    swinging = in && (*in)["volts"][0] == 4.0;
  }
  EXPECT_TRUE(swinging) << "the receiver drives again";
}

}  // namespace
}  // namespace clamsim::corba::test
