#!/usr/bin/env python3
"""Checks that no file of server/ includes a header from a layer above its own.

The layers and what each rests on are in server/layers.txt (one line per layer); a file
in server/<layer>/ may include "<dir>/..." headers of its own layer and of the layers below
it, reached through "rests on" lines. Every #include "..." with a directory is checked;
angle-bracket includes (libraries, generated IDL headers) and same-directory includes are
not. Prints each offending file, what it includes, and the rule it breaks; exits 1 on any,
2 when the map itself is wrong (unknown layer, a cycle), 0 otherwise.

Usage: check_includes.py [--root DIR] (DIR holds server/ and server/layers.txt; default:
the repository this script is in)."""

import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"(([^"/]+)/[^"]*)"')
SOURCE_SUFFIXES = (".h", ".hh", ".hpp", ".cc", ".cpp", ".in")


def refuse(message):
    """The map itself is wrong: says why, exits 2."""
    print(message, file=sys.stderr)
    sys.exit(2)


def read_layers(path):
    """{layer: (line number, rule text, [layers it rests on])}, or exits 2 naming the problem."""
    layers = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            if ":" not in text:
                refuse(f"{path}:{number}: expected \"layer: the layers it rests on\", got \"{text}\"")
            name, below = text.split(":", 1)
            name = name.strip()
            if name in layers:
                refuse(f"{path}:{number}: layer {name} is already on line {layers[name][0]}")
            layers[name] = (number, text, below.split())
    for name, (number, _, below) in layers.items():
        for b in below:
            if b not in layers:
                refuse(f"{path}:{number}: {name} rests on {b}, which is no layer; the layers are: "
                       f"{', '.join(sorted(layers))}")
    return layers


def reachable(layers, name, path=()):
    """The layers below `name` (through "rests on"), or exits 2 on a cycle."""
    if name in path:
        refuse(f"server/layers.txt: the layers rest on each other in a circle: "
               f"{' -> '.join(path + (name,))}")
    out = set()
    for b in layers[name][2]:
        out.add(b)
        out |= reachable(layers, b, path + (name,))
    return out


def check(root):
    layers_path = os.path.join(root, "server", "layers.txt")
    layers = read_layers(layers_path)
    allowed = {name: {name} | reachable(layers, name) for name in layers}
    rel_layers = os.path.relpath(layers_path, root)
    problems = []
    server = os.path.join(root, "server")
    for layer in sorted(os.listdir(server)):
        if not os.path.isdir(os.path.join(server, layer)):
            continue
        if layer not in layers:
            problems.append(f"server/{layer}/: in no layer; add a line \"{layer}: <the layers "
                            f"it rests on>\" to {rel_layers} (the layers: {', '.join(sorted(layers))})")
            continue
        for dirpath, _, files in os.walk(os.path.join(server, layer)):
            for file in sorted(files):
                if not file.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, file)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        header, target = m.group(1), m.group(2)
                        if target in allowed[layer]:
                            continue
                        rule_line, rule, _ = layers[layer]
                        if target not in layers:
                            why = f"{target} is no layer of {rel_layers}"
                        elif layer in allowed[target]:
                            why = f"{target} is above {layer}"
                        else:
                            why = f"{target} is beside {layer}, not below it"
                        problems.append(
                            f"{rel}:{number}: includes \"{header}\": "
                            f"{why}; rule {rel_layers}:{rule_line} \"{rule}\" lets {layer} include "
                            f"{', '.join(sorted(allowed[layer]))}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    args = parser.parse_args()
    problems = check(args.root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) against the layers of server/layers.txt")
        return 1
    print("every include of server/ follows server/layers.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
