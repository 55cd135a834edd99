# Thesis section 5.1.1 (Figs 5.1-5.4): the claming device's response to step inputs on
# its two winches, driven through all working states. Crane signals stay at 0 V.
# Signal 1 = main hoist (cable 1, point A, index 3); signal 2 = aux hoist (cable 2,
# point C, index 4). Positive reels in: paying out A while reeling in C closes the clam.
# The steps are tuned, like the thesis's, on the valve law it published (eq 2.23, linear
# bypass): run with `clamsim-sim --valve thesis`. Phases reached with models/t250.json and
# that valve (checked by tests/core/experiments_test.cc):
#   A  0.0-3.0 s   Free, closing (signal 1 negative, signal 2 positive)
#   B  3.0-4.8 s   Full, fully closed, cable 1 slack
#   C  4.8-7.7 s   Free, opening (signs inverted at 4 s; cable 1 takes up its slack first)
#   D  7.7-10.1 s  Full, fully opened, cable 2 slack
#   E  10.1-13.3 s  Free, closing again (signs inverted at 9 s)
#   F  13.3-15.1 s  Full, fully closed
#   G  15.2 s-     Distributed: fully closed, lifted on both cables (steady)
# For G the operator takes up cable 1's slack (14-14.9 s) and then hoists on both winches,
# cable 2 slightly harder so that the buckets stay shut while both ropes carry weight.
initial swing_deg=0 boom_deg=30 telescope_m=12 clam_depth_m=8 clam_theta2_deg=25
duration 20

#     t [s]  swing boom tele  hoist1 hoist2   [V]
step  0      0     0    0     -2.5   2.5      # A/B: close
step  4      0     0    0      2.5  -2.5      # C/D: open until fully opened
step  9      0     0    0     -2.5   2.5      # E/F: close again
step  14     0     0    0      3     0        # take up cable 1's slack
step  14.9   0     0    0      2.5   3        # G: hoist on both cables, Distributed
