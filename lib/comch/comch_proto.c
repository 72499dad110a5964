/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The library's own protocol on a connection: the life of consumers, the same
 * for every driver, which only carries the messages (and the blob of memory
 * they export).
 *
 *   consumer starts:  NEW(id, posts, imm_len, mem_len) + blob -->
 *                     <-- READY(id) + reply      the peer imported it
 *                     <-- REFUSED(id, status)    over its budget: no import
 *   consumer stops:   EXPIRED(id) -->
 *                     <-- ACK(id)                the peer will not write again
 *
 * A consumer starts and stops on its own lcore; what must happen on the
 * connection's lcore (sending, the peer's answers) reaches it through the
 * connection's request ring, and goes back through the consumer's reg and
 * expired words. The peer's consumers live in the connection's table of
 * remotes, which our producers read without a lock: one the peer withdraws is
 * unmapped a grace period later (comch_grace.c), once no send can still be
 * copying into it.
 *
 * Everything the peer sends is checked here before use; a message that breaks
 * the protocol drops the connection (-EPROTO).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <rte_ring.h>

#include "comch_private.h"
#include "comch_proto.h"

#define COMCH_REQ_EXPIRE 1ul /* low bit of a request: withdraw, not announce */

static int
comch_proto_send(struct rte_comch_connection *conn, enum comch_ctl_type type, uint32_t id,
		 int status, struct rte_comch_drv_blob *blob)
{
	struct comch_ctl_msg m = {
		.version = COMCH_CTL_VERSION,
		.type = type,
		.id = id,
		.status = status,
	};

	return conn->ops->ctl_send(conn->drv, &m, sizeof(m), blob);
}

/* Our consumer of that id, on the connection's lcore (which owns the list). */
static struct rte_comch_consumer *
comch_proto_consumer(struct rte_comch_connection *conn, uint32_t id)
{
	struct rte_comch_consumer *c;

	TAILQ_FOREACH(c, &conn->link.consumers, next)
		if (c->id == id)
			return c;
	return NULL;
}

static void
comch_proto_consumer_event(struct rte_comch_connection *conn, uint32_t id, bool is_new)
{
	struct comch_ctrl *ctrl = conn->ctrl;
	rte_comch_event_consumer_cb_t cb = is_new ? ctrl->new_consumer_cb :
						    ctrl->expired_consumer_cb;

	if (cb == NULL)
		return;
	comch_pe_enter_cb(ctrl->ctx.pe);
	cb(conn, id);
	comch_pe_leave_cb(ctrl->ctx.pe);
}

/* ------------------------------------------------------------------ our consumers */

int
comch_proto_request(struct rte_comch_consumer *c, bool expire)
{
	struct rte_comch_connection *conn = comch_link_conn(c->link);
	uintptr_t req = (uintptr_t)c | (expire ? COMCH_REQ_EXPIRE : 0);

	if (rte_ring_mp_enqueue(conn->fp_req, (void *)req) != 0)
		return -EAGAIN;
	/* The connection's engine serves it, and may be asleep. */
	rte_comch_drv_pe_wake(conn->ctrl->ctx.pe);
	return 0;
}

/*
 * The carrier refused a control message: the peer stopped reading it. Only the
 * end of the connection is safe then (a withdrawal the peer never heard of
 * must not read as confirmed): its consumers end with it.
 */
static void
comch_proto_lost(struct rte_comch_connection *conn, uint32_t id, const char *what)
{
	COMCH_LOG(ERR, "connection %u: cannot %s consumer %u: the peer does not take control "
		  "messages any more: ending the connection", conn->id, what, id);
	comch_link_abort(&conn->link, -ECONNRESET);
}

/* Announce a consumer: a fresh receive state from the driver, and its blob to the peer. */
static int
comch_proto_announce(struct rte_comch_connection *conn, struct rte_comch_consumer *c)
{
	struct rte_comch_drv_consumer_start st = {
		.nb_posts = c->tasks.nb,
		.imm_len = c->imm_len,
		.pe = c->ctx.pe,
	};
	struct rte_comch_drv_blob blob = { .nb_fds = 0 };
	struct comch_ctl_msg m = {
		.version = COMCH_CTL_VERSION,
		.type = COMCH_CTL_CONSUMER_NEW,
		.id = c->id,
		.nb_posts = c->tasks.nb,
		.imm_len = c->imm_len,
		.mem_len = c->mmap->len,
	};
	int rc;

	rc = conn->ctrl->ctx.dev->ops->consumer->start(c->drv, &st, &blob);
	if (rc < 0) {
		COMCH_LOG(ERR, "consumer %u: the driver cannot share it with the peer: %s",
			  c->id, strerror(-rc));
		return rc;
	}
	rc = conn->ops->ctl_send(conn->drv, &m, sizeof(m), &blob);
	if (rc < 0) {
		comch_proto_lost(conn, c->id, "announce");
		return -ECONNRESET;
	}
	return 0;
}

