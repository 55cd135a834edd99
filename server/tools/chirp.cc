#include "tools/chirp.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <sstream>

#include "core/clam.h"
#include "core/crane.h"
#include "core/finite_outputs.h"
#include "core/machine.h"
#include "model/machine_file.h"

namespace clamsim::tools {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = 180.0 / kPi;
constexpr int kMinSettlePeriods = 3;
constexpr int kMinMeasurePeriods = 4;
using core::kFullStick_V;   // spool x = volts / full stick (docs/model.md, Hydraulics)

bool is_winch(int channel) { return channel >= 3; }

// The channel's own motion in the outputs, in the volts' positive sense.
double response_of(int channel, const core::Outputs& o) {
  if (channel < 3) return o.joint_vel[static_cast<std::size_t>(channel)];
  return -o.cable_rates_m_per_s[static_cast<std::size_t>(channel - 3)];   // + reeling in
}

// Least squares of y(t) = c0 + c1 (t - t_mid) + a sin(wt) + b cos(wt) over one window: the
// drift term keeps a slow wander (the swing still finding its speed) out of the tone.
class ToneFit {
 public:
  ToneFit(double w, double t_mid) : w_(w), t_mid_(t_mid) {}
  void add(double t, double y) {
    Eigen::Vector4d r(1.0, t - t_mid_, std::sin(w_ * t), std::cos(w_ * t));
    ata_ += r * r.transpose();
    aty_ += r * y;
    yy_ += y * y;
    ++n_;
  }
  // phasor a + j b: y = |Y| sin(wt + arg Y)
  std::complex<double> phasor() const { return {coef()(2), coef()(3)}; }
  double mean() const { return coef()(0); }
  // the fundamental's share of the power left after the mean and drift
  double share() const {
    const Eigen::Vector4d c = coef();
    const double total = yy_ - 2.0 * c.dot(aty_) + c.dot(ata_ * c);   // residual
    const double fundamental = 0.5 * std::norm(phasor()) * static_cast<double>(n_);
    const double ac = fundamental + std::max(0.0, total);
    return ac > 0.0 ? fundamental / ac : 0.0;
  }

 private:
  Eigen::Vector4d coef() const { return ata_.ldlt().solve(aty_); }
  double w_, t_mid_;
  Eigen::Matrix4d ata_ = Eigen::Matrix4d::Zero();
  Eigen::Vector4d aty_ = Eigen::Vector4d::Zero();
  double yy_ = 0.0;
  long n_ = 0;
};

double wrap_near(double deg, double previous) {
  while (deg - previous > 180.0) deg -= 360.0;
  while (deg - previous < -180.0) deg += 360.0;
  return deg;
}

}  // namespace

std::optional<int> chirp_channel(const std::string& name) {
  for (std::size_t i = 0; i < model::kChannelNames.size(); ++i)
    if (name == model::kChannelNames[i]) return static_cast<int>(i);
  return std::nullopt;
}

