/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_comch.h>

#include "bench_output.h"

/* Width of the row labels: the longest of the plan, at least the usual 20. */
static int label_w = 20;
/* --targets: print the project's targets, met or missed (off: only the figures). */
static bool show_targets;

static const char *
side_name(int side)
{
	if (side == BENCH_SIDE_BOTH)
		return "parent";
	return side == BENCH_SIDE_SERVER ? "server" : "client";
}

/* The result a side sent for test i, or NULL if none arrived. */
static const struct bench_result *
get(const struct bench_results *rs, unsigned int i, enum bench_side side)
{
	const struct bench_result *r;

	r = side == BENCH_SIDE_SERVER ? &rs->server[i] : &rs->client[i];
	return r->magic == BENCH_RESULT_MAGIC ? r : NULL;
}

static bool
expects(enum bench_side who, enum bench_side side)
{
	return who == BENCH_SIDE_BOTH || who == side;
}

/* A test passed if every side expected sent a result and none failed. */
static bool
test_ok(const struct bench_results *rs, unsigned int i, enum bench_side who)
{
	const struct bench_result *c = get(rs, i, BENCH_SIDE_CLIENT);
	const struct bench_result *s = get(rs, i, BENCH_SIDE_SERVER);

	if (expects(who, BENCH_SIDE_CLIENT) && (c == NULL || c->status != 0))
		return false;
	if (expects(who, BENCH_SIDE_SERVER) && (s == NULL || s->status != 0))
		return false;
	return true;
}

/* "8,32,128" */
static void
print_list(FILE *f, const uint32_t *v, unsigned int nb)
{
	unsigned int i;

	for (i = 0; i < nb; i++)
		fprintf(f, "%s%" PRIu32, i ? "," : "", v[i]);
}

static void
print_run_header(FILE *f, const struct bench_opts *o, const struct bench_test *plan,
		 const struct bench_results *rs, unsigned int nb)
{
	bool lat = false, stream = false, fast = false, many_ctrl = false, many_fp = false;
	bool event = false, local = false;
	uint64_t hz = 0;
	unsigned int i;

	for (i = 0; i < nb && hz == 0; i++)
		if (get(rs, i, BENCH_SIDE_CLIENT) != NULL)
			hz = get(rs, i, BENCH_SIDE_CLIENT)->tsc_hz;
	fprintf(f, "%s (rte_comch %s): server on lcore %u, client on lcore %u", BENCH_PROG,
		RTE_COMCH_VERSION, o->server_lcore, o->client_lcore);
	if (hz != 0)
		fprintf(f, ", TSC %.3f GHz", hz / 1e9);
	fprintf(f, "\n");
	for (i = 0; i < nb; i++) {
		if (plan[i].mode->kind == BENCH_KIND_LAT)
			lat = true;
		else
			stream = true;
		fast |= plan[i].mode->fast;
		event |= plan[i].mode->event;
		local |= plan[i].mode->one_process;
	}
	if (lat)
		fprintf(f, "latency: %" PRIu64 " round trips after %" PRIu64 " warm-up; ",
			o->iterations, o->warmup);
	if (stream)
		fprintf(f, "stream: %.2f s after %" PRIu64 " warm-up messages; ", o->duration,
			o->warmup);
	fprintf(f, "comch recv queue ");
	print_list(f, o->recv_queues, o->nb_recv_queues);
	fprintf(f, "\n");
	if (event)
		fprintf(f, "event modes: engines sleep when idle (safety timeout %d ms); idle "
			"window %.2f s\n", BENCH_EV_SAFETY_MS, o->idle);
	if (fast) {
		fprintf(f, "fast path: header as 16 B of immediate data; burst ");
		print_list(f, o->bursts, o->nb_bursts);
		if (o->nb_buffers != 0) {
			fprintf(f, "; ");
			print_list(f, o->buffers_list, o->nb_buffers);
			fprintf(f, " buffers posted\n");
		} else {
			fprintf(f, "; buffers posted: max(2 x burst, 64), fp-lat/fp-bw "
				"within 8 MiB\n");
		}
		/* Heap memory costs the shm driver a copy: a result must say which it had. */
		fprintf(f, "fast path: consumer memory %s\n",
			o->consumer_mem == BENCH_CMEM_HEAP ?
			"heap (aligned_alloc, set_memrange: staged, one more copy per message "
			"over 80 B)" : "shared (alloc_memrange: the peer writes into it)");
	}
	if (local)
		fprintf(f, "msgq modes: one process (the client's), CPU end on lcore %u, DPA unit "
			"(pthread) or ring thread on CPU %u; %" PRIu32 " receives offered each way; "
			"imm data only\n", o->client_lcore, o->server_lcore,
			bench_msgq_depth(o));
	for (i = 0; i < nb; i++) {
		if (plan[i].mode->kind == BENCH_KIND_MANY && plan[i].mode->fast)
			many_fp = true;
		else if (plan[i].mode->kind == BENCH_KIND_MANY)
			many_ctrl = true;
	}
	if (many_ctrl)
		fprintf(f, "ctrl-many: %" PRIu32 " clients on one engine, one server\n",
			o->clients);
	if (many_fp)
		fprintf(f, "fp-many: %" PRIu32 " producers on one engine, %" PRIu32 " consumers on "
			"one engine; producer i sends to consumer i %% %" PRIu32 "\n", o->producers,
			o->consumers, o->consumers);
}

static void
print_group_header(FILE *f, const struct bench_test *t)
{
	char title[48], size[24];
	int w = label_w + 2;

	bench_size_str(t->size, size, sizeof(size));
	snprintf(title, sizeof(title), "%s %s", t->mode->name, size);
	if (t->mode->kind == BENCH_KIND_LAT)
		fprintf(f, "\n%-*s %10s %9s %9s %9s %9s %9s %9s\n", w, title, "round trips",
			"min ns", "p50 ns", "p90 ns", "p99 ns", "p99.9 ns", "max ns");
	else if (t->mode->kind == BENCH_KIND_STREAM)
		fprintf(f, "\n%-*s %10s %9s %9s %9s %9s %9s %11s\n", w, title, "messages",
			"kmsg/s", "MB/s", "tx cyc", "rx cyc", "send cyc", "queue full");
	else if (t->mode->kind == BENCH_KIND_MANY)
		fprintf(f, "\n%-*s %10s %9s %9s %9s %9s %9s %10s %10s %11s\n", w, title,
			"messages", "kmsg/s", "MB/s", "tx cyc", "rx cyc",
			t->mode->fast ? "prod:cons" : "clients", t->mode->fast ? "min/cons" :
			"min/client", t->mode->fast ? "max/cons" : "max/client", "queue full");
	else
		fprintf(f, "\n%-*s %10s %9s %9s %9s %9s %9s %11s\n", w, title, "messages",
			"kmsg/s", "GB/s", "tx cyc", "rx cyc", "buffers", "queue full");
}

/* Cycles per message in a 9-wide column: "-" if not measured, no decimals when huge. */
static void
fmt_cyc(char *buf, size_t len, double cyc, int decimals)
{
	if (cyc <= 0)
		snprintf(buf, len, "%9s", "-");
	else
		snprintf(buf, len, "%9.*f", cyc < 1e6 ? decimals : 0, cyc);
}

