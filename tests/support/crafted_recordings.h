// Crafted session recordings (docs/security.md, "Crafted recordings"): a real
// recording copied with its messages or metadata edited (CRCs recomputed), and the list of
// attacks that both clamsim-sim and the server must refuse, each with the words its
// refusal must hold. Shared by tests/tools/replay_test.cc and tests/web/replay_ws_test.cc.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/mcap_reader.h"
#include "record/mcap_writer.h"

namespace clamsim::testing {

using MessageEdit = std::function<void(const std::string& topic, nlohmann::json&)>;
using MetaEdit = std::function<void(std::map<std::string, std::string>&)>;

// A copy of `source` at `path` whose messages pass through `edit` and whose "session"
// metadata through `edit_meta`.
inline void rewrite_recording(const std::string& source, const std::string& path,
                              const MessageEdit& edit, const MetaEdit& edit_meta = {}) {
  using json = nlohmann::json;
  const record::McapFile f = record::read_mcap_file(source);
  record::McapWriter w(path, {});
  std::map<std::uint16_t, std::uint16_t> channel;
  for (const auto& [id, c] : f.channels) {
    const record::McapSchema& sc = f.schemas.at(c.schema_id);
    channel[id] = w.add_channel(w.add_schema(sc.name, sc.encoding, sc.data), c.topic,
                                c.message_encoding);
  }
  for (const record::McapMetadata& m : f.metadata) {
    std::map<std::string, std::string> values = m.values;
    if (edit_meta && m.name == "session") edit_meta(values);
    w.write_metadata(m.name, values);
  }
  for (const record::McapMessage& m : f.messages) {
    json j = json::parse(m.data);
    if (edit) edit(f.channels.at(m.channel_id).topic, j);
    w.write_message(channel[m.channel_id], m.log_time_ns, m.publish_time_ns, j.dump());
  }
  EXPECT_TRUE(w.close());
}

// One input message of the recording changed, the rest as recorded.
inline MessageEdit at_input(std::uint64_t k, const std::string& kind,
                            std::function<void(nlohmann::json&)> edit) {
  return [=](const std::string& topic, nlohmann::json& j) {
    if (topic == "/inputs" && j["k"] == k && j["kind"] == kind) edit(j);
  };
}

inline nlohmann::json nested(int depth) {
  nlohmann::json j = 1.0;
  for (int i = 0; i < depth; ++i) j = nlohmann::json::array({j, j, j, j, j});
  return j;
}

struct Crafted {
  std::string name;
  MessageEdit edit;
  MetaEdit meta;
  std::string reason;   // what the refusal must say
};

// fifo: a FIFO's file name beside the crafted files; self: the file name the seed-self
// attack is written under.
inline std::vector<Crafted> crafted_recordings(const std::string& fifo, const std::string& self) {
  using json = nlohmann::json;
  const auto none = [](const std::string&, json&) {};
  return {
      {"no-kind", at_input(1, "control", [](json& j) { j.erase("kind"); }), {}, "no \"kind\""},
      {"unknown-kind", at_input(1, "control", [](json& j) { j["kind"] = "teleport"; }), {},
       "\"kind\" is \"teleport\", not one of"},
      {"volts-not-array", at_input(1, "control", [](json& j) { j["volts"] = "full"; }), {},
       "\"volts\" is not an array of 5 numbers"},
      {"volts-short", at_input(1, "control", [](json& j) { j["volts"] = {1.0, 2.0}; }), {},
       "\"volts\" is not an array of 5 numbers"},
      {"volts-nested", at_input(1, "control", [](json& j) { j["volts"] = nested(8); }), {},
       "\"volts\"[0] is not a voltage"},
      {"volts-huge", at_input(1, "control", [](json& j) { j["volts"][2] = 1e300; }), {},
       "\"volts\"[2] is not a voltage"},
      {"faults-bad", at_input(1, "faults", [](json& j) { j["faults"]["hoses"] = 3; }), {}, "faults:"},
      {"faults-out-of-range", at_input(1, "faults", [](json& j) {
         j["faults"]["hoses"][1]["active"] = true;
         j["faults"]["hoses"][1]["diameter_m"] = 5.0;
       }), {}, "hoses[1].diameter_m = 5 is out of range"},
      {"driver-unknown", at_input(1, "driver", [](json& j) { j["driver"] = "wizard"; }), {},
       "\"driver\" is \"wizard\", not one of trainee, instructor, both"},
      {"note-not-string", [](const std::string& topic, json& j) {
         if (topic == "/inputs" && j["kind"] == "note") j["note"] = 7;
       }, {}, "\"note\" is not a string"},
      {"k-far", at_input(1, "control", [](json& j) { j["k"] = 1000000000000ULL; }), {},
       "past the 1728000 frames"},
      {"k-zero", at_input(1, "control", [](json& j) { j["k"] = 0; }), {}, "frame index k"},
      {"k-past-frames", [](const std::string& topic, json& j) {
         if (topic == "/inputs" && j["kind"] == "trainee") j["k"] = 100000;
       }, {}, "not a session's recording"},
      {"period-huge", none, [](auto& m) { m["frame_period_s"] = "1e300"; },
       "frame_period_s is not a frame period"},
      {"frame-every-zero", none, [](auto& m) { m["frame_every"] = "0"; }, "frame_every is 0"},
      {"initial-far", none, [](auto& m) {
         json i = json::parse(m["initial"]);
         i["clam_depth_m"] = 1e308;
         m["initial"] = i.dump();
       }, "initial pose: clam_depth_m"},
      {"seed-fifo", none, [fifo](auto& m) {
         m["seed_recording"] = fifo;
         m["seed_k"] = "10";
       }, "not a regular file"},
      {"seed-self-far", none, [self](auto& m) {
         m["seed_recording"] = self;
         m["seed_k"] = "1000000000000";
       }, "its source holds"},
  };
}

}  // namespace clamsim::testing
