/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * MsgQ sample: CPU code and a DPA program exchanging messages, in one process.
 *
 * The CPU sends N requests, each a sequence number and an operand carried as
 * immediate data, through MsgQ A (a CPU producer to a DPA consumer). The DPA
 * program (msgq_prog.c) answers each through MsgQ B (a DPA producer to a CPU
 * consumer): it writes a payload derived from the request into a staging slot
 * and copies it, with rte_comch_dpa_dev_producer_dma_copy(), into the CPU's
 * answer slot of the same number; the answer's immediate data names the
 * request and the slot. The CPU checks every answer (order, square, payload),
 * keeps at most a window of requests in flight (one per slot), and prints the
 * first exchanges, the rate and the round-trip percentiles.
 *
 * The DPA is the software one of the "dpa" driver: its execution unit runs on
 * a service core (the first lcore after the main one), or on a thread of its
 * own when EAL has a single lcore. Everything on the CPU side runs on the main
 * lcore: one progress engine, polled in a loop, serves the four MsgQ
 * contexts, and every callback runs inside rte_comch_pe_progress().
 *
 * Usage: dpdk-comch_msgq [EAL args] -- [-p <devargs>] [-N <count>] [-s <size>]
 *        [-w <window>] [-T <timeout s>]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_service.h>

#include <rte_comch.h>
#include <rte_comch_dpa.h>
#include <rte_comch_dpa_msgq.h>

#include "comch_sample.h"
#include "msgq_prog.h"

#define DEFAULT_DEVARGS "dpa:role=host"
#define DEFAULT_COUNT 100000
#define DEFAULT_SIZE 128
#define MIN_SIZE 64
#define MAX_SIZE 256
#define DEFAULT_WINDOW 16
#define MAX_WINDOW 256
#define DEFAULT_TIMEOUT_S 30
/* Exchanges printed in full: the first few, and the last. */
#define PRINT_FIRST 3
/* Rounds of the main loop between two looks at the clock and the program. */
#define LOOK_EVERY 65536

struct msgq_app {
	/* -p: the device, -N: requests, -s: payload bytes, -w: in flight, -T: give up */
	struct comch_sample_args args;
	struct rte_comch_dev *dev;
	struct rte_comch_pe *pe;

	/* The DPA: its execution unit, thread, completion contexts, argument block. */
	struct rte_comch_dpa *dpa;
	unsigned int service_lcore;        /* RTE_MAX_LCORE: the unit is a pthread */
	uint32_t service_id;
	bool dpa_started;
	struct rte_comch_dpa_thread *thread;
	bool thread_started;
	struct rte_comch_dpa_cq *req_cq;   /* requests land here, and trigger the thread */
	struct rte_comch_dpa_cq *ans_cq;   /* the answers' send completions; polled */
	rte_comch_dpa_handle_t args_mem;
	struct msgq_prog_args prog;        /* our copy of the argument block */

	/* Memory the program copies between: the staging slots to our answer slots. */
	struct rte_comch_mmap *answers;
	struct rte_comch_mmap *staging;
	uint8_t *answer_base;
	uint32_t slot_size;

	/* MsgQ A: our producer to the DPA consumer. */
	struct rte_comch_msgq *req_q;
	struct rte_comch_producer *req_prod;
	struct rte_comch_consumer *req_cons;
	uint32_t req_cons_id;
	/* MsgQ B: the DPA producer to our consumer. */
	struct rte_comch_msgq *ans_q;
	struct rte_comch_producer *ans_prod;
	struct rte_comch_consumer *ans_cons;

	/* The exchange. */
	uint64_t next_seq;                 /* the next request to send */
	uint64_t expected;                 /* the next answer due */
	uint32_t inflight;
	uint64_t *sent_at;                 /* TSC of the request in flight in each slot */
	uint64_t *rtt;                     /* each round trip, in TSC cycles */
	uint64_t send_refused;             /* sends refused: no receive offered yet */
	uint64_t start_tsc, end_tsc;
	bool stopping;                     /* tearing down: receives come back unfilled */
	int error;                         /* the first failure */
};

