/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * comch_peer, server side: checks every message byte for byte (per connection:
 * one sender id, sequence numbers without gap or duplicate), echoes it back
 * unless --no-echo, counts disconnections by reason and prints a SUMMARY line.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_errno.h>

#include "comch_peer.h"
#include "comch_test_msg.h"

/* ------------------------------------------------------------------ server */

struct echo {
	struct echo *next;
	uint32_t len;
	uint8_t data[];
};

struct sconn {
	struct rte_comch_connection *conn;
	uint32_t id;       /* sender id, UINT32_MAX until the first message */
	uint32_t next_seq;
	struct echo *head, *tail; /* echoes not submitted yet */
	struct sconn *next;
};

static struct {
	struct rte_comch_server *srv;
	struct sconn *conns;
	uint32_t nb_open, nb_conns, closed_aborted, closed_reset, closed_other, bad, short_conns;
	uint64_t msgs, bytes, echo_again, task_err;
} S;

static struct sconn *
sconn_of(struct rte_comch_connection *conn)
{
	union rte_comch_data ud;

	if (rte_comch_connection_get_user_data(conn, &ud) != 0)
		return NULL;
	return ud.ptr;
}

static void
srv_task_cb(struct rte_comch_task_send *task, union rte_comch_data tud, union rte_comch_data cud)
{
	if (rte_comch_task_get_status(rte_comch_task_send_as_task(task)) != 0)
		S.task_err++;
	free(tud.ptr);
	rte_comch_task_free(rte_comch_task_send_as_task(task));
}

static void
srv_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	struct sconn *c = sconn_of(conn);
	uint32_t id, seq;
	struct echo *e;

	S.msgs++;
	S.bytes += len;
	if (c == NULL || ct_msg_check(msg, len, &id, &seq) != 0 ||
	    (c->id != UINT32_MAX && c->id != id) || seq != c->next_seq) {
		if (S.bad++ < 10)
			printf("BAD message len=%u on conn of id %u\n", len,
			       c != NULL ? c->id : 0);
		return;
	}
	c->id = id;
	c->next_seq = seq + 1;
	if (opt.slow_us != 0)
		usleep(opt.slow_us);
	if (opt.no_echo)
		return;
	e = malloc(sizeof(*e) + len);
	if (e == NULL)
		abort();
	e->next = NULL;
	e->len = len;
	memcpy(e->data, msg, len);
	if (c->tail != NULL)
		c->tail->next = e;
	else
		c->head = e;
	c->tail = e;
}

static void
srv_connect(struct rte_comch_connection *conn, int status)
{
	struct sconn *c;
	union rte_comch_data ud;

	if (status != 0)
		return; /* a client that could not connect */
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		abort();
	ud.ptr = c;
	c->conn = conn;
	c->id = UINT32_MAX;
	c->next = S.conns;
	S.conns = c;
	rte_comch_connection_set_user_data(conn, ud);
	S.nb_open++;
	S.nb_conns++;
}

