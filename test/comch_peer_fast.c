/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * comch_peer, fast path mode (--fast): one connection (the server takes the
 * first client; the client connects), --producers P producers and --consumers
 * C consumers on each side. Every producer sends --msgs K messages to every
 * consumer of the other side (sizes cycling through --sizes, --imm bytes of
 * immediate data, payload derived from (producer id, sequence number)); every
 * consumer checks each message byte for byte and its order per producer. Both
 * sides must run with the same P, C, K. Control-path messages order the
 * teardown: "DONE" (I received everything) and, from the server, "FIN" (my
 * producers and consumers are gone: the client may stop).
 * With --forever it streams until the connection drops or a signal comes;
 * with --expect-drop the connection must end with -ECONNRESET, posted buffers
 * must fail with -ECONNRESET and the consumers go IDLE with that last error.
 * With --user-mem the consumers receive into memory of the process's heap
 * (rte_comch_mmap_set_memrange()), which the peer process cannot map.
 * In every case everything is torn down and each step checked.
 * Prints READY (server), CONNECTED 1, STREAMING (every consumer received),
 * RECEIVED (every consumer received --msgs from every producer of the peer),
 * DROPPED status=.. and one SUMMARY line.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "comch_peer.h"
#include "comch_test_msg.h"

#define F_MAX 64
#define F_SIZES 16

struct fcons {
	struct rte_comch_consumer *cons;
	struct rte_comch_ctx *ctx;
	struct rte_comch_mmap *mmap;
	struct rte_comch_buf_pool *pool;
	uint8_t *mem;
	uint8_t *user;         /* --user-mem: the heap memory mem points into */
	uint32_t id;
	bool posted;
	uint32_t nb_prods;
	uint32_t prod_id[F_MAX];
	uint32_t prod_next[F_MAX];
	uint64_t recv;
};

struct fprod {
	struct rte_comch_producer *prod;
	struct rte_comch_ctx *ctx;
	struct rte_comch_mmap *mmap;
	struct rte_comch_buf_pool *pool;
	uint8_t *mem;
	uint32_t id;
	uint32_t inflight;
	uint32_t next[F_MAX]; /* per peer consumer (index in F.peer_id) */
};

static struct {
	struct rte_comch_server *srv;
	struct rte_comch_client *cli;
	struct rte_comch_ctx *ctx;
	struct rte_comch_connection *conn;
	bool up, ended, peer_done, peer_fin, done_sent, streaming, fast_up, received;
	int end_status;
	struct fcons c[F_MAX];
	struct fprod p[F_MAX];
	uint32_t nb_peer;
	uint32_t peer_id[F_MAX];
	bool peer_live[F_MAX];
	size_t sizes[F_SIZES];
	uint32_t nb_sizes;
	size_t max_size;
	uint64_t sent, sent_ok, sent_err, recv, bytes, again, enoent, notconn, send_other;
	uint32_t bad, ctrl_bad, posted_reset, posted_aborted, posted_other, repost_fail;
	uint32_t teardown_err, new_events, exp_events;
	int cons_last_error;
} F;

/* Same payload as the in-process tests (comch_test_common.c). */
static void
f_fill(uint8_t *buf, size_t len, uint32_t pid, uint32_t seq)
{
	size_t i;

	if (len >= CT_MSG_MIN_LEN) {
		ct_msg_fill(buf, (uint32_t)len, pid, seq);
		return;
	}
	for (i = 0; i < len; i++)
		buf[i] = ct_msg_byte(pid, seq, (uint32_t)i);
}

static int
f_check(const uint8_t *buf, size_t len, uint32_t pid, uint32_t seq)
{
	uint32_t id, s;
	size_t i;

	if (len >= CT_MSG_MIN_LEN)
		return (ct_msg_check(buf, (uint32_t)len, &id, &s) == 0 && id == pid &&
			s == seq) ? 0 : -1;
	for (i = 0; i < len; i++)
		if (buf[i] != ct_msg_byte(pid, seq, (uint32_t)i))
			return -1;
	return 0;
}