static void
usage(const char *prgname)
{
	printf("Usage: %s [EAL args] -- [options]\n"
	       "  -p, --devargs <devargs>  device to open (default \"%s\")\n"
	       "  -N, --count <n>          requests to send (default %u)\n"
	       "  -s, --size <bytes>       payload of each answer, %u to %u, a multiple of 8\n"
	       "                           (default %u)\n"
	       "  -w, --window <n>         requests in flight at most, 1 to %u (default %u)\n"
	       "  -T, --timeout <seconds>  give up when no answer comes for that long; 0 for\n"
	       "                           never (default %u)\n"
	       "  -h, --help               this text\n"
	       "EAL: e.g. --no-huge -m 512 --no-pci --file-prefix=msgq -l 0-1 (the DPA runs\n"
	       "on a service core, lcore 1; with one lcore it runs on a thread)\n",
	       prgname, DEFAULT_DEVARGS, DEFAULT_COUNT, MIN_SIZE, MAX_SIZE, DEFAULT_SIZE,
	       MAX_WINDOW, DEFAULT_WINDOW, DEFAULT_TIMEOUT_S);
}

static const struct comch_sample_opts opts = {
	.optstring = "p:N:s:w:T:h",
	.timeout_max = UINT32_MAX,
	.size_min = MIN_SIZE,
	.size_max = MAX_SIZE,
	.size_align = 8,
	.window_max = MAX_WINDOW,
	.usage = usage,
};