/* A many-to-one row: who sent, and the least and best served receiver (or sender). */
static void
print_many(FILE *f, const char *tr, const struct bench_result *c, const char *tx, const char *rx)
{
	char who[24];

	if (c->senders == 0) {
		fprintf(f, "  %-*s %10" PRIu64 " %9.1f %9.1f %s %s %9s %10s %10s %11" PRIu64 "\n",
			label_w, tr, c->ops, c->msgs_per_s / 1e3, c->mb_per_s, tx, rx, "1", "-",
			"-", c->eagain);
		return;
	}
	if (c->receivers > 1)
		snprintf(who, sizeof(who), "%" PRIu32 ":%" PRIu32, c->senders, c->receivers);
	else
		snprintf(who, sizeof(who), "%" PRIu32, c->senders);
	fprintf(f, "  %-*s %10" PRIu64 " %9.1f %9.1f %s %s %9s %10" PRIu64 " %10" PRIu64 " %11"
		PRIu64 "\n", label_w, tr, c->ops, c->msgs_per_s / 1e3, c->mb_per_s, tx, rx, who,
		c->share_min, c->share_max, c->eagain);
}

/*
 * What one of r's connections (fp-many: producers, consumers) added to the
 * side's resident memory, in KiB, from before the first to kb (rss_conn_kb,
 * idle, or rss_end_kb, after the traffic). False if not measured.
 */
static bool
rss_per_unit(const struct bench_result *r, uint64_t kb, double *per_kb)
{
	if (r == NULL || r->status != 0 || r->mem_units == 0 || r->rss_base_kb == 0 || kb == 0)
		return false;
	/* Signed: a side may give back more than its connections took (a freed cache). */
	*per_kb = ((double)kb - (double)r->rss_base_kb) / r->mem_units;
	return true;
}

/* "12.3 / 40.1": KiB per connection, idle and after the traffic; "-" where not measured. */
static void
fmt_rss_pair(char *buf, size_t len, const struct bench_result *r)
{
	double idle, end;
	char a[24] = "-", b[24] = "-";

	if (rss_per_unit(r, r != NULL ? r->rss_conn_kb : 0, &idle))
		snprintf(a, sizeof(a), "%.1f", idle);
	if (rss_per_unit(r, r != NULL ? r->rss_end_kb : 0, &end))
		snprintf(b, sizeof(b), "%.1f", end);
	snprintf(buf, len, "%s / %s", a, b);
}

/* "41.6 / 47.8 / 61.9": the side's VmRSS in MB before, idle, after; "-" if not measured. */
static void
fmt_rss_mb(char *buf, size_t len, const struct bench_result *r)
{
	const uint64_t kb[3] = { r->rss_base_kb, r->rss_conn_kb, r->rss_end_kb };
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < RTE_DIM(kb) && off < len; i++) {
		if (kb[i] == 0)
			off += snprintf(buf + off, len - off, "%s-", i ? " / " : "");
		else
			off += snprintf(buf + off, len - off, "%s%.1f", i ? " / " : "",
					kb[i] * 1024 / 1e6);
	}
}

/*
 * A many-to-one row's memory: what each connection (fp-many: producer,
 * consumer) added to each side's resident set, idle and after the traffic,
 * and each side's VmRSS at the three points.
 */
static void
print_mem(FILE *f, const struct bench_test *t, const struct bench_result *c,
	  const struct bench_result *s)
{
	char cp[48], sp[48], cm[48], sm[48];

	if (c->mem_units == 0 && (s == NULL || s->mem_units == 0))
		return;
	fmt_rss_pair(cp, sizeof(cp), c);
	fmt_rss_pair(sp, sizeof(sp), s);
	fmt_rss_mb(cm, sizeof(cm), c);
	if (s != NULL)
		fmt_rss_mb(sm, sizeof(sm), s);
	else
		snprintf(sm, sizeof(sm), "-");
	if (t->mode->fast)
		fprintf(f, "    resident KiB, idle / after traffic: client %s per producer, "
			"server %s per consumer\n", cp, sp);
	else
		fprintf(f, "    resident KiB per connection, idle / after traffic: client %s, "
			"server %s\n", cp, sp);
	fprintf(f, "    VmRSS MB before / idle / after: client %s, server %s\n", cm, sm);
}

/* "client 1.00, server 0.98", or the client's alone when the server's is not here. */
static void
fmt_sides(char *buf, size_t len, const char *fmt, double c, const struct bench_result *s,
	  double sv)
{
	char cs[24], ss[24];

	snprintf(cs, sizeof(cs), fmt, c);
	snprintf(ss, sizeof(ss), fmt, sv);
	if (s == NULL)
		snprintf(buf, len, "client %s", cs);
	else
		snprintf(buf, len, "client %s, server %s", cs, ss);
}

/* The target for an idle connection: its sleeping engines use no CPU. */
#define IDLE_CPU_TARGET_PCT 1.0

static double
per(uint64_t n, uint64_t d)
{
	return d == 0 ? 0 : (double)n / d;
}

/*
 * An event-mode row: how each side's sleeps ended, per round trip (warm-up
 * included), and what the idle window cost each side's thread.
 */
static void
print_events(FILE *f, const struct bench_result *c, const struct bench_result *s)
{
	char wake[64], busy[64], cpu[64], idle_w[64];
	uint64_t timeouts = c->ev_timeouts + (s != NULL ? s->ev_timeouts : 0);
	double worst_cpu = RTE_MAX(c->idle_cpu_pct, s != NULL ? s->idle_cpu_pct : 0);

	fmt_sides(wake, sizeof(wake), "%.2f", per(c->wakeups, c->verified), s,
		  s != NULL ? per(s->wakeups, s->verified) : 0);
	fmt_sides(busy, sizeof(busy), "%.2f", per(c->ev_eagain, c->verified), s,
		  s != NULL ? per(s->ev_eagain, s->verified) : 0);
	fprintf(f, "    per round trip: wake-ups %s; work pending (EAGAIN) %s\n", wake, busy);
	fmt_sides(cpu, sizeof(cpu), "%.2f%%", c->idle_cpu_pct, s, s != NULL ? s->idle_cpu_pct : 0);
	fmt_sides(idle_w, sizeof(idle_w), "%.0f", (double)c->idle_wakeups, s,
		  s != NULL ? (double)s->idle_wakeups : 0);
	if (show_targets)
		fprintf(f, "    idle %.2f s: cpu %s (target < %.0f%%: %s); wake-ups %s\n",
			c->idle_s, cpu, IDLE_CPU_TARGET_PCT,
			worst_cpu < IDLE_CPU_TARGET_PCT ? "met" : "missed", idle_w);
	else
		fprintf(f, "    idle %.2f s: cpu %s; wake-ups %s\n", c->idle_s, cpu, idle_w);
	fprintf(f, "    safety timeouts: %" PRIu64 "%s\n", timeouts,
		timeouts != 0 ? " (wake-ups lost, or a side descheduled for 100 ms)" : "");
}

static void
print_row(FILE *f, const struct bench_test *t, const struct bench_results *rs, unsigned int i,
	  enum bench_side who, bool earlier_failed)
{
	const struct bench_result *c = get(rs, i, BENCH_SIDE_CLIENT);
	const struct bench_result *s = get(rs, i, BENCH_SIDE_SERVER);
	/* A one-process mode's client measured both ends. */
	const struct bench_result *rxr = t->mode->one_process ? c : s;
	char tr[64], tx[16], rx[16], send[16];
	const int w = label_w;

