/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * One side of a run, in this process: initialise EAL, walk the plan running this
 * side of each test, and report each result, to the parent through the report
 * pipe, or on stdout when the side runs alone (--side without a parent).
 */

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "bench.h"
#include "bench_comch.h"
#include "bench_msg.h"
#include "bench_output.h"
#include "bench_progress.h"
#include "bench_report.h"

/* Most tests in one plan: modes x sizes x transports. */
#define BENCH_MAX_TESTS 256
/* EAL memory per side: enough for the library's pools, no hugepages needed. */
#define BENCH_EAL_MEM_MB "512"

static const char *
side_label(enum bench_side side)
{
	return side == BENCH_SIDE_SERVER ? "server" : "client";
}

void
bench_result_init(struct bench_result *res, const struct bench_test *t, enum bench_side side)
{
	memset(res, 0, sizeof(*res));
	res->magic = BENCH_RESULT_MAGIC;
	res->side = side;
	if (t == NULL) {
		res->test_id = BENCH_TEST_NONE;
		snprintf(res->mode, sizeof(res->mode), "setup");
		snprintf(res->transport, sizeof(res->transport), "-");
		return;
	}
	res->test_id = t->id;
	res->kind = t->mode->kind;
	res->size = t->size;
	res->burst = t->burst;
	res->buffers = t->buffers;
	res->recv_queue = t->recv_queue;
	snprintf(res->mode, sizeof(res->mode), "%s", t->mode->name);
	snprintf(res->transport, sizeof(res->transport), "%s", bench_transport_name(t->transport));
	/* A two-way mode's rows apart, in messages and in the CSV. */
	if (t->dir != BENCH_DIR_NONE)
		snprintf(res->transport, sizeof(res->transport), "%s %s",
			 bench_transport_name(t->transport),
			 t->dir == BENCH_DIR_TO_DPA ? "cpu->dpa" : "dpa->cpu");
}

int
bench_fail(struct bench_result *res, int status, const char *fmt, ...)
{
	va_list ap;

	/* The first failure is the cause; what follows is usually its echo. */
	if (res->status != 0)
		return res->status;
	res->status = status < 0 ? status : -EIO;
	va_start(ap, fmt);
	vsnprintf(res->error, sizeof(res->error), fmt, ap);
	va_end(ap);
	/* Said at once too, so that a side that then hangs has already explained itself. */
	fprintf(stderr, "%s [%s] %s/%s %" PRIu32 " B: ERROR: %s\n", BENCH_PROG,
		side_label(res->side), res->mode, res->transport, res->size, res->error);
	return res->status;
}

static int
rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	if (remove(path) < 0 && errno != ENOENT)
		fprintf(stderr, "%s: cannot remove %s: %s\n", BENCH_PROG, path, strerror(errno));
	return 0;
}

void
bench_rm_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Where EAL puts the runtime files of a side's prefix (as eal_get_runtime_dir() does). */
void
bench_eal_dir(char *buf, size_t len, enum bench_side side, int pid)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	const char *base = getuid() == 0 ? "/var/run" : xdg != NULL ? xdg : "/tmp";

	snprintf(buf, len, "%s/dpdk/test-comch-%s-%d", base, side_label(side), pid);
}

void
bench_skip(struct bench_result *res, const char *fmt, ...)
{
	va_list ap;

	res->skipped = 1;
	va_start(ap, fmt);
	vsnprintf(res->error, sizeof(res->error), fmt, ap);
	va_end(ap);
}

/* Where two sides started by hand meet, unless --dir says otherwise. */
static int
default_dir(struct bench_opts *o, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (xdg != NULL && xdg[0] != '\0')
		snprintf(buf, len, "%s/%s", xdg, BENCH_PROG);
	else
		snprintf(buf, len, "/tmp/%s-%u", BENCH_PROG, (unsigned int)getuid());
	if (mkdir(buf, 0700) < 0 && errno != EEXIST) {
		fprintf(stderr, "%s: cannot create %s: %s\n", BENCH_PROG, buf, strerror(errno));
		return -errno;
	}
	o->dir = buf;
	return 0;
}

