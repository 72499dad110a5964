/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* What both sides of the DOCA-style sample share: arguments, devices, the fast path. */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_argp.h>
#include <doca_buf.h>
#include <doca_log.h>

#include "doca_comch_common.h"

DOCA_LOG_REGISTER(DOCA_COMCH_SAMPLE::COMMON);

#define SAMPLE_IMM "imm!"
#define SAMPLE_IDLE_NS (10 * 1000)
#define SAMPLE_TIMEOUT_S 30

static doca_error_t
sample_copy_arg(char *dst, size_t size, const char *value, const char *what)
{
	if (strlen(value) >= size) {
		DOCA_LOG_ERR("%s is longer than %zu characters", what, size - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(dst, value);
	return DOCA_SUCCESS;
}

static doca_error_t
sample_pci_cb(void *param, void *config)
{
	struct sample_cfg *cfg = config;

	return sample_copy_arg(cfg->pci_addr, sizeof(cfg->pci_addr), param, "PCI address");
}

static doca_error_t
sample_rep_cb(void *param, void *config)
{
	struct sample_cfg *cfg = config;

	return sample_copy_arg(cfg->rep_pci_addr, sizeof(cfg->rep_pci_addr), param,
			       "representor PCI address");
}

static doca_error_t
sample_text_cb(void *param, void *config)
{
	struct sample_cfg *cfg = config;

	return sample_copy_arg(cfg->text, sizeof(cfg->text), param, "text");
}

static doca_error_t
sample_name_cb(void *param, void *config)
{
	struct sample_cfg *cfg = config;

	return sample_copy_arg(cfg->server_name, sizeof(cfg->server_name), param, "server name");
}

static doca_error_t
sample_register(const char *short_name, const char *long_name, const char *descr,
		doca_argp_param_cb_t cb)
{
	struct doca_argp_param *param;
	doca_error_t ret;

	ret = doca_argp_param_create(&param);
	if (ret != DOCA_SUCCESS)
		return ret;
	doca_argp_param_set_short_name(param, short_name);
	doca_argp_param_set_long_name(param, long_name);
	doca_argp_param_set_description(param, descr);
	doca_argp_param_set_callback(param, cb);
	doca_argp_param_set_type(param, DOCA_ARGP_TYPE_STRING);
	return doca_argp_register_param(param);
}

doca_error_t
sample_start(int argc, char **argv, struct sample_cfg *cfg, bool server)
{
	struct doca_log_backend *sdk_log;
	doca_error_t ret;

	doca_log_backend_create_standard();
	if (doca_log_backend_create_with_file_sdk(stderr, &sdk_log) == DOCA_SUCCESS)
		doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);

	strcpy(cfg->pci_addr, server ? "03:00.0" : "b1:00.0");
	strcpy(cfg->rep_pci_addr, "b1:00.0");
	strcpy(cfg->text, server ? "Hello from the BlueField side" : "Hello from the host side");
	strcpy(cfg->server_name, SAMPLE_SERVER_NAME);
	ret = doca_argp_init(server ? "doca_comch_compat_server" : "doca_comch_compat_client",
			     cfg);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = sample_register("p", "pci-addr", "Comch device PCI address", sample_pci_cb);
	if (ret == DOCA_SUCCESS && server)
		ret = sample_register("r", "rep-pci", "Comch device representor PCI address",
				      sample_rep_cb);
	if (ret == DOCA_SUCCESS)
		ret = sample_register("t", "text", "Text to send to the other side", sample_text_cb);
	if (ret == DOCA_SUCCESS)
		ret = sample_register("s", "server-name", "Name of the server", sample_name_cb);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_start(argc, argv);
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to parse the arguments: %s", doca_error_get_descr(ret));
	return ret;
}

int
sample_finish(doca_error_t ret, const char *who)
{
	doca_argp_destroy();
	DOCA_LOG_INFO("%s finished %s", who, ret == DOCA_SUCCESS ? "successfully" : "with errors");
	return ret == DOCA_SUCCESS ? EXIT_SUCCESS : EXIT_FAILURE;
}

doca_error_t
sample_open_dev(const char *pci_addr, struct doca_dev **dev)
{
	struct doca_devinfo **list;
	doca_error_t ret;
	uint32_t n, i;
	uint8_t eq = 0;

	ret = doca_devinfo_create_list(&list, &n);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to list devices: %s", doca_error_get_descr(ret));
		return ret;
	}
	ret = DOCA_ERROR_NOT_FOUND;
	for (i = 0; i < n; i++) {
		if (doca_devinfo_is_equal_pci_addr(list[i], pci_addr, &eq) == DOCA_SUCCESS && eq) {
			ret = doca_dev_open(list[i], dev);
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("No device at PCI address %s: %s", pci_addr, doca_error_get_descr(ret));
	return ret;
}

doca_error_t
sample_open_rep(struct doca_dev *dev, const char *pci_addr, struct doca_dev_rep **rep)
{
	struct doca_devinfo_rep **list;
	doca_error_t ret;
	uint32_t n, i;
	uint8_t eq = 0;

	ret = doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &list, &n);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to list representors: %s", doca_error_get_descr(ret));
		return ret;
	}
	ret = DOCA_ERROR_NOT_FOUND;
	for (i = 0; i < n; i++) {
		if (doca_devinfo_rep_is_equal_pci_addr(list[i], pci_addr, &eq) == DOCA_SUCCESS &&
		    eq) {
			ret = doca_dev_rep_open(list[i], rep);
			break;
		}
	}
	doca_devinfo_rep_destroy_list(list);
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("No representor at PCI address %s: %s", pci_addr,
			     doca_error_get_descr(ret));
	return ret;
}

