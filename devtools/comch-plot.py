#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
"""Turn dpdk-test-comch --csv results into SVG pictures.

    devtools/comch-plot.py results.csv [more.csv ...] [-o DIR]

Writes, for what the files hold (a picture is left out if no row serves it):
  latency.svg    round-trip latency percentiles (p50, p90, p99, p99.9) of each
                 transport, one panel per latency mode and message size;
  bandwidth.svg  fp-bw bandwidth against message size, one line per transport;
  rate.svg       fp-stream message rate against burst, one line per transport.
Several files (several runs) are summarised by their median per point.
Needs matplotlib (Debian: python3-matplotlib).
"""

import argparse
import csv
import os
import statistics
import sys
from collections import defaultdict

import matplotlib
import matplotlib.ticker

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402

PERCENTILES = (('p50_ns', 'p50'), ('p90_ns', 'p90'), ('p99_ns', 'p99'), ('p999_ns', 'p99.9'))


def rows_of(paths):
    """The measured rows (client side, status 0) of every file."""
    for path in paths:
        with open(path, newline='') as f:
            for row in csv.DictReader(f):
                if row['side'] == 'client' and row['status'] == '0':
                    yield row


def number(row, key):
    try:
        return float(row[key])
    except (KeyError, ValueError):
        return None


def medians(points):
    """{key: [values]} -> {key: median}."""
    return {k: statistics.median(v) for k, v in points.items() if v}


def plot_latency(rows, out):
    # (mode, size) -> transport -> percentile -> [ns]
    data = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for r in rows:
        if not r['mode'].endswith('-lat') or number(r, 'p50_ns') is None:
            continue
        for key, _ in PERCENTILES:
            v = number(r, key)
            if v is not None:
                data[(r['mode'], int(r['size']))][r['transport']][key].append(v)
    if not data:
        return None
    panels = sorted(data)
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 2.8 * len(panels)), squeeze=False)
    for ax, panel in zip(axes[:, 0], panels):
        transports = sorted(data[panel])
        width = 0.8 / len(PERCENTILES)
        for i, (key, label) in enumerate(PERCENTILES):
            vals = [statistics.median(data[panel][t][key]) if data[panel][t][key] else 0
                    for t in transports]
            ax.bar([x + i * width for x in range(len(transports))], vals, width, label=label)
        ax.set_xticks([x + width * (len(PERCENTILES) - 1) / 2 for x in range(len(transports))])
        ax.set_xticklabels(transports)
        ax.set_yscale('log')
        ax.set_ylabel('round trip, ns')
        ax.set_title('%s, %d-byte messages' % panel)
        ax.grid(axis='y', which='both', alpha=0.3)
        ax.legend(fontsize='small', ncol=len(PERCENTILES))
    fig.tight_layout()
    path = os.path.join(out, 'latency.svg')
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_lines(rows, out, mode, xkey, ykey, scale, xlabel, ylabel, title, name, logx):
    # transport -> x -> [y]
    data = defaultdict(lambda: defaultdict(list))
    for r in rows:
        x, y = number(r, xkey), number(r, ykey)
        if r['mode'] != mode or x is None or y is None:
            continue
        data[r['transport']][x].append(y * scale)
    if not data:
        return None
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = set()
    for transport in sorted(data):
        pts = sorted(medians(data[transport]).items())
        xs.update(p[0] for p in pts)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker='o', label=transport)
    if logx:
        ax.set_xscale('log', base=2)
    # The values measured, written plainly (4096, not 2^12).
    ax.set_xticks(sorted(xs))
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(
        lambda v, _: '%d' % v if v == int(v) else '%g' % v))
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize='small')
    fig.tight_layout()
    path = os.path.join(out, name)
    fig.savefig(path)
    plt.close(fig)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('csv', nargs='+', help='dpdk-test-comch --csv files')
    ap.add_argument('-o', '--out', default='.', help='directory for the SVG files')
    args = ap.parse_args()
    try:
        rows = list(rows_of(args.csv))
    except (OSError, csv.Error, KeyError) as e:
        sys.exit('comch-plot: %s' % e)
    os.makedirs(args.out, exist_ok=True)
    made = [plot_latency(rows, args.out),
            plot_lines(rows, args.out, 'fp-bw', 'size', 'mb_per_s', 1e-3,
                       'message size, bytes', 'GB/s', 'fp-bw: bandwidth against message size',
                       'bandwidth.svg', True),
            plot_lines(rows, args.out, 'fp-stream', 'burst', 'msgs_per_s', 1e-6,
                       'burst (sends per progress)', 'million messages/s',
                       'fp-stream: message rate against burst', 'rate.svg', True)]
    made = [m for m in made if m is not None]
    if not made:
        sys.exit('comch-plot: no latency, fp-bw or fp-stream results in %s' %
                 ', '.join(args.csv))
    for m in made:
        print(m)


if __name__ == '__main__':
    main()