/* EXPIRED: the peer is to stop writing into our consumer, and say so (ACK). */
static void
comch_proto_withdraw(struct rte_comch_connection *conn, struct rte_comch_consumer *c)
{
	c->proto = COMCH_PROTO_EXPIRING;
	if (comch_proto_send(conn, COMCH_CTL_CONSUMER_EXPIRED, c->id, 0, NULL) < 0)
		comch_proto_lost(conn, c->id, "withdraw");
}

int
comch_proto_serve(struct rte_comch_connection *conn)
{
	/* Ending, or about to (an abort is served in this round): say nothing more. */
	bool dead = comch_link_dead(&conn->link) || comch_load_relaxed(&conn->link.abort_reason) != 0;
	struct rte_comch_consumer *c;
	uintptr_t req;
	void *obj;
	int n = 0, rc;

	while (rte_ring_sc_dequeue(conn->fp_req, &obj) == 0) {
		req = (uintptr_t)obj;
		c = (struct rte_comch_consumer *)(req & ~COMCH_REQ_EXPIRE);
		n++;
		if (req & COMCH_REQ_EXPIRE) {
			/*
			 * Nothing the peer knows of (never announced, refused, or the
			 * connection ended): it will not write into it, say so now.
			 * Announced, unanswered: withdrawn once the peer answers. Else
			 * withdraw it and wait for the ACK.
			 */
			if (dead || c->proto == COMCH_PROTO_IDLE) {
				c->proto = COMCH_PROTO_IDLE;
				comch_store_release(&c->expired, 1);
			} else if (c->proto == COMCH_PROTO_ANNOUNCED) {
				c->proto = COMCH_PROTO_WITHDRAW;
			} else if (c->proto == COMCH_PROTO_READY) {
				comch_proto_withdraw(conn, c);
			}
		} else if (c->proto == COMCH_PROTO_IDLE) {
			rc = dead ? -ECONNRESET : comch_proto_announce(conn, c);
			/* Else it waits for the peer's READY or REFUSED. */
			if (rc < 0)
				comch_store_release(&c->reg, rc);
			else
				c->proto = COMCH_PROTO_ANNOUNCED;
		}
		/* An announce left over from a start that ended with the connection: no more. */
	}
	return n;
}

/*
 * READY, REFUSED and ACK: answers about one of our consumers. READY carries
 * the peer's reply to the consumer's set-up (maybe empty), which this owns.
 */
static int
comch_proto_on_answer(struct rte_comch_connection *conn, const struct comch_ctl_msg *m,
		      struct rte_comch_drv_blob *reply)
{
	struct rte_comch_consumer *c = comch_proto_consumer(conn, m->id);
	int rc;

	if (c == NULL) {
		COMCH_LOG(ERR, "connection %u: the peer answered about consumer %u, which does not "
			  "exist", conn->id, m->id);
		conn->ops->blob_discard(conn->drv, reply);
		return -EPROTO;
	}
	/* Each answer in its turn only: early, late or twice breaks the protocol. */
	if ((m->type == COMCH_CTL_CONSUMER_ACK && c->proto != COMCH_PROTO_EXPIRING) ||
	    (m->type != COMCH_CTL_CONSUMER_ACK && c->proto != COMCH_PROTO_ANNOUNCED &&
	     c->proto != COMCH_PROTO_WITHDRAW)) {
		COMCH_LOG(ERR, "connection %u: the peer answered %s about consumer %u out of turn",
			  conn->id, m->type == COMCH_CTL_CONSUMER_ACK ? "ACK" :
			  m->type == COMCH_CTL_CONSUMER_READY ? "READY" : "REFUSED", m->id);
		conn->ops->blob_discard(conn->drv, reply);
		return -EPROTO;
	}
	switch (m->type) {
	case COMCH_CTL_CONSUMER_ACK:
		c->proto = COMCH_PROTO_IDLE;
		comch_store_release(&c->expired, 1);
		/* Last: a consumer destroyed while it waited for this is freed. */
		comch_consumer_withdrawn(c);
		return 0;
	case COMCH_CTL_CONSUMER_REFUSED:
		/* Only a budget (or a side with no producers) refuses; anything else is a lie. */
		if (m->status != ENOSPC && m->status != EMFILE && m->status != ENOMEM &&
		    m->status != ENOTSUP)
			return -EPROTO;
		COMCH_LOG(ERR, "consumer %u: the peer refused it: %s", m->id, strerror(m->status));
		/* Refused while being withdrawn: the peer never imported it, nothing to wait for. */
		if (c->proto == COMCH_PROTO_WITHDRAW)
			comch_store_release(&c->expired, 1);
		c->proto = COMCH_PROTO_IDLE;
		comch_store_release(&c->reg, -m->status);
		comch_consumer_withdrawn(c);
		return 0;
	default: /* READY */
		if (c->proto == COMCH_PROTO_WITHDRAW) {
			/* Given up (stopped, or its start timed out): no second half now. */
			conn->ops->blob_discard(conn->drv, reply);
			comch_proto_withdraw(conn, c);
			return 0;
		}
		rc = comch_consumer_connect(c, reply);
		if (rc < 0)
			return rc;
		c->proto = COMCH_PROTO_READY;
		comch_store_release(&c->reg, 1);
		return 0;
	}
}