doca_error_t
sample_wait(struct sample_state *st, const bool *flag)
{
	struct timespec idle = { .tv_nsec = SAMPLE_IDLE_NS };
	time_t deadline = time(NULL) + SAMPLE_TIMEOUT_S;

	while (!*flag && !st->failed) {
		if (doca_pe_progress(st->pe) == 0)
			nanosleep(&idle, NULL);
		if (time(NULL) > deadline) {
			DOCA_LOG_ERR("Timed out waiting for the other side");
			return DOCA_ERROR_TIME_OUT;
		}
	}
	return st->failed ? DOCA_ERROR_UNEXPECTED : DOCA_SUCCESS;
}

struct sample_state *
sample_state_of_conn(struct doca_comch_connection *conn)
{
	struct doca_comch_server *server = doca_comch_server_get_server_ctx(conn);
	struct doca_ctx *ctx = server != NULL ? doca_comch_server_as_ctx(server) :
				doca_comch_client_as_ctx(doca_comch_client_get_client_ctx(conn));
	union doca_data ud = { .ptr = NULL };

	doca_ctx_get_user_data(ctx, &ud);
	return ud.ptr;
}

doca_error_t
sample_send_ctrl(struct sample_state *st, const char *msg)
{
	struct doca_comch_task_send *task;
	doca_error_t ret;

	if (st->server != NULL)
		ret = doca_comch_server_task_send_alloc_init(st->server, st->conn, msg, strlen(msg),
							     &task);
	else
		ret = doca_comch_client_task_send_alloc_init(st->client, st->conn, msg, strlen(msg),
							     &task);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate a send task: %s", doca_error_get_descr(ret));
		return ret;
	}
	ret = doca_task_submit(doca_comch_task_send_as_task(task));
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to send \"%s\": %s", msg, doca_error_get_descr(ret));
		doca_task_free(doca_comch_task_send_as_task(task));
	}
	return ret;
}

void
sample_send_done(struct doca_comch_task_send *task, union doca_data task_user_data,
		 union doca_data ctx_user_data)
{
	(void)task_user_data;
	(void)ctx_user_data;
	doca_task_free(doca_comch_task_send_as_task(task));
}

