#!/usr/bin/env python3
"""tests/layers/check_includes.py on small made-up trees: it passes a tree that follows its
map and fails, naming the file, the include and the rule, one that does not."""

import os
import subprocess
import sys
import tempfile
import unittest

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_includes.py")

LAYERS = """# a made-up map
base:
low: base
high: low
side: base
"""


def tree(root, files, layers=LAYERS):
    os.makedirs(os.path.join(root, "server"), exist_ok=True)
    with open(os.path.join(root, "server", "layers.txt"), "w") as f:
        f.write(layers)
    for path, text in files.items():
        full = os.path.join(root, "server", path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def run(root):
    p = subprocess.run([sys.executable, CHECK, "--root", root], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


GOOD = {
    "base/log.h": "#pragma once\n#include <string>\n",
    "low/a.h": '#pragma once\n#include "base/log.h"\n#include "a_detail.h"\n',
    "high/b.cc": '#include "low/a.h"\n#include "base/log.h"\n#include <clam.hh>\n',
    "side/c.h": '#include "base/log.h"\n',
}


class CheckIncludes(unittest.TestCase):
    def test_a_tree_that_follows_its_map_passes(self):
        with tempfile.TemporaryDirectory() as root:
            tree(root, GOOD)
            rc, out = run(root)
            self.assertEqual(rc, 0, out)

    def test_an_include_from_above_fails_naming_file_include_and_rule(self):
        with tempfile.TemporaryDirectory() as root:
            tree(root, dict(GOOD, **{"low/bad.h": '#pragma once\n\n#include "high/b.h"\n'}))
            rc, out = run(root)
            self.assertEqual(rc, 1, out)
            self.assertIn('server/low/bad.h:3: includes "high/b.h": high is above low; '
                          'rule server/layers.txt:3 "low: base" lets low include base, low', out)

    def test_an_include_from_beside_fails(self):
        with tempfile.TemporaryDirectory() as root:
            tree(root, dict(GOOD, **{"side/bad.cc": '#include "low/a.h"\n'}))
            rc, out = run(root)
            self.assertEqual(rc, 1, out)
            self.assertIn('server/side/bad.cc:1: includes "low/a.h": low is beside side', out)

    def test_a_directory_in_no_layer_fails(self):
        with tempfile.TemporaryDirectory() as root:
            tree(root, dict(GOOD, **{"stray/d.h": '#include "base/log.h"\n'}))
            rc, out = run(root)
            self.assertEqual(rc, 1, out)
            self.assertIn("server/stray/: in no layer", out)
            self.assertIn("the layers: base, high, low, side", out)

    def test_a_map_that_goes_round_in_a_circle_is_refused(self):
        with tempfile.TemporaryDirectory() as root:
            tree(root, GOOD, layers="base: high\nlow: base\nhigh: low\nside: base\n")
            rc, out = run(root)
            self.assertEqual(rc, 2, out)
            self.assertIn("circle", out)

    def test_a_rule_naming_no_layer_is_refused_listing_the_layers(self):
        with tempfile.TemporaryDirectory() as root:
            tree(root, GOOD, layers=LAYERS + "extra: lwo\n")
            rc, out = run(root)
            self.assertEqual(rc, 2, out)
            self.assertIn("extra rests on lwo, which is no layer; the layers are: base, extra, "
                          "high, low, side", out)


if __name__ == "__main__":
    unittest.main()
