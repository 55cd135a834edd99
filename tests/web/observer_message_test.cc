// What an observer may send (web/observer_message.h), and the observer's own messages
// (web/observer_json.h): pure functions, no sockets.
#include "web/observer_message.h"

#include <gtest/gtest.h>

#include "web/observer_json.h"

namespace clamsim::web {
namespace {

TEST(ObserverMessage, PingIsTheOneMessageAnObserverMaySend) {
  const ObserverMessage m = parse_observer_message(R"({"type":"ping","id":3,"t":12.5})");
  ASSERT_EQ(m.type, ObserverMessage::Type::Ping);
  EXPECT_EQ(m.parsed.id, 3);
  EXPECT_EQ(m.parsed.ping_t, 12.5);
}

TEST(ObserverMessage, TheTraineesMessagesAreRefusedWellFormedOrNot) {
  for (const char* text : {R"({"type":"control","volts":[1,0,0,0,0]})", R"({"type":"control"})",
                           R"({"type":"restart"})", R"({"type":"trainee","name":"Eve"})"}) {
    const ObserverMessage m = parse_observer_message(text);
    EXPECT_EQ(m.type, ObserverMessage::Type::Invalid) << text;
    EXPECT_EQ(m.error_code, "observer_refused") << text;
    EXPECT_NE(m.error_message.find("only watches the session (an observer may send: ping)"),
              std::string::npos) << m.error_message;
  }
}

TEST(ObserverMessage, UnknownTypesNameWhatIsAllowedAndBadJsonIsNamed) {
  const ObserverMessage u = parse_observer_message(R"({"type":"take_control"})");
  EXPECT_EQ(u.error_code, "unknown_type");
  EXPECT_EQ(u.error_message, "unknown message type \"take_control\"; an observer may send: ping");
  EXPECT_EQ(parse_observer_message("{nope").error_code, "bad_json");
  EXPECT_EQ(parse_observer_message(R"({"type":"control","type":"ping"})").error_code, "bad_json")
      << "a duplicate key is refused before its type is looked at";
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