	bench_test_label(t, tr, sizeof(tr));
	if (c != NULL) {
		/* Huge messages cost millions of cycles each: no decimals then. */
		fmt_cyc(tx, sizeof(tx), c->cyc_per_msg, t->mode->kind == BENCH_KIND_BW ? 0 : 1);
		fmt_cyc(rx, sizeof(rx), rxr != NULL && rxr->status == 0 ? rxr->rx_cyc_per_msg : 0,
			t->mode->kind == BENCH_KIND_BW ? 0 : 1);
		fmt_cyc(send, sizeof(send), c->send_cyc, 1);
	}
	if (c != NULL && c->status == 0 && c->skipped) {
		fprintf(f, "  %-*s skipped: %s\n", w, tr, c->error);
	} else if (c != NULL && c->status == 0) {
		if (t->mode->kind == BENCH_KIND_LAT)
			fprintf(f, "  %-*s %10" PRIu64 " %9.0f %9.0f %9.0f %9.0f %9.0f %9.0f\n",
				w, tr, c->ops, c->lat_ns[BENCH_PCT_MIN], c->lat_ns[BENCH_PCT_P50],
				c->lat_ns[BENCH_PCT_P90], c->lat_ns[BENCH_PCT_P99],
				c->lat_ns[BENCH_PCT_P999], c->lat_ns[BENCH_PCT_MAX]);
		else if (t->mode->kind == BENCH_KIND_STREAM)
			fprintf(f, "  %-*s %10" PRIu64 " %9.1f %9.1f %s %s %s %11" PRIu64 "\n",
				w, tr, c->ops, c->msgs_per_s / 1e3, c->mb_per_s, tx, rx, send,
				c->eagain);
		else if (t->mode->kind == BENCH_KIND_MANY)
			print_many(f, tr, c, tx, rx);
		else
			fprintf(f, "  %-*s %10" PRIu64 " %9.1f %9.2f %s %s %9" PRIu32 " %11"
				PRIu64 "\n", w, tr, c->ops, c->msgs_per_s / 1e3, c->mb_per_s / 1e3,
				tx, rx, c->buffers, c->eagain);
	} else if (c != NULL) {
		fprintf(f, "  %-*s FAILED (client): %s\n", w, tr, c->error);
	} else if (earlier_failed) {
		fprintf(f, "  %-*s not run: the run stops at the first failure\n", w, tr);
		return;
	} else {
		fprintf(f, "  %-*s FAILED (client): no result\n", w, tr);
	}
	if (c != NULL && c->status == 0 && !c->skipped && c->event)
		print_events(f, c, s != NULL && s->status == 0 && s->event ? s : NULL);
	/* memif's tx_burst takes no more than its ring has room for. */
	if (c != NULL && c->status == 0 && !c->skipped && t->burst > BENCH_MEMIF_RING_SIZE &&
	    (t->transport == BENCH_TR_MEMIF || t->transport == BENCH_TR_MEMIF_ZC))
		fprintf(f, "  %-*s (burst capped: memif takes at most %u messages a call, its "
			"ring)\n", w, "", BENCH_MEMIF_RING_SIZE);
	if (c != NULL && c->status == 0 && !c->skipped && t->mode->kind == BENCH_KIND_MANY)
		print_mem(f, t, c, s != NULL && s->status == 0 ? s : NULL);
	if (expects(who, BENCH_SIDE_SERVER) && s != NULL && s->status != 0)
		fprintf(f, "  %-*s FAILED (server): %s\n", w, tr, s->error);
	else if (expects(who, BENCH_SIDE_SERVER) && s == NULL)
		fprintf(f, "  %-*s FAILED (server): no result\n", w, tr);
}

/* "0.91 us" below 10 us, "40.1 us" above: two significant digits at least. */
static void
fmt_us(char *buf, size_t len, double ns)
{
	snprintf(buf, len, ns < 10000 ? "%.2f us" : "%.1f us", ns / 1000);
}

static void
fmt_rate(char *buf, size_t len, double per_s)
{
	if (per_s >= 1e6)
		snprintf(buf, len, "%.2f Mmsg/s", per_s / 1e6);
	else if (per_s >= 1e3)
		snprintf(buf, len, "%.1f kmsg/s", per_s / 1e3);
	else
		snprintf(buf, len, "%.0f msg/s", per_s);
}

/* "what: comch 1.2 us, unix 40 us, 33.3x faster" */
static void
print_ratio(FILE *f, const char *what, const char *cl, double comch_v, const char *comch_s,
	    const char *base, double base_v, const char *base_s, bool lower_is_better)
{
	double r;

	if (comch_v <= 0 || base_v <= 0)
		return;
	r = lower_is_better ? base_v / comch_v : comch_v / base_v;
	fprintf(f, "  %s: %s %s, %s %s, %.1fx %s\n", what, cl, comch_s, base, base_s,
		r >= 1 ? r : 1 / r, r >= 1 ? "faster" : "slower");
}

/* "target: comch p50 within 1.5x of cacheline: met (1.32x)" */
static void
print_target_line(FILE *f, const char *cl, const char *what, const char *bl, bool met,
		  double ratio)
{
	fprintf(f, "  target: %s %s %s: %s (%.2fx)\n", cl, what, bl, met ? "met" : "missed",
		ratio);
}

/*
 * The issues' targets of one comch row against one baseline: round trips
 * within a factor of the shared-memory and wake-up floors, faster than the
 * Unix socket and memif; message rates and bandwidth against memif.
 */
static void
print_targets(FILE *f, const struct bench_test *ct, const struct bench_test *bt,
	      const struct bench_result *c, const struct bench_result *b)
{
	double p50 = c->lat_ns[BENCH_PCT_P50], base = b->lat_ns[BENCH_PCT_P50];
	bool zc = bt->transport == BENCH_TR_MEMIF_ZC;
	bool memif = zc || bt->transport == BENCH_TR_MEMIF;
	char cl[64], bl[64], what[64];
	double min;

	/* The issues' targets are about the shm channel, not MsgQ nor the endpoint API. */
	if (ct->mode->one_process || ct->mode->endpoint)
		return;
	bench_test_label(ct, cl, sizeof(cl));
	bench_test_label(bt, bl, sizeof(bl));
	switch (ct->mode->kind) {
	case BENCH_KIND_LAT:
		if (p50 <= 0 || base <= 0)
			return;
		/* A round trip without wake-ups is not the one the event target is about. */
		if (ct->mode->event && bt->transport == BENCH_TR_EVENTFD)
			fprintf(f, "  target: %s p50 within 1.25x of eventfd: %s%s\n", cl,
				p50 <= 1.25 * base ? "met" : "missed",
				c->event && per(c->wakeups, c->verified) < 0.5 ?
				" (but comch mostly polled: see work pending)" : "");
		if (ct->mode->event)
			return;
		if (bt->transport == BENCH_TR_CACHELINE)
			print_target_line(f, cl, "p50 within 1.5x of", bl, p50 <= 1.5 * base,
					  p50 / base);
		else if (bt->transport == BENCH_TR_UNIX)
			print_target_line(f, cl, "p50 30x faster than", bl, base >= 30 * p50,
					  base / p50);
		else if (memif)
			print_target_line(f, cl, "p50 faster than", bl, base > p50, base / p50);
		return;
	case BENCH_KIND_STREAM:
		if (!ct->mode->fast || !memif || c->msgs_per_s <= 0 || b->msgs_per_s <= 0)
			return;
		/* The burst API against zero-copy, the task API against copy mode. */
		if (ct->transport == BENCH_TR_COMCH_BURST && zc)
			min = ct->burst > 1 ? 1.5 : 1.0;
		else if (ct->transport == BENCH_TR_COMCH && !zc)
			min = 1.0;
		else
			return;
		snprintf(what, sizeof(what), "msg rate at least %.1fx", min);
		print_target_line(f, cl, what, bl, c->msgs_per_s >= min * b->msgs_per_s,
				  c->msgs_per_s / b->msgs_per_s);
		return;
	case BENCH_KIND_BW:
		if (memif && c->mb_per_s > 0 && b->mb_per_s > 0)
			print_target_line(f, cl, "at least as fast as", bl,
					  c->mb_per_s >= b->mb_per_s, c->mb_per_s / b->mb_per_s);
		return;
	default:
		return;
	}
}

