#include "model/keyboard_file.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "model/json_fields.h"

namespace clamsim::model {
namespace {

const std::string kShipped = std::string(CLAMSIM_SOURCE_DIR) + "/config/keyboard.json";

// The shipped file changed by `edit`, expected to fail with a message that begins with
// the file, the field and `problem`.
void expect_error(const std::function<void(nlohmann::json&)>& edit, const std::string& problem) {
  nlohmann::json doc = read_json_file(kShipped);
  edit(doc);
  try {
    parse_keyboard_layout(doc, "k.json");
    ADD_FAILURE() << "no error for " << doc.dump();
  } catch (const ModelError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("k.json: " + problem, 0), 0u) << e.what();
  }
}

TEST(KeyboardFile, TheShippedLayoutIsTheBrowsersKeys) {
  const KeyboardLayout k = load_keyboard_layout(kShipped);
  EXPECT_EQ(k.signals[0].plus.code, "ArrowLeft");  // swing counter-clockwise
  EXPECT_EQ(k.signals[1].plus.code, "ArrowUp");    // boom up
  EXPECT_EQ(k.signals[2].plus.code, "KeyW");       // telescope out
  EXPECT_EQ(k.signals[3].minus.code, "KeyA");      // cable 1 pay out
  EXPECT_EQ(k.signals[4].plus.code, "KeyE");       // cable 2 reel in
  EXPECT_EQ(k.signals[3].label, "cable 1");
  EXPECT_EQ(k.action(KeyAction::Restart).code, "KeyR");
  EXPECT_EQ(k.action(KeyAction::Help).label, "?");
  EXPECT_EQ(k.action(KeyAction::HalfSpeed).code, "Shift");
  EXPECT_EQ(k.action(KeyAction::Quit).code, "KeyX");
}

TEST(KeyboardFile, ToJsonIsTheFilesShapeWithoutTheDescription) {
  nlohmann::json doc = read_json_file(kShipped);
  doc.erase("description");
  EXPECT_EQ(nlohmann::json(to_json(load_keyboard_layout(kShipped))), doc);
}

TEST(KeyboardFile, TerminalSequences) {
  EXPECT_EQ(terminal_sequences("KeyW"), (std::vector<std::string>{"w", "W"}));
  EXPECT_EQ(terminal_sequences("Digit7"), (std::vector<std::string>{"7"}));
  EXPECT_EQ(terminal_sequences("ArrowUp"), (std::vector<std::string>{"\x1b[A", "\x1bOA"}));
  EXPECT_EQ(terminal_sequences("Space"), (std::vector<std::string>{" "}));
  EXPECT_EQ(terminal_sequences("Slash"), (std::vector<std::string>{"/", "?"}));
  EXPECT_TRUE(terminal_sequences("Shift").empty());
  EXPECT_TRUE(terminal_sequences("Keyw").empty());
  EXPECT_TRUE(terminal_sequences("F1").empty());
}

TEST(KeyboardFile, ErrorsNameTheFieldAndTheChoices) {
  expect_error([](auto& d) { d["signals"]["boom"]["plus"]["key"] = "ArowUp"; },
               "signals.boom.plus.key: unknown key \"ArowUp\" (keys are KeyboardEvent.code "
               "names: KeyA..KeyZ, Digit0..Digit9, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, "
               "Space, Slash, Shift)");
  expect_error([](auto& d) { d["signals"]["telescope"]["plus"]["key"] = "ArrowUp"; },
               "signals.telescope.plus.key: ArrowUp is already signals.boom.plus's key");
  expect_error([](auto& d) { d["actions"]["quit"]["key"] = "KeyQ"; },
               "actions.quit.key: KeyQ is already signals.cable1.plus's key");
  expect_error([](auto& d) { d["signals"]["swing"]["minus"]["key"] = "Shift"; },
               "signals.swing.minus.key: Shift cannot be typed on a terminal alone (only "
               "half_speed may use it)");
  expect_error([](auto& d) { d["actions"]["restart"]["key"] = "Digit2"; },
               "actions.restart.key: Digit2 is the browser's key for a view");
  expect_error([](auto& d) { d["actions"]["zero"]["key"] = "KeyM"; },
               "actions.zero.key: KeyM is the browser's key for the joystick mapping screen");
  expect_error([](auto& d) { d["signals"].erase("cable2"); }, "signals.cable2: missing");
  expect_error([](auto& d) { d["actions"].erase("help"); }, "actions.help: missing");
  expect_error([](auto& d) { d["signals"]["boom"]["plus"].erase("does"); },
               "signals.boom.plus.does: missing");
  expect_error([](auto& d) { d["signals"]["boom"]["label"] = 3; },
               "signals.boom.label: expected a string, got 3");
  expect_error([](auto& d) { d["version"] = 2; }, "version: only version 1 is understood, got 2");
  expect_error([](auto& d) { d["actions"]["jump"] = d["actions"]["quit"]; },
               "actions.jump: unknown key");
}

TEST(KeyboardFile, AMissingOrBrokenFileIsAnError) {
  EXPECT_THROW(load_keyboard_layout("/nonexistent/keyboard.json"), ModelError);
  try {
    parse_keyboard_layout(nlohmann::json::array(), "k.json");
    ADD_FAILURE();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("k.json"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace clamsim::model
