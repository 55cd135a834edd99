#include "web/replay_message.h"

#include <cmath>
#include <utility>

#include "session/replay_player.h"

namespace clamsim::web {

namespace {

using Type = ReplayMessage::Type;

ReplayMessage invalid(std::string code, std::string message) {
  ReplayMessage m;
  m.error_code = std::move(code);
  m.error_message = std::move(message);
  return m;
}

std::string types() {
  std::string s;
  for (const char* t : kReplayMessageTypes) s += (s.empty() ? "" : ", ") + std::string(t);
  return s;
}

std::string speeds() {
  std::string s;
  for (const double v : session::kReplaySpeeds) {
    std::string t = nlohmann::json(v).dump();
    s += (s.empty() ? "" : ", ") + t;
  }
  return s;
}

ReplayMessage replay(const nlohmann::json& j, std::uint64_t frames) {
  if (auto e = unexpected_field(j, "replay", {"play", "speed", "seek_k"}); !e.empty())
    return invalid("bad_message", e);
  ReplayMessage m;
  m.type = Type::Replay;
  if (const auto p = j.find("play"); p != j.end()) {
    if (!p->is_boolean())
      return invalid("bad_message", std::string("replay: play is a ") + p->type_name() +
                                        ", expected true or false");
    m.play = p->get<bool>();
  }
  if (const auto s = j.find("speed"); s != j.end()) {
    if (!s->is_number() || !session::replay_speed_allowed(s->get<double>()))
      return invalid("bad_message", "replay: speed " + cut_for_error(s->dump()) +
                                        " is not one of " + speeds());
    m.speed = s->get<double>();
  }
  if (const auto k = j.find("seek_k"); k != j.end()) {
    if (frames == 0)
      return invalid("not_ready", "replay: seek_k before the replay is ready (wait for replay_timeline)");
    if (!k->is_number_unsigned() || k->get<std::uint64_t>() < 1 || k->get<std::uint64_t>() > frames)
      return invalid("bad_message", "replay: seek_k " + cut_for_error(k->dump()) +
                                        " is not a frame of this recording (1 to " +
                                        std::to_string(frames) + ")");
    m.seek_k = k->get<std::uint64_t>();
  }
  if (!m.play && !m.speed && !m.seek_k)
    return invalid("bad_message", "replay: expected play, speed or seek_k");
  return m;
}

}  // namespace

ReplayMessage parse_replay_message(std::string_view text, std::uint64_t frames) {
  ReplayMessage m;
  m.parsed = parse_client_message(text);
  if (m.parsed.type == ClientMessage::Type::Ping) {
    m.type = Type::Ping;
    return m;
  }
  if (m.parsed.type != ClientMessage::Type::Invalid)
    return invalid("replay_refused", "a replay only plays a recording (it may send: " + types() + ")");
  if (m.parsed.error_code != "unknown_type") return invalid(m.parsed.error_code, m.parsed.error_message);
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  const std::string type = j.value("type", "");
  if (type == "replay") return replay(j, frames);
  if (type == "take_over") {
    if (auto e = unexpected_field(j, type, {}); !e.empty()) return invalid("bad_message", e);
    if (frames == 0) return invalid("not_ready", "take_over before the replay is ready");
    m.type = Type::TakeOver;
    return m;
  }
  return invalid("unknown_type", "unknown message type \"" + cut_for_error(type) +
                                     "\"; a replay may send: " + types());
}

}  // namespace clamsim::web
