// The crafted-recording fuzz target (docs/security.md, "Crafted recordings"): the
// input is a recording written as text, which the target turns into a real MCAP file and
// reads back as a replay does (session/recording_read.h).
//   line 1     a JSON object of "session" metadata values laid over a valid recording's
//   "i {...}"  an /inputs message       "f {...}"  a /frames message
//   any other line goes to /inputs as it is
// Properties: a file is either refused with a reason (std::invalid_argument, or a
// record::McapError naming the file), or read whole, and then every input applies without
// throwing, with five finite volts within the stick's range and faults the catalog could
// have made, and its frames stay within the recording's bounds.
#include <cmath>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "record/mcap_reader.h"
#include "record/mcap_writer.h"
#include "session/control_input.h"
#include "session/fault_catalog.h"
#include "session/recording_json.h"
#include "session/recording_read.h"
#include "targets.h"

namespace clamsim::fuzz {

namespace {

using json = nlohmann::json;

void require(bool ok, const std::string& what) {
  if (!ok) throw Violation(what);
}

std::map<std::string, std::string> base_metadata() {
  return {{"session", "1"},         {"model", "t250"},     {"model_sha256", std::string(64, '0')},
          {"world", ""},            {"world_sha256", ""},  {"build", "fuzz"},
          {"frame_period_s", "0.05"}, {"frame_every", "2"}, {"start_ns", "0"},
          {"initial", R"({"swing_rad":0,"boom_rad":0.5,"telescope_m":0,"clam_depth_m":5,"clam_theta2_rad":1})"}};
}

// Writes the text's recording to `path`; false when line 1 is not a JSON object of strings
// (the metadata is a string map: MCAP cannot hold anything else).
bool write_recording(std::string_view text, const std::string& path) {
  std::istringstream in{std::string(text)};
  std::string line;
  std::getline(in, line);
  const json meta = json::parse(line, nullptr, false);
  if (!meta.is_object()) return false;
  std::map<std::string, std::string> values = base_metadata();
  for (const auto& [key, value] : meta.items()) {
    if (!value.is_string()) return false;
    values[key] = value.get<std::string>();
  }
  record::McapWriter w(path, {});
  const auto channel = [&](const session::RecordingChannel& c) {
    return w.add_channel(w.add_schema(c.schema_name, "jsonschema", c.schema), c.topic, "json");
  };
  const std::uint16_t inputs = channel(session::kInputsChannel);
  const std::uint16_t frames = channel(session::kFramesChannel);
  w.write_metadata("session", values);
  std::uint64_t t = 0;
  while (std::getline(in, line)) {
    const bool frame = line.rfind("f ", 0) == 0;
    const std::string body = frame || line.rfind("i ", 0) == 0 ? line.substr(2) : line;
    w.write_message(frame ? frames : inputs, t, t, body);
    ++t;
  }
  return w.close();
}

void check_read(const session::RecordedSession& r) {
  const std::uint64_t max = session::max_recorded_frames(r.frame_period_s());
  require(r.last_k <= max, "a recording past the most frames read whole");
  require(r.frames.empty() || r.last_k <= r.frames.rbegin()->first + r.frame_every(),
          "inputs further than frame_every past the last frame read whole");
  session::StepInputs in;
  for (const auto& [k, list] : r.inputs) {
    require(k >= 1 && k <= r.last_k, "an input outside the recording's frames");
    bool restart = false;
    session::apply_recorded_inputs(list, in, &restart);
    for (const double v : in.control.volts)
      require(std::isfinite(v) && std::abs(v) <= session::kMaxVolts, "a volt out of range applied");
    require(session::check_physics_faults(in.faults).empty(), "faults out of range applied: " +
                                                                  session::check_physics_faults(in.faults));
  }
}

}  // namespace

std::string recording(std::string_view text, const std::string& path) {
  if (!write_recording(text, path)) return "metadata not a JSON object of strings";
  try {
    check_read(session::read_recording(path));
    return "read whole";
  } catch (const Violation&) {
    throw;
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    require(!what.empty(), "a refusal without a reason");
    // the words up to the first ':' after the file's name make the outcome's label
    const std::size_t from = what.find(": ");
    const std::string rest = from == std::string::npos ? what : what.substr(from + 2);
    return "refused: " + rest.substr(0, rest.find_first_of(":\"0123456789"));
  } catch (const record::McapError& e) {
    require(std::string(e.what()).find(path) != std::string::npos, "an MCAP refusal not naming the file");
    return "refused: MCAP";
  }
}

std::vector<std::string> recording_seeds() {
  const std::string faults = session::faults_json(core::Faults{}).dump();
  const std::string frame = R"(,"seq":0,"time_s":0.05,"display":[0,0,0,0,0,0,0,0],"state_crc32":1})";
  return {
      "{}\ni {\"k\":1,\"kind\":\"control\",\"volts\":[0,1.5,-2,5,-5]}\ni {\"k\":1,\"kind\":\"faults\","
      "\"faults\":" + faults + "}\ni {\"k\":1,\"kind\":\"driver\",\"driver\":\"trainee\",\"instructor\":\"\"}\n"
      "f {\"k\":1" + frame + "\ni {\"k\":2,\"kind\":\"note\",\"note\":\"message\",\"detail\":\"hi\",\"by\":\"bob\"}\n"
      "f {\"k\":3" + frame + "\ni {\"k\":4,\"kind\":\"restart\"}\ni {\"k\":4,\"kind\":\"trainee\",\"name\":\"Ada\"}",
      "{\"frame_every\":\"1\"}\ni {\"k\":1,\"kind\":\"message\",\"from\":\"bob\",\"text\":\"go\"}\nf {\"k\":1" + frame,
      "{\"frame_period_s\":\"0.001\",\"frame_every\":\"10000\"}\nf {\"k\":1" + frame +
          "\ni {\"k\":10001,\"kind\":\"restart\"}",
  };
}

std::vector<std::string> recording_tokens() {
  return {"\n",        "\ni ",       "\nf ",        "{",          "}",       "[",       "]",
          ",",         ":",          "\"k\":",      "\"kind\":",  "\"volts\":", "\"faults\":",
          "\"hoses\":", "\"active\":true", "\"diameter_m\":", "1e308",  "-1e308",  "1e999",
          "0",         "-0",         "18446744073709551615", "1000000000000", "null", "\"\"",
          "\"control\"", "\"driver\"", "\"note\"",    "\"both\"",   "[[[[[[[[", "\"frame_every\":\"0\"",
          "\"frame_period_s\":\"1e300\"", "\"seed_recording\":\"x\""};
}

}  // namespace clamsim::fuzz
