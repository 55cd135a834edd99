// corba/connection_guard.cc, corba/request_watchdog.cc and the ORB's connection bounds
// (orb_setup.cc) through the real server over real sockets: IIOP connections are capped in
// total and per client address, requests that do not arrive whole in time are closed
// (omniORB alone held them until its idle scan, ~57 s), idle ones are closed, and
// the server's thread count stays bounded however many connections are open.
#include "corba/connection_guard.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

namespace clamsim::corba::test {
namespace {

// A TCP connection to the server's IIOP port from `source` (a 127.0.0.x address: each
// stands for another client machine), closed at the end.
class Tcp {
 public:
  explicit Tcp(int port, const char* source = "127.0.0.1") {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in from{};
    from.sin_family = AF_INET;
    inet_pton(AF_INET, source, &from.sin_addr);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    connected_ = bind(fd_, reinterpret_cast<sockaddr*>(&from), sizeof from) == 0 &&
                 connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~Tcp() { close(fd_); }
  Tcp(const Tcp&) = delete;
  Tcp& operator=(const Tcp&) = delete;
  bool connected() const { return connected_; }
  bool send(const std::string& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }
  // True once the server has closed the connection, waiting at most timeout.
  bool closed_within(Ms timeout) {
    const auto deadline = Clock::now() + timeout;
    for (int i = 0; i < 100000 && Clock::now() < deadline; ++i)
      if (closed_now(50)) return true;
    return false;
  }
  // Polls once, waiting at most wait_ms for something to read; true on EOF or reset.
  // Whatever else arrives (a reply) is read and kept.
  bool closed_now(int wait_ms) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, wait_ms) <= 0) return false;
    char buf[4096];
    const ssize_t n = recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) return true;  // EOF or reset
    received_.append(buf, static_cast<std::size_t>(n));
    return false;
  }
  // The first 12 bytes received, once a whole GIOP header has come (waiting at most timeout).
  std::string reply_header(Ms timeout) {
    const auto deadline = Clock::now() + timeout;
    for (int i = 0; i < 100000 && received_.size() < 12 && Clock::now() < deadline; ++i)
      if (closed_now(50)) break;
    return received_.substr(0, 12);
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
  std::string received_;
};

// Waits until `want` of the connections have been closed by the server (the bound only
// says "they never were"), then looks once more at the rest; returns how many are closed
// and drops those from `held`.
int closed_by_server(std::vector<std::unique_ptr<Tcp>>& held, int want, Ms timeout) {
  std::vector<bool> closed(held.size(), false);
  int n = 0;
  const auto deadline = Clock::now() + timeout;
  do {
    for (std::size_t i = 0; i < held.size(); ++i)
      if (!closed[i] && held[i]->closed_now(0)) closed[i] = true, ++n;
    if (n < want) std::this_thread::yield();
  } while (n < want && Clock::now() < deadline);
  for (std::size_t i = 0; i < held.size(); ++i)
    if (!closed[i] && held[i]->closed_now(0)) closed[i] = true, ++n;
  std::vector<std::unique_ptr<Tcp>> open;
  for (std::size_t i = 0; i < held.size(); ++i)
    if (!closed[i]) open.push_back(std::move(held[i]));
  held = std::move(open);
  return n;
}

int port_of(const std::string& corbaloc) {  // corbaloc::127.0.0.1:PORT/CraneClamAdmin
  const auto colon = corbaloc.rfind(':');
  return std::stoi(corbaloc.substr(colon + 1, corbaloc.rfind('/') - colon - 1));
}

// A GIOP 1.2 message header (big-endian) of `type` (0 Request, 7 Fragment) announcing
// `size` body bytes.
std::string giop_header(std::uint32_t size, char type = 0) {
  std::string h = "GIOP";
  h += std::string("\x01\x02\x00", 3);
  h.push_back(type);
  for (int i = 3; i >= 0; --i) h.push_back(static_cast<char>((size >> (8 * i)) & 0xFF));
  return h;
}