static void
f_imm(uint8_t *imm, uint32_t len, uint32_t pid, uint32_t seq)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		imm[i] = ct_msg_byte(pid ^ 0x5a5aa5a5u, seq, i);
}

static void
f_bad(const char *what, uint32_t a, uint32_t b)
{
	if (F.bad++ < 10)
		printf("BAD %s %u %u\n", what, a, b);
}

/* ---------------------------------------------------------------- consumers */

static void
f_recv_release(struct rte_comch_consumer_task_post_recv *t)
{
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(t);

	rte_comch_task_free(rte_comch_consumer_task_post_recv_as_task(t));
	if (buf != NULL)
		rte_comch_buf_dec_refcount(buf, NULL);
}

static void
f_recv_ok(struct rte_comch_consumer_task_post_recv *t, union rte_comch_data tud,
	  union rte_comch_data cud)
{
	struct fcons *c = cud.ptr;
	struct rte_comch_buf *buf = rte_comch_consumer_task_post_recv_get_buf(t);
	uint8_t want[RTE_COMCH_MAX_IMM_DATA_LEN];
	uint32_t pid = 0, imm_len = 0, i;
	const uint8_t *imm;
	size_t len;

	(void)tud;
	if (rte_comch_consumer_task_post_recv_get_producer_id(t, &pid) != 0)
		f_bad("producer id of consumer", c->id, 0);
	imm = rte_comch_consumer_task_post_recv_get_imm_data(t, &imm_len);
	for (i = 0; i < c->nb_prods && c->prod_id[i] != pid; i++)
		;
	if (i == c->nb_prods && i < F_MAX) {
		c->prod_id[i] = pid;
		c->prod_next[i] = 0;
		c->nb_prods++;
	}
	if (i == F_MAX) {
		f_bad("too many producers on consumer", c->id, pid);
	} else {
		len = buf->data_len;
		if (buf->data != buf->head || len > buf->len ||
		    f_check(buf->data, len, pid, c->prod_next[i]) != 0)
			f_bad("data from producer", pid, c->prod_next[i]);
		f_imm(want, RTE_MIN(imm_len, (uint32_t)sizeof(want)), pid, c->prod_next[i]);
		if (imm_len != opt.imm || (imm_len > 0 && memcmp(imm, want, imm_len) != 0))
			f_bad("imm from producer", pid, c->prod_next[i]);
		c->prod_next[i]++;
		F.bytes += len;
	}
	c->recv++;
	F.recv++;
	rte_comch_buf_reset_data_len(buf);
	if (rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t)) != 0) {
		F.repost_fail++;
		f_recv_release(t);
	}
}

static void
f_recv_err(struct rte_comch_consumer_task_post_recv *t, union rte_comch_data tud,
	   union rte_comch_data cud)
{
	int st = rte_comch_task_get_status(rte_comch_consumer_task_post_recv_as_task(t));

	(void)tud;
	(void)cud;
	if (st == -ECONNRESET)
		F.posted_reset++;
	else if (st == -ECONNABORTED)
		F.posted_aborted++;
	else if (F.posted_other++ < 10)
		printf("BAD post-recv status %d\n", st);
	f_recv_release(t);
}

