#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
"""
The DOCA names the compatibility layer is measured against, and what it does
with each: the coverage table of doc/guides/prog_guide/doca_compat.rst.

Names are every doca_* and DOCA_* identifier of the given texts: the guides
(--seeds, plain text, searched as is) and NVIDIA's published sources
(--samples, a doca-samples checkout: samples/doca_comch, and every file of
samples/ and applications/ that uses Comch). From the texts are dropped, as
extraction artifacts, names cut short (a prefix of another name, or ending in
"_") and names glued to the next word (a name plus letters), unless a source
or the layer's headers use them as they are. From the sources are dropped the
programs' own names (what they define: functions, macros, types).

Each name is:
  present    the layer's public headers declare it (lib/doca_compat/*);
  different  declared, with a difference the notes file tells;
  missing    not declared: the notes file says why (a glob pattern may cover a
             family: "doca_rdma_*");
  n/a        not an API name: a program, a library, a build flag (notes file).
A name not declared and not explained by the notes is an error.

  doca-coverage.py --seeds DIR [--samples DIR] [--notes FILE] [--headers DIR]
                   [--print | --check RST | --update RST]

--print writes the table (reStructuredText); --update replaces the one between
the markers of RST; --check fails (exit 1) if RST's differs from the one the
texts give, or if a name is unexplained. Without --samples, --check checks the
rows of the guides' names and that every name the table says present is still
declared. Nothing of NVIDIA's is read but what the paths given hold.
"""

import argparse
import fnmatch
import os
import re
import sys

ID = re.compile(r"\b(?:doca|DOCA)_[A-Za-z0-9_]+")
BEGIN = ".. doca-coverage-begin"
END = ".. doca-coverage-end"
SRC_EXT = (".c", ".h", ".cpp", ".hpp", ".cu", ".cuh")
COMCH_USE = re.compile(r"\bdoca_(?:comch|cc|comm_channel)_")
# A name the layer makes for itself, not a DOCA name.
OURS = re.compile(r"^(?:rte_comch_doca_|DOCA_COMPAT_)")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def code_of(text):
    """A source's code: no comments, no string literals, no #include lines."""
    text = strip_comments(text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"^\s*#\s*include[^\n]*", " ", text, flags=re.M)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def declared_names(headers):
    """Every DOCA name the layer's public headers hold in code, by header."""
    names = {}
    # The layer's libraries in their directories (sdk, comch), their headers
    # installed side by side: by file name, as a program includes them.
    # The BlueField side's headers (a dpu directory, installed apart and put
    # first by the rte-comch-doca-dpu modules) by their installed path: the
    # names they add (DOCA_ARCH_DPU) are the layer's too.
    paths = {}
    for d, dirs, files in os.walk(headers):
        dirs.sort()
        side = "dpu/" if os.path.basename(d) == "dpu" else ""
        for fn in files:
            if fn.endswith(".h") and not fn.endswith("_private.h"):
                paths.setdefault(side + fn, os.path.join(d, fn))
    for fn in sorted(paths):
        for name in ID.findall(code_of(read(paths[fn]))):
            if not OURS.match(name):
                names.setdefault(name, fn)
    return names


def seed_names(seeds):
    names = set()
    for fn in sorted(os.listdir(seeds)):
        path = os.path.join(seeds, fn)
        if os.path.isfile(path):
            names.update(ID.findall(read(path)))
    return names


def sample_files(root):
    """samples/doca_comch, and the files of samples/ and applications/ that use Comch."""
    files = []
    for top in ("samples", "applications"):
        for dirpath, _, fns in os.walk(os.path.join(root, top)):
            for fn in fns:
                path = os.path.join(dirpath, fn)
                rel = os.path.relpath(path, root)
                text = read(path)
                if fn.endswith(SRC_EXT) and \
                   (rel.startswith(os.path.join("samples", "doca_comch")) or
                    COMCH_USE.search(text)):
                    files.append((rel, code_of(text)))
    return sorted(files)


DEF_FUNC = re.compile(r"^(?:__dpa_\w+__\s+)?[A-Za-z_][\w\s\*]*?\b((?:doca|DOCA)_\w+)\s*\(",
                      re.M)
DEF_OTHER = re.compile(r"#\s*define\s+((?:doca|DOCA)_\w+)|"
                       r"\b(?:struct|enum|union|class|namespace)\s+((?:doca|DOCA)_\w+)\s*\{|"
                       r"\btypedef\b[^;]*?\b((?:doca|DOCA)_\w+)\s*;|"
                       r"^\s+((?:doca|DOCA)_\w+)\s*(?:=[^,\n]*)?,?\s*$|"
                       # members and methods of the program's own types
                       r"(?:\.|->|::)\s*((?:doca|DOCA)_\w+)|"
                       # variables, members and parameters it declares
                       r"(?<![\w.>#])(?!return\b|case\b|sizeof\b|else\b|goto\b|"
                       r"if\b|ifdef\b|ifndef\b|elif\b|defined\b|undef\b|define\b)"
                       r"[A-Za-z_]\w*[\s*&]+((?:doca|DOCA)_\w+)\s*[;=,)\[{]|"
                       r"DOCA_LOG_REGISTER\s*\(\s*((?:doca|DOCA)_\w+)", re.M)


def defined_names(code):
    """What a source defines itself: functions, macros, types, variables, members."""
    found = set()
    for m in DEF_FUNC.finditer(code):
        rest = code[m.end():]
        end = min([i for i in (rest.find(";"), rest.find("{")) if i >= 0] or [0])
        if rest[end:end + 1] == "{":
            found.add(m.group(1))
    for m in DEF_OTHER.finditer(code):
        found.update(g for g in m.groups() if g)
    # A DOCA type a program also names a variable after stays DOCA's.
    found -= set(re.findall(r"\b(?:struct|enum|union)\s+((?:doca|DOCA)_\w+)\b(?!\s*\{)",
                            code))
    return found


