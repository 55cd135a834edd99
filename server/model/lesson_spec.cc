#include "model/lesson_spec.h"

#include <array>

namespace clamsim::model {

namespace {

struct KindName {
  LessonCheckKind kind;
  const char* name;
};
constexpr std::array<KindName, 6> kKinds{{
    {LessonCheckKind::ClamLowered, "clam_lowered"},
    {LessonCheckKind::JawsOpened, "jaws_opened"},
    {LessonCheckKind::LoadGripped, "load_gripped"},
    {LessonCheckKind::LoadLifted, "load_lifted"},
    {LessonCheckKind::LoadSwung, "load_swung"},
    {LessonCheckKind::LoadSetDown, "load_set_down"},
}};

std::string kind_choices() {
  std::string s;
  for (const KindName& k : kKinds) s += std::string(s.empty() ? "" : ", ") + "\"" + k.name + "\"";
  return s;
}

LessonCheck read_check(Section s) {
  LessonCheck c;
  const std::string kind = s.text("kind");
  bool known = false;
  for (const KindName& k : kKinds)
    if (kind == k.name) {
      c.kind = k.kind;
      known = true;
    }
  if (!known) s.fail("kind", "expected one of " + kind_choices() + ", got \"" + kind + "\"");
  // only the amount the kind measures: any other key is unknown
  if (c.kind == LessonCheckKind::ClamLowered || c.kind == LessonCheckKind::LoadLifted)
    c.by_m = s.number("by_m", Quantity::above("m", unit::one, 0.0, 50.0));
  if (c.kind == LessonCheckKind::LoadSwung)
    c.by_deg = s.number("by_deg", Quantity::above("deg", unit::one, 0.0, 180.0));
  // optional for the jaws: open this far (the HUD's clam opening), short of the stop
  if (c.kind == LessonCheckKind::JawsOpened && s.has("by_deg"))
    c.by_deg = s.number("by_deg", Quantity::above("deg", unit::one, 0.0, 180.0));
  if (c.kind == LessonCheckKind::LoadGripped)
    c.times_weight = s.number("times_weight", Quantity::above("", unit::one, 0.0, 10.0));
  s.note();
  s.finish();
  return c;
}

// [[signal, direction], ...]: signal 0..4 (swing, boom, telescope, cable 1, cable 2),
// direction +1 or -1 as the browser's key bindings give them.
std::vector<std::pair<int, int>> read_signals(Section& s) {
  const nlohmann::json& v = s.value("signals");
  if (!v.is_array() || v.empty() || v.size() > static_cast<std::size_t>(kControlSignals))
    s.fail("signals", "expected 1 to 5 [signal, direction] pairs");
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const nlohmann::json& p = v[i];
    const std::string where = "signals[" + std::to_string(i) + "]";
    if (!p.is_array() || p.size() != 2 || !p[0].is_number_integer() || !p[1].is_number_integer())
      s.fail(where, "expected [signal, direction], two integers");
    const int signal = p[0].get<int>(), direction = p[1].get<int>();
    if (signal < 0 || signal >= kControlSignals)
      s.fail(where, "signal " + std::to_string(signal) +
                        " is not 0 (swing), 1 (boom), 2 (telescope), 3 (cable 1) or 4 (cable 2)");
    if (direction != 1 && direction != -1)
      s.fail(where, "direction " + std::to_string(direction) + " is not 1 or -1");
    out.emplace_back(signal, direction);
  }
  return out;
}

LessonStep read_step(Section& s) {
  LessonStep step;
  step.goal = s.text("goal");
  if (step.goal.empty()) s.fail("goal", "expected a sentence, got \"\"");
  if (s.has("label")) {
    step.label = s.text("label");
    if (step.label.empty() || step.label.size() > 40)
      s.fail("label", "expected a few words (1 to 40 characters), got \"" + step.label + "\"");
  }
  for (Section& c : s.objects("controls", 1, 4)) {
    LessonControl control;
    control.does = c.text("does");
    control.signals = read_signals(c);
    if (c.has("half_speed")) control.half_speed = c.flag("half_speed");
    c.note();
    c.finish();
    step.controls.push_back(std::move(control));
  }
  step.check = read_check(s.child("check"));
  s.note();
  s.finish();
  return step;
}

}  // namespace

const char* to_string(LessonCheckKind k) {
  for (const KindName& n : kKinds)
    if (n.kind == k) return n.name;
  return "?";
}

bool needs_held_load(LessonCheckKind k) {
  return k == LessonCheckKind::LoadLifted || k == LessonCheckKind::LoadSwung;
}

LessonSpec read_lesson(Section s) {
  LessonSpec l;
  l.enabled = true;
  l.title = s.text("title");
  for (Section& step : s.objects("steps", 1, kMaxLessonSteps)) l.steps.push_back(read_step(step));
  s.note();
  s.finish();
  return l;
}

nlohmann::ordered_json client_lesson(const LessonSpec& lesson) {
  using ojson = nlohmann::ordered_json;
  ojson steps = ojson::array();
  for (const LessonStep& st : lesson.steps) {
    ojson controls = ojson::array();
    for (const LessonControl& c : st.controls) {
      ojson signals = ojson::array();
      for (const auto& [signal, direction] : c.signals) signals.push_back({signal, direction});
      ojson control = {{"does", c.does}, {"signals", std::move(signals)}};
      if (c.half_speed) control["half_speed"] = true;
      controls.push_back(std::move(control));
    }
    ojson check = {{"kind", to_string(st.check.kind)}};
    if (st.check.by_m > 0.0) check["by_m"] = st.check.by_m;
    if (st.check.by_deg > 0.0) check["by_deg"] = st.check.by_deg;
    if (st.check.times_weight > 0.0) check["times_weight"] = st.check.times_weight;
    ojson step = {{"goal", st.goal}};
    if (!st.label.empty()) step["label"] = st.label;
    step["controls"] = std::move(controls);
    step["check"] = std::move(check);
    steps.push_back(std::move(step));
  }
  return {{"title", lesson.title}, {"steps", std::move(steps)}};
}

}  // namespace clamsim::model