std::string chirp_channel_list() {
  std::string out;
  for (const char* n : model::kChannelNames) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

const char* chirp_gain_unit(int channel) {
  return channel == 0 || channel == 1 ? "deg/s per V" : "m/s per V";
}

std::string chirp_response_name(int channel) {
  switch (channel) {
    case 0: return "swing rate";
    case 1: return "boom rate";
    case 2: return "telescope rate";
    case 3: return "main hoist rope speed";
    default: return "aux hoist rope speed";
  }
}

ChirpReference chirp_reference(const core::MachineParams& m, const ChirpRequest& r,
                               double boom_rad) {
  const core::HydraulicsParams& h = m.hydraulics;
  const auto ch = static_cast<std::size_t>(r.channel);
  const double q = h.channels[ch].valve.pump_flow_m3_per_s;
  double up = 0.0, down = 0.0;   // at full stick, in the response's unit
  switch (r.channel) {
    case 0:
      up = down = q / (h.swing_motor.displacement_m3_per_rad * h.swing_motor.gear_ratio) * kDeg;
      break;
    case 1: {
      const double lever = std::abs(core::boom_cylinder_lever(h.boom_geometry, boom_rad));
      up = q / h.boom_cylinders.cap_area_m2 / lever * kDeg;
      down = q / h.boom_cylinders.rod_area_m2 / lever * kDeg;
      break;
    }
    case 2:
      up = q / h.telescope_cylinder.cap_area_m2;
      down = q / h.telescope_cylinder.rod_area_m2;
      break;
    default: {
      const core::WinchParams& w = h.winches[ch - 3];
      up = down = q / (w.motor.displacement_m3_per_rad * w.motor.gear_ratio) * w.drum_radius_m;
    }
  }
  ChirpReference ref;
  ref.full_stick_up = up / kFullStick_V;
  ref.full_stick_down = down / kFullStick_V;
  ref.spool_lag_s = h.channels[ch].valve.spool_lag_s;
  // the fundamental of v(V) under V = offset + amplitude sin(phi), per volt of amplitude
  const int n = 3600;
  double b1 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double phi = 2.0 * kPi * (i + 0.5) / n;
    const double v = std::clamp(r.offset_V + r.amplitude_V * std::sin(phi), -kFullStick_V, kFullStick_V);
    b1 += (v >= 0.0 ? ref.full_stick_up : ref.full_stick_down) * v * std::sin(phi);
  }
  ref.low_frequency_gain = std::abs(2.0 * b1 / n / r.amplitude_V);
  return ref;
}

ChirpResult run_chirp(const core::MachineParams& m, const core::State& initial,
                      const core::Control& others, const ChirpRequest& r) {
  ChirpResult result;
  core::State st = initial;
  const core::Environment env{};
  const double h = m.integrator.step_s;
  const ChirpReference ref = chirp_reference(m, r, initial.x(core::ix::q + 1) - kPi / 2.0);
  const auto ch = static_cast<std::size_t>(r.channel);
  const int n_tones = std::max(1, r.tones);
  double previous_phase = 0.0, previous_tension_phase = 90.0;
  for (int k = 0; k < n_tones; ++k) {
    const double f = n_tones == 1 ? r.from_Hz
                                  : r.from_Hz * std::pow(r.to_Hz / r.from_Hz,
                                                         static_cast<double>(k) / (n_tones - 1));
    const double w = 2.0 * kPi * f;
    const int settle = std::max(kMinSettlePeriods, static_cast<int>(std::ceil(r.settle_s * f)));
    const int measure = std::max(kMinMeasurePeriods, static_cast<int>(std::ceil(r.measure_s * f)));
    const double t_from = settle / f, t_to = static_cast<double>(settle + measure) / f;
    const long steps = static_cast<long>(std::ceil(t_to / h - 1e-9));
    ToneFit fit(w, 0.5 * (t_from + t_to)), tension(w, 0.5 * (t_from + t_to));
    double tension_min = std::numeric_limits<double>::infinity();
    core::Control u = others;
    for (long n = 0; n < steps; ++n) {
      // the stick held over each step, as the live session holds it over a frame
      u.volts[ch] = std::clamp(r.offset_V + r.amplitude_V * std::sin(w * static_cast<double>(n) * h), -kFullStick_V,
                               kFullStick_V);
      core::step(m, st, u, env);
      const double t = static_cast<double>(n + 1) * h;
      const core::Outputs o = core::outputs(m, st, env);
      const std::string bad = core::first_nonfinite(o);
      if (!bad.empty() || st.health.nonfinite_resets != 0) {
        result.finite = false;
        result.what = "t = " + std::to_string(st.time_s) + " s, tone " + std::to_string(f) +
                      " Hz: " + (bad.empty() ? "the integrated state" : "output " + bad);
        result.simulated_s = st.time_s - initial.time_s;
        return result;
      }
      if (t <= t_from) continue;
      fit.add(t, response_of(r.channel, o));
      if (is_winch(r.channel)) {
        const double tn = o.tensions_N[ch - 3];
        tension.add(t, tn);
        tension_min = std::min(tension_min, tn);
      }
    }
    // The volts are a staircase of the sine held over each step: its fundamental is the
    // sine's, delayed by half a step (and sinc(f h) smaller, under 0.1 % here).
    const double x = kPi * f * h;
    const std::complex<double> input =
        r.amplitude_V * (std::sin(x) / x) * std::polar(1.0, -0.5 * w * h);
    const std::complex<double> y = fit.phasor();
    ChirpTone tone;
    tone.frequency_Hz = f;
    tone.periods = measure;
    tone.gain = std::abs(y / input);
    const double raw_phase = std::arg(y / input) * kDeg;
    tone.phase_deg = wrap_near(raw_phase, k == 0 ? 0.0 : previous_phase);
    previous_phase = tone.phase_deg;
    tone.fundamental_share = fit.share();
    tone.response_mean = fit.mean();
    const double lag = w * ref.spool_lag_s;
    tone.reference_gain = ref.low_frequency_gain / std::sqrt(1.0 + lag * lag);
    tone.reference_phase_deg = -std::atan(lag) * kDeg;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (is_winch(r.channel) && std::abs(y) > 0.0) {
      const std::complex<double> z = tension.phasor() / y;
      tone.tension_per_speed = std::abs(z);
      tone.tension_phase_deg = wrap_near(std::arg(z) * kDeg, previous_tension_phase);
      previous_tension_phase = tone.tension_phase_deg;
      tone.tension_min_N = tension_min;
    } else {
      tone.tension_per_speed = tone.tension_phase_deg = tone.tension_min_N = nan;
    }
    result.tones.push_back(tone);
  }
  result.simulated_s = st.time_s - initial.time_s;
  return result;
}

