// Well-formed inputs and grammar fragments of each fuzz target (targets.h).
#include <string>
#include <vector>

#include "targets.h"

namespace clamsim::fuzz {

namespace {

// A client frame as browsers send it: FIN, opcode, masked, with a 7/16/64-bit length.
std::string masked_frame(unsigned opcode, const std::string& payload, int length_bytes) {
  std::string f;
  f += static_cast<char>(0x80 | opcode);
  const std::size_t n = payload.size();
  if (length_bytes == 0) {
    f += static_cast<char>(0x80 | n);
  } else {
    f += static_cast<char>(0x80 | (length_bytes == 2 ? 126 : 127));
    for (int i = length_bytes - 1; i >= 0; --i) f += static_cast<char>((n >> (8 * i)) & 0xff);
  }
  const char mask[4] = {0x12, 0x34, 0x56, 0x78};
  f.append(mask, 4);
  for (std::size_t i = 0; i < n; ++i) f += static_cast<char>(payload[i] ^ mask[i % 4]);
  return f;
}

}  // namespace

std::vector<std::string> http_seeds() {
  return {
      "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
      "GET /js/app.js?v=1 HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n",
      "HEAD /vendor/three/build/three.module.js HTTP/1.1\r\nHost: sim.example\r\n\r\n",
      "GET /api/sessions HTTP/1.1\r\nHost: [::1]:8080\r\nCookie: clamsim_session=abc\r\n\r\n",
      "GET /api/reports/2026-11-24T10-00-00Z_session-3.json HTTP/1.1\r\nHost: localhost\r\n\r\n",
      "GET /ws?observe=12&scenario=dam_intake HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://127.0.0.1\r\n\r\n",
      "POST /api/login HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\n"
      "Content-Type: application/json\r\nContent-Length: 40\r\n\r\n"
      "{\"name\":\"ann\",\"password\":\"correct-horse\"}",
      "POST /api/logout HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
      "2\r\n{}\r\n0\r\n\r\n",
      "GET /%2e%2e/secret.txt HTTP/1.0\r\n\r\n",
      "GET /link.txt HTTP/1.1\r\nHost: localhost\r\n\r\n",
  };
}

std::vector<std::string> http_tokens() {
  return {"\r\n",          "\r\n\r\n",       "\n",           " ",           ":",
          "%",             "%00",            "%2e%2e",       "%2f",         "%5c",
          "..",            "/../",           "//",           "\\",          "?",
          "#",             "Host: ",         "Host: evil.example\r\n",
          "Content-Length: ",                "Transfer-Encoding: chunked\r\n",
          "Connection: close\r\n",           "Upgrade: websocket\r\n",
          "Origin: ",      "HTTP/1.1",       "HTTP/1.0",     "HTTP/2.0",    "GET ",
          "POST ",         "OPTIONS * ",     "0\r\n\r\n",    "ffffffffffffffff\r\n",
          "[::1]",         "[",              "]",            "\x7f",        "\xff",
          "\xc0\xaf",      "\t",             ";",            "=",           "\"",
          "/vendor/three/"};
}

std::vector<std::string> ws_message_seeds() {
  return {
      R"({"type":"control","volts":[0,1.5,-2,10,-10]})",
      R"({"type":"ping","id":7,"t":1234.5})",
      R"({"type":"ping","id":"x","t":null})",
      R"({"type":"restart","id":null})",
      R"({"type":"trainee","name":"Åsa Nyström"})",
      R"({"type":"control","volts":[0,0,0,0,0],"type":"ping"})",
  };
}

std::vector<std::string> ws_message_tokens() {
  return {"{",      "}",     "[",       "]",     ",",       ":",     "\"",      "\\u0000",
          "\\ud800", "null", "true",    "false", "\"type\"", "\"volts\"", "\"id\"",
          "\"name\"", "[[[[[[[[[[[[[[[[", "{\"a\":{\"a\":{\"a\":", "\xef\xbb\xbf", "\xed\xa0\x80"};
}

std::vector<std::string> ws_frame_seeds() {
  const std::string control = R"({"type":"control","volts":[0,0,0,0,0]})";
  return {
      masked_frame(0x1, control, 0),
      masked_frame(0x1, std::string(300, 'a'), 2),
      masked_frame(0x1, std::string(70000, 'b'), 8),
      masked_frame(0x9, "", 0) + masked_frame(0xA, "pong", 0),
      masked_frame(0x0, "", 0) + masked_frame(0x0, "", 0) + masked_frame(0x1, control, 0),
      masked_frame(0x8, "\x03\xe8", 0),
  };
}

}  // namespace clamsim::fuzz
