#!/usr/bin/env python3
"""Checks that no function of server/ is longer than 80 lines, but for the listed ones.

A function is a body `name(...) {...}` at namespace or class scope (a lambda or a local
class is part of the function it sits in). Its length runs from the line with its name to
the line of its closing brace. Comments, string and character literals (raw strings too)
and preprocessor lines are blanked before the braces are matched, so a brace in them
counts for nothing; namespace and extern "C" braces are not functions and are looked into.

ALLOWED below names the functions that may be longer: declarative tables, where splitting
would scatter one list over several places. A listed function
that is no longer too long, or is not found at all, fails the check too, so the list says
what is true today.

Prints each offender as `file:line name (N lines)` and exits 1 on any, 0 otherwise.

Usage: check_function_length.py [--root DIR] [--limit N] [--allow FILE:NAME ...]
(DIR holds server/; default: the repository this script is in. --allow replaces the list
below, for the check's own test.)"""

import argparse
import os
import re
import sys

LIMIT = 80

# Functions of server/ allowed over the limit, as "file:name" the way the check prints them,
# each with why.
ALLOWED = [
    # Declarative tables: one entry per setting or fault, read in order; split up, the list
    # would be scattered over several functions for nothing.
    "server/app/server_options.cc:settings",   # each setting: flag, key, help, read, show
    "server/session/fault_catalog.cc:table",   # each fault an instructor can set
]

SOURCE_SUFFIXES = (".cc", ".h")
KEYWORDS = {
    "alignas", "alignof", "asm", "auto", "bool", "case", "catch", "char", "const", "constexpr",
    "decltype", "delete", "do", "double", "else", "explicit", "extern", "float", "for", "if",
    "inline", "int", "long", "new", "noexcept", "return", "short", "signed", "sizeof",
    "static", "static_assert", "switch", "throw", "unsigned", "virtual", "void", "volatile",
    "while", "__attribute__", "__declspec", "requires",
}


