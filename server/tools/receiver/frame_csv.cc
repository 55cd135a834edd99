#include "tools/receiver/frame_csv.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace clamsim::receiver {

std::string FrameCsv::header() {
  return "arrival_s,seq,sim_time_s,swing_V,boom_V,telescope_V,hoist1_V,hoist2_V,"
         "swing_deg,boom_deg,telescope_m,clam_to_tip_m,opening_deg,cable1_m,cable2_m,load_kg,"
         "swing_rate_deg_s,boom_rate_deg_s,telescope_rate_m_s,T1_N,T2_N,working,geo,load,"
         "theta2_clam_deg,jaw_gap_m,squeeze_N,tip_x_m,tip_y_m,tip_z_m";
}

FrameCsv::FrameCsv(const std::string& path) : out_(std::fopen(path.c_str(), "w")) {
  if (out_ == nullptr) {
    throw std::runtime_error("--csv: cannot write '" + path + "': " + std::strerror(errno));
  }
  if (std::fprintf(out_, "%s\n", header().c_str()) < 0) ok_ = false;
}

FrameCsv::~FrameCsv() { close(); }

void FrameCsv::row(const client::ReceivedFrame& f, double t0_s, const std::array<float, 5>& v) {
  if (out_ == nullptr) return;
  int n = std::fprintf(out_, "%.6f,", f.arrival_s - t0_s);
  // a legacy frame has no sequence number, time or extended fields: leave them empty
  if (f.extended) {
    n = std::fprintf(out_, "%llu,%.6f,", static_cast<unsigned long long>(f.seq), f.sim_time_s);
  } else {
    n = std::fprintf(out_, ",,");
  }
  if (n < 0) ok_ = false;
  n = std::fprintf(out_, "%g,%g,%g,%g,%g,", static_cast<double>(v[0]), static_cast<double>(v[1]),
                   static_cast<double>(v[2]), static_cast<double>(v[3]), static_cast<double>(v[4]));
  for (float d : f.display) {
    if (std::fprintf(out_, "%.6g,", static_cast<double>(d)) < 0) ok_ = false;
  }
  if (f.extended) {
    n = std::fprintf(out_, "%.6g,%.6g,%.6g,%.6g,%.6g,%s,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n",
                     static_cast<double>(f.joint_velocity[0]),
                     static_cast<double>(f.joint_velocity[1]),
                     static_cast<double>(f.joint_velocity[2]), static_cast<double>(f.tension_N[0]),
                     static_cast<double>(f.tension_N[1]), core::to_string(f.working),
                     core::to_string(f.geo), core::to_string(f.load),
                     static_cast<double>(f.theta2_deg), static_cast<double>(f.jaw_gap_m),
                     static_cast<double>(f.squeeze_N), static_cast<double>(f.tip_m[0]),
                     static_cast<double>(f.tip_m[1]), static_cast<double>(f.tip_m[2]));
  } else {
    n = std::fprintf(out_, ",,,,,,,,,,,,,\n");
  }
  if (n < 0) ok_ = false;
}

bool FrameCsv::close() {
  if (out_ == nullptr) return ok_;
  if (std::fclose(out_) != 0) ok_ = false;
  out_ = nullptr;
  return ok_;
}

}  // namespace clamsim::receiver
