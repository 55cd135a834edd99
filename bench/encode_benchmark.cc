// Encoding one frame for the wire, each transport through its real code: the
// WebSocket display JSON through the sink's encoder into a reused buffer, and the CORBA
// frame converted into the sink's reused IDL struct and marshalled by omniORB's generated
// stubs into a cdrMemoryStream (what a oneway call puts on the wire, without the socket).
// The frame: the shipped machine in the dam world, 5 s into a swing with the clam closing.
#include <benchmark/benchmark.h>

#include <string>

#include <omniORB4/CORBA.h>

#include "core/machine.h"
#include "corba/convert.h"
#include "model/machine_file.h"
#include "model/scenario_file.h"
#include "web/frame_json.h"

namespace {

using namespace clamsim;

session::Frame dam_frame() {
  const core::MachineParams m =
      model::load_machine_file(std::string(CLAMSIM_SOURCE_DIR) + "/models/t250.json");
  const model::Scenario sc = model::load_scenario_file(
      std::string(CLAMSIM_SOURCE_DIR) + "/config/scenarios/dam_intake.json", m);
  const core::Environment env{&sc.world};
  core::State st = core::initial_state(m, sc.start);
  core::reset_world(sc.world, st.world);
  core::Control u;
  u.volts = {2.0, 2.0, 1.0, -2.0, 2.0};
  core::advance_to(m, st, u, env, 5.0);
  session::Frame f;
  f.seq = 100;
  f.outputs = core::outputs(m, st, env);
  return f;
}

void BM_EncodeJson(benchmark::State& bs) {
  const session::Frame f = dam_frame();
  const web::DisplayEncoder encoder(nlohmann::ordered_json::array());
  std::string text;
  for (auto _ : bs) {
    encoder.encode(f, text);
    benchmark::DoNotOptimize(text.data());
  }
  bs.SetItemsProcessed(bs.iterations());
  bs.counters["bytes"] = static_cast<double>(text.size());
}
BENCHMARK(BM_EncodeJson)->Unit(benchmark::kMicrosecond);

void BM_EncodeCorba(benchmark::State& bs) {
  int argc = 0;
  CORBA::ORB_var orb = CORBA::ORB_init(argc, nullptr);  // codesets for the strings
  const session::Frame f = dam_frame();
  CLAMX::Frame idl;
  cdrMemoryStream stream;
  for (auto _ : bs) {
    corba::to_frame(f, idl, nullptr);
    stream.rewindPtrs();
    idl >>= stream;
    benchmark::DoNotOptimize(stream.bufPtr());
  }
  bs.SetItemsProcessed(bs.iterations());
  bs.counters["bytes"] = static_cast<double>(stream.bufSize());
  orb->destroy();
}
BENCHMARK(BM_EncodeCorba)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
