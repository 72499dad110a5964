/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>

#include "bench_fp.h"

/* Send tasks beyond the consumer's buffers: a burst whose completions are not reaped yet. */
#define BF_TX_EXTRA 64
/* Immediate data of every message: its header. */
#define BF_IMM_LEN BENCH_MSG_HDR_LEN
/* Memory of a consumer that receives immediate data only (an mmap cannot be empty). */
#define BF_IMM_ONLY_BYTES 4096

/* Bytes one receive buffer takes in the consumer's memory: whole cache lines. */
static size_t
buf_stride(uint32_t size)
{
	return RTE_ALIGN_CEIL((size_t)RTE_MAX(size, 1u), RTE_CACHE_LINE_SIZE);
}

static const char *
state_name(enum rte_comch_ctx_state st)
{
	switch (st) {
	case RTE_COMCH_CTX_STATE_IDLE: return "IDLE";
	case RTE_COMCH_CTX_STATE_STARTING: return "STARTING";
	case RTE_COMCH_CTX_STATE_RUNNING: return "RUNNING";
	case RTE_COMCH_CTX_STATE_STOPPING: return "STOPPING";
	default: return "?";
	}
}

int
bf_open(struct bf_side *f, struct bc_sess *s, const struct bench_test *t,
	struct bench_result *res)
{
	memset(f, 0, sizeof(*f));
	f->s = s;
	f->res = res;
	f->size = t->size;
	f->nb_bufs = t->buffers;
	f->burst = t->transport == BENCH_TR_COMCH_BURST;
	f->tx_burst = t->burst;
	f->pe = bc_env_fp_pe(s->bc, res);
	if (f->pe == NULL)
		return res->status;
	return 0;
}

int
bf_progress_ctrl(struct bf_side *f, int fp_ret)
{
	int ret;

	if (fp_ret < 0)
		return bench_fail(f->res, fp_ret, "rte_comch_pe_progress (fast path): %s",
				  strerror(-fp_ret));
	if (f->spins >= BF_CTRL_EVERY) {
		f->spins = 0;
		ret = bc_progress(f->s);
		if (ret < 0)
			return ret;
	}
	return f->res->status;
}

int
bf_progress_both(struct bf_side *f)
{
	f->spins = BF_CTRL_EVERY - 1;
	return bf_progress(f);
}

int
bf_stall_look(struct bf_side *f, struct bench_stall *w, uint64_t sent)
{
	int ret = bc_check_open(f->s, "buffers posted by the server");

	if (ret == 0 && bench_stall_expired(w, sent, f->s->bc->tsc_hz))
		ret = bench_fail(f->res, -ETIMEDOUT, "no message taken for %d s, %" PRIu64
				 " sent: the server posts no buffer", BENCH_REPLY_TIMEOUT_S, sent);
	return ret;
}

/* ------------------------------------------------------------------ consumer */

/* A post-recv task we hold and will not post again: free it and its buffer. */
static void
rx_release(struct bf_side *f, struct rte_comch_consumer_task_post_recv *task)
{
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(task);
	int ret;

	ret = rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(task));
	if (ret < 0)
		bench_fail(f->res, ret, "rte_comch_task_free (post-recv): %s", strerror(-ret));
	f->rx_tasks--;
	if (buf != NULL && (ret = rte_comch_buf_dec_refcount(buf, NULL)) < 0)
		bench_fail(f->res, ret, "rte_comch_buf_dec_refcount: %s", strerror(-ret));
}

static void
rx_done(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_ud,
	union rte_comch_data ctx_ud)
{
	struct bf_side *f = ctx_ud.ptr;
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(task);
	const uint8_t *imm;
	uint32_t imm_len = 0;
	int ret;

	imm = rte_comch_consumer_task_post_recv_get_imm_data(task, &imm_len);
	f->rx_task = task;
	if (likely(f->res->status == 0))
		f->on_recv(f, imm, imm_len, buf != NULL ? buf->data : NULL,
			   buf != NULL ? buf->data_len : 0);
	/* After a failure nothing more is checked: the first error is the story. */
	if (unlikely(f->stopping || f->res->status != 0)) {
		rx_release(f, task);
		return;
	}
	/*
	 * The buffer again, whole: a message is appended after the data a buffer
	 * holds, so empty it first (its data pointer stays at its head).
	 */
	if (buf != NULL)
		rte_comch_buf_reset_data_len(buf);
	ret = rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(task));
	if (unlikely(ret < 0)) {
		bench_fail(f->res, ret, "posting a buffer again: rte_comch_task_submit: %s",
			   strerror(-ret));
		rx_release(f, task);
	}
}

