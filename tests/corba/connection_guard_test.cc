// corba/connection_guard.cc and the ORB's connection bounds (orb_setup.cc) through the
// real server: IIOP connections are capped, idle and half-sent ones are closed, and the
// server's thread count stays bounded however many connections are open.
#include "corba/connection_guard.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "test_support.h"

namespace clamsim::corba::test {
namespace {

// A TCP connection to the server's IIOP port, closed at the end.
class Tcp {
 public:
  explicit Tcp(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~Tcp() { close(fd_); }
  bool connected() const { return connected_; }
  bool send(const std::string& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }
  // True once the server has closed the connection, waiting at most timeout.
  bool closed_within(Ms timeout) {
    const auto deadline = Clock::now() + timeout;
    for (int i = 0; i < 100000 && Clock::now() < deadline; ++i) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      char buf[4096];
      const ssize_t n = recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) return true;  // EOF or reset
    }
    return false;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

int port_of(const std::string& corbaloc) {  // corbaloc::127.0.0.1:PORT/CraneClamAdmin
  const auto colon = corbaloc.rfind(':');
  return std::stoi(corbaloc.substr(colon + 1, corbaloc.rfind('/') - colon - 1));
}

// A GIOP 1.2 Request header (big-endian) announcing `size` body bytes.
std::string giop_header(std::uint32_t size) {
  std::string h = "GIOP";
  h += std::string("\x01\x02\x00\x00", 4);
  for (int i = 3; i >= 0; --i) h.push_back(static_cast<char>((size >> (8 * i)) & 0xFF));
  return h;
}

int threads_of(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  return -1;
}

TEST(ConnectionGuard, CountsAcceptedConnectionsOfAPortOnly) {
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  socklen_t len = sizeof a;
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(listener, 8), 0);
  ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const int port = ntohs(a.sin_port);
  EXPECT_EQ(count_connections(port), 0u) << "a listening socket has no peer";
  Tcp c1(port), c2(port);
  const int s1 = accept(listener, nullptr, nullptr), s2 = accept(listener, nullptr, nullptr);
  EXPECT_EQ(count_connections(port), 2u) << "the accepted ends, not the clients' ends";
  close(s1);
  EXPECT_EQ(count_connections(port), 1u);
  close(s2);
  close(listener);
}

TEST(ConnectionGuard, ConnectionsPastTheCapAreRefusedAndLogged) {
  ServerProcess server({"--corba-max-connections", "6", "--corba-idle-timeout-s", "0"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  const int port = port_of(server.corbaloc());
  // seven at once: omniORB accepts them on several threads, so which one is refused
  // varies, but exactly one is
  std::vector<std::unique_ptr<Tcp>> held;
  for (int i = 0; i < 7; ++i) {
    held.push_back(std::make_unique<Tcp>(port));
    ASSERT_TRUE(held.back()->connected()) << "the kernel accepts; the server then decides";
  }
  EXPECT_FALSE(server.process().wait_for_line("corba: refused", Ms(5000)).empty())
      << server.process().output();
  int closed = 0;
  for (auto it = held.begin(); it != held.end();) {
    if ((*it)->closed_within(Ms(300))) {
      ++closed;
      it = held.erase(it);
    } else {
      ++it;
    }
  }
  EXPECT_EQ(closed, 1) << "of seven connections with a cap of six";
  // close two of the six: a real receiver subscribes and gets frames (it opens one
  // connection to the admin, the server one back to it)
  held.pop_back();
  held.pop_back();
  CLAMX::Admin_var admin;
  Activated<FrameRecorder> rec;
  CLAMX::Session_var session;
  ASSERT_TRUE(eventually(
      [&] {
        try {
          admin = server.admin();
          session = admin->subscribeWith(rec.client(), default_options());
          return true;
        } catch (const CORBA::SystemException&) {
          return false;  // the closes above not yet seen by the next scan
        }
      },
      Ms(5000), Ms(150)));
  EXPECT_TRUE(rec->wait_frames(2, Ms(5000)));
  session->unsubscribe();
}

TEST(ConnectionGuard, IdleAndHalfSentConnectionsAreClosed) {
  ServerProcess server({"--corba-request-timeout-ms", "300", "--corba-idle-timeout-s", "1"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  const int port = port_of(server.corbaloc());
  Tcp huge(port), truncated(port), idle(port);
  ASSERT_TRUE(huge.connected() && truncated.connected() && idle.connected());
  ASSERT_TRUE(huge.send(giop_header(0x80000000u)));              // announces 2 GiB
  ASSERT_TRUE(truncated.send(giop_header(100) + std::string(50, '\0')));  // half a request
  EXPECT_TRUE(huge.closed_within(Ms(10000))) << "a 2 GiB announcement was held";
  EXPECT_TRUE(truncated.closed_within(Ms(10000))) << "a half-sent request was held";
  // idle: closed by omniORB's scan (period 1 s, granularity 5 s)
  EXPECT_TRUE(idle.closed_within(Ms(20000))) << "an idle connection was held";
}

TEST(ConnectionGuard, ThreadsStayBoundedWithManyIdleConnections) {
  constexpr int kCap = 20;
  ServerProcess server({"--corba-max-connections", std::to_string(kCap),
                        "--corba-idle-timeout-s", "0"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  const int port = port_of(server.corbaloc());
  const int before = threads_of(server.process().pid());
  ASSERT_GT(before, 0);
  std::vector<std::unique_ptr<Tcp>> held;
  for (int i = 0; i < 3 * kCap; ++i) {
    held.push_back(std::make_unique<Tcp>(port));
    ASSERT_TRUE(held.back()->connected());
  }
  // the refused ones are closed by the server; count those still open
  int open = 0;
  for (auto& c : held) open += !c->closed_within(Ms(300));
  EXPECT_EQ(open, kCap) << "of " << 3 * kCap << " connections with a cap of " << kCap;
  // threads of refused connections leave after omniORB's idleThreadTimeout (2 s)
  int after = 0;
  eventually([&] { return (after = threads_of(server.process().pid())) <= before + kCap + 2; },
             Ms(10000), Ms(200));
  // one thread per connection up to the cap (before issue 18: one per connection, +60)
  EXPECT_LE(after, before + kCap + 2) << before << " threads before, " << after << " after";
}

}  // namespace
}  // namespace clamsim::corba::test