/* One comch result against one baseline of the same mode and size. */
static void
print_pair(FILE *f, const struct bench_test *ct, const struct bench_result *c,
	   const struct bench_result *c_rx, const struct bench_test *bt,
	   const struct bench_result *b, const struct bench_result *b_rx, bool several)
{
	char cl[64], name[64], cs[48], bs[48], size[24];

	bench_test_label(bt, name, sizeof(name));
	bench_test_label(ct, cl, sizeof(cl));
	switch (ct->mode->kind) {
	case BENCH_KIND_LAT:
		fmt_us(cs, sizeof(cs), c->lat_ns[BENCH_PCT_P50]);
		fmt_us(bs, sizeof(bs), b->lat_ns[BENCH_PCT_P50]);
		print_ratio(f, "p50 rtt", cl, c->lat_ns[BENCH_PCT_P50], cs, name,
			    b->lat_ns[BENCH_PCT_P50], bs, true);
		fmt_us(cs, sizeof(cs), c->lat_ns[BENCH_PCT_P99]);
		fmt_us(bs, sizeof(bs), b->lat_ns[BENCH_PCT_P99]);
		print_ratio(f, "p99 rtt", cl, c->lat_ns[BENCH_PCT_P99], cs, name,
			    b->lat_ns[BENCH_PCT_P99], bs, true);
		break;
	case BENCH_KIND_STREAM:
	case BENCH_KIND_MANY:
		fmt_rate(cs, sizeof(cs), c->msgs_per_s);
		fmt_rate(bs, sizeof(bs), b->msgs_per_s);
		print_ratio(f, "msg rate", cl, c->msgs_per_s, cs, name, b->msgs_per_s, bs, false);
		/* With several comch rows (APIs, bursts), the costs would drown the rates. */
		if (!several) {
			snprintf(cs, sizeof(cs), "%.0f cyc/msg", c->cyc_per_msg);
			snprintf(bs, sizeof(bs), "%.0f cyc/msg", b->cyc_per_msg);
			print_ratio(f, "sender cost", cl, c->cyc_per_msg, cs, name, b->cyc_per_msg,
				    bs, true);
			if (c_rx != NULL && b_rx != NULL) {
				snprintf(cs, sizeof(cs), "%.0f cyc/msg", c_rx->rx_cyc_per_msg);
				snprintf(bs, sizeof(bs), "%.0f cyc/msg", b_rx->rx_cyc_per_msg);
				print_ratio(f, "receiver cost", cl, c_rx->rx_cyc_per_msg, cs, name,
					    b_rx->rx_cyc_per_msg, bs, true);
			}
		}
		/* How evenly the receiver served its senders: 1.00 is perfectly even. */
		if (ct->mode->kind == BENCH_KIND_MANY && c->share_max != 0 && b->share_max != 0)
			fprintf(f, "  fairness (least / best served %s): %s %.2f, %s %.2f\n",
				ct->mode->fast ? "consumer" : "client", cl,
				(double)c->share_min / c->share_max, name,
				(double)b->share_min / b->share_max);
		else if (ct->mode->kind == BENCH_KIND_MANY && c->share_max != 0)
			fprintf(f, "  fairness (least / best served %s): %s %.2f\n",
				ct->mode->fast ? "consumer" : "client", cl,
				(double)c->share_min / c->share_max);
		break;
	case BENCH_KIND_BW:
		/* As a fraction of the baseline: 1.00x is the same speed. */
		if (c->mb_per_s <= 0 || b->mb_per_s <= 0)
			break;
		bench_size_str(ct->size, size, sizeof(size));
		fprintf(f, "  %s: %s %.2f GB/s, %s %.2f GB/s, %.2fx\n", size, cl,
			c->mb_per_s / 1e3, name, b->mb_per_s / 1e3, c->mb_per_s / b->mb_per_s);
		break;
	}
	if (show_targets)
		print_targets(f, ct, bt, c, b);
}

/* Both sides' growth per connection, after the traffic; false if either is missing. */
static bool
rss_both(const struct bench_result *c, const struct bench_result *s, double *kb)
{
	double a, b;

	if (!rss_per_unit(c, c->rss_end_kb, &a) || !rss_per_unit(s, s != NULL ? s->rss_end_kb : 0,
								  &b))
		return false;
	*kb = a + b;
	return true;
}

/*
 * ctrl-many: what a connection costs in resident memory, client and server
 * together, over comch and over the baseline of the same run.
 */
static void
print_mem_pair(FILE *f, const struct bench_test *ct, const struct bench_result *c,
	       const struct bench_result *c_sv, const struct bench_test *bt,
	       const struct bench_result *b, const struct bench_result *b_sv)
{
	char cl[64], bl[64];
	double ckb, bkb;

	if (ct->mode->kind != BENCH_KIND_MANY || ct->mode->fast || !rss_both(c, c_sv, &ckb) ||
	    !rss_both(b, b_sv, &bkb))
		return;
	bench_test_label(ct, cl, sizeof(cl));
	bench_test_label(bt, bl, sizeof(bl));
	fprintf(f, "  resident per connection after traffic, client + server: %s %.1f KiB, "
		"%s %.1f KiB\n", cl, ckb, bl, bkb);
}

/*
 * Whether comch row i and baseline row j compare: a memcpy row with the comch
 * rows of its own buffers, a channel that sends in bursts with the comch rows
 * of its own burst.
 */
static bool
comparable(const struct bench_test *ct, const struct bench_test *bt)
{
	if (bt->transport == BENCH_TR_MEMCPY)
		return bt->buffers == ct->buffers;
	if (bench_transport_bursts(bt->transport) && ct->mode->kind != BENCH_KIND_LAT)
		return bt->burst == ct->burst;
	return true;
}

