# Thesis section 5.1.2 (Figs 5.5-5.11): the crane's response to a step input. The same
# signal goes to the swing, boom and telescope valves; the clam's winches stay at 0 V.
# The swing, boom and telescope angles/length and their velocities are the figures'
# quantities; oscillations after the steps come from the sudden change of input.
initial swing_deg=0 boom_deg=20 telescope_m=12 clam_depth_m=5 clam_theta2_deg=40
duration 12

#     t [s]  swing boom tele  hoist1 hoist2   [V]
step  0      0     0    0     0      0
step  1      3     3    3     0      0        # step up
step  6      0     0    0     0      0        # step back to neutral
