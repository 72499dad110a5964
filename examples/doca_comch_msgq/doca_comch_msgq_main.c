/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The CPU part of the DOCA MsgQ program (see doca_comch_msgq_common.h): it
 * sets up the DPA, its thread and completion contexts, two MsgQs and the
 * memory the answers are copied into, has the DPA offer its first receives
 * with an RPC, then sends N requests, checks every answer (order, square,
 * payload) and tears everything down in DOCA's order. DOCA's names only.
 *
 * Usage: doca_comch_msgq [-p <PCI address>] [-N <requests>] [-s <payload bytes>]
 *        [-w <in flight>] [-T <timeout s>]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_argp.h>
#include <doca_comch_consumer.h>
#include <doca_comch_msgq.h>
#include <doca_comch_producer.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dpa.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "doca_comch_msgq_common.h"

DOCA_LOG_REGISTER(DOCA_COMCH_MSGQ);

/* What dpacc generates for the DPA part, and its functions. */
extern struct doca_dpa_app *doca_comch_msgq_app;
extern doca_dpa_func_t msgq_dev_thread;
extern doca_dpa_func_t msgq_dev_init_rpc;

#define MAX_WINDOW 64
#define MAX_PAYLOAD 256
#define PRINT_FIRST 3

struct msgq_cfg {
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	int count;
	int payload;
	int window;
	int timeout_s;
};

struct msgq_app {
	struct msgq_cfg cfg;
	struct doca_dev *dev;
	struct doca_pe *pe;
	/* The DPA: its thread, how it is woken, its memory. */
	struct doca_dpa *dpa;
	struct doca_dpa_thread *thread;
	bool thread_running;
	struct doca_dpa_notification_completion *self;
	struct doca_comch_consumer_completion *requests;
	struct doca_dpa_completion *sent;
	doca_dpa_dev_uintptr_t args_mem, tls_mem, staging_mem;
	struct msgq_dev_args args;
	/* The answers' slots (ours), and the payloads' (the DPA's memory). */
	uint8_t *answers;
	struct doca_mmap *answers_mmap, *staging_mmap;
	/* MsgQ A: our producer to the DPA consumer; MsgQ B: the DPA producer to our consumer. */
	struct doca_comch_msgq *req_q, *ans_q;
	struct doca_comch_producer *req_prod, *ans_prod;
	struct doca_comch_consumer *req_cons, *ans_cons;
	uint32_t req_cons_id;
	/* The exchange. */
	uint64_t next_seq, expected, refused;
	uint32_t inflight;
	bool stopping;
	doca_error_t error;
	struct timespec start, end;
};

/* ------------------------------------------------------------ arguments */