static void
rx_failed(struct rte_comch_consumer_task_post_recv *task, union rte_comch_data task_ud,
	  union rte_comch_data ctx_ud)
{
	struct bf_side *f = ctx_ud.ptr;
	int status = rte_comch_task_get_status(rte_comch_consumer_task_post_recv_as_task(task));

	/* A consumer's stop hands its posted buffers back with -ECONNABORTED. */
	if (!f->stopping || status != -ECONNABORTED)
		bench_fail(f->res, status < 0 ? status : -EIO, "posted buffer returned with "
			   "an error%s: %s (%d)", f->stopping ? " while stopping" : "",
			   strerror(-status), status);
	rx_release(f, task);
}

/* Progress both engines until ctx leaves state from; fail after seconds. */
static int
wait_state(struct bf_side *f, struct rte_comch_ctx *ctx, enum rte_comch_ctx_state from,
	   enum rte_comch_ctx_state *to, const char *what)
{
	uint64_t deadline = bc_deadline(f->s, BENCH_REPLY_TIMEOUT_S);
	int ret;

	for (;;) {
		ret = rte_comch_ctx_get_state(ctx, to);
		if (ret < 0)
			return bench_fail(f->res, ret, "%s: rte_comch_ctx_get_state: %s", what,
					  strerror(-ret));
		if (*to != from)
			return 0;
		ret = bf_progress_both(f);
		/* While stopping after a failure, keep going: the rest must still be freed. */
		if (ret < 0 && !f->stopping)
			return ret;
		if (rte_rdtsc() > deadline)
			return bench_fail(f->res, -ETIMEDOUT, "%s: still %s after %d s", what,
					  state_name(from), BENCH_REPLY_TIMEOUT_S);
	}
}

/* Burst API: every buffer's post, built once; each goes again as soon as it is read. */
static int
rx_post_all_burst(struct bf_side *f, uint8_t *base, size_t stride)
{
	uint32_t i, done;
	int n;

	f->rx_posts = calloc(f->nb_bufs, sizeof(*f->rx_posts));
	if (f->rx_posts == NULL)
		return bench_fail(f->res, -ENOMEM, "no memory for %" PRIu32 " posts", f->nb_bufs);
	f->rx_base = base;
	f->rx_stride = stride;
	for (i = 0; i < f->nb_bufs; i++) {
		f->rx_posts[i].addr = f->size != 0 ? base + i * stride : NULL;
		f->rx_posts[i].len = f->size;
		f->rx_posts[i].cookie = i;
	}
	for (done = 0; done < f->nb_bufs; done += n) {
		n = rte_comch_consumer_post_burst(f->consumer, f->rx_posts + done,
						  RTE_MIN(f->nb_bufs - done, (uint32_t)UINT16_MAX));
		if (n <= 0)
			return bench_fail(f->res, n < 0 ? n : -ENOSPC, "posting buffer %" PRIu32
					  " of %" PRIu32 ": rte_comch_consumer_post_burst: %s", done,
					  f->nb_bufs, n < 0 ? strerror(-n) : "none taken");
	}
	return 0;
}