/* Keep the first failure, said once. */
static int
app_fail(struct msgq_app *app, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
app_fail(struct msgq_app *app, int err, const char *fmt, ...)
{
	va_list ap;

	if (app->error != 0)
		return app->error;
	app->error = err < 0 ? err : -EIO;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return app->error;
}

static const char *
err_str(int err)
{
	return rte_strerror(err < 0 ? -err : err);
}

/* ------------------------------------------------------------------ callbacks */

static struct msgq_app *
app_of(union rte_comch_data ctx_user_data)
{
	return ctx_user_data.ptr;
}

/* A request reached the DPA consumer's completion context. */
static void
req_sent_cb(struct rte_comch_producer_task_send *task, union rte_comch_data task_user_data,
	    union rte_comch_data ctx_user_data)
{
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

static void
req_failed_cb(struct rte_comch_producer_task_send *task, union rte_comch_data task_user_data,
	      union rte_comch_data ctx_user_data)
{
	struct rte_comch_task *t = rte_comch_producer_task_send_as_task(task);

	app_fail(app_of(ctx_user_data), rte_comch_task_get_status(t), "A request failed: %s",
		 err_str(rte_comch_task_get_status(t)));
	rte_comch_task_free(t);
}

/* Whether the payload in the answer's slot is the one the program had to write. */
static bool
payload_ok(const struct msgq_app *app, const struct msgq_answer *ans, uint32_t *bad_word)
{
	/* Slots are whole cache lines of the mmap: 8-byte aligned. */
	const uint64_t *w = RTE_PTR_ADD(app->answer_base, (size_t)ans->slot * app->slot_size);
	uint32_t i;

	for (i = 0; i < ans->len / sizeof(uint64_t); i++) {
		if (w[i] != msgq_payload_word(ans->seq, ans->square, i)) {
			*bad_word = i;
			return false;
		}
	}
	return true;
}

/* Check an answer against its request; 0 or -EBADMSG, said. */
static int
check_answer(struct msgq_app *app, const uint8_t *imm, uint32_t len, struct msgq_answer *ans)
{
	uint64_t operand;
	uint32_t bad = 0;

	if (len != sizeof(*ans))
		return app_fail(app, -EBADMSG, "An answer of %" PRIu32 " bytes of immediate "
				"data, %zu expected", len, sizeof(*ans));
	memcpy(ans, imm, sizeof(*ans));
	operand = msgq_operand(app->expected);
	if (ans->seq != app->expected)
		return app_fail(app, -EBADMSG, "Answer %" PRIu64 " arrived, answer %" PRIu64
				" expected: out of order", ans->seq, app->expected);
	if (ans->slot != ans->seq % app->args.window || ans->len != app->args.size)
		return app_fail(app, -EBADMSG, "Answer %" PRIu64 ": slot %" PRIu32 " and %" PRIu32
				" bytes, slot %" PRIu64 " and %" PRIu32 " expected", ans->seq,
				ans->slot, ans->len, ans->seq % app->args.window, app->args.size);
	if (ans->square != operand * operand)
		return app_fail(app, -EBADMSG, "Answer %" PRIu64 ": %" PRIu64 " is not %" PRIu64
				" squared", ans->seq, ans->square, operand);
	if (!payload_ok(app, ans, &bad))
		return app_fail(app, -EBADMSG, "Answer %" PRIu64 ": payload word %" PRIu32
				" of slot %" PRIu32 " is wrong", ans->seq, bad, ans->slot);
	return 0;
}

static void
print_exchange(const struct msgq_app *app, const struct msgq_answer *ans, uint64_t rtt)
{
	printf("Request %" PRIu64 ": operand %" PRIu64 " -> square %" PRIu64 ", %" PRIu32
	       "-byte record in slot %" PRIu32 ", round trip %.2f us\n", ans->seq,
	       msgq_operand(ans->seq), ans->square, ans->len, ans->slot,
	       rtt * 1e6 / rte_get_tsc_hz());
}

/* An answer arrived in a posted receive: check it, then post the receive again. */
static void
ans_recv_cb(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_user_data,
	    union rte_comch_data ctx_user_data)
{
	struct msgq_app *app = app_of(ctx_user_data);
	struct rte_comch_task *t = rte_comch_consumer_task_post_recv_as_task(task);
	struct msgq_answer ans;
	const uint8_t *imm;
	uint32_t len = 0;
	uint64_t now = rte_rdtsc();
	int ret;

	imm = rte_comch_consumer_task_post_recv_get_imm_data(task, &len);
	if (app->error == 0 && check_answer(app, imm, len, &ans) == 0) {
		app->rtt[ans.seq] = now - app->sent_at[ans.slot];
		if (ans.seq < PRINT_FIRST || ans.seq + 1 == app->args.count)
			print_exchange(app, &ans, app->rtt[ans.seq]);
		app->expected++;
		app->inflight--;
	}
	ret = rte_comch_task_submit(t);
	if (ret < 0) {
		rte_comch_task_free(t);
		app_fail(app, ret, "Cannot post a receive again: %s", err_str(ret));
	}
}

static void
ans_failed_cb(struct rte_comch_consumer_task_post_recv *task,
	      union rte_comch_data task_user_data, union rte_comch_data ctx_user_data)
{
	struct msgq_app *app = app_of(ctx_user_data);
	struct rte_comch_task *t = rte_comch_consumer_task_post_recv_as_task(task);

	/* When our consumer stops, its posted receives come back unfilled. */
	if (!app->stopping)
		app_fail(app, rte_comch_task_get_status(t), "A receive failed: %s",
			 err_str(rte_comch_task_get_status(t)));
	rte_comch_task_free(t);
}

/* ------------------------------------------------------------------ set-up */

static int
open_device(struct msgq_app *app)
{
	struct rte_comch_dev_info info;

	app->dev = rte_comch_dev_open(app->args.devargs);
	if (app->dev == NULL)
		return app_fail(app, -rte_errno, "Cannot open device \"%s\": %s",
				app->args.devargs, rte_strerror(rte_errno));
	if (rte_comch_dev_info_get(app->dev, &info) < 0 ||
	    (info.capa & RTE_COMCH_CAPA_MSGQ) == 0)
		return app_fail(app, -ENOTSUP, "Device \"%s\" has no MsgQ: open a \"dpa:\" device",
				app->args.devargs);
	app->pe = comch_sample_pe_create();
	return app->pe == NULL ? app_fail(app, -rte_errno, "No engine") : 0;
}

/* Run the dpa's one execution unit on a service core, if EAL gave us a second lcore. */
static int
map_unit(struct msgq_app *app)
{
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	int ret;

	if (lcore >= RTE_MAX_LCORE)
		return 0;
	ret = rte_service_lcore_add(lcore);
	if (ret == 0)
		app->service_lcore = lcore;
	if (ret == 0)
		ret = rte_comch_dpa_unit_service_id(app->dpa, 0, &app->service_id);
	if (ret == 0)
		ret = rte_service_map_lcore_set(app->service_id, lcore, 1);
	if (ret == 0)
		ret = rte_service_runstate_set(app->service_id, 1);
	if (ret == 0)
		ret = rte_service_lcore_start(lcore);
	if (ret < 0)
		return app_fail(app, ret, "Cannot run the DPA on service lcore %u: %s", lcore,
				err_str(ret));
	return 0;
}

/* The DPA: one execution unit, the program's thread, its completion contexts. */
static int
create_dpa(struct msgq_app *app)
{
	struct rte_comch_dpa_conf conf = { .nb_units = 1 };
	struct rte_comch_dpa_thread_conf tconf = {
		.func = msgq_prog,
		.local_storage_size = sizeof(struct msgq_prog_tls),
		.unit = 0,
	};
	/* Room for every request in flight; a context has 2 entries at least. */
	struct rte_comch_dpa_cq_conf cconf = {
		.size = RTE_MAX(2u, rte_align32pow2(app->args.window)),
	};
	int ret;

	conf.mode = rte_lcore_count() > 1 ? RTE_COMCH_DPA_EXEC_SERVICE :
					    RTE_COMCH_DPA_EXEC_PTHREAD;
	app->dpa = rte_comch_dpa_create(app->dev, &conf);
	if (app->dpa == NULL)
		return app_fail(app, -rte_errno, "Cannot create the DPA: %s",
				rte_strerror(rte_errno));
	if (conf.mode == RTE_COMCH_DPA_EXEC_SERVICE && map_unit(app) < 0)
		return app->error;
	ret = rte_comch_dpa_mem_alloc(app->dpa, sizeof(app->prog), &app->args_mem);
	if (ret < 0)
		return app_fail(app, ret, "No DPA memory: %s", err_str(ret));
	tconf.arg = app->args_mem;
	app->thread = rte_comch_dpa_thread_create(app->dpa, &tconf);
	if (app->thread == NULL)
		return app_fail(app, -rte_errno, "Cannot create the DPA thread: %s",
				rte_strerror(rte_errno));
	/* Requests wake the thread; send completions are polled by it. */
	cconf.thread = app->thread;
	app->req_cq = rte_comch_dpa_cq_create(app->dpa, &cconf);
	cconf.thread = NULL;
	app->ans_cq = rte_comch_dpa_cq_create(app->dpa, &cconf);
	if (app->req_cq == NULL || app->ans_cq == NULL)
		return app_fail(app, -rte_errno, "Cannot create a completion context: %s",
				rte_strerror(rte_errno));
	return 0;
}

/* An mmap of slots the DPA device can reach, and its DPA handle. */
static struct rte_comch_mmap *
create_slots(struct msgq_app *app, const char *what, rte_comch_dpa_handle_t *h, uint64_t *base)
{
	size_t len = (size_t)app->slot_size * app->args.window;
	struct rte_comch_mmap *mmap = rte_comch_mmap_create();
	void *addr = NULL;
	int ret;

	if (mmap == NULL) {
		app_fail(app, -rte_errno, "Cannot create the %s mmap", what);
		return NULL;
	}
	/* The device first: the memory is then allocated where it can reach it. */
	ret = rte_comch_mmap_add_dev(mmap, app->dev);
	if (ret == 0)
		ret = rte_comch_mmap_set_permissions(mmap, RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
						     RTE_COMCH_MMAP_PERM_PCI_READ_WRITE);
	if (ret == 0)
		ret = rte_comch_mmap_alloc_memrange(mmap, len);
	if (ret == 0)
		ret = rte_comch_mmap_start(mmap);
	if (ret == 0)
		ret = rte_comch_mmap_get_memrange(mmap, &addr, &len);
	if (ret == 0)
		ret = rte_comch_dpa_mmap_get_dpa_handle(app->dpa, mmap, h);
	if (ret < 0)
		app_fail(app, ret, "Cannot set up the %s mmap: %s", what, err_str(ret));
	*base = (uintptr_t)addr;
	return mmap;
}

static int
create_memory(struct msgq_app *app)
{
	app->slot_size = RTE_ALIGN_CEIL(app->args.size, RTE_CACHE_LINE_SIZE);
	app->answers = create_slots(app, "answer", &app->prog.dst_mmap, &app->prog.dst_base);
	if (app->error == 0)
		app->staging = create_slots(app, "staging", &app->prog.src_mmap,
					    &app->prog.src_base);
	app->answer_base = (uint8_t *)(uintptr_t)app->prog.dst_base;
	app->sent_at = calloc(app->args.window, sizeof(*app->sent_at));
	app->rtt = calloc(app->args.count, sizeof(*app->rtt));
	if (app->error == 0 && (app->sent_at == NULL || app->rtt == NULL))
		app_fail(app, -ENOMEM, "Out of memory");
	return app->error;
}

/* A started MsgQ; dpa_consumer: CPU -> DPA, otherwise DPA -> CPU. */
static struct rte_comch_msgq *
create_msgq(struct msgq_app *app, bool dpa_consumer)
{
	struct rte_comch_msgq *q = rte_comch_msgq_create(app->dev);
	int ret;

	if (q == NULL) {
		app_fail(app, -rte_errno, "Cannot create a MsgQ: %s", rte_strerror(rte_errno));
		return NULL;
	}
	ret = dpa_consumer ? rte_comch_msgq_set_dpa_consumer(q, rte_comch_dpa_as_accel(app->dpa)) :
			     rte_comch_msgq_set_dpa_producer(q, rte_comch_dpa_as_accel(app->dpa));
	if (ret == 0)
		ret = rte_comch_msgq_start(q);
	if (ret < 0)
		app_fail(app, ret, "Cannot start a MsgQ: %s", err_str(ret));
	return q;
}

/* Attach a context to the engine, with the app as its user data, and start it. */
static int
start_ctx(struct msgq_app *app, struct rte_comch_ctx *ctx, const char *what)
{
	rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = app });
	if (comch_sample_start_ctx(app->pe, ctx, what) < 0)
		return app_fail(app, -EIO, "The %s did not start", what);
	return 0;
}

