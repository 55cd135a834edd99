// What an observer may send (web/observer_message.h), and the observer's own messages
// (web/observer_json.h): pure functions, no sockets.
#include "web/observer_message.h"

#include <gtest/gtest.h>

#include "web/observer_json.h"

namespace clamsim::web {
namespace {

TEST(ObserverMessage, PingAndControlAreParsedAsTheTraineesAre) {
  const ObserverMessage m = parse_observer_message(R"({"type":"ping","id":3,"t":12.5})");
  ASSERT_EQ(m.type, ObserverMessage::Type::Ping);
  EXPECT_EQ(m.parsed.id, 3);
  EXPECT_EQ(m.parsed.ping_t, 12.5);
  // an instructor's stick: whether it may drive is the session's answer (control_arbiter.h)
  const ObserverMessage c = parse_observer_message(R"({"type":"control","volts":[1,0,0,0,-2]})");
  ASSERT_EQ(c.type, ObserverMessage::Type::Control);
  EXPECT_EQ(c.parsed.volts[4], -2.0);
  EXPECT_EQ(parse_observer_message(R"({"type":"control"})").error_code, "bad_message");
}

TEST(ObserverMessage, TheInstructorsRequestsAreParsedWithTheirFields) {
  ObserverMessage m = parse_observer_message(R"({"type":"take_control"})");
  EXPECT_EQ(m.type, ObserverMessage::Type::TakeControl);
  EXPECT_FALSE(m.wait);
  m = parse_observer_message(R"({"type":"share_control","wait":true})");
  EXPECT_EQ(m.type, ObserverMessage::Type::ShareControl);
  EXPECT_TRUE(m.wait);
  EXPECT_EQ(parse_observer_message(R"({"type":"release_control"})").type,
            ObserverMessage::Type::ReleaseControl);
  m = parse_observer_message(R"({"type":"message","text":"Slower"})");
  EXPECT_EQ(m.type, ObserverMessage::Type::Message);
  EXPECT_EQ(m.text, "Slower");
  m = parse_observer_message(R"({"type":"fault","name":"burst_hose","params":{"function":"boom"}})");
  EXPECT_EQ(m.type, ObserverMessage::Type::Fault);
  EXPECT_EQ(m.fault, "burst_hose");
  EXPECT_EQ(m.params.at("function"), "boom");
  m = parse_observer_message(R"({"type":"clear_fault","name":"all"})");
  EXPECT_EQ(m.type, ObserverMessage::Type::ClearFault);
  EXPECT_TRUE(m.params.is_object() && m.params.empty());
}

TEST(ObserverMessage, BadFieldsAreNamed) {
  const auto error = [](const char* text) { return parse_observer_message(text).error_message; };
  EXPECT_EQ(error(R"({"type":"take_control","wait":"yes"})"),
            "take_control: wait is a string, expected true or false");
  EXPECT_EQ(error(R"({"type":"release_control","now":1})"),
            "release_control: unexpected field \"now\" (release_control takes nothing else)");
  EXPECT_EQ(error(R"({"type":"message","text":3})"), "message: expected \"text\", a string");
  EXPECT_NE(error(R"({"type":"fault"})").find("expected \"name\""), std::string::npos);
  EXPECT_EQ(error(R"({"type":"fault","name":"x","params":[1]})"),
            "fault: params is a array, expected an object");
  EXPECT_EQ(error(R"({"type":"share_control","mode":"x"})"),
            "share_control: unexpected field \"mode\" (share_control takes wait)");
}

TEST(ObserverMessage, TheTraineesOwnMessagesAreRefused) {
  for (const char* text : {R"({"type":"restart"})", R"({"type":"trainee","name":"Eve"})"}) {
    const ObserverMessage m = parse_observer_message(text);
    EXPECT_EQ(m.type, ObserverMessage::Type::Invalid) << text;
    EXPECT_EQ(m.error_code, "observer_refused") << text;
    EXPECT_NE(m.error_message.find("it is the trainee's (an observer may send: ping, "
                                   "take_control,"),
              std::string::npos) << m.error_message;
  }
}

TEST(ObserverMessage, UnknownTypesNameWhatIsAllowedAndBadJsonIsNamed) {
  const ObserverMessage u = parse_observer_message(R"({"type":"take_the_wheel"})");
  EXPECT_EQ(u.error_code, "unknown_type");
  EXPECT_EQ(u.error_message,
            "unknown message type \"take_the_wheel\"; an observer may send: ping, take_control, "
            "share_control, release_control, control, message, fault, clear_fault");
  EXPECT_EQ(parse_observer_message("{nope").error_code, "bad_json");
  EXPECT_EQ(parse_observer_message(R"({"type":"control","type":"ping"})").error_code, "bad_json")
      << "a duplicate key is refused before its type is looked at";
  EXPECT_EQ(parse_observer_message(R"({"type":"take_control","wait":true,"wait":false})").error_code,
            "bad_json");
  EXPECT_EQ(parse_observer_message(R"({"type":"ping","t":"x"})").error_code, "bad_message");
}

TEST(ObserverJson, InputsAndEventsNameTheirFrameAndLoads) {
  session::ObservedFrame f;
  f.frame.seq = 41;
  f.frame.outputs.time_s = 2.5;
  f.volts = {3.5, 0, 0, -1.5, 0};
  EXPECT_EQ(inputs_json(f), R"({"type":"inputs","seq":41,"volts":[3.5,0.0,0.0,-1.5,0.0]})");
  f.events[f.event_count++] = {session::ObserverEventKind::Grip, 1};
  f.events[f.event_count++] = {session::ObserverEventKind::RackGateHit, 2};
  f.events[f.event_count++] = {session::ObserverEventKind::LessonStep, 3};
  const nlohmann::ordered_json ids = nlohmann::ordered_json::array({"log-0", "log-1"});
  EXPECT_EQ(events_json(f, ids),
            R"({"type":"events","seq":41,"t":2.5,"events":[{"kind":"grip","load":"log-1"},)"
            R"({"kind":"rack_gate_hit","count":2},{"kind":"lesson_step","step":3}]})");
}

}  // namespace
}  // namespace clamsim::web