int
bf_burst_poll(struct bf_side *f)
{
	struct rte_comch_fp_cpl cpl[BF_RX_BURST];
	struct rte_comch_fp_post posts[BF_RX_BURST];
	int i, n, k = 0, ret;

	if (f->producer != NULL)
		rte_comch_producer_completed_burst(f->producer, NULL, UINT16_MAX);
	if (f->consumer == NULL)
		return f->res->status;
	n = rte_comch_consumer_recv_burst(f->consumer, cpl, BF_RX_BURST);
	if (unlikely(n < 0)) {
		/* IDLE: the consumer is stopped and has every buffer back. */
		if (n == -EBUSY && f->stopping)
			return f->res->status;
		return bench_fail(f->res, n, "rte_comch_consumer_recv_burst: %s", strerror(-n));
	}
	for (i = 0; i < n; i++) {
		if (unlikely(cpl[i].status != 0 || cpl[i].cookie >= f->nb_bufs)) {
			/* A consumer's stop hands its posted buffers back with -ECONNABORTED. */
			if (!f->stopping || cpl[i].status != -ECONNABORTED)
				bench_fail(f->res, cpl[i].status < 0 ? cpl[i].status : -EIO,
					   "posted buffer %" PRIu64 " returned with an error%s: %s "
					   "(%" PRId32 ")", cpl[i].cookie,
					   f->stopping ? " while stopping" : "",
					   strerror(-cpl[i].status), cpl[i].status);
			continue;
		}
		if (likely(f->res->status == 0))
			f->on_recv(f, cpl[i].imm, cpl[i].imm_len,
				   f->size != 0 ? f->rx_base + cpl[i].cookie * f->rx_stride : NULL,
				   cpl[i].len);
		posts[k++] = f->rx_posts[cpl[i].cookie];
	}
	/* After a failure, or once stopping, the buffers stay with us. */
	if (k != 0 && !f->stopping && f->res->status == 0) {
		ret = rte_comch_consumer_post_burst(f->consumer, posts, k);
		if (unlikely(ret != k))
			return bench_fail(f->res, ret < 0 ? ret : -ENOSPC, "posting %d buffers "
					  "again: rte_comch_consumer_post_burst: %s", k,
					  ret < 0 ? strerror(-ret) : "not all taken");
	}
	return f->res->status;
}

static int
rx_post_all(struct bf_side *f)
{
	struct rte_comch_consumer_task_post_recv *task;
	struct rte_comch_buf *buf = NULL;
	size_t stride = buf_stride(f->size);
	uint8_t *base;
	size_t len;
	uint32_t i;
	int ret;

	ret = rte_comch_mmap_get_memrange(f->rx_mmap, (void **)&base, &len);
	if (ret < 0)
		return bench_fail(f->res, ret, "rte_comch_mmap_get_memrange: %s", strerror(-ret));
	if (f->burst)
		return rx_post_all_burst(f, base, stride);
	for (i = 0; i < f->nb_bufs; i++) {
		if (f->size != 0) {
			/* Exactly size bytes: a longer message would be refused, not cut. */
			ret = rte_comch_buf_pool_get_by_addr(f->rx_pool, f->rx_mmap,
							     base + i * stride, f->size, &buf);
			if (ret < 0)
				return bench_fail(f->res, ret, "rte_comch_buf_pool_get_by_addr: %s",
						  strerror(-ret));
		}
		ret = rte_comch_consumer_task_post_recv_alloc_init(f->consumer, buf, &task);
		if (ret < 0) {
			if (buf != NULL)
				rte_comch_buf_dec_refcount(buf, NULL);
			return bench_fail(f->res, ret, "rte_comch_consumer_task_post_recv_alloc_"
					  "init: %s", strerror(-ret));
		}
		f->rx_tasks++;
		ret = rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(task));
		if (ret < 0) {
			rx_release(f, task);
			return bench_fail(f->res, ret, "posting buffer %" PRIu32 " of %" PRIu32
					  ": rte_comch_task_submit: %s", i, f->nb_bufs,
					  strerror(-ret));
		}
	}
	return 0;
}

/*
 * The consumer's memory, as --consumer-mem says: the driver's, which the peer's
 * producers write into, or ours, which the shm driver stages (one more copy).
 */
static int
rx_memory(struct bf_side *f, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int ret;

	if (f->s->bc->opts->consumer_mem == BENCH_CMEM_SHARED) {
		ret = rte_comch_mmap_alloc_memrange(f->rx_mmap, bytes);
		if (ret < 0)
			return bench_fail(f->res, ret, "rte_comch_mmap_alloc_memrange(%zu): %s",
					  bytes, strerror(-ret));
		return 0;
	}
	/* Whole pages, as the driver's memfd has: only where the memory lies differs. */
	bytes = RTE_ALIGN_CEIL(bytes, page);
	f->rx_heap = aligned_alloc(page, bytes);
	if (f->rx_heap == NULL)
		return bench_fail(f->res, -ENOMEM, "aligned_alloc(%zu, %zu) of the consumer's "
				  "memory failed", page, bytes);
	ret = rte_comch_mmap_set_memrange(f->rx_mmap, f->rx_heap, bytes);
	if (ret < 0)
		return bench_fail(f->res, ret, "rte_comch_mmap_set_memrange(%zu): %s", bytes,
				  strerror(-ret));
	return 0;
}