/* MsgQ A: the DPA consumer, configured for its program, and our producer. */
static int
create_request_path(struct msgq_app *app)
{
	int ret;

	app->req_q = create_msgq(app, true);
	if (app->error != 0)
		return app->error;
	app->req_cons = rte_comch_msgq_consumer_create(app->req_q);
	app->req_prod = rte_comch_msgq_producer_create(app->req_q);
	if (app->req_cons == NULL || app->req_prod == NULL)
		return app_fail(app, -rte_errno, "Cannot create MsgQ A's ends: %s",
				rte_strerror(rte_errno));
	ret = rte_comch_consumer_set_imm_data_len(app->req_cons, sizeof(struct msgq_request));
	if (ret == 0)
		ret = rte_comch_dpa_consumer_set_completion(app->req_cons, app->req_cq, 0);
	if (ret == 0)
		ret = rte_comch_dpa_consumer_set_dev_max_num_recv(app->req_cons,
								  app->args.window);
	if (ret == 0)
		ret = rte_comch_dpa_consumer_get_dpa_handle(app->req_cons,
							    &app->prog.req_consumer);
	if (ret == 0)
		ret = rte_comch_consumer_get_id(app->req_cons, &app->req_cons_id);
	if (ret == 0)
		ret = rte_comch_producer_task_send_set_conf(app->req_prod, req_sent_cb,
							    req_failed_cb, app->args.window);
	if (ret < 0)
		return app_fail(app, ret, "Cannot configure MsgQ A: %s", err_str(ret));
	if (start_ctx(app, rte_comch_consumer_as_ctx(app->req_cons), "DPA consumer") < 0 ||
	    start_ctx(app, rte_comch_producer_as_ctx(app->req_prod), "CPU producer") < 0)
		return app->error;
	return 0;
}