static int
f_cons_new(struct fcons *c)
{
	size_t slot = RTE_MAX(F.max_size, (size_t)1);
	size_t bytes = RTE_ALIGN_CEIL(RTE_MAX(slot * opt.slots, (size_t)4096), (size_t)4096);
	union rte_comch_data ud = { .ptr = c };
	void *addr;
	size_t len;

	c->mmap = rte_comch_mmap_create();
	if (opt.user_mem) {
		c->user = aligned_alloc(4096, bytes);
		if (c->user == NULL)
			return -1;
	}
	if (c->mmap == NULL ||
	    rte_comch_mmap_add_dev(c->mmap, rte_comch_connection_get_device(F.conn)) != 0 ||
	    (opt.user_mem ? rte_comch_mmap_set_memrange(c->mmap, c->user, bytes) :
			    rte_comch_mmap_alloc_memrange(c->mmap, bytes)) != 0 ||
	    rte_comch_mmap_set_permissions(c->mmap, RTE_COMCH_MMAP_PERM_LOCAL_READ_WRITE |
					   RTE_COMCH_MMAP_PERM_PCI_READ_WRITE) != 0 ||
	    rte_comch_mmap_get_memrange(c->mmap, &addr, &len) != 0 ||
	    rte_comch_mmap_start(c->mmap) != 0)
		return -1;
	c->mem = addr;
	c->pool = rte_comch_buf_pool_create(opt.slots);
	c->cons = rte_comch_consumer_create(F.conn, c->mmap);
	if (c->pool == NULL || c->cons == NULL)
		return -1;
	c->ctx = rte_comch_consumer_as_ctx(c->cons);
	if (rte_comch_consumer_get_id(c->cons, &c->id) != 0 ||
	    rte_comch_ctx_set_user_data(c->ctx, ud) != 0 ||
	    rte_comch_consumer_set_imm_data_len(c->cons, opt.imm) != 0 ||
	    rte_comch_consumer_task_post_recv_set_conf(c->cons, f_recv_ok, f_recv_err,
						       opt.slots) != 0 ||
	    rte_comch_pe_connect_ctx(pe, c->ctx) != 0 ||
	    rte_comch_ctx_start(c->ctx) != -EINPROGRESS)
		return -1;
	return 0;
}

static int
f_cons_post(struct fcons *c)
{
	size_t slot = RTE_MAX(F.max_size, (size_t)1);
	struct rte_comch_consumer_task_post_recv *t;
	struct rte_comch_buf *buf;
	uint32_t i;

	for (i = 0; i < opt.slots; i++) {
		if (rte_comch_buf_pool_get_by_addr(c->pool, c->mmap, c->mem + i * slot, slot,
						   &buf) != 0)
			return -1;
		if (rte_comch_consumer_task_post_recv_alloc_init(c->cons, buf, &t) != 0) {
			rte_comch_buf_dec_refcount(buf, NULL);
			return -1;
		}
		if (rte_comch_task_submit(rte_comch_consumer_task_post_recv_as_task(t)) != 0) {
			f_recv_release(t);
			return -1;
		}
	}
	c->posted = true;
	return 0;
}

/* ---------------------------------------------------------------- producers */

static void
f_send_done(struct rte_comch_producer_task_send *t, union rte_comch_data tud,
	    union rte_comch_data cud)
{
	struct fprod *p = cud.ptr;
	struct rte_comch_buf *buf = rte_comch_producer_task_send_get_buf(t);

	(void)tud;
	if (rte_comch_task_get_status(rte_comch_producer_task_send_as_task(t)) == 0)
		F.sent_ok++;
	else
		F.sent_err++;
	p->inflight--;
	rte_comch_task_free(rte_comch_producer_task_send_as_task(t));
	if (buf != NULL)
		rte_comch_buf_dec_refcount(buf, NULL);
}

static int
f_prod_new(struct fprod *p)
{
	union rte_comch_data ud = { .ptr = p };
	void *addr;
	size_t len;

	p->mmap = rte_comch_mmap_create();
	if (p->mmap == NULL ||
	    rte_comch_mmap_add_dev(p->mmap, rte_comch_connection_get_device(F.conn)) != 0 ||
	    rte_comch_mmap_alloc_memrange(p->mmap, RTE_MAX(F.max_size, (size_t)4096)) != 0 ||
	    rte_comch_mmap_get_memrange(p->mmap, &addr, &len) != 0 ||
	    rte_comch_mmap_start(p->mmap) != 0)
		return -1;
	p->mem = addr;
	p->pool = rte_comch_buf_pool_create(opt.window);
	p->prod = rte_comch_producer_create(F.conn);
	if (p->pool == NULL || p->prod == NULL)
		return -1;
	p->ctx = rte_comch_producer_as_ctx(p->prod);
	if (rte_comch_producer_get_id(p->prod, &p->id) != 0 ||
	    rte_comch_ctx_set_user_data(p->ctx, ud) != 0 ||
	    rte_comch_producer_task_send_set_conf(p->prod, f_send_done, f_send_done,
						  opt.window) != 0 ||
	    rte_comch_pe_connect_ctx(pe, p->ctx) != 0 || rte_comch_ctx_start(p->ctx) != 0)
		return -1;
	return 0;
}

