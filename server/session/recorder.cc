#include "session/recorder.h"

#include <cstdio>
#include <filesystem>

#include "session/recording_json.h"
#include "base/utc_time.h"
#include "version/version.h"

namespace clamsim::session {

using json = nlohmann::json;

namespace {

std::uint64_t to_ns(std::chrono::system_clock::time_point t) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

// The score's fields but its clock (elapsed, time points, total move every frame).
bool score_news(const training::TaskScore& a, const training::TaskScore& b) {
  bool differs = false;
  core::for_each_field(training::kTaskScoreFields, [&](const auto& f) {
    const std::string name = f.name;
    if (name == "elapsed_s" || name == "time_points" || name == "total" || name == "running")
      return;
    if (a.*f.member != b.*f.member) differs = true;
  });
  return differs;
}

json volts_json(const core::Control& c) { return json(std::vector<double>(c.volts.begin(), c.volts.end())); }

}  // namespace

SessionRecorder::SessionRecorder(const RecordingOptions& options, const RecordingInfo& info)
    : options_(options), info_(info), start_ns_(to_ns(info.start)) {
  std::error_code ec;
  std::filesystem::create_directories(options_.dir, ec);
  if (ec) {
    open_error_ = "cannot create " + options_.dir + ": " + ec.message();
    return;
  }
  prune_recordings(options_.dir, options_.keep, std::chrono::system_clock::now());
  path_ = (std::filesystem::path(options_.dir) /
           ("session-" + base::compact_utc(info_.start) + "-" +
            std::to_string(info_.session_id) + ".mcap"))
              .string();
  record::McapWriterOptions wo;
  wo.library = std::string("clamsim ") + kVersion;
  wo.chunk_duration_ns = static_cast<std::uint64_t>(options_.chunk_s * 1e9);
  writer_ = std::make_unique<record::McapWriter>(path_, wo);
  if (!writer_->ok()) return;
  const auto channel = [&](const RecordingChannel& c) {
    return writer_->add_channel(writer_->add_schema(c.schema_name, "jsonschema", c.schema),
                                c.topic, "json");
  };
  inputs_ = channel(kInputsChannel);
  frames_ = channel(kFramesChannel);
  events_ = channel(kEventsChannel);
  score_ = channel(kScoreChannel);
  std::map<std::string, std::string> meta{{"session", std::to_string(info_.session_id)},
      {"label", info_.label},
      {"model", info_.model},
      {"model_sha256", info_.model_sha256},
      {"world", info_.world},
      {"world_sha256", info_.world_sha256},
      {"build", kVersion},
      {"initial", initial_json(info_.initial).dump()},
      {"frame_period_s", json(info_.frame_period_s).dump()},
      {"frame_every", std::to_string(options_.frame_every)},
      {"start_utc", base::iso8601_utc(info_.start)},
      {"start_ns", std::to_string(start_ns_)}};
  if (!info_.seed_recording.empty()) {   // taken over from a replay (recording_read.h)
    meta["seed_recording"] = info_.seed_recording;
    meta["seed_k"] = std::to_string(info_.seed_k);
  }
  writer_->write_metadata("session", meta);
}

SessionRecorder::~SessionRecorder() { finish(0, ""); }

std::string SessionRecorder::error() const {
  if (!open_error_.empty()) return open_error_;
  return writer_ ? writer_->error() : "not opened";
}

std::uint64_t SessionRecorder::log_time(std::uint64_t k) const {
  return start_ns_ + static_cast<std::uint64_t>(std::llround(
                         static_cast<double>(k) * info_.frame_period_s * 1e9));
}

void SessionRecorder::write(std::uint16_t channel, std::uint64_t k, const std::string& text) {
  if (!ok() || finished_) return;
  const std::uint64_t t = log_time(k);
  writer_->write_message(channel, t, t, text);
}

void SessionRecorder::restart(std::uint64_t k, bool practice) {
  json j{{"k", k}, {"kind", "restart"}};
  if (practice) j["practice"] = true;
  write(inputs_, k, j.dump());
}

void SessionRecorder::inputs(std::uint64_t k, const core::Control& trainee, const StepInputs& in,
                             const FrameNotices* notices) {
  if (!ok()) return;
  if (first_inputs_ || in.control.volts != last_control_.volts ||
      trainee.volts != last_trainee_.volts) {
    json j{{"k", k}, {"kind", "control"}, {"volts", volts_json(in.control)}};
    if (trainee.volts != in.control.volts) j["trainee_volts"] = volts_json(trainee);
    write(inputs_, k, j.dump());
    last_control_ = in.control;
    last_trainee_ = trainee;
  }
  if (first_inputs_ || (notices != nullptr && notices->faults_changed))
    write(inputs_, k, json{{"k", k}, {"kind", "faults"}, {"faults", faults_json(in.faults)}}.dump());
  if (first_inputs_ || in.driver != last_driver_ || in.instructor != last_instructor_) {
    write(inputs_, k, json{{"k", k}, {"kind", "driver"}, {"driver", to_string(in.driver)},
                           {"instructor", in.instructor}}.dump());
    last_driver_ = in.driver;
    last_instructor_ = in.instructor;
  }
  for (const DeskNote& n : in.notes)
    write(inputs_, k, json{{"k", k}, {"kind", "note"}, {"note", n.kind}, {"detail", n.detail},
                           {"by", n.by}}.dump());
  if (notices != nullptr)
    for (const InstructorMessage& m : notices->messages)
      write(inputs_, k, json{{"k", k}, {"kind", "message"}, {"from", m.from}, {"text", m.text}}.dump());
  first_inputs_ = false;
}

void SessionRecorder::trainee(std::uint64_t k, const std::string& name) {
  write(inputs_, k, json{{"k", k}, {"kind", "trainee"}, {"name", name}}.dump());
}

void SessionRecorder::frame(std::uint64_t k, std::uint64_t seq, const core::Outputs& o,
                            const training::TaskScore& score, const core::State& state) {
  if (!ok()) return;
  const bool sampled = options_.frame_every <= 1 || (k - 1) % options_.frame_every == 0;
  if (sampled) write(frames_, k, frame_record(k, seq, o, state).dump());
  json changed = json::array();
  for (const auto& f : core::kWorldEventFields)
    if (o.events.*f.member != last_events_.*f.member) changed.push_back(f.name);
  if (!changed.empty()) {
    write(events_, k, json{{"k", k}, {"time_s", o.time_s}, {"changed", changed},
                           {"events", events_json(o.events)}}.dump());
    last_events_ = o.events;
  }
  if (score.enabled && (sampled || score_news(score, last_score_))) {
    write(score_, k, json{{"k", k}, {"time_s", o.time_s}, {"score", score_json(score)}}.dump());
    last_score_ = score;
  }
}

void SessionRecorder::finish(std::uint64_t frames, const std::string& trainee) {
  if (finished_ || !writer_) return;
  if (writer_->ok())
    writer_->write_metadata("session_end", {{"frames", std::to_string(frames)},
                                            {"trainee", trainee},
                                            {"end_utc", base::iso8601_utc(
                                                            std::chrono::system_clock::now())}});
  finished_ = true;
  if (!writer_->close())
    std::fprintf(stderr, "%s: recording %s: %s\n", info_.label.c_str(), path_.c_str(),
                 writer_->error().c_str());
  prune_recordings(options_.dir, options_.keep, std::chrono::system_clock::now());
}

}  // namespace clamsim::session
