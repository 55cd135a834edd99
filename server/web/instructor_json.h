// The JSON of what instructors change in a session (docs/websocket-protocol.md
// "Instructors"): who drives, the instructor's messages, the answers to an instructor's
// requests. The trainee's connection and the observers' get the same messages; an
// observer's also says whether it is the one holding control. Pure functions, run on the
// connections' strands.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "session/control_arbiter.h"
#include "session/instructor_desk.h"

namespace clamsim::web {

// {"type":"control","mode":"exclusive","holder":"ann","waiting":0[,"you":true]};
// `viewer`: the observer connection reading it, 0 for the trainee's (no "you").
std::string control_json(const session::ControlState& c, session::ClientId viewer);
// {"type":"instructor_message","from":"ann","text":"..."}
std::string instructor_message_json(const session::InstructorMessage& m);
// {"type":"faults","active":[...]}: an observer's list of the faults in force.
std::string faults_json(const nlohmann::json& active);
// What one frame's notices say to a connection, in order (control first); the faults only
// to observers (viewer != 0): the trainee is not told, as on the real machine.
std::vector<std::string> notices_json(const session::FrameNotices& n, session::ClientId viewer);
// {"type":"control_answer","request":"take_control","result":"granted","message":"..."}
std::string control_answer_json(const char* request, const session::ControlAnswer& a);

}  // namespace clamsim::web