def drop_artifacts(names, real):
    """Names cut short or glued to a word, in extracted text, unless real."""
    kept = set()
    for n in names:
        if n in real:
            kept.add(n)
            continue
        if n.endswith("_") or len(n) > 64:
            continue
        if any(o != n and o.startswith(n) for o in names):
            continue
        glued = any(n.startswith(o) and len(n) > len(o) and n[len(o)].isalpha() and
                    "_" not in n[len(o):] for o in names | real if o != n)
        if not glued:
            kept.add(n)
    return kept


def load_notes(path):
    """Lines "pattern<TAB>status<TAB>text": status different, missing or n/a."""
    notes = []
    for line in read(path).splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        pattern, status, text = (f.strip() for f in line.split("\t", 2))
        if status not in ("different", "missing", "n/a"):
            sys.exit(f"doca-coverage: {path}: bad status '{status}' for {pattern}")
        notes.append((pattern, status, text))
    return notes


def note_of(name, notes, declared):
    for pattern, status, text in notes:
        if fnmatch.fnmatchcase(name, pattern):
            if (status == "different") == declared:
                return status, text
    return None


def classify(names, declared, notes):
    """Rows: (status, key, names, text); an unexplained name is an error."""
    rows, groups, errors = [], {}, []
    for n in sorted(names):
        if n in declared:
            got = note_of(n, notes, True)
            if got:
                rows.append((got[0], n, [n], got[1]))
            else:
                rows.append(("present", n, [n], "``" + declared[n] + "``"))
            continue
        got = note_of(n, notes, False)
        if got is None:
            errors.append(n)
            continue
        groups.setdefault(got, []).append(n)
    for (status, text), ns in groups.items():
        rows.append((status, ns[0], sorted(ns), text))
    order = {"present": 0, "different": 1, "missing": 2, "n/a": 3}
    rows.sort(key=lambda r: (order[r[0]], r[1].lower()))
    return rows, errors


def render(rows):
    out = [BEGIN, "", ".. list-table::", "   :header-rows: 1", "   :widths: 45 10 45", "",
           "   * - Name", "     - Status", "     - Notes"]
    for status, _, ns, text in rows:
        out.append("   * - " + ", ".join("``" + n + "``" for n in ns))
        out.append("     - " + status)
        out.append("     - " + text if text else "     -")
    out += ["", END]
    return "\n".join(out) + "\n"


def table_in(rst):
    text = read(rst)
    b, e = text.find(BEGIN), text.find(END)
    if b < 0 or e < 0:
        sys.exit(f"doca-coverage: {rst} has no '{BEGIN}' ... '{END}' markers")
    return text, b, e + len(END) + 1


def parse_rows(table):
    """(names, status) of each row of a rendered table."""
    rows = []
    lines = table.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("   * - ``"):
            rows.append((re.findall(r"``([^`]+)``", line), lines[i + 1].split("- ", 1)[1]))
    return rows


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", required=True, help="directory of the guides' texts")
    ap.add_argument("--samples", help="a doca-samples checkout")
    ap.add_argument("--headers", default=os.path.join(top, "lib", "doca_compat"))
    ap.add_argument("--notes", default=os.path.join(top, "devtools", "doca-coverage.notes"))
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--print", action="store_true")
    mode.add_argument("--check", metavar="RST")
    mode.add_argument("--update", metavar="RST")
    a = ap.parse_args()

    declared = declared_names(a.headers)
    notes = load_notes(a.notes)
    seeds = seed_names(a.seeds)
    used, own = set(), set()
    if a.samples:
        for _, text in sample_files(a.samples):
            used.update(ID.findall(text))
            own.update(defined_names(text))
    real = used | set(declared)
    names = drop_artifacts(seeds, real) | (used - own)
    names = {n for n in names if not OURS.match(n)}
    rows, errors = classify(names, declared, notes)
    for n in errors:
        print(f"doca-coverage: {n}: not declared by the layer and no note says why",
              file=sys.stderr)
    table = render(rows)
    if a.update:
        text, b, e = table_in(a.update)
        with open(a.update, "w", encoding="utf-8") as f:
            f.write(text[:b] + table + text[e:])
    elif a.check:
        text, b, e = table_in(a.check)
        have = text[b:e]
        if a.samples:
            if have != table:
                print(f"doca-coverage: {a.check}: the table is not the one the texts give "
                      f"(--update it)", file=sys.stderr)
                errors.append("table")
        else:
            want = {n: status for status, _, ns, _ in rows for n in ns}
            for ns, status in parse_rows(have):
                for n in ns:
                    if status in ("present", "different") and n not in declared:
                        print(f"doca-coverage: {n}: the table says {status}, the headers "
                              f"do not declare it", file=sys.stderr)
                        errors.append(n)
            listed = {n for ns, _ in parse_rows(have) for n in ns}
            for n, status in sorted(want.items()):
                if n not in listed:
                    print(f"doca-coverage: {n} ({status}) is not in the table", file=sys.stderr)
                    errors.append(n)
    else:
        sys.stdout.write(table)
    counts = {}
    for status, _, ns, _ in rows:
        counts[status] = counts.get(status, 0) + len(ns)
    print("doca-coverage: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) +
          (f"; {len(errors)} problems" if errors else ""), file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