/* Send what the window allows from p to peer consumer j; false when nothing went. */
static bool
f_prod_work(struct fprod *p, uint32_t j)
{
	struct rte_comch_producer_task_send *t;
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN];
	struct rte_comch_buf *buf;
	bool work = false;
	size_t len;
	int ret;

	while (stop_signal == 0 && F.peer_live[j] && p->inflight < opt.window &&
	       (opt.forever || p->next[j] < opt.msgs)) {
		len = F.sizes[(p->next[j] + j) % F.nb_sizes];
		/* the data is read at submit: one send area is enough */
		f_fill(p->mem, len, p->id, p->next[j]);
		f_imm(imm, opt.imm, p->id, p->next[j]);
		if (len == 0)
			ret = rte_comch_buf_pool_get_by_addr(p->pool, p->mmap, p->mem, 1, &buf);
		else
			ret = rte_comch_buf_pool_get_by_data(p->pool, p->mmap, p->mem, len, &buf);
		if (ret != 0)
			break;
		ret = rte_comch_producer_task_send_alloc_init(p->prod, buf,
			opt.imm > 0 ? imm : NULL, opt.imm, F.peer_id[j], &t);
		if (ret != 0) {
			rte_comch_buf_dec_refcount(buf, NULL);
			break;
		}
		ret = rte_comch_task_submit(rte_comch_producer_task_send_as_task(t));
		if (ret != 0) {
			rte_comch_task_free(rte_comch_producer_task_send_as_task(t));
			rte_comch_buf_dec_refcount(buf, NULL);
			if (ret == -EAGAIN)
				F.again++;
			else if (ret == -ENOENT)
				F.enoent++;
			else if (ret == -ENOTCONN)
				F.notconn++;
			else if (F.send_other++ < 10)
				printf("BAD submit %d\n", ret);
			break;
		}
		p->next[j]++;
		p->inflight++;
		F.sent++;
		work = true;
	}
	return work;
}

/* ----------------------------------------------------------- control path */

static void
f_ctrl_done(struct rte_comch_task_send *t, union rte_comch_data tud, union rte_comch_data cud)
{
	(void)tud;
	(void)cud;
	rte_comch_task_free(rte_comch_task_send_as_task(t));
}

static void
f_ctrl_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	(void)conn;
	if (len == 4 && memcmp(msg, "DONE", 4) == 0)
		F.peer_done = true;
	else if (len == 3 && memcmp(msg, "FIN", 3) == 0)
		F.peer_fin = true;
	else
		F.ctrl_bad++;
}

static int
f_ctrl_send(const char *word)
{
	struct rte_comch_task_send *t;
	int ret;

	if (F.srv != NULL)
		ret = rte_comch_server_task_send_alloc_init(F.srv, F.conn, word, strlen(word), &t);
	else
		ret = rte_comch_client_task_send_alloc_init(F.cli, F.conn, word, strlen(word), &t);
	if (ret != 0)
		return ret;
	ret = rte_comch_task_submit(rte_comch_task_send_as_task(t));
	if (ret != 0)
		rte_comch_task_free(rte_comch_task_send_as_task(t));
	return ret;
}

static void
f_new_consumer(struct rte_comch_connection *conn, uint32_t id)
{
	(void)conn;
	F.new_events++;
	if (F.nb_peer == F_MAX) {
		f_bad("too many peer consumers", id, 0);
		return;
	}
	F.peer_id[F.nb_peer] = id;
	F.peer_live[F.nb_peer++] = true;
}