static doca_error_t
int_arg(void *param, int *out, int min, int max, const char *what)
{
	int v = *(int *)param;

	if (v < min || v > max) {
		DOCA_LOG_ERR("%s: %d is not %d to %d", what, v, min, max);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*out = v;
	return DOCA_SUCCESS;
}

static doca_error_t
pci_cb(void *param, void *config)
{
	struct msgq_cfg *cfg = config;

	if (strlen(param) >= sizeof(cfg->pci))
		return DOCA_ERROR_INVALID_VALUE;
	strcpy(cfg->pci, param);
	return DOCA_SUCCESS;
}

static doca_error_t
count_cb(void *param, void *config)
{
	return int_arg(param, &((struct msgq_cfg *)config)->count, 1, 100000000, "count");
}

static doca_error_t
payload_cb(void *param, void *config)
{
	struct msgq_cfg *cfg = config;
	doca_error_t ret = int_arg(param, &cfg->payload, 0, MAX_PAYLOAD, "payload");

	if (ret == DOCA_SUCCESS && cfg->payload % 8 != 0) {
		DOCA_LOG_ERR("payload: a multiple of 8 bytes");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return ret;
}

static doca_error_t
window_cb(void *param, void *config)
{
	return int_arg(param, &((struct msgq_cfg *)config)->window, 1, MAX_WINDOW, "window");
}

static doca_error_t
timeout_cb(void *param, void *config)
{
	return int_arg(param, &((struct msgq_cfg *)config)->timeout_s, 1, 3600, "timeout");
}

static doca_error_t
register_arg(const char *short_name, const char *long_name, const char *descr,
	     doca_argp_param_cb_t cb, enum doca_argp_type type)
{
	struct doca_argp_param *param;
	doca_error_t ret = doca_argp_param_create(&param);

	if (ret != DOCA_SUCCESS)
		return ret;
	doca_argp_param_set_short_name(param, short_name);
	doca_argp_param_set_long_name(param, long_name);
	doca_argp_param_set_description(param, descr);
	doca_argp_param_set_callback(param, cb);
	doca_argp_param_set_type(param, type);
	return doca_argp_register_param(param);
}

static doca_error_t
parse_args(int argc, char **argv, struct msgq_cfg *cfg)
{
	doca_error_t ret = doca_argp_init("doca_comch_msgq", cfg);

	if (ret == DOCA_SUCCESS)
		ret = register_arg("p", "pci-addr", "PCI address of the device", pci_cb,
				   DOCA_ARGP_TYPE_STRING);
	if (ret == DOCA_SUCCESS)
		ret = register_arg("N", "count", "Requests to send", count_cb, DOCA_ARGP_TYPE_INT);
	if (ret == DOCA_SUCCESS)
		ret = register_arg("s", "payload", "Payload bytes of each answer, copied by the "
				   "DPA (0: the answer alone; a multiple of 8, at most 256)",
				   payload_cb, DOCA_ARGP_TYPE_INT);
	if (ret == DOCA_SUCCESS)
		ret = register_arg("w", "window", "Requests in flight, at most 64", window_cb,
				   DOCA_ARGP_TYPE_INT);
	if (ret == DOCA_SUCCESS)
		ret = register_arg("T", "timeout", "Seconds to wait for an answer", timeout_cb,
				   DOCA_ARGP_TYPE_INT);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_start(argc, argv);
	return ret;
}

/* ------------------------------------------------------------ callbacks */

/* Keep the first failure, said once. */
static void
app_fail(struct msgq_app *app, doca_error_t err, const char *what)
{
	if (app->error != DOCA_SUCCESS)
		return;
	app->error = err != DOCA_SUCCESS ? err : DOCA_ERROR_UNEXPECTED;
	DOCA_LOG_ERR("%s: %s", what, doca_error_get_descr(app->error));
}

static struct msgq_app *
app_of(union doca_data ctx_user_data)
{
	return ctx_user_data.ptr;
}

static void
req_sent_cb(struct doca_comch_producer_task_send *task, union doca_data task_user_data,
	    union doca_data ctx_user_data)
{
	(void)task_user_data;
	(void)ctx_user_data;
	doca_task_free(doca_comch_producer_task_send_as_task(task));
}

static void
req_failed_cb(struct doca_comch_producer_task_send *task, union doca_data task_user_data,
	      union doca_data ctx_user_data)
{
	struct doca_task *t = doca_comch_producer_task_send_as_task(task);

	(void)task_user_data;
	app_fail(app_of(ctx_user_data), doca_task_get_status(t), "A request failed");
	doca_task_free(t);
}

/* Whether an answer is the one due, with the right square and payload. */
static bool
answer_ok(const struct msgq_app *app, const struct msgq_answer *ans)
{
	const uint64_t *w;
	uint64_t operand = msgq_operand(app->expected);
	uint32_t i;

	if (ans->seq != app->expected || ans->square != operand * operand ||
	    ans->slot != ans->seq % (uint64_t)app->cfg.window ||
	    ans->len != (uint32_t)app->cfg.payload)
		return false;
	w = (const uint64_t *)(app->answers + (size_t)ans->slot * app->args.slot_size);
	for (i = 0; i < ans->len / sizeof(uint64_t); i++)
		if (w[i] != msgq_payload_word(ans->seq, i))
			return false;
	return true;
}

/* An answer filled a posted receive: check it, post the receive again. */
static void
ans_recv_cb(struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data,
	    union doca_data ctx_user_data)
{
	struct msgq_app *app = app_of(ctx_user_data);
	struct doca_task *t = doca_comch_consumer_task_post_recv_as_task(task);
	const uint8_t *imm = doca_comch_consumer_task_post_recv_get_imm_data(task);
	struct msgq_answer ans;
	doca_error_t ret;

	(void)task_user_data;
	if (imm == NULL ||
	    doca_comch_consumer_task_post_recv_get_imm_data_len(task) != sizeof(ans)) {
		app_fail(app, DOCA_ERROR_UNEXPECTED, "An answer of the wrong size");
	} else {
		memcpy(&ans, imm, sizeof(ans));
		if (!answer_ok(app, &ans)) {
			DOCA_LOG_ERR("Answer %" PRIu64 " (due: %" PRIu64 "), slot %u, %u bytes, "
				     "square %" PRIu64, ans.seq, app->expected, ans.slot, ans.len,
				     ans.square);
			app_fail(app, DOCA_ERROR_UNEXPECTED, "A wrong answer");
		} else {
			if (ans.seq < PRINT_FIRST || ans.seq + 1 == (uint64_t)app->cfg.count)
				DOCA_LOG_INFO("Request %" PRIu64 ": operand %" PRIu64 " -> square %"
					      PRIu64 ", %u-byte record in slot %u", ans.seq,
					      msgq_operand(ans.seq), ans.square, ans.len, ans.slot);
			app->expected++;
			app->inflight--;
		}
	}
	ret = doca_task_submit(t);
	if (ret != DOCA_SUCCESS) {
		doca_task_free(t);
		app_fail(app, ret, "Cannot post a receive again");
	}
}

static void
ans_failed_cb(struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data,
	      union doca_data ctx_user_data)
{
	struct msgq_app *app = app_of(ctx_user_data);
	struct doca_task *t = doca_comch_consumer_task_post_recv_as_task(task);

	(void)task_user_data;
	/* Our consumer's stop gives its posted receives back unfilled. */
	if (!app->stopping)
		app_fail(app, doca_task_get_status(t), "A receive failed");
	doca_task_free(t);
}

/* ------------------------------------------------------------ set-up */

static doca_error_t
open_device(struct msgq_app *app)
{
	struct doca_devinfo **list;
	uint32_t nb, i;
	uint8_t equal = 0;
	doca_error_t ret = doca_devinfo_create_list(&list, &nb);

	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (i = 0; i < nb && ret == DOCA_ERROR_NOT_FOUND; i++) {
		if (doca_devinfo_is_equal_pci_addr(list[i], app->cfg.pci, &equal) == DOCA_SUCCESS &&
		    equal && doca_dpa_cap_is_supported(list[i]) == DOCA_SUCCESS &&
		    doca_comch_msgq_cap_is_supported(list[i]) == DOCA_SUCCESS)
			ret = doca_dev_open(list[i], &app->dev);
	}
	doca_devinfo_destroy_list(list);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&app->pe);
	return ret;
}

/* The DPA, its thread (not run yet), its notification and completion contexts. */
static doca_error_t
create_dpa(struct msgq_app *app)
{
	uint32_t window = (uint32_t)app->cfg.window;
	doca_error_t ret;

	ret = doca_dpa_create(app->dev, &app->dpa);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_set_app(app->dpa, doca_comch_msgq_app);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_start(app->dpa);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_mem_alloc(app->dpa, sizeof(app->args), &app->args_mem);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_mem_alloc(app->dpa, sizeof(struct msgq_dev_tls), &app->tls_mem);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_memset(app->dpa, app->tls_mem, 0, sizeof(struct msgq_dev_tls));
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_thread_create(app->dpa, &app->thread);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_thread_set_func_arg(app->thread, &msgq_dev_thread, app->args_mem);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_thread_set_local_storage(app->thread, app->tls_mem);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_thread_start(app->thread);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_notification_completion_create(app->dpa, app->thread, &app->self);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_notification_completion_start(app->self);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_notification_completion_get_dpa_handle(app->self, &app->args.self);
	/* Requests wake the thread; the answers' completions are polled. */
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_completion_create(&app->requests);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_completion_set_dpa_thread(app->requests, app->thread);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_completion_set_max_num_recv(app->requests, window);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_completion_set_max_num_consumers(app->requests, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_completion_set_imm_data_len(app->requests,
								      sizeof(struct msgq_request));
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_completion_start(app->requests);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_completion_get_dpa_handle(app->requests,
								    &app->args.requests);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_completion_create(app->dpa, window, &app->sent);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_completion_start(app->sent);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_completion_get_dpa_handle(app->sent, &app->args.sent);
	if (ret != DOCA_SUCCESS)
		app_fail(app, ret, "Cannot set up the DPA");
	return ret;
}

/* A started mmap of [addr, addr + len) (or of DPA memory) and its handle for DPA programs. */
static doca_error_t
create_mmap(struct msgq_app *app, void *addr, doca_dpa_dev_uintptr_t dpa_addr, size_t len,
	    struct doca_mmap **mmap, doca_dpa_dev_mmap_t *handle)
{
	doca_error_t ret = doca_mmap_create(mmap);

	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(*mmap, app->dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(*mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
						DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = addr != NULL ? doca_mmap_set_memrange(*mmap, addr, len) :
		      doca_mmap_set_dpa_memrange(*mmap, app->dpa, dpa_addr, len);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(*mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_dev_get_dpa_handle(*mmap, app->dev, handle);
	return ret;
}

static doca_error_t
create_memory(struct msgq_app *app)
{
	uint32_t slot = app->cfg.payload > 64 ? (uint32_t)app->cfg.payload : 64;
	size_t len = (size_t)slot * (size_t)app->cfg.window;
	doca_error_t ret = DOCA_SUCCESS;

	app->args.slot_size = slot;
	app->args.nb_slots = (uint32_t)app->cfg.window;
	app->args.payload_len = (uint32_t)app->cfg.payload;
	app->answers = aligned_alloc(64, len);
	if (app->answers == NULL)
		ret = DOCA_ERROR_NO_MEMORY;
	if (ret == DOCA_SUCCESS)
		ret = create_mmap(app, app->answers, 0, len, &app->answers_mmap,
				  &app->args.answers_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_mem_alloc(app->dpa, len, &app->staging_mem);
	if (ret == DOCA_SUCCESS)
		ret = create_mmap(app, NULL, app->staging_mem, len, &app->staging_mmap,
				  &app->args.staging_mmap);
	app->args.answers = (uintptr_t)app->answers;
	app->args.staging = app->staging_mem;
	if (ret != DOCA_SUCCESS)
		app_fail(app, ret, "Cannot set up the answers' memory");
	return ret;
}

/* A started MsgQ, with a consumer and a producer. */
static doca_error_t
create_msgq(struct msgq_app *app, bool dpa_consumer, struct doca_comch_msgq **q,
	    struct doca_comch_consumer **cons, struct doca_comch_producer **prod)
{
	doca_error_t ret = doca_comch_msgq_create(app->dev, q);

	if (ret == DOCA_SUCCESS)
		ret = doca_comch_msgq_set_max_num_consumers(*q, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_msgq_set_max_num_producers(*q, 1);
	if (ret == DOCA_SUCCESS)
		ret = dpa_consumer ? doca_comch_msgq_set_dpa_consumer(*q, app->dpa) :
				     doca_comch_msgq_set_dpa_producer(*q, app->dpa);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_msgq_start(*q);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_msgq_consumer_create(*q, cons);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_msgq_producer_create(*q, prod);
	return ret;
}

/* A CPU context: our user data, on our engine, started. */
static doca_error_t
start_cpu_ctx(struct msgq_app *app, struct doca_ctx *ctx)
{
	doca_error_t ret = doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = app });

	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(app->pe, ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(ctx);
	return ret;
}

/* MsgQ A: the DPA consumer the requests go to, and our producer. */
static doca_error_t
create_request_path(struct msgq_app *app)
{
	struct doca_ctx *cons_ctx, *prod_ctx;
	doca_error_t ret = create_msgq(app, true, &app->req_q, &app->req_cons, &app->req_prod);

	cons_ctx = doca_comch_consumer_as_ctx(app->req_cons);
	prod_ctx = doca_comch_producer_as_ctx(app->req_prod);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_datapath_on_dpa(cons_ctx, app->dpa);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_set_imm_data_len(app->req_cons,
							   sizeof(struct msgq_request));
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_set_completion(app->req_cons, app->requests,
							 MSGQ_CONSUMER_USER_DATA);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_set_dev_max_num_recv(app->req_cons,
							       (uint32_t)app->cfg.window);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(cons_ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_get_dpa_handle(app->req_cons, &app->args.consumer);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_get_id(app->req_cons, &app->req_cons_id);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_producer_task_send_set_conf(app->req_prod, req_sent_cb,
							     req_failed_cb,
							     (uint32_t)app->cfg.window);
	if (ret == DOCA_SUCCESS)
		ret = start_cpu_ctx(app, prod_ctx);
	if (ret != DOCA_SUCCESS)
		app_fail(app, ret, "Cannot set up MsgQ A (requests)");
	return ret;
}

/* MsgQ B: our consumer, its receives posted, and the DPA producer of the answers. */
static doca_error_t
create_answer_path(struct msgq_app *app)
{
	struct doca_comch_consumer_task_post_recv *task;
	struct doca_ctx *cons_ctx, *prod_ctx;
	doca_error_t ret = create_msgq(app, false, &app->ans_q, &app->ans_cons, &app->ans_prod);
	int i;

	cons_ctx = doca_comch_consumer_as_ctx(app->ans_cons);
	prod_ctx = doca_comch_producer_as_ctx(app->ans_prod);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_set_imm_data_len(app->ans_cons,
							   sizeof(struct msgq_answer));
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_task_post_recv_set_conf(app->ans_cons, ans_recv_cb,
								  ans_failed_cb,
								  (uint32_t)app->cfg.window);
	if (ret == DOCA_SUCCESS)
		ret = start_cpu_ctx(app, cons_ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_get_id(app->ans_cons, &app->args.cpu_consumer_id);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_datapath_on_dpa(prod_ctx, app->dpa);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(prod_ctx,
					     (union doca_data){ .u64 = MSGQ_PRODUCER_USER_DATA });
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_producer_set_dev_max_num_send(app->ans_prod,
							       (uint32_t)app->cfg.window);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_producer_dpa_completion_attach(app->ans_prod, app->sent);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(prod_ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_producer_get_dpa_handle(app->ans_prod, &app->args.producer);
	/* One receive per slot, immediate data only (no buffer). */
	for (i = 0; ret == DOCA_SUCCESS && i < app->cfg.window; i++) {
		ret = doca_comch_consumer_task_post_recv_alloc_init(app->ans_cons, NULL, &task);
		if (ret == DOCA_SUCCESS) {
			ret = doca_task_submit(doca_comch_consumer_task_post_recv_as_task(task));
			if (ret != DOCA_SUCCESS)
				doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
		}
	}
	if (ret != DOCA_SUCCESS)
		app_fail(app, ret, "Cannot set up MsgQ B (answers)");
	return ret;
}

/* Hand the thread its argument, let it run, and have an RPC offer the first receives. */
static doca_error_t
start_program(struct msgq_app *app)
{
	uint64_t rpc_ret = 1;
	doca_error_t ret;

	ret = doca_dpa_h2d_memcpy(app->dpa, app->args_mem, &app->args, sizeof(app->args));
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_thread_run(app->thread);
	app->thread_running = ret == DOCA_SUCCESS;
	if (ret == DOCA_SUCCESS)
		ret = doca_dpa_rpc(app->dpa, &msgq_dev_init_rpc, &rpc_ret, app->args.consumer,
				   (uint32_t)app->cfg.window);
	if (ret == DOCA_SUCCESS && rpc_ret != 0)
		ret = DOCA_ERROR_UNEXPECTED;
	if (ret != DOCA_SUCCESS)
		app_fail(app, ret, "Cannot start the DPA program");
	DOCA_LOG_INFO("DPA program running; sending %d requests, %d in flight at most, "
		      "%d-byte payloads", app->cfg.count, app->cfg.window, app->cfg.payload);
	return ret;
}

/* ------------------------------------------------------------ run */

static double
seconds(const struct timespec *t)
{
	return (double)t->tv_sec + t->tv_nsec / 1e9;
}

static double
now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return seconds(&t);
}

/* Send requests while slots are free; a refusal waits for the DPA's next offer. */
static void
send_requests(struct msgq_app *app)
{
	struct doca_comch_producer_task_send *task;
	struct msgq_request req;
	struct doca_task *t;
	doca_error_t ret;

	while (app->error == DOCA_SUCCESS && app->inflight < (uint32_t)app->cfg.window &&
	       app->next_seq < (uint64_t)app->cfg.count) {
		req.seq = app->next_seq;
		req.operand = msgq_operand(req.seq);
		ret = doca_comch_producer_task_send_alloc_init(app->req_prod, NULL,
							       (const uint8_t *)&req, sizeof(req),
							       app->req_cons_id, &task);
		if (ret == DOCA_ERROR_NO_MEMORY)
			return; /* every task in flight: their completions come with progress */
		if (ret != DOCA_SUCCESS) {
			app_fail(app, ret, "Cannot take a send task");
			return;
		}
		t = doca_comch_producer_task_send_as_task(task);
		ret = doca_task_submit(t);
		if (ret != DOCA_SUCCESS) {
			doca_task_free(t);
			if (ret == DOCA_ERROR_AGAIN) {
				app->refused++; /* no receive offered yet */
				return;
			}
			app_fail(app, ret, "Cannot send a request");
			return;
		}
		app->inflight++;
		app->next_seq++;
	}
}

/* What the program wrote in its argument block (it is stopped). */
static doca_error_t
read_program(struct msgq_app *app)
{
	doca_error_t ret = doca_dpa_d2h_memcpy(app->dpa, &app->args, app->args_mem,
					       sizeof(app->args));

	if (ret == DOCA_SUCCESS && app->args.status != 0) {
		DOCA_LOG_ERR("The DPA program stopped: %s", strerror(-app->args.status));
		ret = DOCA_ERROR_UNEXPECTED;
	}
	return ret;
}

static void
run(struct msgq_app *app)
{
	double deadline = now_s() + app->cfg.timeout_s;
	uint64_t last = 0;

	clock_gettime(CLOCK_MONOTONIC, &app->start);
	while (app->error == DOCA_SUCCESS && app->expected < (uint64_t)app->cfg.count) {
		send_requests(app);
		doca_pe_progress(app->pe);
		if ((app->expected & 0xff) == 0 || app->expected != last) {
			if (app->expected != last) {
				last = app->expected;
				deadline = now_s() + app->cfg.timeout_s;
			} else if (now_s() > deadline) {
				app_fail(app, DOCA_ERROR_TIME_OUT, "No answer");
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &app->end);
}

/* ------------------------------------------------------------ teardown */

/* Keep the first failure of the teardown. */
static void
step(doca_error_t *rc, doca_error_t ret, const char *what)
{
	if (ret == DOCA_SUCCESS)
		return;
	DOCA_LOG_ERR("Teardown: %s: %s", what, doca_error_get_descr(ret));
	if (*rc == DOCA_SUCCESS)
		*rc = ret;
}

/* Stop a context; a CPU one is driven by our engine until it is idle. */
static doca_error_t
stop_ctx(struct msgq_app *app, struct doca_ctx *ctx)
{
	enum doca_ctx_states state;
	doca_error_t ret = doca_ctx_stop(ctx);
	double deadline = now_s() + 5;

	if (ret != DOCA_SUCCESS && ret != DOCA_ERROR_IN_PROGRESS)
		return ret;
	while (doca_ctx_get_state(ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE) {
		if (now_s() > deadline)
			return DOCA_ERROR_TIME_OUT;
		doca_pe_progress(app->pe);
	}
	return DOCA_SUCCESS;
}

/* The MsgQs' ends, then the MsgQs: DOCA's order. */
static void
destroy_msgqs(struct msgq_app *app, doca_error_t *rc)
{
	struct {
		struct doca_ctx *ctx;
		const char *what;
	} ends[] = {
		{ app->req_prod ? doca_comch_producer_as_ctx(app->req_prod) : NULL,
		  "CPU producer" },
		{ app->req_cons ? doca_comch_consumer_as_ctx(app->req_cons) : NULL,
		  "DPA consumer" },
		{ app->ans_prod ? doca_comch_producer_as_ctx(app->ans_prod) : NULL,
		  "DPA producer" },
		{ app->ans_cons ? doca_comch_consumer_as_ctx(app->ans_cons) : NULL,
		  "CPU consumer" },
	};
	enum doca_ctx_states state;
	unsigned int i;

	app->stopping = true;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (ends[i].ctx != NULL &&
		    doca_ctx_get_state(ends[i].ctx, &state) == DOCA_SUCCESS &&
		    state != DOCA_CTX_STATE_IDLE)
			step(rc, stop_ctx(app, ends[i].ctx), ends[i].what);
	if (app->req_prod != NULL)
		step(rc, doca_comch_producer_destroy(app->req_prod), "CPU producer");
	if (app->req_cons != NULL)
		step(rc, doca_comch_consumer_destroy(app->req_cons), "DPA consumer");
	if (app->ans_prod != NULL)
		step(rc, doca_comch_producer_destroy(app->ans_prod), "DPA producer");
	if (app->ans_cons != NULL)
		step(rc, doca_comch_consumer_destroy(app->ans_cons), "CPU consumer");
	for (i = 0; i < 2; i++) {
		struct doca_comch_msgq *q = i == 0 ? app->req_q : app->ans_q;

		if (q == NULL)
			continue;
		step(rc, doca_comch_msgq_stop(q), "MsgQ stop");
		step(rc, doca_comch_msgq_destroy(q), "MsgQ destroy");
	}
}

static void
destroy_mmap(struct doca_mmap *mmap, doca_error_t *rc)
{
	if (mmap == NULL)
		return;
	step(rc, doca_mmap_stop(mmap), "mmap stop");
	step(rc, doca_mmap_destroy(mmap), "mmap destroy");
}

static doca_error_t
cleanup(struct msgq_app *app)
{
	doca_error_t rc = DOCA_SUCCESS;

	if (app->thread_running) {
		/* Waits for a run in progress: from now on the program is still. */
		step(&rc, doca_dpa_thread_stop(app->thread), "DPA thread stop");
		step(&rc, read_program(app), "DPA program");
	}
	destroy_msgqs(app, &rc);
	if (app->requests != NULL)
		step(&rc, doca_comch_consumer_completion_destroy(app->requests),
		     "consumer completion");
	if (app->sent != NULL)
		step(&rc, doca_dpa_completion_destroy(app->sent), "DPA completion");
	if (app->self != NULL)
		step(&rc, doca_dpa_notification_completion_destroy(app->self), "notification");
	if (app->thread != NULL)
		step(&rc, doca_dpa_thread_destroy(app->thread), "DPA thread");
	destroy_mmap(app->answers_mmap, &rc);
	destroy_mmap(app->staging_mmap, &rc);
	if (app->staging_mem != 0)
		step(&rc, doca_dpa_mem_free(app->dpa, app->staging_mem), "DPA memory");
	if (app->tls_mem != 0)
		step(&rc, doca_dpa_mem_free(app->dpa, app->tls_mem), "DPA memory");
	if (app->args_mem != 0)
		step(&rc, doca_dpa_mem_free(app->dpa, app->args_mem), "DPA memory");
	if (app->dpa != NULL)
		step(&rc, doca_dpa_destroy(app->dpa), "DPA");
	if (app->pe != NULL)
		step(&rc, doca_pe_destroy(app->pe), "engine");
	if (app->dev != NULL)
		step(&rc, doca_dev_close(app->dev), "device");
	free(app->answers);
	return rc;
}

int
main(int argc, char **argv)
{
	struct msgq_app app = {
		.cfg = { .pci = "03:00.0", .count = 1000, .payload = 64, .window = 16,
			 .timeout_s = 30 },
	};
	doca_error_t ret, rc;
	double s;

	doca_log_backend_create_standard();
	ret = parse_args(argc, argv, &app.cfg);
	if (ret != DOCA_SUCCESS) {
		doca_argp_destroy();
		return EXIT_FAILURE;
	}
	ret = open_device(&app);
	if (ret != DOCA_SUCCESS)
		app_fail(&app, ret, "Cannot open the device");
	if (ret == DOCA_SUCCESS)
		ret = create_dpa(&app);
	if (ret == DOCA_SUCCESS)
		ret = create_memory(&app);
	if (ret == DOCA_SUCCESS)
		ret = create_request_path(&app);
	if (ret == DOCA_SUCCESS)
		ret = create_answer_path(&app);
	if (ret == DOCA_SUCCESS)
		ret = start_program(&app);
	if (ret == DOCA_SUCCESS)
		run(&app);
	rc = cleanup(&app);
	doca_argp_destroy();
	if (ret != DOCA_SUCCESS || rc != DOCA_SUCCESS || app.error != DOCA_SUCCESS) {
		DOCA_LOG_ERR("MsgQ sample failed");
		return EXIT_FAILURE;
	}
	s = seconds(&app.end) - seconds(&app.start);
	DOCA_LOG_INFO("Exchanged %d requests and %d answers in %.3f s: %.0f round trips/s",
		      app.cfg.count, app.cfg.count, s, app.cfg.count / s);
	DOCA_LOG_INFO("DPA program: %" PRIu64 " answers sent, %" PRIu64 " send completions, %"
		      PRIu64 " answers retried; CPU sends refused for want of a receive: %" PRIu64,
		      app.args.answered, app.args.completions, app.args.retries, app.refused);
	DOCA_LOG_INFO("MsgQ sample done: all %d answers checked (order, square, payload)",
		      app.cfg.count);
	return EXIT_SUCCESS;
}