/* ------------------------------------------------------------------ the peer's consumers */

/*
 * NEW: import the peer's consumer, or refuse it if it is over our budget. The
 * blob is the driver's once import is called, and discarded otherwise.
 */
static int
comch_proto_on_new(struct rte_comch_connection *conn, const struct comch_ctl_msg *m,
		   struct rte_comch_drv_blob *blob)
{
	const struct rte_comch_dev *dev = conn->ctrl->ctx.dev;
	struct rte_comch_drv_remote_conf rconf = {
		.nb_posts = m->nb_posts,
		.imm_len = m->imm_len,
		.mem_len = m->mem_len,
	};
	struct rte_comch_drv_blob reply = { .len = 0, .nb_fds = 0 };
	void *drv = NULL;
	int rc;

	/* No library numbers a consumer 0 (ids start at 1): a peer that does lies. */
	if (m->id < COMCH_FAST_FIRST_ID || m->nb_posts == 0 ||
	    m->nb_posts > dev->info.max_fast_tasks || m->imm_len > RTE_COMCH_MAX_IMM_DATA_LEN ||
	    m->mem_len == 0 || comch_link_remote_busy(&conn->link, m->id)) {
		COMCH_LOG(ERR, "connection %u: the peer announced consumer %u out of range (%u "
			  "posts, %u bytes of immediate data, %" PRIu64 " bytes), or twice",
			  conn->id, m->id, m->nb_posts, m->imm_len, m->mem_len);
		conn->ops->blob_discard(conn->drv, blob);
		return -EPROTO;
	}
	if (dev->ops->producer == NULL || (dev->info.capa & RTE_COMCH_CAPA_PRODUCER) == 0) {
		COMCH_LOG(NOTICE, "connection %u: refusing the peer's consumer %u: device %s has "
			  "no producers", conn->id, m->id, dev->info.name);
		conn->ops->blob_discard(conn->drv, blob);
		return comch_proto_send(conn, COMCH_CTL_CONSUMER_REFUSED, m->id, ENOTSUP, NULL) < 0 ?
		       -ECONNRESET : 0;
	}
	if (m->id >= conn->link.nb_remote_slots || comch_link_remotes_alloc(&conn->link) < 0) {
		COMCH_LOG(NOTICE, "connection %u: refusing the peer's consumer %u: its ids go "
			  "up to %u", conn->id, m->id,
			  conn->link.nb_remote_slots - COMCH_FAST_FIRST_ID);
		comch_dev_count_budget_refusal(conn->ctrl->ctx.dev);
		conn->ops->blob_discard(conn->drv, blob);
		return comch_proto_send(conn, COMCH_CTL_CONSUMER_REFUSED, m->id, ENOSPC, NULL) < 0 ?
		       -ECONNRESET : 0;
	}
	rc = dev->ops->producer->import(conn->drv, &rconf, blob, &reply, &drv);
	if (rc == -EPROTO)
		return rc;
	if (rc < 0) {
		COMCH_LOG(NOTICE, "connection %u: refusing the peer's consumer %u: %s", conn->id,
			  m->id, strerror(-rc));
		if (rc == -EMFILE || rc == -ENOSPC)
			comch_dev_count_budget_refusal(conn->ctrl->ctx.dev);
		return comch_proto_send(conn, COMCH_CTL_CONSUMER_REFUSED, m->id,
					rc == -EMFILE || rc == -ENOSPC ? -rc : ENOMEM, NULL) < 0 ?
		       -ECONNRESET : 0;
	}
	comch_link_import(&conn->link, m->id, m->imm_len, drv);
	if (comch_proto_send(conn, COMCH_CTL_CONSUMER_READY, m->id, 0,
			     reply.len != 0 || reply.nb_fds != 0 ? &reply : NULL) < 0)
		return -ECONNRESET;
	comch_proto_consumer_event(conn, m->id, true);
	return 0;
}