int
bf_consumer_open(struct bf_side *f, bf_recv_cb_t on_recv, void *priv)
{
	struct rte_comch_ctx *ctx;
	enum rte_comch_ctx_state st;
	size_t bytes;
	void *addr;
	int ret;

	f->on_recv = on_recv;
	f->priv = priv;
	bytes = f->size == 0 ? BF_IMM_ONLY_BYTES : (size_t)f->nb_bufs * buf_stride(f->size);
	f->rx_mmap = rte_comch_mmap_create();
	if (f->rx_mmap == NULL)
		return bench_fail(f->res, -rte_errno, "rte_comch_mmap_create: %s",
				  strerror(rte_errno));
	/* Before the memory: the first device's driver allocates shared memory. */
	ret = rte_comch_mmap_add_dev(f->rx_mmap, rte_comch_connection_get_device(f->s->conn));
	if (ret < 0)
		return bench_fail(f->res, ret, "rte_comch_mmap_add_dev: %s", strerror(-ret));
	ret = rx_memory(f, bytes);
	if (ret < 0)
		return ret;
	ret = rte_comch_mmap_set_permissions(f->rx_mmap, RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
					     RTE_COMCH_MMAP_PERM_PCI_READ_WRITE);
	if (ret < 0)
		return bench_fail(f->res, ret, "rte_comch_mmap_set_permissions: %s",
				  strerror(-ret));
	ret = rte_comch_mmap_start(f->rx_mmap);
	if (ret < 0)
		return bench_fail(f->res, ret, "rte_comch_mmap_start: %s", strerror(-ret));
	/* Fault our side's pages in now, not while measuring. */
	if (rte_comch_mmap_get_memrange(f->rx_mmap, &addr, &bytes) == 0)
		memset(addr, 0, bytes);
	if (f->size != 0 && !f->burst) {
		f->rx_pool = rte_comch_buf_pool_create(f->nb_bufs);
		if (f->rx_pool == NULL)
			return bench_fail(f->res, -rte_errno, "rte_comch_buf_pool_create(%" PRIu32
					  "): %s", f->nb_bufs, strerror(rte_errno));
	}

	/* On the connection's engine's lcore, which is this one. */
	f->consumer = rte_comch_consumer_create(f->s->conn, f->rx_mmap);
	if (f->consumer == NULL)
		return bench_fail(f->res, -rte_errno, "rte_comch_consumer_create: %s",
				  strerror(rte_errno));
	ctx = rte_comch_consumer_as_ctx(f->consumer);
	ret = rte_comch_consumer_set_imm_data_len(f->consumer, BF_IMM_LEN);
	if (ret < 0)
		return bench_fail(f->res, ret, "rte_comch_consumer_set_imm_data_len: %s",
				  strerror(-ret));
	if (f->burst)
		ret = rte_comch_consumer_burst_enable(f->consumer, f->nb_bufs);
	else
		ret = rte_comch_consumer_task_post_recv_set_conf(f->consumer, rx_done, rx_failed,
								 f->nb_bufs);
	if (ret < 0)
		return bench_fail(f->res, ret, "consumer: %s(%" PRIu32 "): %s", f->burst ?
				  "rte_comch_consumer_burst_enable" :
				  "rte_comch_consumer_task_post_recv_set_conf", f->nb_bufs,
				  strerror(-ret));
	ret = rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = f });
	if (ret == 0)
		ret = rte_comch_pe_connect_ctx(f->pe, ctx);
	if (ret < 0)
		return bench_fail(f->res, ret, "consumer: rte_comch_pe_connect_ctx: %s",
				  strerror(-ret));
	ret = rte_comch_ctx_start(ctx);
	if (ret < 0 && ret != -EINPROGRESS)
		return bench_fail(f->res, ret, "consumer: rte_comch_ctx_start: %s",
				  strerror(-ret));
	/* RUNNING once the connection's engine has told the peer. */
	ret = wait_state(f, ctx, RTE_COMCH_CTX_STATE_STARTING, &st, "consumer start");
	if (ret < 0)
		return ret;
	if (st != RTE_COMCH_CTX_STATE_RUNNING) {
		ret = rte_comch_ctx_get_last_error(ctx);
		return bench_fail(f->res, ret < 0 ? ret : -EIO, "consumer start: %s, last error "
				  "%s (%d)", state_name(st), strerror(-ret), ret);
	}
	return rx_post_all(f);
}