double rope_bounce_Hz(const core::MachineParams& m, const core::State& st, int winch) {
  const double ea = m.hydraulics.winches[static_cast<std::size_t>(winch)].rope_EA_N;
  const double length = st.x(core::ix::len + winch);
  const double mass = core::clam_mass(m.clam, 0.0);
  return std::sqrt(ea / length / mass) / (2.0 * kPi);
}

bool write_chirp_csv(const std::string& path, int channel, const std::vector<ChirpTone>& tones) {
  std::FILE* f = path == "-" ? stdout : std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  const std::string unit = channel == 0 || channel == 1 ? "deg_s_per_V" : "m_s_per_V";
  std::fprintf(f, "frequency_Hz,periods,gain_%s,phase_deg,fundamental_share,response_mean,"
                  "reference_gain_%s,reference_phase_deg",
               unit.c_str(), unit.c_str());
  const bool winch = is_winch(channel);
  if (winch) std::fprintf(f, ",tension_per_speed_N_s_per_m,tension_phase_deg,tension_min_N");
  std::fprintf(f, "\n");
  for (const ChirpTone& t : tones) {
    std::fprintf(f, "%.6g,%d,%.6g,%.4f,%.4f,%.6g,%.6g,%.4f", t.frequency_Hz, t.periods, t.gain,
                 t.phase_deg, t.fundamental_share, t.response_mean, t.reference_gain,
                 t.reference_phase_deg);
    if (winch)
      std::fprintf(f, ",%.6g,%.4f,%.6g", t.tension_per_speed, t.tension_phase_deg, t.tension_min_N);
    std::fprintf(f, "\n");
  }
  bool ok = std::fflush(f) == 0 && !std::ferror(f);
  if (f != stdout && std::fclose(f) != 0) ok = false;
  return ok;
}