/* MsgQ B: our consumer, with its receives posted, and the DPA producer. */
static int
create_answer_path(struct msgq_app *app)
{
	struct rte_comch_consumer_task_post_recv *task;
	uint32_t i;
	int ret;

	app->ans_q = create_msgq(app, false);
	if (app->error != 0)
		return app->error;
	app->ans_cons = rte_comch_msgq_consumer_create(app->ans_q);
	app->ans_prod = rte_comch_msgq_producer_create(app->ans_q);
	if (app->ans_cons == NULL || app->ans_prod == NULL)
		return app_fail(app, -rte_errno, "Cannot create MsgQ B's ends: %s",
				rte_strerror(rte_errno));
	ret = rte_comch_consumer_set_imm_data_len(app->ans_cons, sizeof(struct msgq_answer));
	if (ret == 0)
		ret = rte_comch_consumer_task_post_recv_set_conf(app->ans_cons, ans_recv_cb,
								 ans_failed_cb, app->args.window);
	if (ret == 0)
		ret = rte_comch_consumer_get_id(app->ans_cons, &app->prog.cpu_consumer_id);
	if (ret == 0)
		ret = rte_comch_dpa_producer_completion_attach(app->ans_prod, app->ans_cq, 0);
	if (ret == 0)
		ret = rte_comch_dpa_producer_set_dev_max_num_send(app->ans_prod,
								  app->args.window);
	if (ret == 0)
		ret = rte_comch_dpa_producer_get_dpa_handle(app->ans_prod,
							    &app->prog.ans_producer);
	if (ret < 0)
		return app_fail(app, ret, "Cannot configure MsgQ B: %s", err_str(ret));
	if (start_ctx(app, rte_comch_consumer_as_ctx(app->ans_cons), "CPU consumer") < 0 ||
	    start_ctx(app, rte_comch_producer_as_ctx(app->ans_prod), "DPA producer") < 0)
		return app->error;
	/* One receive per slot, immediate data only (no buffer). */
	for (i = 0; i < app->args.window; i++) {
		ret = rte_comch_consumer_task_post_recv_alloc_init(app->ans_cons, NULL, &task);
		if (ret == 0) {
			ret = rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(task));
			if (ret < 0)
				rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
		}
		if (ret < 0)
			return app_fail(app, ret, "Cannot post a receive: %s", err_str(ret));
	}
	return 0;
}

