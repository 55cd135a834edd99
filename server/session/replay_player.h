// Plays one recording for a debrief (docs/recording.md "Debrief"), on its own
// thread as a live session runs on its own: reads the file, checks it against the
// catalog's model and world, re-simulates it once (ReplayRun::prepare, reporting
// progress), then shows frames at the chosen speed, seeks, pauses, and hands out the state
// of the shown frame for a take-over. Transport-neutral: what it produces goes to a
// ReplayListener, which a transport implements.
#pragma once

#include <array>
#include <condition_variable>
#include <deque>
#include <functional>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "session/replay_run.h"
#include "session/session.h"

namespace clamsim::session {

// The speeds a replay plays at, the browser's choice among them.
inline constexpr std::array<double, 7> kReplaySpeeds{0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0};
bool replay_speed_allowed(double speed);

struct ReplayState {
  bool playing = false;
  double speed = 1.0;
  std::uint64_t k = 0;   // the frame shown
};

// What a replay produces, called on the player's thread in this order: opened, progress
// (repeatedly), ready, then frames and states (and taken_over when asked) until the end;
// failed instead whenever the recording cannot be replayed. Each must return promptly.
class ReplayListener {
 public:
  virtual ~ReplayListener() = default;
  virtual void opened(const RecordedSession& recording, const MachineSetup& setup) = 0;
  virtual void progress(std::uint64_t done, std::uint64_t of) = 0;
  virtual void ready(const ReplayRun& run) = 0;
  virtual void frame(const Frame& frame) = 0;
  virtual void state(const ReplayState& state) = 0;
  virtual void taken_over(std::shared_ptr<const SessionSeed> seed) = 0;
  virtual void failed(const std::string& why) = 0;
};

// A change asked for by the viewer; fields left empty stay as they are. Speeds and
// frames are checked by the caller (replay_speed_allowed, 1..frames); a seek past the end
// shows the last frame.
struct ReplayCommand {
  std::optional<bool> play;
  std::optional<double> speed;
  std::optional<std::uint64_t> seek_k;
  bool take_over = false;
};

class ReplayPlayer {
 public:
  // path: the recording; start_k: the frame shown first (0 = 1). The catalog outlives
  // the player.
  ReplayPlayer(std::string path, std::uint64_t start_k, const Catalog& catalog,
               std::shared_ptr<ReplayListener> listener);
  ~ReplayPlayer();   // stops and joins
  ReplayPlayer(const ReplayPlayer&) = delete;
  ReplayPlayer& operator=(const ReplayPlayer&) = delete;

  void start();
  // Asks the player to stop without waiting: its work ends within 100 frames (of preparing)
  // or one frame (of playing). stop() asks and joins: never on an I/O thread (PlayerReaper).
  void request_stop();
  void stop();
  // Thread-safe; applied in order by the player's thread.
  void command(const ReplayCommand& c);

 private:
  void run();
  bool load();                       // read, check, prepare; false = failed or stopped
  void play();                       // shows frames and applies commands until stopped
  bool stopping();
  void show(std::uint64_t k);        // frame k to the listener
  void apply(const ReplayCommand& c);

  const std::string path_;
  const std::uint64_t start_k_;
  const Catalog& catalog_;
  const std::shared_ptr<ReplayListener> listener_;
  std::unique_ptr<ReplayRun> run_;
  ReplayState state_;                // player thread only

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<ReplayCommand> pending_;
  bool stop_ = false;
  std::thread thread_;
};

// Joins stopped players on a thread of its own, so that a connection's I/O thread never
// waits for a player (a frame's work, or a recording being read and checked). `after` runs
// on that thread once the player's thread has ended: the transport frees its replay place
// there, so a place is never free while its player still works. The destructor joins the
// players still retired.
class PlayerReaper {
 public:
  PlayerReaper();
  ~PlayerReaper();
  PlayerReaper(const PlayerReaper&) = delete;
  PlayerReaper& operator=(const PlayerReaper&) = delete;

  void retire(std::unique_ptr<ReplayPlayer> player, std::function<void()> after = {});

 private:
  struct Retired {
    std::unique_ptr<ReplayPlayer> player;
    std::function<void()> after;
  };
  void reap();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Retired> retired_;
  bool closing_ = false;
  std::thread thread_;   // last: started once the rest is built
};

}  // namespace clamsim::session