std::string chirp_gnuplot_script(const std::string& csv_path, const std::string& out_path,
                                 int channel, const std::string& note, double bounce_Hz) {
  const bool winch = is_winch(channel);
  const int rows = winch ? 3 : 2;
  const std::string size = "1100," + std::to_string(300 * rows + 60);
  const auto quoted = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) {
      q += c;
      if (c == '\'') q += '\'';
    }
    return q + "'";
  };
  const std::string response = chirp_response_name(channel);
  std::ostringstream g;
  const bool png = out_path.size() >= 4 && out_path.compare(out_path.size() - 4, 4, ".png") == 0;
  if (png) {
    g << "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
         "  set terminal pngcairo size " << size << " font 'sans,11' noenhanced\n"
         "} else {\n"
         "  set terminal png size " << size << " noenhanced\n"
         "}\n";
  } else {
    g << "set terminal svg size " << size << " font 'sans,11' noenhanced background '#ffffff'\n";
  }
  g << "set output " << quoted(out_path) << "\n"
    << "set datafile separator ','\n"
    << "set multiplot layout " << rows << ",1 title "
    << quoted("Frequency response of the " + response + " (stepped sine): " + note) << "\n"
    << "set logscale x\nset grid xtics ytics mxtics\n"
    // the same margins on every panel, so the frequency axes line up; keys right of the data
    << "set lmargin at screen 0.09\nset rmargin at screen 0.66\n"
    << "set key at screen 0.68, graph 1 left top box opaque\n"
    << "set xlabel 'frequency [Hz]'\n";
  // gain
  g << "set logscale y\n"
    << "set ylabel " << quoted("gain [" + std::string(chirp_gain_unit(channel)) + "]") << "\n"
    << "set title " << quoted("Gain: " + response + " per volt") << "\n"
    << "plot " << quoted(csv_path) << " using 1:3 with linespoints pt 7 ps 0.8 lw 2 title 'model', "
    << quoted(csv_path) << " using 1:7 with lines dt 2 lw 2 title 'velocity source + spool lag'\n";
  // phase
  g << "unset logscale y\n"
    << "set ylabel 'phase [deg]'\n"
    << "set title " << quoted("Phase: " + response + " against the volts") << "\n"
    << "plot " << quoted(csv_path) << " using 1:4 with linespoints pt 7 ps 0.8 lw 2 title 'model', "
    << quoted(csv_path) << " using 1:8 with lines dt 2 lw 2 title '-atan(2 pi f T_spool)'\n";
  if (winch) {
    g << "set logscale y\n"
      << "set ylabel 'tension / rope speed [N s/m]'\n"
      << "set title 'Rope tension per rope speed at the drum (the load seen from the winch)'\n";
    if (std::isfinite(bounce_Hz))
      g << "set arrow 1 from " << bounce_Hz << ", graph 0 to " << bounce_Hz
        << ", graph 1 nohead dt 2 lw 2 lc rgb '#d73027'\n";
    g << "plot " << quoted(csv_path) << " using 1:9 with linespoints pt 7 ps 0.8 lw 2 title 'model'";
    if (std::isfinite(bounce_Hz))
      g << ", NaN with lines dt 2 lw 2 lc rgb '#d73027' title "
        << quoted("sqrt(EA/(L m))/2pi = " + std::to_string(bounce_Hz).substr(0, 5) + " Hz");
    g << "\nunset arrow 1\n";
  }
  g << "unset multiplot\nunset output\n";
  return g.str();
}

double tension_peak_Hz(const std::vector<ChirpTone>& tones) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::size_t best = 0;
  for (std::size_t i = 1; i < tones.size(); ++i)
    if (tones[i].tension_per_speed > tones[best].tension_per_speed) best = i;
  if (tones.size() < 3 || best == 0 || best + 1 >= tones.size() ||
      !std::isfinite(tones[best].tension_per_speed))
    return nan;
  // parabola through the three points in (log f, log |Z|)
  const double x0 = std::log(tones[best - 1].frequency_Hz), x1 = std::log(tones[best].frequency_Hz),
               x2 = std::log(tones[best + 1].frequency_Hz);
  const double y0 = std::log(tones[best - 1].tension_per_speed),
               y1 = std::log(tones[best].tension_per_speed),
               y2 = std::log(tones[best + 1].tension_per_speed);
  const double d01 = (y1 - y0) / (x1 - x0), d12 = (y2 - y1) / (x2 - x1);
  const double curvature = (d12 - d01) / (x2 - x0);
  if (!(curvature < 0.0)) return tones[best].frequency_Hz;
  // vertex of y = y1 + d (x - x1) + c (x - x1)(x - x1 - ...) : solve via the standard form
  const double a = curvature;
  const double b = d01 - a * (x0 + x1);
  return std::exp(-b / (2.0 * a));
}

}  // namespace clamsim::tools