void put_ulong(std::string* s, std::uint32_t v) {
  while (s->size() % 4) s->push_back('\0');  // CDR alignment, from the message start
  for (int i = 3; i >= 0; --i) s->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// A whole GIOP 1.2 Request for `_non_existent` (no arguments, a reply expected) on the
// server's corbaloc object: what a receiver's ORB sends, byte for byte.
std::string giop_request(std::uint32_t id) {
  std::string m = giop_header(0);
  put_ulong(&m, id);
  m += std::string("\x03\x00\x00\x00", 4);  // response expected; reserved
  m += std::string("\x00\x00", 2);           // TargetAddress: KeyAddr
  const std::string key = "CraneClamAdmin";
  put_ulong(&m, static_cast<std::uint32_t>(key.size()));
  m += key;
  const std::string op = "_non_existent";
  put_ulong(&m, static_cast<std::uint32_t>(op.size() + 1));
  m += op;
  m.push_back('\0');
  put_ulong(&m, 0);  // no service contexts
  const auto size = static_cast<std::uint32_t>(m.size() - 12);
  for (int i = 0; i < 4; ++i) m[8 + i] = static_cast<char>((size >> (8 * (3 - i))) & 0xFF);
  return m;
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
  // the connections stay silent: a request timeout longer than the test keeps the request
  // watchdog from closing them
  ServerProcess server({"--corba-max-connections", "6", "--corba-idle-timeout-s", "0",
                        "--corba-request-timeout-ms", "600000"});
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
  EXPECT_EQ(closed_by_server(held, 1, Ms(30000)), 1) << "of seven connections with a cap of six";
  ASSERT_EQ(held.size(), 6u);
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

TEST(ConnectionGuard, IdleConnectionsAfterARequestAreClosedByTheScan) {
  ServerProcess server({"--corba-idle-timeout-s", "1"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  Tcp idle(port_of(server.corbaloc()));
  ASSERT_TRUE(idle.connected());
  ASSERT_TRUE(idle.send(giop_request(1)));
  ASSERT_EQ(idle.reply_header(Ms(5000)).substr(0, 4), "GIOP") << "the request was answered";
  // idle after a whole request: closed by omniORB's scan (period 1 s, granularity 5 s),
  // not by the request watchdog
  EXPECT_TRUE(idle.closed_within(Ms(20000))) << "an idle connection was held";
}

TEST(ConnectionGuard, ThreadsStayBoundedWithManyIdleConnections) {
  constexpr int kCap = 20;
  ServerProcess server({"--corba-max-connections", std::to_string(kCap),
                        "--corba-idle-timeout-s", "0", "--corba-request-timeout-ms", "600000"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  const int port = port_of(server.corbaloc());
  const int before = threads_of(server.process().pid());
  ASSERT_GT(before, 0);
  std::vector<std::unique_ptr<Tcp>> held;
  for (int i = 0; i < 3 * kCap; ++i) {
    held.push_back(std::make_unique<Tcp>(port));
    ASSERT_TRUE(held.back()->connected());
  }
  // the refused ones are closed by the server; those left open are the cap
  EXPECT_EQ(closed_by_server(held, 2 * kCap, Ms(30000)), 2 * kCap);
  EXPECT_EQ(static_cast<int>(held.size()), kCap)
      << "of " << 3 * kCap << " connections with a cap of " << kCap;
  // threads of refused connections leave after omniORB's idleThreadTimeout (2 s)
  int after = 0;
  eventually([&] { return (after = threads_of(server.process().pid())) <= before + kCap + 2; },
             Ms(10000), Ms(200));
  // one thread per connection up to the cap (before the cap: one per connection, +60)
  EXPECT_LE(after, before + kCap + 2) << before << " threads before, " << after << " after";
}

// Every way of leaving a request unfinished is closed at the request timeout
// (default 2 s), not at omniORB's idle scan (60 s; measured 57 s before). The idle
// timeout stays at its 60 s default so only the request watchdog can close them here.
TEST(ConnectionGuard, UnfinishedRequestsAreClosedAtTheRequestTimeout) {
  ServerProcess server;
  ASSERT_TRUE(server.ready()) << server.process().output();
  const int port = port_of(server.corbaloc());
  const std::string request = giop_request(7);
  struct Variant {
    const char* what;
    std::string bytes;
    bool answer_first;  // a whole request answered before the unfinished bytes
    std::unique_ptr<Tcp> tcp;
    double closed_after_s = -1.0;
  };
  std::vector<Variant> variants;
  variants.push_back({"nothing sent", "", false, nullptr});
  variants.push_back({"6 header bytes", "GIOP\x01\x02", false, nullptr});
  variants.push_back({"a header announcing 2 GiB", giop_header(0x80000000u), false, nullptr});
  variants.push_back({"a lone fragment", giop_header(100, 7) + std::string(8, '\0'), false,
                      nullptr});
  variants.push_back({"a request short by 1 byte", request.substr(0, request.size() - 1),
                      false, nullptr});
  variants.push_back({"6 header bytes after an answered request", "GIOP\x01\x02", true,
                      nullptr});
  variants.push_back({"a request short by 1 byte after an answered request",
                      request.substr(0, request.size() - 1), true, nullptr});
  for (auto& v : variants) {
    v.tcp = std::make_unique<Tcp>(port);
    ASSERT_TRUE(v.tcp->connected()) << v.what;
    if (v.answer_first) {
      ASSERT_TRUE(v.tcp->send(request)) << v.what;
      ASSERT_EQ(v.tcp->reply_header(Ms(5000)).substr(0, 4), "GIOP") << v.what;
    }
  }
  // a receiver-like connection: one whole request, answered, then quiet
  Tcp whole(port);
  ASSERT_TRUE(whole.connected());
  ASSERT_TRUE(whole.send(request));
  ASSERT_EQ(whole.reply_header(Ms(5000)).substr(0, 4), "GIOP");

  const auto start = Clock::now();
  for (auto& v : variants) {
    if (!v.bytes.empty()) {
      ASSERT_TRUE(v.tcp->send(v.bytes)) << v.what;
    }
  }
  // the request timeout is 2 s, omniORB's idle scan 60 s: a bound of 30 s tells the two
  // apart on however loaded a host (what it measured is printed, not asserted)
  const auto deadline = start + Ms(30000);
  std::size_t open = variants.size();
  while (open > 0 && Clock::now() < deadline) {
    for (auto& v : variants) {
      if (v.closed_after_s >= 0.0 || !v.tcp->closed_now(0)) continue;
      v.closed_after_s = std::chrono::duration<double>(Clock::now() - start).count();
      --open;
    }
    std::this_thread::sleep_for(Ms(10));
  }
  for (const auto& v : variants) {
    EXPECT_GE(v.closed_after_s, 0.0) << v.what << ": held for 30 s, as if no request timeout";
    std::printf("[ measured ] %s: closed after %.2f s\n", v.what, v.closed_after_s);
  }
  EXPECT_FALSE(whole.closed_now(0)) << "a connection idle after a whole request is left to "
                                       "the idle timeout (60 s)";
  EXPECT_FALSE(server.process().wait_for_line("corba: closed", Ms(2000)).empty())
      << server.process().output();
}

// Before the per-client cap, one client holding connections refused everyone (--corba-max-connections 50,
// 50 connections from one address: every status and subscribe failed for 62 s). With the
// per-client cap it holds its share, is refused past it with a line naming it, and a
// receiver from another address subscribes and gets frames.
TEST(ConnectionGuard, OneAddressAtItsCapLeavesOtherAddressesIn) {
  constexpr int kTotal = 50, kPerClient = 32;
  // silent connections are held (a request timeout longer than the test), as a client
  // that keeps reconnecting would hold them
  ServerProcess server({"--corba-max-connections", std::to_string(kTotal),
                        "--corba-max-connections-per-client", std::to_string(kPerClient),
                        "--corba-request-timeout-ms", "600000"});
  ASSERT_TRUE(server.ready()) << server.process().output();
  const int port = port_of(server.corbaloc());
  std::vector<std::unique_ptr<Tcp>> held;
  for (int i = 0; i < kTotal; ++i) {
    held.push_back(std::make_unique<Tcp>(port, "127.0.0.2"));
    ASSERT_TRUE(held.back()->connected()) << "127.0.0.2 is a loopback address";
  }
  const std::string refused = server.process().wait_for_line("corba: refused", Ms(5000));
  EXPECT_NE(refused.find("from 127.0.0.2 (the limit, --corba-max-connections-per-client)"),
            std::string::npos) << refused;
  EXPECT_NE(refused.find(std::to_string(kPerClient) + " IIOP connections open"),
            std::string::npos) << refused;
  EXPECT_EQ(closed_by_server(held, kTotal - kPerClient, Ms(30000)), kTotal - kPerClient);
  EXPECT_EQ(static_cast<int>(held.size()), kPerClient)
      << "of " << kTotal << " connections from one address";
  // another address (this process's ORB, on 127.0.0.1): status and a subscription
  CLAMX::Admin_var admin = server.admin();
  ASSERT_FALSE(CORBA::is_nil(admin));
  CLAMX::ServerStatus_var status = admin->status();
  Activated<FrameRecorder> rec;
  CLAMX::Session_var session = admin->subscribeWith(rec.client(), default_options());
  EXPECT_TRUE(rec->wait_frames(2, Ms(5000)));
  session->unsubscribe();
  // and a third address still gets in over plain TCP
  Tcp other(port, "127.0.0.3");
  ASSERT_TRUE(other.connected());
  ASSERT_TRUE(other.send(giop_request(3)));
  EXPECT_EQ(other.reply_header(Ms(5000)).substr(0, 4), "GIOP");
}

}  // namespace
}  // namespace clamsim::corba::test
