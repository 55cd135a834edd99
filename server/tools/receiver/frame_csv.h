// The receiver's record of every frame it got: one CSV row per frame, with the arrival
// time, the volts it was sending at that moment and the frame's values. Column names match
// clamsim-sim's CSV where the quantity is the same (docs/receiver.md lists them).
#pragma once

#include <array>
#include <cstdio>
#include <string>

#include "tools/client/received_frame.h"

namespace clamsim::receiver {

class FrameCsv {
 public:
  // Throws std::runtime_error when the file cannot be created.
  explicit FrameCsv(const std::string& path);
  ~FrameCsv();
  FrameCsv(const FrameCsv&) = delete;
  FrameCsv& operator=(const FrameCsv&) = delete;

  // `t0_s`: the arrival clock's value at subscription; rows show arrival_s - t0_s.
  void row(const client::ReceivedFrame& f, double t0_s, const std::array<float, 5>& volts);
  // Flushes and closes; false when any write failed.
  bool close();

  static std::string header();

 private:
  std::FILE* out_ = nullptr;
  bool ok_ = true;
};

}  // namespace clamsim::receiver
