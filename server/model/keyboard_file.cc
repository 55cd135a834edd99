#include "model/keyboard_file.h"

#include <map>

#include "model/json_fields.h"

namespace clamsim::model {

namespace {

constexpr std::array<const char*, 5> kSignals = {"swing", "boom", "telescope", "cable1",
                                                 "cable2"};
constexpr std::array<const char*, kKeyActionCount> kActions = {"restart", "help", "half_speed",
                                                               "zero", "quit"};

constexpr const char* kKnownKeys =
    "KeyA..KeyZ, Digit0..Digit9, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Space, Slash, "
    "Shift";

// The browser's own shortcuts (web/js/main.js): the views and the joystick mapping screen.
const char* reserved_for(const std::string& code) {
  if (code.size() == 6 && code.rfind("Digit", 0) == 0 && code[5] >= '1' && code[5] <= '5')
    return "the browser's key for a view";
  if (code == "KeyM") return "the browser's key for the joystick mapping screen";
  return nullptr;
}

bool known_key(const std::string& code) {
  return code == "Shift" || !terminal_sequences(code).empty();
}

KeyBinding parse_binding(Section s) {
  KeyBinding b;
  b.code = s.text("key");
  if (!known_key(b.code))
    s.fail("key", "unknown key \"" + b.code + "\" (keys are KeyboardEvent.code names: " +
                      kKnownKeys + ")");
  if (const char* why = reserved_for(b.code)) s.fail("key", b.code + " is " + why);
  b.label = s.text("label");
  b.does = s.text("does");
  if (b.label.empty()) s.fail("label", "empty");
  if (b.does.empty()) s.fail("does", "empty");
  s.finish();
  return b;
}

// One key, one meaning; and the receiver must be able to read every key it acts on.
void check_keys(const KeyboardLayout& layout, Section& root) {
  std::map<std::string, std::string> used;  // code -> the field that took it
  const auto take = [&](const KeyBinding& b, const std::string& field, bool terminal) {
    const auto [it, fresh] = used.emplace(b.code, field);
    if (!fresh) root.fail(field + ".key", b.code + " is already " + it->second + "'s key");
    if (terminal && terminal_sequences(b.code).empty())
      root.fail(field + ".key", b.code + " cannot be typed on a terminal alone (only half_speed "
                                         "may use it)");
  };
  for (std::size_t i = 0; i < kSignals.size(); ++i) {
    const std::string name = std::string("signals.") + kSignals[i];
    take(layout.signals[i].plus, name + ".plus", true);
    take(layout.signals[i].minus, name + ".minus", true);
  }
  for (std::size_t i = 0; i < kActions.size(); ++i) {
    const bool browser_only = static_cast<KeyAction>(i) == KeyAction::HalfSpeed;
    take(layout.actions[i], std::string("actions.") + kActions[i], !browser_only);
  }
}

}  // namespace

const char* keyboard_signal_name(std::size_t index) { return kSignals.at(index); }

const char* key_action_name(KeyAction a) { return kActions.at(static_cast<std::size_t>(a)); }

std::vector<std::string> terminal_sequences(const std::string& code) {
  if (code.size() == 4 && code.rfind("Key", 0) == 0 && code[3] >= 'A' && code[3] <= 'Z')
    return {std::string(1, static_cast<char>(code[3] - 'A' + 'a')), std::string(1, code[3])};
  if (code.size() == 6 && code.rfind("Digit", 0) == 0 && code[5] >= '0' && code[5] <= '9')
    return {std::string(1, code[5])};
  // arrows: ESC [ X in normal cursor mode, ESC O X in application mode
  static const std::map<std::string, char> kArrows = {
      {"ArrowUp", 'A'}, {"ArrowDown", 'B'}, {"ArrowRight", 'C'}, {"ArrowLeft", 'D'}};
  if (const auto it = kArrows.find(code); it != kArrows.end())
    return {std::string("\x1b[") + it->second, std::string("\x1bO") + it->second};
  if (code == "Space") return {" "};
  if (code == "Slash") return {"/", "?"};
  return {};
}

KeyboardLayout parse_keyboard_layout(const nlohmann::json& doc, const std::string& origin) {
  Section root(doc, origin);
  root.allow("description");  // free text for people
  const double version = root.number("version", 1.0, Bounds::finite());
  if (version != 1.0)
    root.fail("version", "only version 1 is understood, got " + format_number(version));
  KeyboardLayout layout;
  Section signals = root.child("signals");
  for (std::size_t i = 0; i < kSignals.size(); ++i) {
    Section s = signals.child(kSignals[i]);
    layout.signals[i].label = s.text("label");
    layout.signals[i].plus = parse_binding(s.child("plus"));
    layout.signals[i].minus = parse_binding(s.child("minus"));
    s.finish();
  }
  signals.finish();
  Section actions = root.child("actions");
  for (std::size_t i = 0; i < kActions.size(); ++i)
    layout.actions[i] = parse_binding(actions.child(kActions[i]));
  actions.finish();
  root.finish();
  check_keys(layout, root);
  return layout;
}

KeyboardLayout load_keyboard_layout(const std::string& path) {
  return parse_keyboard_layout(read_json_file(path), path);
}

nlohmann::ordered_json to_json(const KeyboardLayout& layout) {
  const auto binding = [](const KeyBinding& b) {
    return nlohmann::ordered_json{{"key", b.code}, {"label", b.label}, {"does", b.does}};
  };
  nlohmann::ordered_json signals = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < kSignals.size(); ++i) {
    const SignalKeys& s = layout.signals[i];
    signals[kSignals[i]] = {{"label", s.label}, {"plus", binding(s.plus)},
                            {"minus", binding(s.minus)}};
  }
  nlohmann::ordered_json actions = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < kActions.size(); ++i) actions[kActions[i]] = binding(layout.actions[i]);
  return {{"version", 1}, {"signals", signals}, {"actions", actions}};
}

}  // namespace clamsim::model
