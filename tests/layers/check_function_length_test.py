#!/usr/bin/env python3
"""tests/layers/check_function_length.py on small made-up trees: it names a function over the
limit, counts nothing for braces in strings, characters, comments and preprocessor lines,
looks into namespaces and classes without taking them for functions, and fails on an
allowlist entry that is no longer true."""

import os
import subprocess
import sys
import tempfile
import unittest

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_function_length.py")


def body(lines):
    """`lines` statements, one a line."""
    return "".join(f"  x += {i};\n" for i in range(lines))


def function(name, lines):
    """A function `name` of exactly `lines` lines, its header and closing brace included."""
    return f"int {name}(int x) {{\n" + body(lines - 3) + "  return x;\n}\n"


def filler(lines):
    """Declarations at namespace scope: no function, but a long stretch a stray brace would
    swallow."""
    return "".join(f"extern int v{i};\n" for i in range(lines))


def tree(root, files):
    for path, text in files.items():
        full = os.path.join(root, "server", path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def run(root, *allow):
    p = subprocess.run([sys.executable, CHECK, "--root", root, "--allow", *allow],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


class CheckFunctionLength(unittest.TestCase):
    def check(self, files, *allow):
        with tempfile.TemporaryDirectory() as root:
            tree(root, files)
            return run(root, *allow)

    def test_a_function_over_the_limit_is_named_with_its_file_line_and_length(self):
        rc, out = self.check({"a/one.cc": "#include <x>\n\n" + function("short_one", 80) +
                                          "\n" + function("long_one", 81)})
        self.assertEqual(rc, 1, out)
        self.assertIn("server/a/one.cc:84 long_one (81 lines)", out)
        self.assertNotIn("short_one", out)

    def test_eighty_lines_pass(self):
        rc, out = self.check({"a/one.cc": function("f", 80), "a/one.h": function("g", 80)})
        self.assertEqual(rc, 0, out)

    def test_braces_in_strings_characters_comments_and_macros_count_for_nothing(self):
        # Each function holds an opening brace that is no brace; counted, the function would
        # run on over the filler after it and be long.
        tricky = [
            'const char* s = "{ \\" {";',
            "char c = '{';",
            "// {",
            "/* { */",
            'const char* r = R"x({ )" {)x";',
            "int n = 1'000; char d = '{';",
        ]
        text = "#define OPEN {\n#define CLOSE \\\n  }\n"
        for i, line in enumerate(tricky):
            text += f"int f{i}() {{\n  {line}\n  return 0;\n}}\n" + filler(100)
        text += '/* } } */\nconst char* t = "}}";\n' + function("last", 85)
        rc, out = self.check({"a/tricky.cc": text})
        self.assertEqual(rc, 1, out)
        last_line = text.count("\n") - 84
        self.assertEqual([line for line in out.splitlines() if line.startswith("server/")],
                         [f"server/a/tricky.cc:{last_line} last (85 lines)"], out)

    def test_namespaces_and_classes_are_looked_into_not_taken_for_functions(self):
        text = ("namespace outer {\nnamespace {\n" + filler(50) + function("helper", 20) +
                "}  // namespace\n" + filler(50) + "extern \"C\" {\n" + filler(90) + "}\n"
                "class Box : public Base<int> {\n public:\n  Box() : a_{1}, b_(2) {\n" + body(90) +
                "  }\n  int size() const { return 1; }\n" + function("member", 82) +
                " private:\n  int a_;\n  struct Inner {\n    int deep() {\n" + body(90) +
                "    }\n  };\n};\n" + "Box::~Box() {\n" + body(95) + "}\n" + filler(10) +
                "}  // namespace outer\n")
        rc, out = self.check({"b/box.h": text})
        self.assertEqual(rc, 1, out)
        found = sorted(line.split(" ", 1)[1] for line in out.splitlines() if line.startswith("server/"))
        self.assertEqual(found, ["Box::Box (92 lines)", "Box::Inner::deep (92 lines)",
                                 "Box::member (82 lines)", "Box::~Box (97 lines)"], out)

    def test_an_allowed_function_may_be_long(self):
        rc, out = self.check({"a/table.cc": function("table", 200)}, "server/a/table.cc:table")
        self.assertEqual(rc, 0, out)

    def test_an_allowlist_entry_no_longer_long_fails(self):
        rc, out = self.check({"a/table.cc": function("table", 30)}, "server/a/table.cc:table")
        self.assertEqual(rc, 1, out)
        self.assertIn("server/a/table.cc:1 table (30 lines) is on the allowlist but no longer "
                      "over 80 lines: remove it from the list", out)

    def test_an_allowlist_entry_for_no_function_fails(self):
        rc, out = self.check({"a/table.cc": function("table", 200)},
                             "server/a/table.cc:table", "server/a/gone.cc:old_table")
        self.assertEqual(rc, 1, out)
        self.assertIn("server/a/gone.cc:old_table: on the allowlist but there is no such "
                      "function: remove it from the list", out)


if __name__ == "__main__":
    unittest.main()
