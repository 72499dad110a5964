#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
"""
Which object files of a built library reference which, and the cycles among
them: the measure of doc/guides/prog_guide/comch_layers.rst.

An object references another when it uses (nm: U) a symbol the other defines
(T, D, B or R): a call, or a table or variable it reads. Static functions are
not seen, nor are inline functions of headers: what is measured is what one
file needs from another at link time. A cycle is a strongly connected
component of two objects or more: files none of which can be understood, built
or tested without the others.

Usage: comch-objdeps.py [--edges] DIR...
  DIR    a build directory's objects of one library, for example
         build/lib/comch/librte_comch.so.0.5.0.p
  --edges  print each object's references too

Prints, per library, the objects, the references between them, and each
cycle; exits 0.
"""

import collections
import glob
import os
import subprocess
import sys


def objects(directory):
    """Each object's name with the symbols it defines and the ones it uses."""
    result = {}
    for path in sorted(glob.glob(os.path.join(directory, '*.o'))):
        name = os.path.basename(path)
        name = name[:-len('.c.o')] if name.endswith('.c.o') else name
        out = subprocess.run(['nm', path], capture_output=True, text=True,
                             check=True).stdout
        defined, used = set(), set()
        for line in out.splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] in 'TDBR':
                defined.add(fields[2])
            elif len(fields) == 2 and fields[0] == 'U':
                used.add(fields[1])
        result[name] = (defined, used)
    return result


def graph(objs):
    """Object -> the objects whose symbols it uses."""
    owner = {sym: name for name, (defined, _) in objs.items() for sym in defined}
    edges = collections.defaultdict(set)
    for name, (_, used) in objs.items():
        for sym in used:
            if sym in owner and owner[sym] != name:
                edges[name].add(owner[sym])
    return edges


def cycles(nodes, edges):
    """The strongly connected components of two nodes or more (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(found, key=len, reverse=True)


def main(argv):
    show_edges = '--edges' in argv
    dirs = [a for a in argv if a != '--edges']
    if not dirs:
        print(__doc__.strip())
        return 2
    for directory in dirs:
        objs = objects(directory)
        edges = graph(objs)
        found = cycles(objs, edges)
        print(f"{directory}: {len(objs)} objects, "
              f"{sum(len(e) for e in edges.values())} references between them, "
              f"{len(found)} cycle{'s' if len(found) != 1 else ''}")
        for comp in found:
            print(f"  cycle of {len(comp)}: {' '.join(comp)}")
        if show_edges:
            for name in sorted(objs):
                print(f"  {name} -> {' '.join(sorted(edges[name])) or '-'}")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