void
sample_send_failed(struct doca_comch_task_send *task, union doca_data task_user_data,
		   union doca_data ctx_user_data)
{
	struct sample_state *st = ctx_user_data.ptr;

	(void)task_user_data;
	DOCA_LOG_ERR("A control message failed: %s",
		     doca_error_get_descr(doca_task_get_status(doca_comch_task_send_as_task(task))));
	doca_task_free(doca_comch_task_send_as_task(task));
	st->failed = true;
}

void
sample_new_consumer(struct doca_comch_event_consumer *event,
		    struct doca_comch_connection *conn, uint32_t id)
{
	struct sample_state *st = sample_state_of_conn(conn);

	(void)event;
	DOCA_LOG_INFO("The other side's consumer %u is ready", id);
	st->peer_consumer_id = id;
	st->peer_ready = true;
}

void
sample_expired_consumer(struct doca_comch_event_consumer *event,
			struct doca_comch_connection *conn, uint32_t id)
{
	(void)event;
	(void)conn;
	DOCA_LOG_INFO("The other side's consumer %u is gone", id);
}

static void
sample_recv_done(struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data,
		 union doca_data ctx_user_data)
{
	struct sample_state *st = ctx_user_data.ptr;
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(task);
	const uint8_t *imm = doca_comch_consumer_task_post_recv_get_imm_data(task);
	uint32_t imm_len = doca_comch_consumer_task_post_recv_get_imm_data_len(task);
	size_t len = 0;
	void *data = NULL;

