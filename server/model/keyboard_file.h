// The one keyboard layout of the browser client and of clamsim-receiver --keyboard
// (config/keyboard.json; docs/web-client.md and docs/receiver.md, "Keys"): which key drives
// each of the five signals in each direction, and the keys of the actions. Keys are named
// as the browser names them (KeyboardEvent.code: "KeyW", "ArrowUp"); the file gives each
// its label, and this loader knows which bytes a terminal sends for it.
//
// The server reads the file at start and gives it to the browser (GET /api/client-config,
// "keyboard", as to_json() writes it: the file's own shape); the receiver reads it itself.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace clamsim::model {

// The actions, in file order. Which program does which: half_speed the browser (keys are
// held there); zero and quit the receiver (its key presses latch); restart and help both.
enum class KeyAction { Restart, Help, HalfSpeed, Zero, Quit };
constexpr std::size_t kKeyActionCount = 5;

struct KeyBinding {
  std::string code;   // KeyboardEvent.code, e.g. "ArrowUp"
  std::string label;  // what the key says on the keyboard, e.g. "↑"
  std::string does;   // what it does, e.g. "up"
};

struct SignalKeys {
  std::string label;  // e.g. "cable 1"
  KeyBinding plus;    // positive volts: swing counter-clockwise, boom up, telescope out, reel in
  KeyBinding minus;
};

struct KeyboardLayout {
  std::array<SignalKeys, 5> signals;                // ControlSignal order
  std::array<KeyBinding, kKeyActionCount> actions;  // KeyAction order
  const KeyBinding& action(KeyAction a) const { return actions[static_cast<std::size_t>(a)]; }
};

// The names in the file, in ControlSignal / KeyAction order.
const char* keyboard_signal_name(std::size_t index);  // swing boom telescope cable1 cable2
const char* key_action_name(KeyAction a);             // restart help half_speed zero quit

// The byte sequences a terminal sends for a key (both cases of a letter, both arrow-key
// modes); empty for a key a terminal cannot report alone (Shift), or an unknown code.
std::vector<std::string> terminal_sequences(const std::string& code);

// Errors throw ModelError naming the field and the valid choices, e.g.
// "my.json: signals.boom.plus.key: unknown key "ArowUp" (keys are KeyboardEvent.code
// names: KeyA..KeyZ, Digit0..Digit9, ArrowUp, ...)".
KeyboardLayout parse_keyboard_layout(const nlohmann::json& doc, const std::string& origin);
KeyboardLayout load_keyboard_layout(const std::string& path);

// The layout in the file's shape (without its description), for the browser.
nlohmann::ordered_json to_json(const KeyboardLayout& layout);

}  // namespace clamsim::model
