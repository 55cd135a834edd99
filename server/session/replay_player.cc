#include "session/replay_player.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>

#include "session/catalog.h"

namespace clamsim::session {

bool replay_speed_allowed(double speed) {
  return std::find(kReplaySpeeds.begin(), kReplaySpeeds.end(), speed) != kReplaySpeeds.end();
}

ReplayPlayer::ReplayPlayer(std::string path, std::uint64_t start_k, const Catalog& catalog,
                           std::shared_ptr<ReplayListener> listener)
    : path_(std::move(path)), start_k_(start_k), catalog_(catalog),
      listener_(std::move(listener)) {}

ReplayPlayer::~ReplayPlayer() { stop(); }

void ReplayPlayer::start() { thread_ = std::thread([this] { run(); }); }

void ReplayPlayer::request_stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
}

void ReplayPlayer::stop() {
  request_stop();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

PlayerReaper::PlayerReaper() : thread_([this] { reap(); }) {}

PlayerReaper::~PlayerReaper() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void PlayerReaper::retire(std::unique_ptr<ReplayPlayer> player, std::function<void()> after) {
  if (!player) return;
  player->request_stop();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    retired_.push_back({std::move(player), std::move(after)});
  }
  wake_.notify_all();
}

// Joins the retired players in turn; at close, the ones left (each already asked to stop).
void PlayerReaper::reap() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return closing_ || !retired_.empty(); });
    if (retired_.empty()) return;   // closing, nothing left
    Retired r = std::move(retired_.front());
    retired_.pop_front();
    lock.unlock();
    r.player.reset();   // joins its thread
    if (r.after) r.after();
    lock.lock();
  }
}

void ReplayPlayer::command(const ReplayCommand& c) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (pending_.size() < 64) pending_.push_back(c);   // a flood of commands loses the newest
  }
  wake_.notify_all();
}

bool ReplayPlayer::stopping() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stop_;
}

// Everything that can refuse a recording happens here, before any frame is stepped: the
// file and the chain of recordings it was taken over from are read and checked whole
// (recording_read.h); the stepping after that is cancellable every 100 frames.
bool ReplayPlayer::load() {
  const std::string name = std::filesystem::path(path_).filename().string();
  try {
    RecordedSession recording = read_recording(path_);
    if (recording.last_k == 0) {
      listener_->failed(name + " holds no frame yet");
      return false;
    }
    MachineSetup setup;
    if (const std::string why = recorded_setup(recording, catalog_, &setup); !why.empty()) {
      listener_->failed(name + ": " + why);
      return false;
    }
    ReplayStart start = replay_start(recording, setup, catalog_, [this] { return !stopping(); });
    listener_->opened(recording, setup);
    run_ = std::make_unique<ReplayRun>(std::move(recording), std::move(setup), std::move(start));
    const bool done = run_->prepare([this](std::uint64_t d, std::uint64_t of) {
      listener_->progress(d, of);
      return !stopping();
    });
    if (done) listener_->ready(*run_);
    return done;
  } catch (const ReplayCancelled&) {
    return false;
  } catch (const std::exception& e) {   // record::McapError, std::invalid_argument, bad_alloc
    listener_->failed(name + ": " + without_path(e.what(), path_));
    return false;
  }
}

void ReplayPlayer::show(std::uint64_t k) {
  state_.k = std::clamp<std::uint64_t>(k, 1, run_->frames());
  listener_->frame(run_->frame(state_.k));
}

void ReplayPlayer::apply(const ReplayCommand& c) {
  if (c.speed) state_.speed = *c.speed;
  if (c.seek_k) show(*c.seek_k);
  if (c.play) {
    state_.playing = *c.play;
    // play at the end starts again from the beginning
    if (state_.playing && state_.k >= run_->frames()) show(1);
  }
  if (c.take_over) {
    state_.playing = false;
    auto seed = std::make_shared<SessionSeed>(SessionSeed{run_->stepper(),
        std::filesystem::path(path_).filename().string(), run_->position()});
    listener_->taken_over(std::move(seed));
  }
}

// Frames are shown at up to 20 per second of wall time; at a speed above 1 each shown
// frame skips the ones between (all of them are still integrated), below 1 they are shown
// less often. The schedule is absolute from the last command, so it does not drift.
void ReplayPlayer::run() {
  try {
    if (load()) play();
  } catch (const std::exception& e) {   // a bug, not a recording: the viewer is told, the server goes on
    listener_->failed(std::filesystem::path(path_).filename().string() + ": " + e.what());
  }
}

void ReplayPlayer::play() {
  show(start_k_ == 0 ? 1 : start_k_);
  listener_->state(state_);
  using clock = std::chrono::steady_clock;
  const double period = run_->frame_period_s();
  clock::time_point origin = clock::now();
  std::uint64_t origin_k = state_.k;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    if (!pending_.empty()) {
      std::vector<ReplayCommand> commands;
      commands.swap(pending_);
      lock.unlock();
      for (const ReplayCommand& c : commands) apply(c);
      listener_->state(state_);
      origin = clock::now();
      origin_k = state_.k;
      lock.lock();
      continue;
    }
    if (!state_.playing) {
      wake_.wait(lock, [this] { return stop_ || !pending_.empty(); });
      continue;
    }
    // the next frame to show, and when
    const double shown_per_s = std::min(1.0, state_.speed) / period;   // wall rate of shows
    const double elapsed = std::chrono::duration<double>(clock::now() - origin).count();
    const auto shows = static_cast<std::uint64_t>(std::floor(elapsed * shown_per_s)) + 1;
    const auto step = static_cast<std::uint64_t>(std::max(1.0, state_.speed));
    const auto due = origin + std::chrono::duration_cast<clock::duration>(
                                  std::chrono::duration<double>(static_cast<double>(shows) / shown_per_s));
    if (wake_.wait_until(lock, due, [this] { return stop_ || !pending_.empty(); })) continue;
    lock.unlock();
    const std::uint64_t k = std::min(run_->frames(), origin_k + shows * step);
    show(k);
    if (k >= run_->frames()) {
      state_.playing = false;
      listener_->state(state_);
    }
    lock.lock();
  }
}

}  // namespace clamsim::session