/* ------------------------------------------------------------------ producer */

static void
tx_done(struct rte_comch_producer_task_send *task, union rte_comch_data task_ud,
	union rte_comch_data ctx_ud)
{
	struct bf_side *f = ctx_ud.ptr;

	f->tx_tasks--;
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

static void
tx_failed(struct rte_comch_producer_task_send *task, union rte_comch_data task_ud,
	  union rte_comch_data ctx_ud)
{
	struct bf_side *f = ctx_ud.ptr;
	int status = rte_comch_task_get_status(rte_comch_producer_task_send_as_task(task));

	/* A submitted send was copied already: it can only fail if something broke. */
	bench_fail(f->res, status < 0 ? status : -EIO, "fast-path send failed: %s (%d)",
		   strerror(-status), status);
	f->tx_tasks--;
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

/*
 * The producer's source buffers: a ring of a power of two of them, twice the
 * burst (at least 32), written in turn; small, as an application reuses a few
 * buffers it keeps warm (the memif sender's mbufs come back from its pool's
 * cache). A buffer is written again only that many sends later: the drivers
 * the benchmark runs copy at send (shm, skeleton), and the task API keeps no
 * more sends in flight than buffers (bf_send()); a driver that completes
 * later than a ring's turn would fail the receiver's check of every message.
 */
static int
tx_bufs_open(struct bf_side *f)
{
	uint32_t nb = rte_align32pow2(2 * RTE_MAX(f->tx_burst, 16u)), k;
	int ret;

	f->tx_stride = buf_stride(f->size);
	f->tx_mask = nb - 1;
	f->tx_base = aligned_alloc(RTE_CACHE_LINE_SIZE, (size_t)nb * f->tx_stride);
	if (f->tx_base == NULL)
		return bench_fail(f->res, -ENOMEM, "no memory for %" PRIu32 " source buffers of %"
				  PRIu32 " bytes", nb, f->size);
	f->tx_mmap = rte_comch_mmap_create();
	if (f->tx_mmap == NULL)
		return bench_fail(f->res, -rte_errno, "rte_comch_mmap_create: %s",
				  strerror(rte_errno));
	/* Ordinary process memory is fine to send from. */
	ret = rte_comch_mmap_add_dev(f->tx_mmap, rte_comch_connection_get_device(f->s->conn));
	if (ret == 0)
		ret = rte_comch_mmap_set_memrange(f->tx_mmap, f->tx_base,
						  (size_t)nb * f->tx_stride);
	if (ret == 0)
		ret = rte_comch_mmap_start(f->tx_mmap);
	if (ret < 0)
		return bench_fail(f->res, ret, "producer's mmap: %s", strerror(-ret));
	/* The burst API sends from addresses in the mmap: no buffer objects. */
	if (f->burst)
		return 0;
	f->tx_bufs = calloc(nb, sizeof(*f->tx_bufs));
	f->tx_pool = rte_comch_buf_pool_create(nb);
	if (f->tx_bufs == NULL || f->tx_pool == NULL)
		return bench_fail(f->res, f->tx_bufs == NULL ? -ENOMEM : -rte_errno,
				  "%" PRIu32 " source buffer objects: %s", nb,
				  f->tx_bufs == NULL ? "no memory" : strerror(rte_errno));
	for (k = 0; k < nb; k++) {
		ret = rte_comch_buf_pool_get_by_data(f->tx_pool, f->tx_mmap,
						     f->tx_base + k * f->tx_stride, f->size,
						     &f->tx_bufs[k]);
		if (ret < 0)
			return bench_fail(f->res, ret, "rte_comch_buf_pool_get_by_data: %s",
					  strerror(-ret));
	}
	return 0;
}

int
bf_producer_open(struct bf_side *f)
{
	uint64_t deadline = bc_deadline(f->s, BENCH_REPLY_TIMEOUT_S);
	struct rte_comch_ctx *ctx;
	uint32_t nb_tasks = f->nb_bufs + BF_TX_EXTRA;
	int ret;

	/* The peer's consumer is announced on the connection's engine. */
	while (f->s->nb_peer_consumers == 0) {
		ret = bf_progress_both(f);
		if (ret == 0)
			ret = bc_check_open(f->s, "the peer's consumer");
		if (ret < 0)
			return ret;
		if (rte_rdtsc() > deadline)
			return bench_fail(f->res, -ETIMEDOUT, "no consumer announced by the peer "
					  "after %d s", BENCH_REPLY_TIMEOUT_S);
	}
	f->peer_id = f->s->peer_consumer;
	if (f->size != 0) {
		ret = tx_bufs_open(f);
		if (ret < 0)
			return ret;
	}
	f->producer = rte_comch_producer_create(f->s->conn);
	if (f->producer == NULL)
		return bench_fail(f->res, -rte_errno, "rte_comch_producer_create: %s",
				  strerror(rte_errno));
	ctx = rte_comch_producer_as_ctx(f->producer);
	if (f->burst)
		ret = rte_comch_producer_burst_enable(f->producer);
	else
		ret = rte_comch_producer_task_send_set_conf(f->producer, tx_done, tx_failed,
							    nb_tasks);
	if (ret < 0)
		return bench_fail(f->res, ret, "producer: %s(%" PRIu32 "): %s", f->burst ?
				  "rte_comch_producer_burst_enable" :
				  "rte_comch_producer_task_send_set_conf", nb_tasks, strerror(-ret));
	ret = rte_comch_ctx_set_user_data(ctx, (union rte_comch_data){ .ptr = f });
	if (ret == 0)
		ret = rte_comch_pe_connect_ctx(f->pe, ctx);
	if (ret < 0)
		return bench_fail(f->res, ret, "producer: rte_comch_pe_connect_ctx: %s",
				  strerror(-ret));
	ret = rte_comch_ctx_start(ctx);
	if (ret < 0)
		return bench_fail(f->res, ret, "producer: rte_comch_ctx_start: %s",
				  strerror(-ret));
	return 0;
}

void
bf_abandon(struct bf_side *f, struct rte_comch_producer_task_send *task)
{
	f->tx_tasks--;
	rte_comch_task_free(rte_comch_producer_task_send_as_task(task));
}

int
bf_resubmit(struct bf_side *f, struct rte_comch_producer_task_send *task)
{
	int ret = rte_comch_task_submit(rte_comch_producer_task_send_as_task(task));

	if (likely(ret == 0 || ret == -EAGAIN))
		return ret;
	bf_abandon(f, task);
	if (ret == -ENOTCONN)
		return bench_fail(f->res, ret, "fast-path send refused: the connection ended");
	if (ret == -ENOENT)
		return bench_fail(f->res, ret, "fast-path send refused: the peer's consumer %"
				  PRIu32 " is gone", f->peer_id);
	return bench_fail(f->res, ret, "fast-path send: rte_comch_task_submit: %s",
			  strerror(-ret));
}

int
bf_send_refused(struct bf_side *f, int n)
{
	if (n == 0)
		return -ENOBUFS;
	if (n == -ENOTCONN)
		return bench_fail(f->res, n, "fast-path send refused: the connection ended");
	if (n == -ENOENT)
		return bench_fail(f->res, n, "fast-path send refused: the peer's consumer %"
				  PRIu32 " is gone", f->peer_id);
	return bench_fail(f->res, n, "rte_comch_producer_send_burst: %s", strerror(-n));
}

int
bf_send(struct bf_side *f, uint32_t kind, uint64_t seq,
	struct rte_comch_producer_task_send **pending)
{
	struct bench_msg_hdr hdr = { .seq = seq, .kind = kind, .len = f->size };
	struct rte_comch_producer_task_send *task;
	struct rte_comch_fp_msg m;
	int ret;

