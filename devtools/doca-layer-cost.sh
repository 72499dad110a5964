#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
#
# The DOCA layer's cost per message: the fast-path stream of app/test-comch-cost,
# in DOCA's names over the layer and in rte_comch's task API, over the shm driver,
# server and client pinned one per core (the first two CPUs this shell may use).
# Each size runs R times per API, the APIs alternating, and the medians of the
# nanoseconds per message (measured by the server, the receiving side) are
# compared.
#
#   ./devtools/doca-layer-cost.sh [build dir] [runs] [messages] [sizes]
#
# Defaults: build, 5 runs, 1,000,000 messages, sizes "64 4096"; 64 in flight.
set -eu

build=${1:-build}
runs=${2:-5}
count=${3:-1000000}
sizes=${4:-64 4096}
bin=$build/app/test-comch-cost
work=$(mktemp -d /tmp/doca-layer-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
cpus=$(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' |
	awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' | head -2)
c0=$(echo "$cpus" | sed -n 1p)
c1=$(echo "$cpus" | sed -n 2p)
[ -n "$c1" ] || { echo "doca-layer-cost: two CPUs are needed"; exit 1; }
eal="--no-huge -m 512 --no-pci --no-shconf --no-telemetry --log-level=lib.eal:error"

# run_pair <api> <size> <tag>: one server and one client; the server's ns per message.
run_pair() {
	api=$1 size=$2 tag=$3
	dir="$work/$tag"
	mkdir -m 700 -p "$dir"
	args="-N $count -s $size -w 64 -n cost_$tag"
	if [ "$api" = rte ]; then
		taskset -c "$c0" "$bin/dpdk-comch-cost-rte" $eal --file-prefix="cs$tag" \
			--lcores="0@$c0" -- -r server \
			-d "shm:domain=c$tag,role=dpu,rep=pf0,dir=$dir" $args >"$dir/server" 2>&1 &
		spid=$!
		sleep 0.3
		taskset -c "$c1" "$bin/dpdk-comch-cost-rte" $eal --file-prefix="cc$tag" \
			--lcores="0@$c1" -- -r client \
			-d "shm:domain=c$tag,role=host,fn=pf0,dir=$dir" $args >"$dir/client" 2>&1 ||
			true
	else
		RTE_COMCH_DOCA_DEVICES="03:00.0=shm:domain=d$tag,dir=$dir" \
		RTE_COMCH_DOCA_EAL_ARGS="$eal --file-prefix=ds$tag --lcores=0@$c0" \
			taskset -c "$c0" "$bin/dpdk-comch-cost-doca" -r server -d 03:00.0 $args \
			>"$dir/server" 2>&1 &
		spid=$!
		sleep 0.3
		RTE_COMCH_DOCA_DEVICES="03:00.0=shm:domain=d$tag,dir=$dir" \
		RTE_COMCH_DOCA_EAL_ARGS="$eal --file-prefix=dc$tag --lcores=0@$c1" \
			taskset -c "$c1" "$bin/dpdk-comch-cost-doca" -r client -d 03:00.0 $args \
			>"$dir/client" 2>&1 || true
	fi
	wait $spid || true
	ns=$(awk -v a="$api" '$1 == "cost" && $2 == a { print $4 }' "$dir/server")
	if [ -z "$ns" ]; then
		echo "doca-layer-cost: $api $size B run $tag failed:" >&2
		cat "$dir/server" "$dir/client" >&2
		exit 1
	fi
	echo "$ns"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "doca-layer-cost: $count messages per run, $runs runs per API and size, CPUs $c0 and $c1"
printf '%8s %12s %12s %8s   %s\n' size "rte ns/msg" "doca ns/msg" ratio "runs (rte | doca)"
for size in $sizes; do
	: >"$work/rte.$size"
	: >"$work/doca.$size"
	i=1
	while [ "$i" -le "$runs" ]; do
		run_pair rte "$size" "$$x$size$i" >>"$work/rte.$size"
		run_pair doca "$size" "$$y$size$i" >>"$work/doca.$size"
		i=$((i + 1))
	done
	r=$(median <"$work/rte.$size")
	d=$(median <"$work/doca.$size")
	printf '%8s %12s %12s %8.3f   %s | %s\n' "$size" "$r" "$d" \
		"$(echo "$d $r" | awk '{ print $1 / $2 }')" \
		"$(tr '\n' ' ' <"$work/rte.$size")" "$(tr '\n' ' ' <"$work/doca.$size")"
done