static void
f_expired_consumer(struct rte_comch_connection *conn, uint32_t id)
{
	uint32_t j;

	(void)conn;
	F.exp_events++;
	for (j = 0; j < F.nb_peer; j++)
		if (F.peer_id[j] == id)
			F.peer_live[j] = false;
}

static void
f_connect(struct rte_comch_connection *conn, int status)
{
	if (status != 0)
		return; /* a client that could not connect */
	if (F.conn != NULL) {
		printf("BAD second connection\n");
		F.ctrl_bad++;
		return;
	}
	F.conn = conn;
	F.up = true;
}

static void
f_disconnect(struct rte_comch_connection *conn, int status)
{
	if (conn != F.conn)
		return;
	F.ended = true;
	F.end_status = status;
}

static void
f_cli_state(union rte_comch_data ud, struct rte_comch_ctx *ctx, enum rte_comch_ctx_state prev,
	    enum rte_comch_ctx_state next)
{
	(void)ud;
	(void)prev;
	if (next == RTE_COMCH_CTX_STATE_RUNNING) {
		rte_comch_client_get_connection(F.cli, &F.conn);
		F.up = true;
	} else if ((next == RTE_COMCH_CTX_STATE_STOPPING || next == RTE_COMCH_CTX_STATE_IDLE) &&
		   F.up && F.end_status == 0) {
		/* the connection ended (our own stop comes after the loop) */
		F.ended = true;
		F.end_status = rte_comch_ctx_get_last_error(ctx);
	}
}

/* ---------------------------------------------------------------- run */

static int
f_setup(struct rte_comch_dev *dev, struct rte_comch_dev_rep **rep)
{
	int ret;

	if (opt.server) {
		*rep = rte_comch_dev_rep_open(dev, opt.rep);
		if (*rep == NULL)
			return -1;
		F.srv = rte_comch_server_create(dev, *rep, opt.name);
		if (F.srv == NULL)
			return -1;
		F.ctx = rte_comch_server_as_ctx(F.srv);
		if (rte_comch_server_task_send_set_conf(F.srv, f_ctrl_done, f_ctrl_done, 16) != 0 ||
		    rte_comch_server_event_msg_recv_register(F.srv, f_ctrl_recv) != 0 ||
		    rte_comch_server_event_connection_status_changed_register(F.srv, f_connect,
			f_disconnect) != 0 ||
		    rte_comch_server_event_consumer_register(F.srv, f_new_consumer,
			f_expired_consumer) != 0 ||
		    rte_comch_pe_connect_ctx(pe, F.ctx) != 0 || rte_comch_ctx_start(F.ctx) != 0)
			return -1;
		printf("READY server\n");
		return 0;
	}
	F.cli = rte_comch_client_create(dev, opt.name);
	if (F.cli == NULL)
		return -1;
	F.ctx = rte_comch_client_as_ctx(F.cli);
	if (rte_comch_client_task_send_set_conf(F.cli, f_ctrl_done, f_ctrl_done, 16) != 0 ||
	    rte_comch_client_event_msg_recv_register(F.cli, f_ctrl_recv) != 0 ||
	    rte_comch_client_event_consumer_register(F.cli, f_new_consumer,
						     f_expired_consumer) != 0 ||
	    rte_comch_ctx_set_state_changed_cb(F.ctx, f_cli_state) != 0 ||
	    rte_comch_client_set_connect_timeout(F.cli, opt.connect_timeout_ms) != 0 ||
	    rte_comch_pe_connect_ctx(pe, F.ctx) != 0)
		return -1;
	ret = rte_comch_ctx_start(F.ctx);
	return ret == -EINPROGRESS ? 0 : -1;
}

static bool
f_ctx_idle(struct rte_comch_ctx *ctx)
{
	enum rte_comch_ctx_state st;

	return rte_comch_ctx_get_state(ctx, &st) == 0 && st == RTE_COMCH_CTX_STATE_IDLE;
}