	(void)task_user_data;
	doca_buf_get_data(buf, &data);
	doca_buf_get_data_len(buf, &len);
	if (len > SAMPLE_MAX_TEXT)
		len = SAMPLE_MAX_TEXT;
	memcpy(st->fast_text, data, len);
	st->fast_text[len] = '\0';
	DOCA_LOG_INFO("Fast path received %zu bytes from producer %u: '%s' (immediate data: '%.*s')",
		      len, doca_comch_consumer_task_post_recv_get_producer_id(task), st->fast_text,
		      (int)imm_len, imm != NULL ? (const char *)imm : "");
	doca_buf_dec_refcount(buf, NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
	st->fast_received = true;
}

static void
sample_recv_failed(struct doca_comch_consumer_task_post_recv *task,
		   union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct sample_state *st = ctx_user_data.ptr;
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(task);
	doca_error_t status = doca_task_get_status(doca_comch_consumer_task_post_recv_as_task(task));

	(void)task_user_data;
	doca_buf_dec_refcount(buf, NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
	/* Stopping the consumer flushes its posted receive: expected once the text came. */
	if (!st->fast_received) {
		DOCA_LOG_ERR("A receive failed: %s", doca_error_get_descr(status));
		st->failed = true;
	}
}

static void
sample_prod_done(struct doca_comch_producer_task_send *task, union doca_data task_user_data,
		 union doca_data ctx_user_data)
{
	struct sample_state *st = ctx_user_data.ptr;

	(void)task_user_data;
	doca_buf_dec_refcount((struct doca_buf *)(uintptr_t)doca_comch_producer_task_send_get_buf(task),
			      NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(task));
	DOCA_LOG_INFO("Fast path sent the text to consumer %u", st->peer_consumer_id);
	st->fast_sent = true;
}

static void
sample_prod_failed(struct doca_comch_producer_task_send *task, union doca_data task_user_data,
		   union doca_data ctx_user_data)
{
	struct sample_state *st = ctx_user_data.ptr;

	(void)task_user_data;
	DOCA_LOG_ERR("The fast-path send failed: %s",
		     doca_error_get_descr(doca_task_get_status(
			     doca_comch_producer_task_send_as_task(task))));
	doca_buf_dec_refcount((struct doca_buf *)(uintptr_t)doca_comch_producer_task_send_get_buf(task),
			      NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(task));
	st->failed = true;
}

/* Progress until ctx is in state want. */
static doca_error_t
sample_wait_state(struct sample_state *st, struct doca_ctx *ctx, enum doca_ctx_states want)
{
	struct timespec idle = { .tv_nsec = SAMPLE_IDLE_NS };
	time_t deadline = time(NULL) + SAMPLE_TIMEOUT_S;
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;

	for (;;) {
		doca_ctx_get_state(ctx, &state);
		if (state == want)
			return DOCA_SUCCESS;
		if (doca_pe_progress(st->pe) == 0)
			nanosleep(&idle, NULL);
		if (time(NULL) > deadline) {
			DOCA_LOG_ERR("Timed out waiting for a context to change state");
			return DOCA_ERROR_TIME_OUT;
		}
	}
}

doca_error_t
sample_fast_start(struct sample_state *st)
{
	struct doca_comch_consumer_task_post_recv *task;
	struct doca_ctx *ctx;
	struct doca_buf *buf;
	doca_error_t ret;

	/* Plain application memory: receive space, then the text to send. */
	st->mem = aligned_alloc(4096, 2 * SAMPLE_BUF_SIZE);
	if (st->mem == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ret = doca_mmap_create(&st->mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(st->mmap, st->mem, 2 * SAMPLE_BUF_SIZE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(st->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
							  DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(st->mmap, st->dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(st->mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(SAMPLE_NUM_TASKS * 2, &st->inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(st->inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_consumer_create(st->conn, st->mmap, &st->consumer);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up the fast-path memory and consumer: %s",
			     doca_error_get_descr(ret));
		return ret;
	}
	ctx = doca_comch_consumer_as_ctx(st->consumer);
	doca_comch_consumer_set_imm_data_len(st->consumer, 4);
	ret = doca_comch_consumer_task_post_recv_set_conf(st->consumer, sample_recv_done,
							  sample_recv_failed, SAMPLE_NUM_TASKS);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(st->pe, ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = st });
	if (ret == DOCA_SUCCESS) {
		ret = doca_ctx_start(ctx);
		if (ret == DOCA_ERROR_IN_PROGRESS) /* a consumer starts through progress */
			ret = sample_wait_state(st, ctx, DOCA_CTX_STATE_RUNNING);
	}
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_buf_get_by_addr(st->inv, st->mmap, st->mem,
							 SAMPLE_BUF_SIZE, &buf);
	if (ret == DOCA_SUCCESS) {
		ret = doca_comch_consumer_task_post_recv_alloc_init(st->consumer, buf, &task);
		if (ret == DOCA_SUCCESS)
			ret = doca_task_submit(doca_comch_consumer_task_post_recv_as_task(task));
	}
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to start the consumer: %s", doca_error_get_descr(ret));
	else
		DOCA_LOG_INFO("Consumer running, a %d-byte buffer posted", SAMPLE_BUF_SIZE);
	return ret;
}

/* Submit; while the consumer has no buffer posted yet (AGAIN), progress and retry. */
static doca_error_t
sample_submit_retry(struct sample_state *st, struct doca_task *task)
{
	struct timespec idle = { .tv_nsec = SAMPLE_IDLE_NS };
	time_t deadline = time(NULL) + SAMPLE_TIMEOUT_S;
	doca_error_t ret;

	while ((ret = doca_task_submit(task)) == DOCA_ERROR_AGAIN && time(NULL) <= deadline) {
		if (doca_pe_progress(st->pe) == 0)
			nanosleep(&idle, NULL);
	}
	return ret;
}

doca_error_t
sample_fast_send(struct sample_state *st)
{
	struct doca_comch_producer_task_send *task;
	uint8_t *text = st->mem + SAMPLE_BUF_SIZE;
	size_t len = strlen(st->text);
	struct doca_ctx *ctx;
	struct doca_buf *buf;
	doca_error_t ret;

	ret = doca_comch_producer_create(st->conn, &st->producer);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create a producer: %s", doca_error_get_descr(ret));
		return ret;
	}
	ctx = doca_comch_producer_as_ctx(st->producer);
	ret = doca_comch_producer_task_send_set_conf(st->producer, sample_prod_done,
						     sample_prod_failed, SAMPLE_NUM_TASKS);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(st->pe, ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = st });
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(ctx); /* a producer is running at once */
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start the producer: %s", doca_error_get_descr(ret));
		return ret;
	}
	memcpy(text, st->text, len);
	ret = doca_buf_inventory_buf_get_by_data(st->inv, st->mmap, text, len, &buf);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_producer_task_send_alloc_init(st->producer, buf,
							       (const uint8_t *)SAMPLE_IMM, 4,
							       st->peer_consumer_id, &task);
	if (ret == DOCA_SUCCESS)
		ret = sample_submit_retry(st, doca_comch_producer_task_send_as_task(task));
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to send on the fast path: %s", doca_error_get_descr(ret));
		return ret;
	}
	return sample_wait(st, &st->fast_sent);
}

/* Record a control message: "start", "stop" or the other side's text. */
void
sample_ctrl_msg(struct sample_state *st, const uint8_t *msg, uint32_t len)
{
	if (len > SAMPLE_MAX_TEXT)
		len = SAMPLE_MAX_TEXT;
	if (len == strlen(SAMPLE_START_MSG) && memcmp(msg, SAMPLE_START_MSG, len) == 0) {
		st->got_start = true;
	} else if (len == strlen(SAMPLE_STOP_MSG) && memcmp(msg, SAMPLE_STOP_MSG, len) == 0) {
		st->got_stop = true;
	} else {
		memcpy(st->ctrl_text, msg, len);
		st->ctrl_text[len] = '\0';
		st->got_text = true;
	}
	DOCA_LOG_INFO("Control path received %u bytes: '%.*s'", len, (int)len, (const char *)msg);
}

static const char * const sample_state_names[] = {
	[DOCA_CTX_STATE_IDLE] = "idle", [DOCA_CTX_STATE_STARTING] = "starting",
	[DOCA_CTX_STATE_RUNNING] = "running", [DOCA_CTX_STATE_STOPPING] = "stopping",
};

void
sample_state_changed(const union doca_data user_data, struct doca_ctx *ctx,
		     enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct sample_state *st = user_data.ptr;

	DOCA_LOG_INFO("%s context: %s -> %s", st->server != NULL ? "Server" : "Client",
		      sample_state_names[prev_state], sample_state_names[next_state]);
	(void)ctx;
}

doca_error_t
sample_ctx_stop(struct sample_state *st, struct doca_ctx *ctx)
{
	doca_error_t ret = doca_ctx_stop(ctx);

	if (ret == DOCA_ERROR_IN_PROGRESS)
		ret = sample_wait_state(st, ctx, DOCA_CTX_STATE_IDLE);
	else if (ret == DOCA_ERROR_BAD_STATE)
		ret = DOCA_SUCCESS; /* idle already: the peer closed the connection first */
	return ret;
}

void
sample_fast_stop(struct sample_state *st)
{
	if (st->producer != NULL) {
		sample_ctx_stop(st, doca_comch_producer_as_ctx(st->producer));
		doca_comch_producer_destroy(st->producer);
	}
	if (st->consumer != NULL) {
		sample_ctx_stop(st, doca_comch_consumer_as_ctx(st->consumer));
		doca_comch_consumer_destroy(st->consumer);
	}
	if (st->inv != NULL)
		doca_buf_inventory_destroy(st->inv);
	if (st->mmap != NULL)
		doca_mmap_destroy(st->mmap); /* stops it first */
	free(st->mem);
}
