/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The fast-path link: what producers and consumers hang off, a connection or
 * a MsgQ. Here is what both kinds share: the table of the consumers producers
 * send to (the remotes), their import, their withdrawal and their unimport a
 * grace period later. What differs is the owner's (struct comch_link_ops): a
 * connection announces a consumer to the peer (comch_conn.c, comch_proto.c), a
 * MsgQ imports it in this process (comch_msgq.c). Nothing here knows which.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "comch_private.h"

void
comch_link_init(struct comch_link *link, const struct comch_link_ops *ops,
		struct rte_comch_dev *dev, uint32_t id, void *drv, uint32_t max_remotes)
{
	link->ops = ops;
	link->dev = dev;
	link->id = id;
	link->drv = drv;
	comch_link_set_max_remotes(link, max_remotes);
	rte_ticketlock_init(&link->lock);
	TAILQ_INIT(&link->producers);
	TAILQ_INIT(&link->consumers);
}

void
comch_link_set_max_remotes(struct comch_link *link, uint32_t max_remotes)
{
	/* Indexed by id, and ids start at 1: a slot more than there are remotes. */
	link->nb_remote_slots = max_remotes + COMCH_FAST_FIRST_ID;
}

int
comch_link_remotes_alloc(struct comch_link *link)
{
	struct comch_remote *r;
	uint32_t i;

	if (link->remotes != NULL)
		return 0;
	r = comch_zalloc_lines(link->nb_remote_slots, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	for (i = 0; i < link->nb_remote_slots; i++)
		rte_ticketlock_init(&r[i].lock);
	/* (owner NULL, share COMCH_SHARE_OWNER: the first producer to send owns it) */
	/* Producers on other lcores look it up: publish it initialised. */
	comch_store_release(&link->remotes, r);
	return 0;
}

void
comch_link_remotes_free(struct comch_link *link)
{
	free(link->remotes);
	link->remotes = NULL;
}

bool
comch_link_remote_busy(const struct comch_link *link, uint32_t id)
{
	const struct comch_remote *r = comch_remote_lookup(link, id);

	return r != NULL && (r->imported || r->unimporting);
}

void
comch_link_import(struct comch_link *link, uint32_t id, uint32_t imm_len, void *drv)
{
	struct comch_remote *r = &link->remotes[id];

	r->drv = drv;
	r->imm_len = imm_len;
	r->imported = true;
	comch_store_relaxed(&r->owner, NULL);
	comch_store_relaxed(&r->share, (uint8_t)COMCH_SHARE_OWNER);
	/* Producers on other lcores read the rest once they see it alive. */
	comch_store_release(&r->alive, true);
	link->nb_remotes++;
}

void
comch_link_expire(struct comch_link *link, struct comch_remote *r)
{
	/* Dead from now on; sends that saw it alive end before the grace period does. */
	comch_store_release(&r->alive, false);
	r->grace = comch_grace_start(link);
	r->unimporting = true;
	link->nb_unimporting++;
}

void
comch_link_unimport(struct comch_link *link, struct comch_remote *r)
{
	comch_store_release(&r->alive, false);
	if (r->unimporting) {
		r->unimporting = false;
		link->nb_unimporting--;
	}
	if (r->imported) {
		link->dev->ops->producer->unimport(link->drv, r->drv);
		r->imported = false;
		r->drv = NULL;
		link->nb_remotes--;
	}
}

void
comch_link_release_remotes(struct comch_link *link)
{
	uint32_t i;

	for (i = COMCH_FAST_FIRST_ID; link->remotes != NULL && i < link->nb_remote_slots; i++)
		comch_link_unimport(link, &link->remotes[i]);
}

/* A producer's or consumer's state, which its own lcore changes: a snapshot. */
static bool
comch_link_ctx_active(const struct rte_comch_ctx *ctx)
{
	return comch_load_relaxed(&ctx->state) != RTE_COMCH_CTX_STATE_IDLE;
}

uint32_t
comch_link_nb_active(const struct comch_link *link)
{
	const struct rte_comch_producer *p;
	const struct rte_comch_consumer *c;
	uint32_t n = 0;

	TAILQ_FOREACH(p, &link->producers, next)
		n += comch_link_ctx_active(&p->ctx);
	TAILQ_FOREACH(c, &link->consumers, next)
		n += comch_link_ctx_active(&c->ctx);
	return n;
}