/* Hand the program its argument block, let its thread run, start the DPA. */
static int
start_program(struct msgq_app *app)
{
	int ret;

	app->prog.slot_size = app->slot_size;
	app->prog.nb_slots = app->args.window;
	app->prog.payload_len = app->args.size;
	ret = rte_comch_dpa_cq_get_dpa_handle(app->req_cq, &app->prog.req_cq);
	if (ret == 0)
		ret = rte_comch_dpa_cq_get_dpa_handle(app->ans_cq, &app->prog.ans_cq);
	if (ret == 0)
		ret = rte_comch_dpa_thread_get_dpa_handle(app->thread, &app->prog.self);
	if (ret == 0)
		ret = rte_comch_dpa_h2d_memcpy(app->dpa, app->args_mem, 0, &app->prog,
					       sizeof(app->prog));
	if (ret == 0)
		ret = rte_comch_dpa_thread_start(app->thread);
	app->thread_started = ret == 0;
	if (ret == 0)
		ret = rte_comch_dpa_thread_run(app->thread);
	if (ret == 0)
		ret = rte_comch_dpa_start(app->dpa);
	app->dpa_started = ret == 0;
	/* Its first run offers the first receives to our producer. */
	if (ret == 0)
		ret = rte_comch_dpa_thread_notify(app->thread);
	if (ret < 0)
		return app_fail(app, ret, "Cannot start the DPA program: %s", err_str(ret));
	if (app->service_lcore < RTE_MAX_LCORE)
		printf("DPA program running on service lcore %u\n", app->service_lcore);
	else
		printf("DPA program running on a thread of its own, sharing our CPU\n");
	printf("Sending %" PRIu32 " requests, %" PRIu32 " in flight at most; answers carry "
	       "%" PRIu32 "-byte records\n", app->args.count, app->args.window, app->args.size);
	return 0;
}

/* ------------------------------------------------------------------ run */

/* Send requests while slots are free; a refusal waits for the program's offer. */
static int
send_requests(struct msgq_app *app)
{
	struct rte_comch_producer_task_send *task;
	struct msgq_request req;
	struct rte_comch_task *t;
	int ret;

	while (app->inflight < app->args.window && app->next_seq < app->args.count) {
		req.seq = app->next_seq;
		req.operand = msgq_operand(req.seq);
		ret = rte_comch_producer_task_send_alloc_init(app->req_prod, NULL,
							      (const uint8_t *)&req, sizeof(req),
							      app->req_cons_id, &task);
		/* Every send task in flight: their completions come with progress. */
		if (ret == -ENOMEM)
			return 0;
		if (ret < 0)
			return app_fail(app, ret, "Cannot take a send task: %s", err_str(ret));
		t = rte_comch_producer_task_send_as_task(task);
		app->sent_at[req.seq % app->args.window] = rte_rdtsc();
		ret = rte_comch_task_submit(t);
		if (ret == -EAGAIN) {
			/* No receive offered yet: the program gives them back as it answers. */
			rte_comch_task_free(t);
			app->send_refused++;
			return 0;
		}
		if (ret < 0) {
			rte_comch_task_free(t);
			return app_fail(app, ret, "Cannot send request %" PRIu64 ": %s", req.seq,
					err_str(ret));
		}
		app->inflight++;
		app->next_seq++;
	}
	return 0;
}

/* What the program wrote in its argument block; its failure, if any, said. */
static int
read_program(struct msgq_app *app)
{
	int ret = rte_comch_dpa_d2h_memcpy(app->dpa, &app->prog, app->args_mem, 0,
					   sizeof(app->prog));

	if (ret < 0)
		return app_fail(app, ret, "Cannot read the DPA memory: %s", err_str(ret));
	if (app->prog.status != 0)
		return app_fail(app, app->prog.status, "The DPA program failed at request %"
				PRIu32 ": %s", app->prog.failed_seq, err_str(app->prog.status));
	return 0;
}