/* Compare each comch result with each baseline of the same mode and size. */
static void
print_ratios(FILE *f, const struct bench_test *plan, unsigned int first, unsigned int end,
	     const struct bench_results *rs, enum bench_side who)
{
	const struct bench_result *c, *b, *c_rx, *b_rx;
	unsigned int i, j, nb_comch = 0;

	for (i = first; i < end; i++)
		nb_comch += bench_transport_is_comch(plan[i].transport);
	for (i = first; i < end; i++) {
		if (!bench_transport_is_comch(plan[i].transport) || !test_ok(rs, i, who))
			continue;
		c = get(rs, i, BENCH_SIDE_CLIENT);
		if (c == NULL || c->skipped)
			continue;
		c_rx = get(rs, i, plan[i].mode->one_process ? BENCH_SIDE_CLIENT : BENCH_SIDE_SERVER);
		for (j = first; j < end; j++) {
			if (bench_transport_is_comch(plan[j].transport) || !test_ok(rs, j, who) ||
			    !comparable(&plan[i], &plan[j]))
				continue;
			b = get(rs, j, BENCH_SIDE_CLIENT);
			if (b == NULL || b->skipped)
				continue;
			b_rx = get(rs, j, plan[j].mode->one_process ? BENCH_SIDE_CLIENT :
				   BENCH_SIDE_SERVER);
			if (c_rx != NULL && (c_rx->status != 0 || c_rx->rx_cyc_per_msg <= 0))
				c_rx = NULL;
			if (b_rx != NULL && (b_rx->status != 0 || b_rx->rx_cyc_per_msg <= 0))
				b_rx = NULL;
			print_pair(f, &plan[i], c, c_rx, &plan[j], b, b_rx, nb_comch > 1);
			print_mem_pair(f, &plan[i], c, get(rs, i, BENCH_SIDE_SERVER), &plan[j], b,
				       get(rs, j, BENCH_SIDE_SERVER));
		}
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n), n > 0; sorts v. */
static double
median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 != 0 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The baseline a mode's rte_comch rows are summed up against: the event
 * modes' wake-up floor, else the strongest channel the run has (memif, the
 * MsgQ's rte_rings, a Unix socket), else a floor (the cache line, memcpy).
 * memif's copy and zero-copy modes rank alike: which is stronger depends on
 * the test (summary_baseline()).
 */
static int
summary_rank(const struct bench_test *t)
{
	/* The floors last: a run without any channel is summed up against them. */
	static const enum bench_transport order[] = {
		BENCH_TR_MEMIF_ZC, BENCH_TR_RING, BENCH_TR_UNIX, BENCH_TR_UNIX_POLL,
		BENCH_TR_CACHELINE, BENCH_TR_MEMCPY,
	};
	enum bench_transport tr = t->transport == BENCH_TR_MEMIF ? BENCH_TR_MEMIF_ZC :
				  t->transport;
	unsigned int i;

	if (t->mode->event)
		return tr == BENCH_TR_EVENTFD ? 0 : -1;
	for (i = 0; i < RTE_DIM(order); i++)
		if (tr == order[i])
			return i;
	return -1;
}

/* A result's headline figure: p50 ns (latency), MB/s (bandwidth), messages/s. */
static double
summary_raw(const struct bench_test *t, const struct bench_result *r)
{
	switch (t->mode->kind) {
	case BENCH_KIND_LAT:
		return r->lat_ns[BENCH_PCT_P50];
	case BENCH_KIND_BW:
		return r->mb_per_s;
	default:
		return r->msgs_per_s;
	}
}

/* A headline figure as a number where higher is better: latency's inverted. */
static double
summary_score(const struct bench_test *t, double raw)
{
	if (t->mode->kind != BENCH_KIND_LAT)
		return raw;
	return raw > 0 ? 1 / raw : 0;
}

/* A headline figure as text; returns it as a number where higher is better. */
static double
summary_fmt(const struct bench_test *t, double raw, char *buf, size_t len)
{
	switch (t->mode->kind) {
	case BENCH_KIND_LAT:
		snprintf(buf, len, "%.2f us p50", raw / 1e3);
		break;
	case BENCH_KIND_BW:
		snprintf(buf, len, "%.2f GB/s", raw / 1e3);
		break;
	default:
		fmt_rate(buf, len, raw);
		break;
	}
	return summary_score(t, raw);
}

/* A result's headline figure as text, and as a number where higher is better. */
static double
summary_figure(const struct bench_test *t, const struct bench_result *r, char *buf, size_t len)
{
	return summary_fmt(t, summary_raw(t, r), buf, len);
}

/*
 * The main baseline of comch row i in its group [first, end) over the runs
 * rs[0..nb_runs), or -1: the row of the best rank that ran, and of two of one
 * rank (memif's modes) the one with the stronger median figure, so that
 * rte_comch is compared with the best that memif did on this machine.
 */
static int
summary_baseline(const struct bench_test *plan, unsigned int first, unsigned int end,
		 unsigned int i, const struct bench_results *rs, unsigned int nb_runs,
		 enum bench_side who)
{
	int best = -1, rank, best_rank = INT32_MAX;
	double v[BENCH_MAX_REPEAT], score, best_score = 0;
	const struct bench_result *b;
	unsigned int j, r, n;

	for (j = first; j < end; j++) {
		rank = summary_rank(&plan[j]);
		if (rank < 0 || rank > best_rank || !comparable(&plan[i], &plan[j]))
			continue;
		for (r = 0, n = 0; r < nb_runs && r < BENCH_MAX_REPEAT; r++) {
			b = get(&rs[r], j, BENCH_SIDE_CLIENT);
			if (test_ok(&rs[r], j, who) && b != NULL && !b->skipped)
				v[n++] = summary_score(&plan[j], summary_raw(&plan[j], b));
		}
		if (n == 0)
			continue;
		score = median(v, n);
		if (rank == best_rank && score <= best_score)
			continue;
		best = j;
		best_rank = rank;
		best_score = score;
	}
	return best;
}

/* A summary row's name: "mode size label". */
static void
summary_test_name(const struct bench_test *t, char *buf, size_t len)
{
	char label[64], size[24];

	bench_test_label(t, label, sizeof(label));
	bench_size_str(t->size, size, sizeof(size));
	snprintf(buf, len, "%s %s %s", t->mode->name, size, label);
}

/* The first row of row i's group (its mode and size), given the previous row's. */
static unsigned int
group_first(const struct bench_test *plan, unsigned int i, unsigned int prev_first)
{
	if (i != 0 && (plan[i].mode != plan[i - 1].mode || plan[i].size != plan[i - 1].size))
		return i;
	return prev_first;
}

/* The end of the group that starts at row first. */
static unsigned int
group_end(const struct bench_test *plan, unsigned int nb, unsigned int first)
{
	unsigned int end = first;

	while (end < nb && plan[end].mode == plan[first].mode &&
	       plan[end].size == plan[first].size)
		end++;
	return end;
}

/*
 * One table: each rte_comch result of the run against its mode's main
 * baseline, measured in the same run, and the ratio.
 */
static void
print_summary(FILE *f, const struct bench_test *plan, unsigned int nb,
	      const struct bench_results *rs, enum bench_side who)
{
	char test[96], cs[48], bs[64], bl[64], base[136];
	const struct bench_result *c, *b;
	unsigned int i, first = 0, end;
	double cv, bv;
	int j;

	fprintf(f, "\nSummary: rte_comch against the main baseline of each mode, same run\n");
	fprintf(f, "  %-36s %-16s %-32s %s\n", "test", "rte_comch", "baseline", "ratio");
	for (i = 0; i < nb; i++) {
		first = group_first(plan, i, first);
		end = group_end(plan, nb, first);
		c = get(rs, i, BENCH_SIDE_CLIENT);
		if (!bench_transport_is_comch(plan[i].transport) || !test_ok(rs, i, who) ||
		    c == NULL || c->skipped)
			continue;
		summary_test_name(&plan[i], test, sizeof(test));
		cv = summary_figure(&plan[i], c, cs, sizeof(cs));
		j = summary_baseline(plan, first, end, i, rs, 1, who);
		if (j < 0) {
			fprintf(f, "  %-36s %-16s %-32s\n", test, cs, "(none in this run)");
			continue;
		}
		b = get(rs, j, BENCH_SIDE_CLIENT);
		bv = summary_figure(&plan[j], b, bs, sizeof(bs));
		bench_test_label(&plan[j], bl, sizeof(bl));
		snprintf(base, sizeof(base), "%s %s", bl, bs);
		if (cv > 0 && bv > 0)
			fprintf(f, "  %-36s %-16s %-32s %.2fx %s\n", test, cs, base,
				cv >= bv ? cv / bv : bv / cv, cv >= bv ? "faster" : "slower");
		else
			fprintf(f, "  %-36s %-16s %-32s\n", test, cs, base);
	}
}

/* A lone server has no measurements: it says what it checked. */
static unsigned int
print_server_only(FILE *f, const struct bench_test *plan, unsigned int nb,
		  const struct bench_results *rs)
{
	const struct bench_result *s;
	unsigned int i, failed = 0;

	fprintf(f, "%s: server side\n", BENCH_PROG);
	for (i = 0; i < nb; i++) {
		char label[64], pair[48];

		s = get(rs, i, BENCH_SIDE_SERVER);
		fmt_rss_pair(pair, sizeof(pair), s);
		bench_test_label(&plan[i], label, sizeof(label));
		fprintf(f, "  %-12s %8" PRIu32 " B  %-*s ", plan[i].mode->name, plan[i].size,
			label_w - 4, label);
		if (s == NULL)
			fprintf(f, "not run\n");
		else if (s->status != 0)
			fprintf(f, "FAILED: %s\n", s->error);
		else if (plan[i].transport == BENCH_TR_MEMCPY)
			fprintf(f, "nothing to do (the client copies)\n");
		else if (plan[i].mode->one_process && plan[i].transport != BENCH_TR_CACHELINE)
			fprintf(f, "waited (one process: the client's runs both ends)\n");
		else if (s->rx_cyc_per_msg > 0 && s->mem_units != 0)
			fprintf(f, "%" PRIu64 " messages received and checked, %.1f cyc/msg; "
				"resident KiB per %s, idle / after traffic: %s\n", s->verified,
				s->rx_cyc_per_msg, plan[i].mode->fast ? "consumer" : "connection",
				pair);
		else if (s->rx_cyc_per_msg > 0)
			fprintf(f, "%" PRIu64 " messages received and checked, %.1f cyc/msg\n",
				s->verified, s->rx_cyc_per_msg);
		else if (s->event)
			fprintf(f, "%" PRIu64 " messages received and checked; %" PRIu64
				" wake-ups; idle %.2f s, %.2f%% cpu\n", s->verified, s->wakeups,
				s->idle_s, s->idle_cpu_pct);
		else
			fprintf(f, "%" PRIu64 " messages received and checked\n", s->verified);
		if (s == NULL || s->status != 0)
			failed++;
	}
	return failed;
}

unsigned int
bench_output_print(FILE *f, const struct bench_opts *o, const struct bench_test *plan,
		   unsigned int nb, const struct bench_results *rs, enum bench_side who)
{
	unsigned int i, first = 0, failed = 0, not_run = 0, skipped = 0;
	char label[64];

	label_w = 20;
	show_targets = o->targets;
	for (i = 0; i < nb; i++) {
		bench_test_label(&plan[i], label, sizeof(label));
		label_w = RTE_MAX(label_w, (int)strlen(label));
	}
	if (who == BENCH_SIDE_SERVER) {
		failed = print_server_only(f, plan, nb, rs);
	} else {
		print_run_header(f, o, plan, rs, nb);
		for (i = 0; i < nb; i++) {
			if (!o->brief && (i == 0 || plan[i].mode != plan[i - 1].mode ||
					  plan[i].size != plan[i - 1].size)) {
				if (i != 0)
					print_ratios(f, plan, first, i, rs, who);
				first = i;
				print_group_header(f, &plan[i]);
			}
			/* Brief: the summary says how the good ones went; failures still show. */
			if (!o->brief || !test_ok(rs, i, who))
				print_row(f, &plan[i], rs, i, who, failed != 0);
			if (get(rs, i, BENCH_SIDE_CLIENT) != NULL &&
			    get(rs, i, BENCH_SIDE_CLIENT)->skipped)
				skipped++;
			if (!test_ok(rs, i, who) && failed != 0 &&
			    get(rs, i, BENCH_SIDE_CLIENT) == NULL)
				not_run++;
			else if (!test_ok(rs, i, who))
				failed++;
		}
		if (nb != 0 && !o->brief)
			print_ratios(f, plan, first, nb, rs, who);
		print_summary(f, plan, nb, rs, who);
	}
	if (rs->nb_extra != 0)
		fprintf(f, "\n");
	for (i = 0; i < rs->nb_extra; i++)
		fprintf(f, "FAILED (%s): %s\n", side_name(rs->extra[i].side), rs->extra[i].error);
	if (failed == 0 && rs->nb_extra == 0 && skipped == 0)
		fprintf(f, "\nResult: %s%u test%s passed, every message checked\n",
			nb > 1 ? "all " : "", nb, nb > 1 ? "s" : "");
	else if (failed == 0 && rs->nb_extra == 0)
		fprintf(f, "\nResult: %u tests passed, every message checked; %u skipped\n",
			nb - skipped, skipped);
	else
		fprintf(f, "\nResult: FAILED: %u of %u tests failed, %u not run\n", failed, nb,
			not_run);
	return failed + not_run + rs->nb_extra;
}

/*
 * One side's memory columns (see bench_output_csv()), empty where r is NULL or
 * did not measure them.
 */
static void
csv_mem(FILE *f, const struct bench_result *r)
{
	double per;

	if (r == NULL || r->status != 0 || r->mem_units == 0) {
		fprintf(f, ",,,,,,,");
		return;
	}
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", r->rss_base_kb, r->rss_conn_kb);
	if (rss_per_unit(r, r->rss_conn_kb, &per))
		fprintf(f, "%.1f", per);
	fprintf(f, ",%" PRIu64 ",", r->rss_end_kb);
	if (rss_per_unit(r, r->rss_end_kb, &per))
		fprintf(f, "%.1f", per);
	fprintf(f, ",%" PRIu64 ",%" PRIu32, r->hwm_kb, r->mem_units);
}

/*
 * rx: the server's result of the same test, for the receiver's columns, or NULL.
 * cmem: --consumer-mem, for a row whose consumers it chose; NULL otherwise.
 */
static void
csv_row(FILE *f, const struct bench_result *r, const struct bench_result *rx, const char *cmem)
{
	const char *p;

	fprintf(f, "%s,%s,%" PRIu32 ",%s,%" PRId32 ",%" PRIu64 ",%" PRIu64 ",", r->mode,
		r->transport, r->size, side_name(r->side), r->status, r->ops, r->verified);
	if (r->skipped)
		fprintf(f, ",,,,,,,,,,,,,");
	else if (r->status == 0 && r->kind == BENCH_KIND_LAT && r->side == BENCH_SIDE_CLIENT)
		fprintf(f, "%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.6f,,,,,,", r->lat_ns[0],
			r->lat_ns[1], r->lat_ns[2], r->lat_ns[3], r->lat_ns[4], r->lat_ns[5],
			r->mean_ns, r->seconds);
	else if (r->status == 0 && r->kind != BENCH_KIND_LAT && r->side == BENCH_SIDE_CLIENT)
		fprintf(f, ",,,,,,,%.6f,%.1f,%.3f,%.1f,%.1f,%" PRIu64 ",", r->seconds,
			r->msgs_per_s, r->mb_per_s, r->cyc_per_msg, r->send_cyc, r->eagain);
	else
		fprintf(f, ",,,,,,,,,,,,,");
	fprintf(f, "%" PRIu32 ",%" PRIu32 ",", r->burst, r->buffers);
	if (rx != NULL && rx->status == 0 && rx->rx_cyc_per_msg > 0)
		fprintf(f, "%.1f,", rx->rx_cyc_per_msg);
	else
		fprintf(f, ",");
	fprintf(f, "%" PRIu32 ",", r->recv_queue);
	if (r->senders != 0)
		fprintf(f, "%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",", r->senders,
			r->receivers, r->share_min, r->share_max);
	else
		fprintf(f, ",,,,");
	if (r->event && r->status == 0)
		fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%.3f,%" PRIu64 ",",
			r->wakeups, r->ev_eagain, r->ev_timeouts, r->idle_s, r->idle_cpu_pct,
			r->idle_wakeups);
	else
		fprintf(f, ",,,,,,");
	fputc('"', f);
	if (r->skipped)
		fputs("skipped: ", f);
	for (p = r->error; *p != '\0'; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
	/* Added after error, so that the columns before keep their places. */
	csv_mem(f, r->side == BENCH_SIDE_CLIENT ? r : NULL);
	csv_mem(f, r->side == BENCH_SIDE_SERVER ? r :
		rx != NULL && rx->side == BENCH_SIDE_SERVER ? rx : NULL);
	fprintf(f, ",%s\n", cmem != NULL ? cmem : "");
}

/* The consumer memory of test t's row: only rte_comch's fast path has consumers of ours. */
static const char *
csv_cmem(const struct bench_opts *o, const struct bench_test *t)
{
	if (!t->mode->fast || !bench_transport_is_comch(t->transport))
		return NULL;
	return bench_consumer_mem_name(o->consumer_mem);
}

int
bench_output_csv(const char *path, const struct bench_opts *o, const struct bench_test *plan,
		 unsigned int nb, const struct bench_results *rs, enum bench_side who)
{
	const struct bench_result *r;
	unsigned int i;
	FILE *f;
	int ret = 0;

	f = fopen(path, "w");
	if (f == NULL) {
		ret = -errno;
		fprintf(stderr, "%s: cannot write %s: %s\n", BENCH_PROG, path, strerror(errno));
		return ret;
	}
	fprintf(f, "mode,transport,size,side,status,ops,verified,min_ns,p50_ns,p90_ns,p99_ns,"
		"p999_ns,max_ns,mean_ns,seconds,msgs_per_s,mb_per_s,cycles_per_msg,"
		"send_cycles,eagain,burst,buffers,rx_cycles_per_msg,recv_queue,senders,receivers,"
		"share_min,share_max,wakeups,ev_eagain,ev_timeouts,idle_s,idle_cpu_pct,"
		"idle_wakeups,error,"
		"client_rss_base_kb,client_rss_conn_kb,client_rss_per_conn_kb,"
		"client_rss_end_kb,client_rss_end_per_conn_kb,client_hwm_kb,client_mem_units,"
		"server_rss_base_kb,server_rss_conn_kb,server_rss_per_conn_kb,"
		"server_rss_end_kb,server_rss_end_per_conn_kb,server_hwm_kb,server_mem_units,"
		"consumer_mem\n");
	for (i = 0; i < nb; i++) {
		/* The client's row carries the measurements; the server's only its checks. */
		r = get(rs, i, BENCH_SIDE_CLIENT);
		/* A one-process mode's client measured the receiver too. */
		if (r != NULL && expects(who, BENCH_SIDE_CLIENT))
			csv_row(f, r, plan[i].mode->one_process ? r :
				get(rs, i, BENCH_SIDE_SERVER), csv_cmem(o, &plan[i]));
		r = get(rs, i, BENCH_SIDE_SERVER);
		/* In the event modes, the server's sleeps and idle CPU are measurements too. */
		if (r != NULL && (who == BENCH_SIDE_SERVER || r->status != 0 || r->event))
			csv_row(f, r, r, csv_cmem(o, &plan[i]));
	}
	for (i = 0; i < rs->nb_extra; i++)
		csv_row(f, &rs->extra[i], NULL, NULL);
	if (fclose(f) != 0) {
		ret = -errno;
		fprintf(stderr, "%s: cannot write %s: %s\n", BENCH_PROG, path, strerror(errno));
	}
	return ret;
}

/* The lowest of v[0..n), n > 0, as a share of their median; sorts v. */
static double
lowest_share(double *v, unsigned int n)
{
	double med = median(v, n);

	return med > 0 ? v[0] / med : 0;
}

/*
 * The performance issue's targets, judged over repeated runs: each on the
 * median of the per-run ratios of an rte_comch row to one baseline of its
 * group. Rates: at least factor times the baseline; latency (p50): within
 * factor times it. stable: also the lowest run's rate within 30% of the
 * median run's.
 */
struct repeat_target {
	const char *mode;
	uint32_t size;                   /* 0: each size of the plan */
	enum bench_transport tr;         /* the rte_comch row */
	uint32_t burst;                  /* 0: each burst of the plan */
	uint8_t dir;                     /* enum bench_dir */
	enum bench_transport base;
	double factor;
	bool stable;
};

static const struct repeat_target repeat_targets[] = {
	{ "fp-bw", 4096, BENCH_TR_COMCH_BURST, 0, BENCH_DIR_NONE, BENCH_TR_MEMIF, 1.0, false },
	{ "fp-bw", 4096, BENCH_TR_COMCH, 0, BENCH_DIR_NONE, BENCH_TR_MEMIF, 0.8, false },
	{ "fp-stream", 64, BENCH_TR_COMCH, 0, BENCH_DIR_NONE, BENCH_TR_MEMIF, 1.0, false },
	{ "fp-lat", 64, BENCH_TR_COMCH_BURST, 0, BENCH_DIR_NONE, BENCH_TR_CACHELINE, 1.5, false },
	{ "fp-lat", 64, BENCH_TR_COMCH, 0, BENCH_DIR_NONE, BENCH_TR_CACHELINE, 2.0, false },
	{ "ep-stream", 0, BENCH_TR_COMCH, 0, BENCH_DIR_NONE, BENCH_TR_UNIX, 2.0, true },
	{ "msgq-rate", 0, BENCH_TR_COMCH, 0, BENCH_DIR_TO_DPA, BENCH_TR_RING, 0.8, false },
	{ "msgq-rate", 0, BENCH_TR_COMCH_BURST, 0, BENCH_DIR_TO_DPA, BENCH_TR_RING, 0.8, false },
	{ "msgq-rate", 0, BENCH_TR_COMCH, 0, BENCH_DIR_FROM_DPA, BENCH_TR_RING, 1.0, false },
	{ "msgq-rate", 0, BENCH_TR_COMCH_BURST, 0, BENCH_DIR_FROM_DPA, BENCH_TR_RING, 1.0, false },
};

/* Share of the median the stable targets' lowest run must reach. */
#define REPEAT_STABLE_MIN 0.7

static bool
repeat_target_row(const struct repeat_target *t, const struct bench_test *ct)
{
	return strcmp(ct->mode->name, t->mode) == 0 && ct->transport == t->tr &&
	       (t->size == 0 || ct->size == t->size) &&
	       (t->burst == 0 || ct->burst == t->burst) && ct->dir == t->dir;
}

/* The row of transport tr that comch row i compares with in its group, or -1. */
static int
repeat_target_base(const struct bench_test *plan, unsigned int nb, unsigned int i,
		   enum bench_transport tr)
{
	unsigned int j;

	for (j = 0; j < nb; j++)
		if (plan[j].mode == plan[i].mode && plan[j].size == plan[i].size &&
		    plan[j].transport == tr && comparable(&plan[i], &plan[j]))
			return (int)j;
	return -1;
}

/* One target of comch row i against row j over the runs, met or missed. */
static void
print_repeat_target(FILE *f, const struct repeat_target *t, const struct bench_test *plan,
		    unsigned int i, unsigned int j, const struct bench_results *rs,
		    unsigned int nb_runs)
{
	const bool lat = plan[i].mode->kind == BENCH_KIND_LAT;
	double ratio[BENCH_MAX_REPEAT], cv[BENCH_MAX_REPEAT], bv[BENCH_MAX_REPEAT];
	const struct bench_result *c, *b;
	char test[96], bl[64], cond[96];
	unsigned int r, n = 0;
	double med, lowest;

	for (r = 0; r < nb_runs && r < BENCH_MAX_REPEAT; r++) {
		c = get(&rs[r], i, BENCH_SIDE_CLIENT);
		b = get(&rs[r], j, BENCH_SIDE_CLIENT);
		if (!test_ok(&rs[r], i, BENCH_SIDE_BOTH) || !test_ok(&rs[r], j, BENCH_SIDE_BOTH) ||
		    c == NULL || b == NULL || c->skipped || b->skipped ||
		    summary_raw(&plan[i], c) <= 0 || summary_raw(&plan[j], b) <= 0)
			continue;
		cv[n] = summary_raw(&plan[i], c);
		bv[n] = summary_raw(&plan[j], b);
		/* Latency: rte_comch's p50 over the baseline's, lower is better. */
		ratio[n] = cv[n] / bv[n];
		n++;
	}
	summary_test_name(&plan[i], test, sizeof(test));
	bench_test_label(&plan[j], bl, sizeof(bl));
	snprintf(cond, sizeof(cond), lat ? "p50 within %.1fx of %s" : "at least %.1fx %s",
		 t->factor, bl);
	if (n == 0) {
		fprintf(f, "  %s %s: no run with both\n", test, cond);
		return;
	}
	med = median(ratio, n);
	fprintf(f, "  %s %s: %.2fx [%.2f-%.2f] of %u: %s\n", test, cond, med, ratio[0],
		ratio[n - 1], n, (lat ? med <= t->factor : med >= t->factor) ? "met" : "missed");
	if (!t->stable || lat)
		return;
	/*
	 * Judged on rte_comch's own rates; the baseline's beside it says whether
	 * a slow phase of the machine moved the baseline's run as well.
	 */
	lowest = lowest_share(cv, n);
	fprintf(f, "  %s stable, the lowest run within %.0f%% of the median: %.0f%% "
		"(%s %.0f%%): %s\n", test, (1 - REPEAT_STABLE_MIN) * 100, lowest * 100, bl,
		lowest_share(bv, n) * 100, lowest >= REPEAT_STABLE_MIN ? "met" : "missed");
}

/* After the summary of --repeat with --targets: each target the plan measured. */
static void
print_repeat_targets(FILE *f, const struct bench_test *plan, unsigned int nb,
		     const struct bench_results *rs, unsigned int nb_runs)
{
	const struct repeat_target *t;
	unsigned int i, k;
	int j;

	fprintf(f, "\nTargets over %u runs: the median of the per-run ratios, lowest and "
		"highest run\n", nb_runs);
	for (k = 0; k < RTE_DIM(repeat_targets); k++)
		for (i = 0, t = &repeat_targets[k]; i < nb; i++) {
			if (!repeat_target_row(t, &plan[i]))
				continue;
			j = repeat_target_base(plan, nb, i, t->base);
			if (j >= 0)
				print_repeat_target(f, t, plan, i, (unsigned int)j, rs, nb_runs);
		}
}

void
bench_output_repeated(FILE *f, const struct bench_test *plan, unsigned int nb,
		      const struct bench_results *rs, unsigned int nb_runs, bool targets)
{
	double ratio[BENCH_MAX_REPEAT], cv[BENCH_MAX_REPEAT], bv[BENCH_MAX_REPEAT];
	char test[96], cs[48], bs[48], bl[64], base[120], spread[48];
	const struct bench_result *c, *b;
	unsigned int i, r, n, first = 0, end;
	double med;
	int j;

	fprintf(f, "\nSummary of %u runs: rte_comch against the main baseline of each mode, "
		"the median of the per-run ratios\n(rte_comch / baseline, higher is better; "
		"latency: the baseline's p50 over rte_comch's), lowest and highest run\n",
		nb_runs);
	fprintf(f, "  %-36s %-16s %-32s %s\n", "test", "rte_comch", "baseline", "ratio");
	for (i = 0; i < nb; i++) {
		first = group_first(plan, i, first);
		end = group_end(plan, nb, first);
		if (!bench_transport_is_comch(plan[i].transport))
			continue;
		/* One baseline for all the runs: the best over them. */
		j = summary_baseline(plan, first, end, i, rs, nb_runs, BENCH_SIDE_BOTH);
		for (r = 0, n = 0; j >= 0 && r < nb_runs && r < BENCH_MAX_REPEAT; r++) {
			c = get(&rs[r], i, BENCH_SIDE_CLIENT);
			b = get(&rs[r], j, BENCH_SIDE_CLIENT);
			if (!test_ok(&rs[r], i, BENCH_SIDE_BOTH) || c == NULL || c->skipped ||
			    !test_ok(&rs[r], j, BENCH_SIDE_BOTH) || b == NULL || b->skipped)
				continue;
			cv[n] = summary_raw(&plan[i], c);
			bv[n] = summary_raw(&plan[j], b);
			if (cv[n] <= 0 || bv[n] <= 0)
				continue;
			ratio[n] = summary_score(&plan[i], cv[n]) / summary_score(&plan[j], bv[n]);
			n++;
		}
		summary_test_name(&plan[i], test, sizeof(test));
		if (n == 0) {
			fprintf(f, "  %-36s (no run with a baseline)\n", test);
			continue;
		}
		summary_fmt(&plan[i], median(cv, n), cs, sizeof(cs));
		summary_fmt(&plan[j], median(bv, n), bs, sizeof(bs));
		bench_test_label(&plan[j], bl, sizeof(bl));
		snprintf(base, sizeof(base), "%s %s", bl, bs);
		med = median(ratio, n);
		/* median() sorted the ratios: their ends are the lowest and the highest run. */
		snprintf(spread, sizeof(spread), "[%.2f-%.2f]", ratio[0], ratio[n - 1]);
		fprintf(f, "  %-36s %-16s %-32s %.2fx %s of %u\n", test, cs, base, med, spread, n);
	}
	if (targets)
		print_repeat_targets(f, plan, nb, rs, nb_runs);
}