	if (f->burst) {
		bf_msg(f, &m, kind, seq);
		ret = rte_comch_producer_send_burst(f->producer, f->peer_id, f->tx_mmap, &m, 1);
		return likely(ret == 1) ? 0 : bf_send_refused(f, ret);
	}
	/* No more in flight than source buffers: seq's is free again. */
	if (unlikely(f->size != 0 && f->tx_tasks > f->tx_mask))
		return -ENOBUFS;
	ret = rte_comch_producer_task_send_alloc_init(f->producer,
			f->size != 0 ? f->tx_bufs[bf_produce(f, seq)] : NULL,
			(const uint8_t *)&hdr, BF_IMM_LEN, f->peer_id, &task);
	if (unlikely(ret < 0)) {
		if (ret == -ENOMEM)
			return -ENOBUFS;
		return bench_fail(f->res, ret, "rte_comch_producer_task_send_alloc_init: %s",
				  strerror(-ret));
	}
	f->tx_tasks++;
	ret = bf_resubmit(f, task);
	if (ret == -EAGAIN)
		*pending = task;
	return ret;
}

/* ------------------------------------------------------------------ teardown */

/* Stop ctx (if running) and progress until IDLE; then destroy it with destroy. */
static void
ctx_stop_wait(struct bf_side *f, struct rte_comch_ctx *ctx, const char *what)
{
	enum rte_comch_ctx_state st = RTE_COMCH_CTX_STATE_IDLE;
	int ret;

	if (rte_comch_ctx_get_state(ctx, &st) < 0 || st == RTE_COMCH_CTX_STATE_IDLE)
		return;
	if (st != RTE_COMCH_CTX_STATE_STOPPING) {
		ret = rte_comch_ctx_stop(ctx);
		if (ret < 0 && ret != -EINPROGRESS) {
			bench_fail(f->res, ret, "%s: rte_comch_ctx_stop: %s", what, strerror(-ret));
			return;
		}
	}
	wait_state(f, ctx, RTE_COMCH_CTX_STATE_STOPPING, &st, what);
}

int
bf_close(struct bf_side *f)
{
	unsigned int k;
	int ret;

	f->stopping = true;
	if (f->producer != NULL) {
		ctx_stop_wait(f, rte_comch_producer_as_ctx(f->producer), "producer stop");
		ret = rte_comch_producer_destroy(f->producer);
		if (ret < 0)
			bench_fail(f->res, ret, "rte_comch_producer_destroy: %s (%" PRIu32
				   " send tasks not freed)", strerror(-ret), f->tx_tasks);
		else
			f->producer = NULL;
	}
	for (k = 0; f->tx_bufs != NULL && k <= f->tx_mask; k++) {
		if (f->tx_bufs[k] != NULL)
			rte_comch_buf_dec_refcount(f->tx_bufs[k], NULL);
		f->tx_bufs[k] = NULL;
	}
	if (f->consumer != NULL) {
		/* The peer acknowledges through its connection engine; its posted buffers come back. */
		ctx_stop_wait(f, rte_comch_consumer_as_ctx(f->consumer), "consumer stop");
		ret = rte_comch_consumer_destroy(f->consumer);
		if (ret < 0)
			bench_fail(f->res, ret, "rte_comch_consumer_destroy: %s (%" PRIu32
				   " post-recv tasks not freed)", strerror(-ret), f->rx_tasks);
		else
			f->consumer = NULL;
	}
	if (f->consumer == NULL) {
		free(f->rx_posts);
		f->rx_posts = NULL;
	}
	/* Whatever still holds them (a failed destroy) leaks rather than crashes. */
	if (f->producer == NULL && f->tx_pool != NULL &&
	    rte_comch_buf_pool_destroy(f->tx_pool) == 0)
		f->tx_pool = NULL;
	if (f->consumer == NULL && f->rx_pool != NULL &&
	    rte_comch_buf_pool_destroy(f->rx_pool) == 0)
		f->rx_pool = NULL;
	if (f->tx_mmap != NULL && f->tx_pool == NULL) {
		rte_comch_mmap_stop(f->tx_mmap);
		if (rte_comch_mmap_destroy(f->tx_mmap) == 0)
			f->tx_mmap = NULL;
	}
	if (f->tx_pool == NULL) {
		free(f->tx_bufs);
		f->tx_bufs = NULL;
	}
	if (f->tx_mmap == NULL) {
		free(f->tx_base);
		f->tx_base = NULL;
	}
	if (f->rx_mmap != NULL && f->rx_pool == NULL && f->consumer == NULL) {
		rte_comch_mmap_stop(f->rx_mmap);
		ret = rte_comch_mmap_destroy(f->rx_mmap);
		if (ret < 0)
			bench_fail(f->res, ret, "consumer's rte_comch_mmap_destroy: %s",
				   strerror(-ret));
		else
			f->rx_mmap = NULL;
	}
	/* Only once no mmap refers to it: a driver may still read it until the destroy. */
	if (f->rx_mmap == NULL) {
		free(f->rx_heap);
		f->rx_heap = NULL;
	}
	return f->res->status;
}