/* Progress until every consumer and producer context is IDLE (bounded). */
static bool
f_wait_fast_idle(void)
{
	uint64_t end = now_ms() + 5000;
	uint32_t i, busy;

	do {
		busy = 0;
		for (i = 0; i < opt.consumers; i++)
			busy += F.c[i].ctx != NULL && !f_ctx_idle(F.c[i].ctx);
		for (i = 0; i < opt.producers; i++)
			busy += F.p[i].ctx != NULL && !f_ctx_idle(F.p[i].ctx);
		if (busy == 0)
			return true;
		poll_once(false);
	} while (now_ms() < end);
	return false;
}

static void
f_check_ret(int ret, const char *what)
{
	if (ret == 0)
		return;
	F.teardown_err++;
	printf("ERROR teardown %s %d\n", what, ret);
}

/* Stop and destroy every producer and consumer, with their memory. */
static void
f_fast_down(void)
{
	uint32_t i;
	int ret;

	for (i = 0; i < opt.consumers; i++)
		if (F.c[i].ctx != NULL && !f_ctx_idle(F.c[i].ctx)) {
			ret = rte_comch_ctx_stop(F.c[i].ctx);
			f_check_ret(ret == -EINPROGRESS ? 0 : ret, "consumer stop");
		}
	for (i = 0; i < opt.producers; i++)
		if (F.p[i].ctx != NULL && !f_ctx_idle(F.p[i].ctx)) {
			ret = rte_comch_ctx_stop(F.p[i].ctx);
			f_check_ret(ret == -EINPROGRESS ? 0 : ret, "producer stop");
		}
	if (!f_wait_fast_idle())
		f_check_ret(-ETIMEDOUT, "stop");
	for (i = 0; i < opt.consumers; i++) {
		struct fcons *c = &F.c[i];

		if (c->cons != NULL)
			f_check_ret(rte_comch_consumer_destroy(c->cons), "consumer destroy");
		if (c->pool != NULL)
			f_check_ret(rte_comch_buf_pool_destroy(c->pool), "consumer pool");
		if (c->mmap != NULL) {
			if (c->mem != NULL)
				f_check_ret(rte_comch_mmap_stop(c->mmap), "consumer mmap stop");
			f_check_ret(rte_comch_mmap_destroy(c->mmap), "consumer mmap");
		}
		free(c->user);
		memset(c, 0, sizeof(*c));
	}
	for (i = 0; i < opt.producers; i++) {
		struct fprod *p = &F.p[i];

		if (p->prod != NULL)
			f_check_ret(rte_comch_producer_destroy(p->prod), "producer destroy");
		if (p->pool != NULL)
			f_check_ret(rte_comch_buf_pool_destroy(p->pool), "producer pool");
		if (p->mmap != NULL) {
			if (p->mem != NULL)
				f_check_ret(rte_comch_mmap_stop(p->mmap), "producer mmap stop");
			f_check_ret(rte_comch_mmap_destroy(p->mmap), "producer mmap");
		}
		memset(p, 0, sizeof(*p));
	}
	F.fast_up = false;
}

static bool
f_all_received(void)
{
	uint32_t i;

	for (i = 0; i < opt.consumers; i++)
		if (F.c[i].recv < (uint64_t)opt.producers * opt.msgs)
			return false;
	return true;
}

static bool
f_all_sent(void)
{
	uint32_t i, j;

	if (F.nb_peer < opt.consumers)
		return false;
	for (i = 0; i < opt.producers; i++) {
		if (F.p[i].inflight != 0)
			return false;
		for (j = 0; j < F.nb_peer; j++)
			if (F.p[i].next[j] < opt.msgs)
				return false;
	}
	return true;
}

