#include "web/client_message.h"

#include <gtest/gtest.h>

namespace clamsim::web {
namespace {

using T = ClientMessage::Type;

TEST(ClientMessage, ParsesControl) {
  const auto m = parse_client_message(R"({"type":"control","volts":[1,-2.5,0,5,-5]})");
  ASSERT_EQ(m.type, T::Control);
  EXPECT_EQ(m.volts, (std::array<double, 5>{1, -2.5, 0, 5, -5}));
}

TEST(ClientMessage, ParsesPingAndKeepsItsIdAsSent) {
  auto m = parse_client_message(R"({"type":"ping","id":"a7","t":12.5})");
  ASSERT_EQ(m.type, T::Ping);
  EXPECT_EQ(m.id, "a7");
  EXPECT_EQ(m.ping_t, 12.5);
  m = parse_client_message(R"({"type":"ping"})");
  ASSERT_EQ(m.type, T::Ping);
  EXPECT_TRUE(m.id.is_null());
}

TEST(ClientMessage, ParsesRestartWithAnOptionalId) {
  auto m = parse_client_message(R"({"type":"restart"})");
  ASSERT_EQ(m.type, T::Restart);
  EXPECT_TRUE(m.id.is_null());
  m = parse_client_message(R"({"type":"restart","id":3})");
  ASSERT_EQ(m.type, T::Restart);
  EXPECT_EQ(m.id, 3);
  EXPECT_FALSE(m.practice);
  m = parse_client_message(R"({"type":"restart","practice":true})");
  ASSERT_EQ(m.type, T::Restart);
  EXPECT_TRUE(m.practice);
}

TEST(ClientMessage, ParsesTraineeWithItsNameAsSent) {
  const auto m = parse_client_message(R"({"type":"trainee","name":"  Ada "})");
  ASSERT_EQ(m.type, T::Trainee);
  EXPECT_EQ(m.trainee, "  Ada ") << "the session layer trims and checks it";
}

TEST(ClientMessage, NamesWhatIsWrong) {
  struct Case {
    const char* text;
    const char* code;
    const char* message;   // how the message starts
  };
  const Case cases[] = {
      {"", "bad_json", "not JSON"},
      {"{", "bad_json", "not JSON"},
      {"42", "bad_json", "not a JSON object (got number)"},
      {R"({"type": 3})", "bad_message", "\"type\" is a number, expected a string"},
      {R"({"type": "jump"})", "unknown_type", "unknown message type \"jump\""},
      {R"({"type": "control"})", "bad_message", "control: missing \"volts\""},
      {R"({"type": "control", "volts": 5})", "bad_control", "volts is not an array (got number)"},
      {R"({"type": "control", "volts": [1,2,3,4,5,6]})", "bad_control",
       "volts has 6 values, expected 5"},
      {R"({"type": "control", "volts": [0,0,0,true,0]})", "bad_control",
       "volts[3] (main hoist) is not a number (got boolean)"},
      {R"({"type": "ping", "t": "now"})", "bad_message", "ping: t is a string, expected a number"},
      {R"({"type": "restart", "id": {"a": 1}})", "bad_message",
       "restart: id is a object, expected a number or a string"},
      {R"({"type": "restart", "volts": [0,0,0,0,0]})", "bad_message",
       "restart: unexpected field \"volts\""},
      {R"({"type": "restart", "practice": "yes"})", "bad_message",
       "restart: practice is a string, expected true or false"},
      {R"({"type": "Restart"})", "unknown_type", "unknown message type \"Restart\""},
      {R"({"type": "trainee"})", "bad_message", "trainee: missing \"name\""},
      {R"({"type": "trainee", "name": 7})", "bad_message",
       "trainee: name is a number, expected a string"},
      {R"({"type": "trainee", "name": "Ada", "id": 1})", "bad_message",
       "trainee: unexpected field \"id\""},
  };
  for (const Case& k : cases) {
    const auto m = parse_client_message(k.text);
    EXPECT_EQ(m.type, T::Invalid) << k.text;
    EXPECT_EQ(m.error_code, k.code) << k.text;
    EXPECT_EQ(m.error_message.rfind(k.message, 0), 0u)
        << k.text << " -> " << m.error_message;
  }
}

TEST(ClientMessage, AVeryLongTypeIsShortenedInTheMessage) {
  const std::string t(1000, 'x');
  const auto m = parse_client_message(R"({"type":")" + t + R"("})");
  EXPECT_EQ(m.error_code, "unknown_type");
  EXPECT_LT(m.error_message.size(), 80u);
}

// The last of two equal keys used to win silently, so two readers could see two messages.
TEST(ClientMessage, DuplicateKeysAreRefusedAtAnyDepth) {
  for (const char* text : {R"({"type":"control","type":"ping"})",
                           R"({"type":"control","volts":[0,0,0,0,0],"volts":[5,5,5,5,5]})",
                           R"({"type":"ping","id":{"a":1,"a":2}})",
                           R"({"type":"trainee","name":"Ada","name":"Eve"})"}) {
    const auto m = parse_client_message(text);
    ASSERT_EQ(m.type, T::Invalid) << text;
    EXPECT_EQ(m.error_code, "bad_json") << text;
    EXPECT_NE(m.error_message.find("duplicate key"), std::string::npos) << m.error_message;
  }
  EXPECT_NE(parse_client_message(R"({"type":"control","type":"ping"})").error_message.find("\"type\""),
            std::string::npos);
  // the same key in sibling objects is not a duplicate
  const auto m = parse_client_message(R"({"type":"ping","id":"x","t":1,"x":[{"a":1},{"a":2}]})");
  EXPECT_EQ(m.type, T::Ping) << m.error_message;
}

}  // namespace
}  // namespace clamsim::web
