#include "tools/receiver/keyboard_keys.h"

#include <algorithm>
#include <utility>

namespace clamsim::receiver {

namespace {

// The restart key's "does" with how to confirm it: "restart task (R again or y confirms)".
std::string restart_does(const model::KeyboardLayout& layout) {
  const model::KeyBinding& r = layout.action(model::KeyAction::Restart);
  return r.does + " (" + r.label + " again or y confirms)";
}

}  // namespace

KeyboardKeys::KeyboardKeys(const model::KeyboardLayout& layout, float step_v)
    : step_v_(step_v), restart_label_(layout.action(model::KeyAction::Restart).label) {
  const auto bind = [&](const std::string& code, const Target& t) {
    for (const std::string& seq : model::terminal_sequences(code)) sequences_[seq] = t;
  };
  for (std::size_t i = 0; i < layout.signals.size(); ++i) {
    const int channel = static_cast<int>(i);
    bind(layout.signals[i].plus.code, Target{channel, +1.0f, model::KeyAction::Quit});
    bind(layout.signals[i].minus.code, Target{channel, -1.0f, model::KeyAction::Quit});
  }
  for (model::KeyAction a : {model::KeyAction::Restart, model::KeyAction::Help,
                             model::KeyAction::Zero, model::KeyAction::Quit})
    bind(layout.action(a).code, Target{-1, 0.0f, a});
}

int KeyboardKeys::match() const {
  const auto it = sequences_.lower_bound(pending_);
  if (it == sequences_.end() || it->first.compare(0, pending_.size(), pending_) != 0) return 0;
  return it->first == pending_ ? 2 : 1;
}

void KeyboardKeys::feed(std::string_view bytes) {
  for (const char c : bytes) {
    pending_ += c;
    int m = match();
    if (m == 0 && pending_.size() > 1) {
      // an escape sequence we do not use (F1, Home, ...): drop it, keep this byte
      pending_.assign(1, c);
      m = match();
    }
    if (m == 0 && confirming_) {
      // a key of no meaning in the layout answers the restart's question: y (either case)
      // says yes, anything else no
      confirming_ = false;
      restart_ = pending_ == "y" || pending_ == "Y";
      notice_ = restart_ ? "" : "restart not confirmed: the attempt goes on";
    }
    if (m == 2) apply(sequences_.at(pending_));
    if (m != 1) pending_.clear();
  }
}

void KeyboardKeys::apply(const Target& t) {
  if (confirming_) {
    confirming_ = false;
    if (t.channel < 0 && t.action == model::KeyAction::Restart) {
      restart_ = true;
      notice_.clear();
      return;
    }
    notice_ = "restart not confirmed: the attempt goes on";
  }
  if (t.channel < 0 && t.action == model::KeyAction::Restart) {
    confirming_ = true;
    notice_ = "restart the task? " + restart_label_ +
              " again or y: yes, a new attempt; any other key: no";
    return;
  }
  if (t.channel >= 0) {
    float& v = volts_[static_cast<std::size_t>(t.channel)];
    v = std::clamp(v + t.sign * step_v_, -5.0f, 5.0f);
    return;
  }
  switch (t.action) {
    case model::KeyAction::Zero: zero(); break;
    case model::KeyAction::Quit: quit_ = true; break;
    case model::KeyAction::Restart: break;  // asked above
    case model::KeyAction::Help: help_ = true; break;
    case model::KeyAction::HalfSpeed: break;  // the browser's: keys are not held here
  }
}

bool KeyboardKeys::take_restart() { return std::exchange(restart_, false); }

bool KeyboardKeys::take_help() { return std::exchange(help_, false); }

std::string KeyboardKeys::take_notice() { return std::exchange(notice_, std::string()); }

std::string keyboard_legend(const model::KeyboardLayout& layout) {
  std::string out = "keys: ";
  for (const model::SignalKeys& s : layout.signals)
    out += s.plus.label + "/" + s.minus.label + " " + s.label + "  ";
  out.replace(out.size() - 2, 2, "\n      ");
  for (model::KeyAction a : {model::KeyAction::Zero, model::KeyAction::Restart,
                             model::KeyAction::Help, model::KeyAction::Quit}) {
    const model::KeyBinding& b = layout.action(a);
    out += b.label + " " + (a == model::KeyAction::Restart ? restart_does(layout) : b.does) + "  ";
  }
  out.replace(out.size() - 2, 2, "\n");
  return out;
}

}  // namespace clamsim::receiver