/* One round of the fast path: post, send, report progress. */
static bool
f_round(void)
{
	bool work = false, all = true;
	enum rte_comch_ctx_state st;
	uint32_t i, j;

	for (i = 0; i < opt.consumers; i++) {
		struct fcons *c = &F.c[i];

		if (!c->posted && rte_comch_ctx_get_state(c->ctx, &st) == 0 &&
		    st == RTE_COMCH_CTX_STATE_RUNNING) {
			if (f_cons_post(c) != 0)
				f_bad("post on consumer", c->id, 0);
			work = true;
		}
		all &= c->recv > 0;
	}
	if (all && !F.streaming) {
		F.streaming = true;
		printf("STREAMING\n");
	}
	for (i = 0; i < opt.producers; i++)
		for (j = 0; j < F.nb_peer; j++)
			work |= f_prod_work(&F.p[i], j);
	return work;
}

static int
f_parse_sizes(void)
{
	const char *s = opt.sizes;
	char *end;

	while (*s != '\0' && F.nb_sizes < F_SIZES) {
		F.sizes[F.nb_sizes] = strtoull(s, &end, 0);
		if (end == s)
			return -1;
		F.max_size = RTE_MAX(F.max_size, F.sizes[F.nb_sizes]);
		F.nb_sizes++;
		s = *end == ',' ? end + 1 : end;
	}
	return F.nb_sizes > 0 && *s == '\0' ? 0 : -1;
}

static int
f_result(bool timeout)
{
	uint64_t expect = (uint64_t)opt.producers * opt.consumers * opt.msgs;

	if (timeout)
		return EXIT_TIMEOUT;
	if (F.bad != 0 || F.ctrl_bad != 0 || F.teardown_err != 0 || F.posted_other != 0 ||
	    F.send_other != 0 || F.sent != F.sent_ok + F.sent_err)
		return EXIT_CHECK;
	/* every post-recv task ended once: flushed, or filled and not posted again */
	if (opt.expect_drop)
		return (F.end_status == -ECONNRESET && F.cons_last_error == -ECONNRESET &&
			F.posted_reset + F.repost_fail == opt.consumers * opt.slots) ?
			EXIT_OK : EXIT_CHECK;
	if (opt.forever)
		return EXIT_OK;
	return (F.recv == expect && F.sent == expect && F.sent_ok == expect &&
		F.posted_reset == 0 && F.repost_fail == 0 &&
		F.posted_aborted == opt.consumers * opt.slots &&
		F.new_events == opt.consumers &&
		(F.srv == NULL || F.end_status == -ECONNABORTED)) ? EXIT_OK : EXIT_CHECK;
}