/* Every LOOK_EVERY rounds: a signal, a program that failed, or no answer for too long. */
static int
look(struct msgq_app *app, uint64_t *last_expected, uint64_t *since)
{
	if (comch_sample_signal() != 0)
		return app_fail(app, -EINTR, "Signal %d received, stopping",
				comch_sample_signal());
	if (read_program(app) < 0)
		return app->error;
	if (app->expected != *last_expected) {
		*last_expected = app->expected;
		*since = rte_get_timer_cycles();
	} else if (comch_sample_timed_out(*since, app->args.timeout_s)) {
		return app_fail(app, -ETIMEDOUT, "No answer for %" PRIu32 " s (%" PRIu64
				" of %" PRIu32 " received)", app->args.timeout_s, app->expected,
				app->args.count);
	}
	return 0;
}

/* The main loop: progress, send what the window allows, until every answer is in. */
static int
run(struct msgq_app *app)
{
	uint64_t last_expected = 0, since = rte_get_timer_cycles();
	unsigned int rounds = 0;
	int ret;

	app->start_tsc = rte_rdtsc();
	while (app->error == 0 && app->expected < app->args.count) {
		ret = rte_comch_pe_progress(app->pe);
		if (ret < 0)
			return app_fail(app, ret, "Progress failed: %s", err_str(ret));
		/* With one lcore, the DPA's thread shares our CPU: sleep to let it run. */
		if (ret == 0 && app->service_lcore == RTE_MAX_LCORE)
			rte_delay_us_sleep(1);
		send_requests(app);
		if (++rounds % LOOK_EVERY == 0)
			look(app, &last_expected, &since);
	}
	app->end_tsc = rte_rdtsc();
	return app->error;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
report(struct msgq_app *app)
{
	double hz = rte_get_tsc_hz(), s = (app->end_tsc - app->start_tsc) / hz;
	uint64_t n = app->args.count;

	qsort(app->rtt, n, sizeof(*app->rtt), cmp_u64);
	printf("Exchanged %" PRIu64 " requests and %" PRIu64 " answers in %.3f s: "
	       "%.0f round trips/s (%.0f messages/s)\n", n, n, s, n / s, 2 * n / s);
	printf("Round trip, %" PRIu32 " in flight: p50 %.2f us, p99 %.2f us, max %.2f us\n",
	       app->args.window, app->rtt[(n - 1) / 2] * 1e6 / hz,
	       app->rtt[(n * 99 + 99) / 100 - 1] * 1e6 / hz, app->rtt[n - 1] * 1e6 / hz);
	printf("DPA program: %" PRIu64 " answers sent, %" PRIu64 " send completions taken, %"
	       PRIu64 " answers retried; CPU sends refused for want of a receive: %" PRIu64
	       "\n", app->prog.answered, app->prog.completions, app->prog.retries,
	       app->send_refused);
}

/* ------------------------------------------------------------------ stop */

/* Keep the first failure of the teardown, saying which step failed. */
static void
step(int *rc, int ret, const char *what)
{
	if (ret >= 0)
		return;
	fprintf(stderr, "Teardown: %s: %s\n", what, err_str(ret));
	if (*rc == 0)
		*rc = ret;
}

/* Stop the four MsgQ contexts, progressing the engine until each is IDLE, then destroy them. */
static void
destroy_ends(struct msgq_app *app, int *rc)
{
	struct {
		struct rte_comch_ctx *ctx;
		const char *what;
	} ends[] = {
		{ app->req_prod ? rte_comch_producer_as_ctx(app->req_prod) : NULL, "CPU producer" },
		{ app->ans_prod ? rte_comch_producer_as_ctx(app->ans_prod) : NULL, "DPA producer" },
		/* Its posted receives come back unfilled: ans_failed_cb frees them. */
		{ app->ans_cons ? rte_comch_consumer_as_ctx(app->ans_cons) : NULL, "CPU consumer" },
		{ app->req_cons ? rte_comch_consumer_as_ctx(app->req_cons) : NULL, "DPA consumer" },
	};
	unsigned int i;

	app->stopping = true;
	for (i = 0; i < RTE_DIM(ends); i++)
		if (ends[i].ctx != NULL)
			step(rc, comch_sample_stop_ctx(app->pe, ends[i].ctx, ends[i].what),
			     ends[i].what);
	if (app->req_prod != NULL)
		step(rc, rte_comch_producer_destroy(app->req_prod), "CPU producer");
	if (app->ans_prod != NULL)
		step(rc, rte_comch_producer_destroy(app->ans_prod), "DPA producer");
	if (app->ans_cons != NULL)
		step(rc, rte_comch_consumer_destroy(app->ans_cons), "CPU consumer");
	if (app->req_cons != NULL)
		step(rc, rte_comch_consumer_destroy(app->req_cons), "DPA consumer");
}

static void
destroy_msgq(struct rte_comch_msgq *q, int *rc)
{
	if (q == NULL)
		return;
	step(rc, rte_comch_msgq_stop(q), "MsgQ stop");
	step(rc, rte_comch_msgq_destroy(q), "MsgQ destroy");
}

/* The DPA objects, the DPA, and the service core its unit ran on. */
static void
destroy_dpa(struct msgq_app *app, int *rc)
{
	if (app->req_cq != NULL)
		step(rc, rte_comch_dpa_cq_destroy(app->req_cq), "request completion context");
	if (app->ans_cq != NULL)
		step(rc, rte_comch_dpa_cq_destroy(app->ans_cq), "answer completion context");
	if (app->thread != NULL)
		step(rc, rte_comch_dpa_thread_destroy(app->thread), "DPA thread");
	if (app->args_mem != RTE_COMCH_DPA_HANDLE_INVALID)
		step(rc, rte_comch_dpa_mem_free(app->dpa, app->args_mem), "DPA memory");
	if (app->dpa_started)
		step(rc, rte_comch_dpa_stop(app->dpa), "DPA stop");
	if (app->service_lcore < RTE_MAX_LCORE) {
		rte_service_runstate_set(app->service_id, 0);
		rte_service_map_lcore_set(app->service_id, app->service_lcore, 0);
		step(rc, rte_service_lcore_stop(app->service_lcore), "service lcore stop");
		step(rc, rte_service_lcore_del(app->service_lcore), "service lcore del");
	}
	if (app->dpa != NULL)
		step(rc, rte_comch_dpa_destroy(app->dpa), "DPA destroy");
}

static void
destroy_mmap(struct rte_comch_mmap *mmap, int *rc)
{
	if (mmap == NULL)
		return;
	step(rc, rte_comch_mmap_stop(mmap), "mmap stop");
	step(rc, rte_comch_mmap_destroy(mmap), "mmap destroy");
}

/* The program first, then MsgQ ends, MsgQs, DPA objects, DPA, memory, engine, device. */
static int
cleanup(struct msgq_app *app)
{
	int rc = 0;

	if (app->thread_started) {
		/* Waits for a run in progress: from now on nothing touches the slots. */
		step(&rc, rte_comch_dpa_thread_stop(app->thread), "DPA thread stop");
		if (read_program(app) < 0 && rc == 0)
			rc = app->error;
	}
	if (app->pe != NULL)
		destroy_ends(app, &rc);
	destroy_msgq(app->req_q, &rc);
	destroy_msgq(app->ans_q, &rc);
	destroy_dpa(app, &rc);
	destroy_mmap(app->answers, &rc);
	destroy_mmap(app->staging, &rc);
	step(&rc, comch_sample_pe_destroy(app->pe), "engine");
	step(&rc, comch_sample_close_device(NULL, app->dev), "device");
	return rc;
}

int
main(int argc, char **argv)
{
	struct msgq_app app = {
		.args = {
			.devargs = DEFAULT_DEVARGS,
			.count = DEFAULT_COUNT,
			.size = DEFAULT_SIZE,
			.window = DEFAULT_WINDOW,
			.timeout_s = DEFAULT_TIMEOUT_S,
		},
		.service_lcore = RTE_MAX_LCORE,
	};
	int ret, rc;

	ret = comch_sample_init(argc, argv, &opts, &app.args);
	if (ret != 0)
		return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;

	ret = open_device(&app);
	if (ret == 0)
		ret = create_dpa(&app);
	if (ret == 0)
		ret = create_memory(&app);
	if (ret == 0)
		ret = create_request_path(&app);
	if (ret == 0)
		ret = create_answer_path(&app);
	if (ret == 0)
		ret = start_program(&app);
	if (ret == 0)
		ret = run(&app);

	rc = cleanup(&app);
	if (ret == 0 && rc == 0 && app.error == 0) {
		report(&app);
		printf("MsgQ sample done: all %" PRIu32 " answers checked (order, square, "
		       "payload)\n", app.args.count);
	}
	free(app.sent_at);
	free(app.rtt);
	rte_eal_cleanup();
	return ret == 0 && rc == 0 && app.error == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
