# Thesis section 5.1.1 (Figs 5.1-5.4): the claming device's response to step inputs on
# its two winches, driven through all working states. Crane signals stay at 0 V.
# Signal 1 = main hoist (cable 1, point A, index 3); signal 2 = aux hoist (cable 2,
# point C, index 4). Positive reels in: paying out A while reeling in C closes the clam.
# The steps are tuned, like the thesis's, on the valve law it published (eq 2.23, linear
# bypass): run with `clamsim-sim --valve thesis`. Phases reached with models/t250.json and
# that valve (checked by tests/core/experiments_test.cc):
#   A  0.0-2.6 s   Free, closing (signal 1 negative, signal 2 positive)
#   B  2.7-4.3 s   Full, fully closed, cable 1 slack
#   C  4.4-8.2 s   Free, opening (signs inverted at 4 s; cable 1 takes up its slack first)
#   D  8.2-9.5 s   Full, fully opened, cable 2 slack
#   E  9.5-12.3 s  Free, closing again (signs inverted at 9 s)
#   F  12.4-14.8 s Full, fully closed
#   G  15.0 s-     Distributed: fully closed, lifted on both cables (steady)
# For G the operator takes up cable 1's slack (14-14.9 s) and then hoists on both winches,
# cable 2 slightly harder so that the buckets stay shut while both ropes carry weight.
# The winches run at 120 m/min and the closing rope has 4 parts in the clam (models/t250.json):
# paying out cable 1 lowers the clam at its rope's speed, while closing takes up a quarter of
# the two ropes' relative travel, so cable 1 pays out on a lighter stick than cable 2 pulls,
# and on the linear bypass lifting needs the longer stroke (the load pressure is higher).
initial swing_deg=0 boom_deg=30 telescope_m=12 clam_depth_m=8 clam_theta2_deg=25
duration 20

#     t [s]  swing boom tele  hoist1 hoist2   [V]
step  0      0     0    0     -1.5   2.5      # A/B: close
step  4      0     0    0      3    -2        # C/D: open until fully opened
step  9      0     0    0     -1.5   2.5      # E/F: close again
step  14     0     0    0      3     0        # take up cable 1's slack
step  14.9   0     0    0      2.5   3        # G: hoist on both cables, Distributed