int
run_fast(struct rte_comch_dev *dev)
{
	struct rte_comch_dev_rep *rep = NULL;
	bool timeout = false, work;
	uint32_t i;
	int ret;

	if (opt.producers > F_MAX || opt.consumers > F_MAX || opt.slots == 0 ||
	    opt.imm > RTE_COMCH_MAX_IMM_DATA_LEN || f_parse_sizes() != 0) {
		printf("ERROR fast options\n");
		return EXIT_USAGE;
	}
	if (f_setup(dev, &rep) != 0) {
		printf("ERROR setup rte_errno=%d\n", rte_errno);
		return EXIT_SETUP;
	}
	while (!F.up && !F.ended && stop_signal == 0 && now_ms() < t_end)
		poll_once(true);
	if (F.up && !F.ended) {
		for (i = 0; i < opt.consumers; i++)
			if (f_cons_new(&F.c[i]) != 0)
				break;
		for (i = 0; i < opt.producers && !F.ended; i++)
			if (f_prod_new(&F.p[i]) != 0)
				break;
		F.fast_up = true;
		if (F.c[opt.consumers - 1].ctx == NULL || F.p[opt.producers - 1].ctx == NULL) {
			printf("ERROR fast setup rte_errno=%d\n", rte_errno);
			F.teardown_err++;
		} else {
			printf("CONNECTED 1\n");
		}
	}
	/* stream until done (both ways), dropped, or signalled */
	while (F.fast_up && F.teardown_err == 0 && !F.ended && stop_signal == 0) {
		work = f_round();
		if (!F.received && f_all_received()) {
			/* --msgs from every producer of the peer, to every consumer */
			F.received = true;
			printf("RECEIVED\n");
		}
		if (!opt.forever && f_all_received() && !F.done_sent && f_ctrl_send("DONE") == 0)
			F.done_sent = true;
		if (!opt.forever && F.done_sent && F.peer_done && f_all_sent())
			break;
		poll_once(!work);
		if (now_ms() > t_end) {
			timeout = true;
			break;
		}
	}
	if (F.ended)
		printf("DROPPED status=%d\n", F.end_status);
	/* a dropped connection takes the consumers to IDLE by themselves */
	if (F.ended && F.fast_up) {
		uint64_t end = now_ms() + 5000;
		bool idle;

		do {
			poll_once(false);
			for (idle = true, i = 0; i < opt.consumers; i++)
				idle &= F.c[i].ctx == NULL || f_ctx_idle(F.c[i].ctx);
		} while (!idle && now_ms() < end);
		F.cons_last_error = opt.consumers > 0 && F.c[0].ctx != NULL ?
			rte_comch_ctx_get_last_error(F.c[0].ctx) : 0;
		for (i = 1; i < opt.consumers; i++)
			if (F.c[i].ctx != NULL &&
			    rte_comch_ctx_get_last_error(F.c[i].ctx) != F.cons_last_error)
				f_bad("consumer last error", i, 0);
		if (!idle)
			f_check_ret(-ETIMEDOUT, "consumers did not go idle");
	}
	f_fast_down();
	/* then the connection: the client stops once the server's side is gone */
	if (F.srv != NULL) {
		if (!F.ended && !timeout && f_ctrl_send("FIN") != 0)
			f_check_ret(-EIO, "send FIN");
		while (!F.ended && stop_signal == 0 && now_ms() < t_end)
			poll_once(true);
	} else {
		while (!F.ended && !F.peer_fin && stop_signal == 0 && now_ms() < t_end)
			poll_once(true);
	}
	ret = rte_comch_ctx_stop(F.ctx);
	if (ret != 0 && ret != -EINPROGRESS && !(ret == -EBUSY && f_ctx_idle(F.ctx)))
		f_check_ret(ret, "ctx stop");
	{
		uint64_t end = now_ms() + 5000;

		while (!f_ctx_idle(F.ctx) && now_ms() < end)
			poll_once(false);
	}
	if (!f_ctx_idle(F.ctx))
		f_check_ret(-ETIMEDOUT, "ctx idle");
	printf("SUMMARY role=%s fast=1 producers=%u consumers=%u sent=%" PRIu64 " sent_ok=%" PRIu64
	       " sent_err=%" PRIu64 " recv=%" PRIu64 " bytes=%" PRIu64 " bad=%u again=%" PRIu64
	       " enoent=%" PRIu64 " notconn=%" PRIu64 " posted_reset=%u posted_aborted=%u"
	       " posted_other=%u repost_fail=%u new_events=%u exp_events=%u end_status=%d"
	       " cons_last_error=%d teardown_err=%u ctrl_bad=%u timeout=%d\n",
	       F.srv != NULL ? "server" : "client", opt.producers, opt.consumers, F.sent,
	       F.sent_ok, F.sent_err, F.recv, F.bytes, F.bad, F.again, F.enoent, F.notconn,
	       F.posted_reset, F.posted_aborted, F.posted_other, F.repost_fail, F.new_events,
	       F.exp_events, F.end_status, F.cons_last_error, F.teardown_err, F.ctrl_bad,
	       timeout);
	ret = f_result(timeout);
	if (F.srv != NULL)
		f_check_ret(rte_comch_server_destroy(F.srv), "server destroy");
	else
		f_check_ret(rte_comch_client_destroy(F.cli), "client destroy");
	if (rep != NULL)
		f_check_ret(rte_comch_dev_rep_close(rep), "rep close");
	return F.teardown_err != 0 && ret == EXIT_OK ? EXIT_CHECK : ret;
}