def blank(text):
    """The text with comments, literals and preprocessor lines turned into spaces (newlines
    kept, so line numbers stay), a literal's quotes kept so `extern "C"` still reads."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":   # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            out.append(c)
            i += 1
            continue
        line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^ ()\\\t\n]{0,16})\(', text[i:i + 40])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:end]))
            i = end
            continue
        if c in "\"'":
            # a digit separator (1'000'000) is no character literal
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            end = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:end - 1]) + (c if end - 1 > i else ""))
            i = end
            continue
        out.append(c)
        i += 1
    return "".join(out)


def strip_angles(text):
    """`a::b<c<d>>::f` without its template arguments (so `function<void(int)>` has no
    parenthesis that looks like a parameter list); `operator<` and friends are kept."""
    text = re.sub(r"\boperator\s*(\(\)|\[\]|[^\w\s(]+)",
                  lambda m: "operator_" + m.group(1).encode().hex(), text)
    previous = None
    while previous != text:
        previous = text
        text = re.sub(r"<[^<>{};]*>", "", text)
    return text


def function_name(prefix):
    """The name declared by a function header, or None when `prefix {` is no function."""
    head = strip_angles(" ".join(prefix.split()))
    head = re.sub(r"^(template\s*)+", "", head)
    if not head or "(" not in head:
        return None
    depth = 0
    for k, ch in enumerate(head):   # `= {`, `return {`: an initializer at depth 0
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and ch == "=" and head[k - 1:k + 1] not in ("==",) and \
                not re.search(r"operator_\w*$", head[:k]):
            return None
    for m in re.finditer(r"((?:~?[A-Za-z_]\w*\s*::\s*)*~?[A-Za-z_]\w*)\s*\(", head):
        name = re.sub(r"\s+", "", m.group(1))
        if name.split("::")[-1] in KEYWORDS:
            continue
        return re.sub(r"operator_((?:[0-9a-f]{2})+)",
                      lambda o: "operator" + bytes.fromhex(o.group(1)).decode(), name)
    return None


def scope_kind(prefix):
    """What a `{` at namespace or class scope opens: namespace, class, function or other
    (an initializer, which is part of the statement it is in)."""
    head = re.sub(r"^((public|protected|private)\s*:(?!:)\s*)+", "", " ".join(prefix.split()))
    if re.match(r'^(inline\s+)?namespace\b', head) or re.match(r'^extern\s*"\s*"\s*$', head):
        return "namespace", None
    bare = re.sub(r"^(template\s*)+", "", strip_angles(head))
    m = re.match(r"^(?:typedef\s+)?(class|struct|union|enum(?:\s+(?:class|struct))?)\b\s*"
                 r"(?:\[\[.*?\]\]\s*)?(?:alignas\s*\(.*?\)\s*)?([A-Za-z_][\w:]*)?", bare)
    if m and "(" not in bare.split(":")[0]:
        return "class", m.group(2) or ""
    name = function_name(head)
    if name is None:
        return "other", None
    # In a constructor's initializer list `x_{1}` is a member's initializer, not the body:
    # after the parameters' `)` and a single `:`, the body's brace follows a `)` or a `}`.
    rest = strip_angles(head)
    close = rest.find(")")
    after = rest[close + 1:] if close >= 0 else ""
    if re.search(r"(?<!:):(?!:)", after) and not re.search(r"[)}]\s*$", rest):
        return "other", None
    return "function", name


def functions(text):
    """[(line of the name, qualified name, lines)] of every function body in `text`."""
    code = blank(text)
    found = []
    stack = []          # (kind, name, start line) of each open brace
    prefix_start = 0    # where the statement now being read at namespace/class scope began
    newline_offsets = [i for i, ch in enumerate(code) if ch == "\n"]

    def line_at(offset):
        lo, hi = 0, len(newline_offsets)
        while lo < hi:
            mid = (lo + hi) // 2
            if newline_offsets[mid] < offset:
                lo = mid + 1
            else:
                hi = mid
        return lo + 1

    def in_function():
        return any(kind in ("function", "other") for kind, _, _, _ in stack)

    def owners():   # the classes a member is in; namespaces are left out of the name
        return [name for kind, name, _, _ in stack if kind == "class" and name]

    for i, ch in enumerate(code):
        if ch == ";" and not in_function():
            prefix_start = i + 1
        elif ch == "{":
            if in_function():
                stack.append(("inner", None, 0, 0))
                continue
            prefix = code[prefix_start:i]
            kind, name = scope_kind(prefix)
            if kind == "namespace":
                m = re.match(r"\s*(?:inline\s+)?namespace\s+([\w:]+)", prefix)
                stack.append(("namespace", m.group(1) if m else None, 0, 0))
                prefix_start = i + 1
            elif kind == "class":
                stack.append(("class", name, 0, 0))
                prefix_start = i + 1
            elif kind == "function":
                # the header may have spaces around `::`: found by its last part
                words = re.search(re.escape(name.split("::")[-1]) + r"\s*\(", prefix)
                name_at = prefix_start + words.start() if words else i
                full = "::".join(owners() + [name])
                stack.append(("function", full, line_at(name_at), 0))
            else:
                stack.append(("other", None, 0, 0))
        elif ch == "}":
            if not stack:
                continue
            kind, name, start, _ = stack.pop()
            if kind == "function":
                found.append((start, name, line_at(i) - start + 1))
            if kind in ("function", "namespace", "class") and not in_function():
                prefix_start = i + 1
    return found


def source_files(root):
    server = os.path.join(root, "server")
    for dirpath, dirs, files in os.walk(server):
        dirs.sort()
        for file in sorted(files):
            if file.endswith(SOURCE_SUFFIXES):
                yield os.path.join(dirpath, file)


def check(root, limit, allowed):
    problems = []
    seen = set()
    for path in source_files(root):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for start, name, lines in functions(text):
            entry = f"{rel}:{name}"
            if entry in allowed:
                seen.add(entry)
                if lines <= limit:
                    problems.append(f"{rel}:{start} {name} ({lines} lines) is on the allowlist "
                                    f"but no longer over {limit} lines: remove it from the list")
            elif lines > limit:
                problems.append(f"{rel}:{start} {name} ({lines} lines)")
    for entry in sorted(set(allowed) - seen):
        problems.append(f"{entry}: on the allowlist but there is no such function: "
                        f"remove it from the list")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("--allow", nargs="*", default=None,
                        help="FILE:NAME entries to use instead of the list in this file")
    args = parser.parse_args()
    allowed = set(ALLOWED if args.allow is None else args.allow)
    problems = check(args.root, args.limit, allowed)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s): a function of server/ over {args.limit} lines "
              f"(split it into named pieces) or a stale allowlist entry")
        return 1
    print(f"no function of server/ is over {args.limit} lines but the "
          f"{len(allowed)} on the allowlist")
    return 0


if __name__ == "__main__":
    sys.exit(main())
