# A 60 s demonstration (in the spirit of thesis section 5.1.3, pick-and-place): swing the
# crane, raise the boom, extend the telescope, lower the clam, close it, lift it, and
# open it again. Ramps keep the motion smooth, like an operator easing the joysticks.
initial swing_deg=0 boom_deg=15 telescope_m=11 clam_depth_m=4 clam_theta2_deg=40
duration 60

#     t [s]  swing boom tele  hoist1 hoist2   [V]
step  0      0     0    0     0      0
ramp  2      3     0    0     0      0        # swing counter-clockwise
ramp  10     3     0    0     0      0
ramp  12     0     5    0     0      0        # ease off swing, raise the boom (full)
ramp  18     0     5    0     0      0
ramp  20     0     0    5     0      0        # extend the telescope (full)
ramp  26     0     0    5     0      0
ramp  28     0     0    0    -2.5   -2.5      # lower the clam on both cables
ramp  35     0     0    0    -2.5   -2.5
ramp  36     0     0    0     0      0
step  37     0     0    0    -2      2.5      # close: pay out A, reel in C
step  41     0     0    0     2.5    2.5      # lift on both cables
step  47     0     0    0     0      0
step  48    -2     0    0     0      0        # swing back a little
step  52     0     0    0     0      0
step  53     0     0    0     2.5   -2        # open: reel in A, pay out C
step  57     0     0    0     0      0        # hang open