static int
eal_init(const struct bench_opts *o, struct bench_result *res)
{
	char lcore[16], prefix[64];
	char **argv;
	int argc = 0, i, ret;

	argv = calloc(16 + o->eal_argc, sizeof(*argv));
	if (argv == NULL)
		return bench_fail(res, -ENOMEM, "out of memory");
	snprintf(lcore, sizeof(lcore), "%u",
		 o->side == BENCH_SIDE_SERVER ? o->server_lcore : o->client_lcore);
	/* Each side its own prefix: two primary processes, no shared EAL state. */
	snprintf(prefix, sizeof(prefix), "--file-prefix=test-comch-%s-%d", side_label(o->side),
		 (int)getpid());
	argv[argc++] = (char *)(uintptr_t)BENCH_PROG;
	argv[argc++] = (char *)(uintptr_t)"-l";
	argv[argc++] = lcore;
	argv[argc++] = (char *)(uintptr_t)"--no-huge";
	argv[argc++] = (char *)(uintptr_t)"-m";
	argv[argc++] = (char *)(uintptr_t)BENCH_EAL_MEM_MB;
	argv[argc++] = (char *)(uintptr_t)"--no-pci";
	/*
	 * One file for all of the side's memory: memif's zero-copy mode shares
	 * the mempool's with its peer only then. Without hugepages the memory is
	 * the same either way, so every transport runs with it.
	 */
	argv[argc++] = (char *)(uintptr_t)"--single-file-segments";
	argv[argc++] = prefix;
	/*
	 * EAL's start-up chatter would bury the results. Its errors too: without
	 * hugepages, the memif PMD's region set-up makes EAL log "Error: Invalid
	 * memory" for memory that works, which reads as a failure of ours. A
	 * real failure of EAL's fails rte_eal_init(), which this reports.
	 */
	argv[argc++] = (char *)(uintptr_t)"--log-level=lib.eal:critical";
	argv[argc++] = (char *)(uintptr_t)"--log-level=lib.telemetry:error";
	for (i = 0; i < o->eal_argc; i++)
		argv[argc++] = o->eal_argv[i];
	ret = rte_eal_init(argc, argv);
	free(argv);
	if (ret < 0)
		return bench_fail(res, -rte_errno, "rte_eal_init (lcore %s): %s", lcore,
				  rte_strerror(rte_errno));
	return 0;
}

/* Hand a result to whoever prints it. */
static int
emit(const struct bench_opts *o, struct bench_results *rs, const struct bench_result *res)
{
	int ret;

	if (o->report_fd < 0) {
		bench_results_add(rs, res);
		return 0;
	}
	ret = bench_report_write(o->report_fd, res);
	if (ret < 0)
		fprintf(stderr, "%s [%s]: cannot report to the parent: %s\n", BENCH_PROG,
			side_label(o->side), strerror(-ret));
	return ret;
}

static int
run_plan(struct bench_ctx *bc, const struct bench_test *plan, unsigned int nb,
	 struct bench_results *rs)
{
	const struct bench_runner *runner;
	struct bench_progress pg;
	struct bench_result res;
	unsigned int i;
	int ret, status = 0;

	/* A side alone shows where it is; a parent's children leave that to it. */
	bench_progress_init(&pg, bc->opts, plan, nb);
	pg.on = pg.on && bc->opts->report_fd < 0;
	for (i = 0; i < nb; i++) {
		bench_progress_update(&pg, i);
		bench_result_init(&res, &plan[i], bc->side);
		res.tsc_hz = bc->tsc_hz;
		runner = plan[i].mode->runners[plan[i].transport];
		ret = bc->side == BENCH_SIDE_SERVER ? runner->server(bc, &plan[i], &res) :
						      runner->client(bc, &plan[i], &res);
		if (ret < 0 && res.status == 0)
			bench_fail(&res, ret, "failed (%s)", strerror(-ret));
		emit(bc->opts, rs, &res);
		/* The peer is now in an unknown state: later tests would fail or hang. */
		if (res.status != 0) {
			status = res.status;
			break;
		}
	}
	bench_progress_clear(&pg);
	return status;
}

int
bench_side_run(const struct bench_opts *o_in)
{
	struct bench_opts o = *o_in;
	struct bench_test plan[BENCH_MAX_TESTS];
	struct bench_ctx bc = { .opts = &o, .side = o.side };
	struct bench_results rs;
	struct bench_result res;
	unsigned int nb;
	char dir[256];
	int ret;

	char eal_dir[PATH_MAX] = "";

	bench_result_init(&res, NULL, o.side);
	if (o.dir == NULL && default_dir(&o, dir, sizeof(dir)) < 0)
		return -EIO;
	nb = bench_plan_build(&o, plan, BENCH_MAX_TESTS);
	if (nb > BENCH_MAX_TESTS) {
		fprintf(stderr, "%s: %u tests planned, at most %u\n", BENCH_PROG, nb,
			BENCH_MAX_TESTS);
		return -E2BIG;
	}
	if (nb == 0) {
		fprintf(stderr, "%s: no test: no selected mode runs over the selected transports\n",
			BENCH_PROG);
		return -EINVAL;
	}
	ret = bench_results_init(&rs, nb);
	if (ret < 0)
		return ret;

	ret = eal_init(&o, &res);
	if (ret == 0) {
		bc.tsc_hz = rte_get_tsc_hz();
		ret = bench_msg_init(bench_plan_max_size(plan, nb));
		if (ret < 0)
			bench_fail(&res, ret, "out of memory");
	}
	if (ret == 0)
		ret = run_plan(&bc, plan, nb, &rs);
	else
		emit(&o, &rs, &res);
	bc_env_close(&bc);
	if (res.status == 0) {
		snprintf(eal_dir, sizeof(eal_dir), "%s", rte_eal_get_runtime_dir());
		rte_eal_cleanup();
		/* EAL leaves its files (config, fbarrays: megabytes) behind each prefix. */
		bench_rm_tree(eal_dir);
	}

	if (o.report_fd < 0) {
		if (bench_output_print(stdout, &o, plan, nb, &rs, o.side) != 0 && ret == 0)
			ret = -EIO;
		if (o.csv != NULL && bench_output_csv(o.csv, &o, plan, nb, &rs, o.side) < 0 &&
		    ret == 0)
			ret = -EIO;
	}
	bench_results_free(&rs);
	return ret;
}