static void
srv_disconnect(struct rte_comch_connection *conn, int status)
{
	struct sconn *c = sconn_of(conn), **pp;
	struct echo *e;

	if (status == -ECONNABORTED)
		S.closed_aborted++;
	else if (status == -ECONNRESET)
		S.closed_reset++;
	else
		S.closed_other++;
	S.nb_open--;
	if (c == NULL)
		return;
	printf("DISCONNECT id=%u status=%d msgs=%u\n", c->id, status, c->next_seq);
	if (status == -ECONNABORTED && opt.msgs_set && c->next_seq != opt.msgs)
		S.short_conns++;
	for (pp = &S.conns; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	while ((e = c->head) != NULL) {
		c->head = e->next;
		free(e);
	}
	free(c);
}

/* Submit pending echoes in order; stop at the first -EAGAIN. */
static bool
srv_flush(void)
{
	struct rte_comch_task_send *t;
	union rte_comch_data ud;
	bool work = false;
	struct sconn *c;
	struct echo *e;
	int ret;

	for (c = S.conns; c != NULL; c = c->next) {
		while ((e = c->head) != NULL) {
			ret = rte_comch_server_task_send_alloc_init(S.srv, c->conn, e->data,
								    e->len, &t);
			if (ret != 0)
				break;
			ud.ptr = e;
			rte_comch_task_set_user_data(rte_comch_task_send_as_task(t), ud);
			ret = rte_comch_task_submit(rte_comch_task_send_as_task(t));
			if (ret != 0) {
				rte_comch_task_free(rte_comch_task_send_as_task(t));
				if (ret == -EAGAIN)
					S.echo_again++;
				break;
			}
			c->head = e->next;
			if (c->head == NULL)
				c->tail = NULL;
			work = true;
		}
	}
	return work;
}

int
run_server(struct rte_comch_dev *dev)
{
	struct rte_comch_dev_rep *rep = rte_comch_dev_rep_open(dev, opt.rep);
	struct rte_comch_ctx *ctx;
	bool timeout = false;
	int ret;

	if (rep == NULL)
		return EXIT_SETUP;
	S.srv = rte_comch_server_create(dev, rep, opt.name);
	if (S.srv == NULL) {
		printf("ERROR server_create rte_errno=%d\n", rte_errno);
		rte_comch_dev_rep_close(rep);
		return EXIT_SETUP;
	}
	ctx = rte_comch_server_as_ctx(S.srv);
	if (rte_comch_server_task_send_set_conf(S.srv, srv_task_cb, srv_task_cb, 8192) != 0 ||
	    rte_comch_server_event_msg_recv_register(S.srv, srv_recv) != 0 ||
	    rte_comch_server_event_connection_status_changed_register(S.srv, srv_connect,
								      srv_disconnect) != 0 ||
	    (opt.rq != 0 && rte_comch_server_set_recv_queue_size(S.srv, opt.rq) != 0) ||
	    (opt.msg_size != 0 && rte_comch_server_set_max_msg_size(S.srv, opt.msg_size) != 0) ||
	    rte_comch_pe_connect_ctx(pe, ctx) != 0 || rte_comch_ctx_start(ctx) != 0) {
		printf("ERROR server setup\n");
		rte_comch_server_destroy(S.srv);
		rte_comch_dev_rep_close(rep);
		return EXIT_SETUP;
	}
	printf("READY server\n");
	while (stop_signal == 0) {
		poll_once(!srv_flush());
		if (opt.expect_conns != 0 && S.nb_open == 0 &&
		    S.closed_aborted + S.closed_reset + S.closed_other >= opt.expect_conns)
			break;
		if (now_ms() > t_end) {
			timeout = true;
			break;
		}
	}
	ret = rte_comch_ctx_stop(ctx);
	t_end = now_ms() + 5000;
	while (ret == -EINPROGRESS && now_ms() < t_end) {
		enum rte_comch_ctx_state st;

		rte_comch_pe_progress(pe);
		rte_comch_ctx_get_state(ctx, &st);
		if (st == RTE_COMCH_CTX_STATE_IDLE)
			ret = 0;
	}
	printf("SUMMARY role=server conns=%u aborted=%u reset=%u other=%u msgs=%" PRIu64
	       " bytes=%" PRIu64 " bad=%u short=%u echo_again=%" PRIu64 " task_err=%" PRIu64
	       " timeout=%d\n", S.nb_conns, S.closed_aborted, S.closed_reset, S.closed_other,
	       S.msgs, S.bytes, S.bad, S.short_conns, S.echo_again, S.task_err, timeout);
	rte_comch_server_destroy(S.srv);
	rte_comch_dev_rep_close(rep);
	if (timeout)
		return EXIT_TIMEOUT;
	return (S.bad != 0 || S.short_conns != 0 || S.closed_other != 0) ? EXIT_CHECK : EXIT_OK;
}
