#include "web/observer_json.h"

#include "web/observer_message.h"

namespace clamsim::web {

using ojson = nlohmann::ordered_json;
using session::ObserverEventKind;

namespace {

std::string dump(const ojson& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ojson load_id(const ojson& load_ids, int index) {
  if (index < 0) return nullptr;
  const auto i = static_cast<std::size_t>(index);
  return load_ids.is_array() && i < load_ids.size() ? load_ids[i] : ojson(index);
}

}  // namespace

std::string inputs_json(const session::ObservedFrame& f) {
  ojson j;
  j["type"] = "inputs";
  j["seq"] = f.frame.seq;
  j["volts"] = f.volts;
  return dump(j);
}

std::string events_json(const session::ObservedFrame& f, const ojson& load_ids) {
  ojson list = ojson::array();
  for (std::size_t i = 0; i < f.event_count; ++i) {
    const session::ObserverEvent& e = f.events[i];
    ojson item;
    item["kind"] = session::to_string(e.kind);
    switch (e.kind) {
      case ObserverEventKind::Grip:
      case ObserverEventKind::Release: item["load"] = load_id(load_ids, e.value); break;
      case ObserverEventKind::LessonStep: item["step"] = e.value; break;
      case ObserverEventKind::Delivered: item["delivered"] = e.value; break;
      case ObserverEventKind::TaskFinished: item["completed"] = e.value != 0; break;
      case ObserverEventKind::Restart: break;
      case ObserverEventKind::ControlChange:
        item["mode"] = session::to_string(static_cast<session::ControlMode>(e.value));
        break;
      default: item["count"] = e.value; break;
    }
    list.push_back(std::move(item));
  }
  ojson j;
  j["type"] = "events";
  j["seq"] = f.frame.seq;
  j["t"] = f.frame.outputs.time_s;
  j["events"] = std::move(list);
  return dump(j);
}

ojson observing_json(std::uint64_t session, const std::string& trainee,
                     const std::string& transport, const std::string& label) {
  ojson j;
  j["session"] = session;
  j["trainee"] = trainee.empty() ? ojson(nullptr) : ojson(trainee);
  j["transport"] = transport;
  j["label"] = label;
  j["may_send"] = ojson::array();
  for (const char* t : kObserverMessageTypes) j["may_send"].push_back(t);
  return j;
}

}  // namespace clamsim::web
