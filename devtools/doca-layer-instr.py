#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
"""The DOCA layer's instructions per message, counted with callgrind.

Runs app/test-comch-cost's stream in DOCA's names and in rte_comch's task API,
one side under callgrind and the other natively, at two message counts. The
instructions of the program's own code and of the DOCA layer (the executable,
the layer's headers inlined into it, librte_comch_doca) are fitted against
the messages and the progress calls of each run: what is left per message,
DOCA's program against rte_comch's, is the layer's share, whether it runs in
the layer's library or inline in the program. rte_comch's own instructions
are the same calls in both programs and are not counted.
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

EAL = ["--no-huge", "-m", "512", "--no-pci", "--no-shconf", "--no-telemetry",
       "--log-level=lib.eal:error"]
OURS = ("test-comch-cost", "doca_compat", "librte_comch_doca")


def parse(path, callee="rte_comch_pe_progress"):
    """Self instructions by object, and the calls to callee, of a callgrind file."""
    names = {"ob": {}, "fn": {}}
    ob = cfn = None
    cost = collections.Counter()
    calls = 0
    after_calls = False

    def name(kind, tok):
        m = re.match(r"\((\d+)\)(?: (.*))?$", tok)
        if not m:
            return tok
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind][m.group(1)]

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("ob="):
                ob = name("ob", line[3:])
            elif line.startswith("cob="):
                name("ob", line[4:])
            elif line.startswith("fn="):
                name("fn", line[3:])
            elif line.startswith("cfn="):
                cfn = name("fn", line[4:])
            elif line.startswith("calls="):
                if cfn == callee:
                    calls += int(line[6:].split()[0])
                after_calls = True
            elif line and (line[0].isdigit() or line[0] in "+-*"):
                parts = line.split()
                if after_calls:
                    after_calls = False  # the call's inclusive cost: not this function's
                elif len(parts) >= 2:
                    cost[ob] += int(parts[1])
    ours = sum(v for k, v in cost.items() if any(o in k for o in OURS))
    return ours, calls


def run(build, api, side, count, size, work, tag):
    """One stream, side under callgrind; (our instructions, progress calls)."""
    bindir = os.path.join(build, "app", "test-comch-cost")
    d = os.path.join(work, tag)
    os.makedirs(d, mode=0o700)
    out = os.path.join(d, "callgrind.out")
    args = ["-N", str(count), "-s", str(size), "-w", "64", "-n", "instr" + tag]
    env = dict(os.environ)
    cmds = {}
    for role, cpu in (("server", "0"), ("client", "1")):
        if api == "rte":
            dev = (f"shm:domain=i{tag},role=dpu,rep=pf0,dir={d}" if role == "server" else
                   f"shm:domain=i{tag},role=host,fn=pf0,dir={d}")
            cmd = [os.path.join(bindir, "dpdk-comch-cost-rte")] + EAL + \
                [f"--file-prefix=i{role[0]}{tag}", f"--lcores=0@{cpu}", "--",
                 "-r", role, "-d", dev] + args
        else:
            cmd = [os.path.join(bindir, "dpdk-comch-cost-doca"), "-r", role,
                   "-d", "03:00.0"] + args
        if role == side:
            cmd = ["valgrind", "--tool=callgrind", "-q", f"--callgrind-out-file={out}"] + cmd
        cmds[role] = (cmd, cpu)
    env["RTE_COMCH_DOCA_DEVICES"] = f"03:00.0=shm:domain=i{tag},dir={d}"
    procs = []
    for role in ("server", "client"):
        cmd, cpu = cmds[role]
        e = dict(env)
        e["RTE_COMCH_DOCA_EAL_ARGS"] = " ".join(EAL + [f"--file-prefix=i{role[0]}{tag}",
                                                        f"--lcores=0@{cpu}"])
        log = open(os.path.join(d, role), "w", encoding="utf-8")
        procs.append((role, subprocess.Popen(["taskset", "-c", cpu] + cmd, env=e,
                                             stdout=log, stderr=subprocess.STDOUT)))
        time.sleep(1.0 if role == "server" else 0)
    for role, p in procs:
        if p.wait(timeout=900) != 0:
            with open(os.path.join(d, role), encoding="utf-8", errors="replace") as f:
                sys.exit(f"doca-layer-instr: {api} {role} failed:\n{f.read()}")
    return parse(out)


def fit(points):
    """Solve ours = a * messages + b * progress calls from two runs."""
    (y1, m1, c1), (y2, m2, c2) = points
    det = m1 * c2 - m2 * c1
    if det == 0:
        sys.exit("doca-layer-instr: the two runs cannot be told apart")
    return (y1 * c2 - y2 * c1) / det, (m1 * y2 - m2 * y1) / det


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--side", choices=("client", "server", "both"), default="both")
    ap.add_argument("--counts", default="20000,60000",
                    help="the two message counts (default 20000,60000)")
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("doca-layer-instr: valgrind is not installed")
    counts = [int(x) for x in a.counts.split(",")]
    if len(counts) != 2 or counts[0] == counts[1]:
        sys.exit("doca-layer-instr: --counts takes two different counts")
    sides = ("server", "client") if a.side == "both" else (a.side,)
    work = tempfile.mkdtemp(prefix="doca-layer-instr.")
    try:
        print(f"doca-layer-instr: {a.size} B, the program's and the layer's instructions "
              f"(rte_comch's not counted)")
        print(f"{'side':8} {'api':5} {'a message':>10} {'a progress call':>16}")
        for side in sides:
            res = {}
            for api in ("rte", "doca"):
                pts = []
                for i, n in enumerate(counts):
                    ours, calls = run(a.build, api, side, n, a.size, work,
                                      f"{os.getpid()}{side[0]}{api[0]}{i}")
                    pts.append((ours, n, calls))
                res[api] = fit(pts)
                print(f"{side:8} {api:5} {res[api][0]:10.1f} {res[api][1]:16.1f}")
            print(f"{side:8} {'layer':5} {res['doca'][0] - res['rte'][0]:10.1f} "
                  f"{res['doca'][1] - res['rte'][1]:16.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
