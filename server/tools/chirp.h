// A frequency response of one channel: clamsim-sim --chirp (docs/offline-simulator.md,
// docs/validation.md). A logarithmic sine sweep run as a stepped sine: a dwell tone at each
// of N log-spaced frequencies, one after the other from the same running machine. Each tone
// settles for whole periods, then the response is fitted over whole periods by least
// squares to offset + drift + a sin + b cos at the tone's frequency; the gain and phase are
// that fundamental over the input's. A dwell tone is what a stepped-sine analyser does: its
// estimate at a frequency is free of the other frequencies' transients, and the fit says
// how much of the response the fundamental explains (the rest is the valve's deadband and
// metering, which are not linear).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/params.h"
#include "core/state.h"

namespace clamsim::tools {

// The channel's name as the machine file spells it (model::kChannelNames) -> its index;
// nullopt when it is none of them.
std::optional<int> chirp_channel(const std::string& name);

// The valid names, "swing, boom, telescope, main_hoist, aux_hoist", for messages.
std::string chirp_channel_list();

struct ChirpRequest {
  int channel = 0;            // ControlSignal index: 0 swing .. 4 aux hoist
  double amplitude_V = core::kFullStick_V;   // the sine's amplitude
  double offset_V = 0.0;      // its centre
  double from_Hz = 0.05;
  double to_Hz = 5.0;
  int tones = 20;             // log-spaced, both ends included
  double settle_s = 3.0;      // each tone settles at least this long (and 3 periods)
  double measure_s = 4.0;     // and is measured at least this long (and 4 periods)
};

// One tone's result. The response is the channel's own motion: swing and boom rate [deg/s],
// telescope rate [m/s], a winch's rope speed at the drum [m/s], positive reeling in (the
// volts' positive sense). For the winches also the rope's tension against that rope speed:
// the load seen from the drum, whose magnitude peaks at the load's bounce on the rope.
struct ChirpTone {
  double frequency_Hz = 0.0;
  int periods = 0;               // measured over this many whole periods
  double gain = 0.0;             // response per volt (its unit: chirp_gain_unit)
  double phase_deg = 0.0;        // unwrapped along the sweep, from the lowest tone
  double fundamental_share = 0.0;  // response's AC power in the fundamental, 0..1
  double response_mean = 0.0;    // the response's mean over the window
  double reference_gain = 0.0;   // the ideal velocity source through the spool's lag
  double reference_phase_deg = 0.0;
  // winches only (else NaN): tension over rope speed [N s/m] and its phase, the least tension
  double tension_per_speed = 0.0;
  double tension_phase_deg = 0.0;
  double tension_min_N = 0.0;
};

struct ChirpResult {
  std::vector<ChirpTone> tones;
  double simulated_s = 0.0;
  bool finite = true;            // false: the run went NaN (what names it)
  std::string what;
};

// The reference a qualification reads the response against: the actuator as a velocity
// source, pump flow over area (cylinders: cap side extending, rod side retracting) or over
// displacement (motors, through the gear and, for a winch, the drum's radius), at spool
// stroke V / 5 V, behind the spool's first-order lag. Its low-frequency gain is the
// fundamental of that piecewise-linear law under the sine offset_V + amplitude_V sin (so
// an offset sweep that only extends sees the cap side only). The boom's rate uses the
// cylinder's lever at `boom_rad`.
struct ChirpReference {
  double full_stick_up = 0.0;    // response at +5 V (extending, reeling in) per volt
  double full_stick_down = 0.0;  // at -5 V
  double spool_lag_s = 0.0;
  double low_frequency_gain = 0.0;   // per volt, for the request's offset and amplitude
};
ChirpReference chirp_reference(const core::MachineParams& m, const ChirpRequest& r, double boom_rad);

// Runs the sweep from `initial` in empty space (no world), the other channels held at
// `others`' volts (the sweep's own channel in it is ignored).
ChirpResult run_chirp(const core::MachineParams& m, const core::State& initial,
                      const core::Control& others, const ChirpRequest& r);

// The bounce of the empty grab hanging on winch `winch`'s rope alone (0 main, 1 aux):
// sqrt(k / m) / 2 pi with k = EA / L, L the whole unstretched rope from the drum
// (docs/model.md, Ropes) and m the grab's mass [Hz].
double rope_bounce_Hz(const core::MachineParams& m, const core::State& st, int winch);

// "deg/s per V" or "m/s per V".
const char* chirp_gain_unit(int channel);
// "swing rate", "boom rate", "telescope rate", "main hoist rope speed", ...
std::string chirp_response_name(int channel);

// The table: one row per tone, a header naming each column with its unit.
bool write_chirp_csv(const std::string& path, int channel, const std::vector<ChirpTone>& tones);

// The Bode plot (gain on log-log axes, phase on log-frequency axes; for a winch also the
// tension over rope speed), the model's points over the velocity-source reference. The
// gnuplot script, exposed so tests can read it; draw_chirp_plot runs gnuplot on it.
// bounce_Hz (NaN for none) is drawn as a line on the tension panel.
std::string chirp_gnuplot_script(const std::string& csv_path, const std::string& out_path,
                                 int channel, const std::string& note, double bounce_Hz);

// The peak of the tension per rope speed, interpolated on a parabola in log frequency
// through the highest tone and its neighbours [Hz]; NaN without a winch or an interior peak.
double tension_peak_Hz(const std::vector<ChirpTone>& tones);

}  // namespace clamsim::tools