/* EXPIRED: the peer withdraws one of its consumers; we confirm once we will not write. */
static int
comch_proto_on_expired(struct rte_comch_connection *conn, uint32_t id)
{
	struct comch_remote *r = comch_remote_lookup(&conn->link, id);

	if (r == NULL || !r->imported || r->unimporting) {
		COMCH_LOG(ERR, "connection %u: the peer withdrew consumer %u, which it never "
			  "announced", conn->id, id);
		return -EPROTO;
	}
	comch_link_expire(&conn->link, r);
	return comch_proto_unimports(conn) < 0 ? -ECONNRESET : 0;
}

int
comch_proto_unimports(struct rte_comch_connection *conn)
{
	struct comch_link *link = &conn->link;
	struct comch_remote *r = link->remotes;
	uint32_t i;
	int did = 0;

	for (i = COMCH_FAST_FIRST_ID; link->nb_unimporting != 0 && i < link->nb_remote_slots;
	     i++) {
		if (!r[i].unimporting || !comch_grace_done(link, r[i].grace))
			continue;
		comch_link_unimport(link, &r[i]);
		comch_proto_consumer_event(conn, i, false);
		if (comch_proto_send(conn, COMCH_CTL_CONSUMER_ACK, i, 0, NULL) < 0)
			return -ECONNRESET;
		did = 1;
	}
	return did;
}

int
comch_proto_on_ctl(struct rte_comch_connection *conn, struct rte_comch_drv_ctl *ctl)
{
	struct comch_ctl_msg m;
	bool has_blob = ctl->blob.nb_fds != 0 || ctl->blob.len != 0;

	if (ctl->len != sizeof(m)) {
		COMCH_LOG(ERR, "connection %u: a control message of %u bytes", conn->id, ctl->len);
		conn->ops->blob_discard(conn->drv, &ctl->blob);
		return -EPROTO;
	}
	memcpy(&m, ctl->msg, sizeof(m));
	if (m.version != COMCH_CTL_VERSION ||
	    (m.type != COMCH_CTL_CONSUMER_NEW && m.type != COMCH_CTL_CONSUMER_READY && has_blob)) {
		COMCH_LOG(ERR, "connection %u: control message version %u type %u%s", conn->id,
			  m.version, m.type, has_blob ? " with memory it should not carry" : "");
		conn->ops->blob_discard(conn->drv, &ctl->blob);
		return -EPROTO;
	}
	switch (m.type) {
	case COMCH_CTL_CONSUMER_NEW:
		return comch_proto_on_new(conn, &m, &ctl->blob);
	case COMCH_CTL_CONSUMER_EXPIRED:
		return comch_proto_on_expired(conn, m.id);
	case COMCH_CTL_CONSUMER_READY:
	case COMCH_CTL_CONSUMER_REFUSED:
	case COMCH_CTL_CONSUMER_ACK:
		return comch_proto_on_answer(conn, &m, &ctl->blob);
	default:
		COMCH_LOG(ERR, "connection %u: unknown control message type %u", conn->id, m.type);
		return -EPROTO;
	}
}

/* ------------------------------------------------------------------ the end */

void
comch_proto_conn_ended(struct rte_comch_connection *conn)
{
	struct rte_comch_consumer *c;
	uint32_t i;

	/* Producers and consumers on other lcores see it from now on. */
	comch_store_release(&conn->link.fp_dead, 1);
	if (conn->fp_req != NULL)
		comch_proto_serve(conn);
	/* Our consumers destroyed while the peer's confirmation was due: it never comes now. */
	comch_consumer_free_zombies(&conn->link);
	/*
	 * The peer's consumers go with the link, unmapped once no producer can be
	 * copying into them: now if it has none, else with the last of them (a
	 * grace period needs a progressed connection, which this one is no more).
	 */
	for (i = COMCH_FAST_FIRST_ID; conn->link.remotes != NULL && i < conn->link.nb_remote_slots;
	     i++)
		comch_store_release(&conn->link.remotes[i].alive, false);
	if (TAILQ_EMPTY(&conn->link.producers))
		comch_link_release_remotes(&conn->link);
	/* A consumer's engine may sleep: wake it, so that its posted tasks end now. */
	TAILQ_FOREACH(c, &conn->link.consumers, next)
		if (c->ctx.pe != NULL && c->ctx.pe != conn->ctrl->ctx.pe)
			rte_comch_drv_pe_wake(c->ctx.pe);
}
