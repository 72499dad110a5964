/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Progress engine. Each round polls every attached context; every ~100 us (the
 * "slow tick") it also polls the drivers' file descriptors (sockets, doorbells)
 * with one epoll_wait(0), so that a polling engine makes almost no system calls.
 * The same epoll fd is the notification fd a sleeping application waits on.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "comch_private.h"

/* Its address names the calling thread (comch_thread_id()); even, as it is aligned. */
__thread uint64_t comch_thread_token __attribute__((tls_model("initial-exec")));

/* Driver fds are not urgent: connection set-up, peer death, wake-ups. */
#define COMCH_PE_SLOW_TICK_US 100
/* Events handled per slow tick, one epoll_wait each so a handler may drop any fd. */
#define COMCH_PE_FD_BURST 32

static void
comch_pe_kick_handler(struct rte_comch_drv_fd *pfd, uint32_t events __rte_unused)
{
	uint64_t n;

	/* Non-blocking, and nobody outside this process holds it. */
	(void)!read(pfd->fd, &n, sizeof(n));
}

uint64_t
comch_ms_to_tsc(uint64_t ms)
{
	return ms * (rte_get_tsc_hz() / 1000);
}

struct rte_comch_pe *
rte_comch_pe_create(unsigned int lcore_id)
{
	struct rte_comch_pe *pe;

	if (lcore_id == RTE_COMCH_PE_LCORE_SELF) {
		lcore_id = rte_lcore_id();
		if (lcore_id == LCORE_ID_ANY) {
			COMCH_LOG(ERR, "calling thread is not an lcore: rte_thread_register() it");
			rte_errno = EINVAL;
			return NULL;
		}
	} else if (lcore_id >= RTE_MAX_LCORE || !rte_lcore_has_role(lcore_id, ROLE_RTE)) {
		COMCH_LOG(ERR, "lcore %u is not enabled", lcore_id);
		rte_errno = EINVAL;
		return NULL;
	}
	pe = comch_zalloc_lines(1, sizeof(*pe));
	if (pe == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	pe->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (pe->epfd < 0) {
		rte_errno = errno;
		COMCH_LOG(ERR, "epoll_create1: %s", strerror(errno));
		free(pe);
		return NULL;
	}
	pe->kick.fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	pe->kick.handler = comch_pe_kick_handler;
	pe->kick.arg = pe;
	if (pe->kick.fd < 0 || rte_comch_drv_pe_fd_add(pe, &pe->kick) < 0) {
		rte_errno = errno;
		COMCH_LOG(ERR, "cannot create the engine's wake-up eventfd: %s", strerror(errno));
		if (pe->kick.fd >= 0)
			close(pe->kick.fd);
		close(pe->epfd);
		free(pe);
		return NULL;
	}
	pe->magic = COMCH_MAGIC_PE;
	pe->lcore_id = lcore_id;
	pe->slow_interval = rte_get_tsc_hz() / (1000000 / COMCH_PE_SLOW_TICK_US);
	TAILQ_INIT(&pe->ctxs);
	comch_obj_publish(&pe->reg, &pe->magic);
	return pe;
}

int
rte_comch_pe_destroy(struct rte_comch_pe *pe)
{
	int rc;

	if (COMCH_BAD_OBJ(pe, magic, COMCH_MAGIC_PE))
		return -EINVAL;
	rc = comch_pe_enter(pe, __func__);
	if (rc < 0)
		return rc;
	if (!TAILQ_EMPTY(&pe->ctxs)) {
		COMCH_LOG(ERR, "contexts are still attached: destroy them first");
		comch_pe_leave(pe);
		return -EBUSY;
	}
	close(pe->kick.fd);
	close(pe->epfd);
	comch_obj_retire(&pe->reg, &pe->magic, pe);
	return 0;
}

int
rte_comch_pe_connect_ctx(struct rte_comch_pe *pe, struct rte_comch_ctx *ctx)
{
	if (COMCH_BAD_OBJ(pe, magic, COMCH_MAGIC_PE) || COMCH_BAD_CTX(ctx))
		return -EINVAL;
	if (ctx->pe != NULL) {
		COMCH_LOG(ERR, "context is already attached to an engine");
		return -EEXIST;
	}
	if (ctx->state != RTE_COMCH_CTX_STATE_IDLE) {
		COMCH_LOG(ERR, "only an idle context can be attached");
		return -EBUSY;
	}
	ctx->pe = pe;
	TAILQ_INSERT_TAIL(&pe->ctxs, ctx, pe_next);
	pe->gen++;
	return 0;
}

void
comch_pe_detach(struct rte_comch_ctx *ctx)
{
	struct rte_comch_pe *pe = ctx->pe;

	if (pe == NULL)
		return;
	TAILQ_REMOVE(&pe->ctxs, ctx, pe_next);
	pe->gen++;
	ctx->pe = NULL;
}

void
rte_comch_drv_pe_wake(struct rte_comch_pe *pe)
{
	uint64_t one = 1;

	/* Cannot block: the counter would have to reach 2^64 - 1 first. */
	(void)!write(pe->kick.fd, &one, sizeof(one));
}

int
rte_comch_drv_pe_fd_add(struct rte_comch_pe *pe, struct rte_comch_drv_fd *pfd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = pfd };

	if (epoll_ctl(pe->epfd, EPOLL_CTL_ADD, pfd->fd, &ev) < 0) {
		COMCH_LOG(ERR, "epoll_ctl(ADD, %d): %s", pfd->fd, strerror(errno));
		return -errno;
	}
	return 0;
}

/*
 * A wake-up fd only makes the engine's notification fd readable; the driver
 * empties it when it disarms. Edge-triggered, so the slow tick sees each new
 * wake-up once, and one shared handler: the engine never dereferences state
 * the fd's owner frees from another lcore.
 */
static void
comch_pe_wake_handler(struct rte_comch_drv_fd *pfd __rte_unused, uint32_t events __rte_unused)
{
}

static struct rte_comch_drv_fd comch_pe_wake = { .fd = -1, .handler = comch_pe_wake_handler };

int
rte_comch_drv_pe_wake_fd_add(struct rte_comch_pe *pe, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.ptr = &comch_pe_wake };

	if (epoll_ctl(pe->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		COMCH_LOG(ERR, "epoll_ctl(ADD, %d): %s", fd, strerror(errno));
		return -errno;
	}
	return 0;
}

void
rte_comch_drv_pe_wake_fd_del(struct rte_comch_pe *pe, int fd)
{
	if (epoll_ctl(pe->epfd, EPOLL_CTL_DEL, fd, NULL) < 0)
		COMCH_LOG(DEBUG, "epoll_ctl(DEL, %d): %s", fd, strerror(errno));
}

void
rte_comch_drv_pe_fd_del(struct rte_comch_pe *pe, struct rte_comch_drv_fd *pfd)
{
	if (epoll_ctl(pe->epfd, EPOLL_CTL_DEL, pfd->fd, NULL) < 0)
		COMCH_LOG(DEBUG, "epoll_ctl(DEL, %d): %s", pfd->fd, strerror(errno));
}

/* Handle ready driver fds, one at a time: a handler may close any fd, even the next one. */
static int
comch_pe_poll_fds(struct rte_comch_pe *pe)
{
	struct epoll_event ev;
	struct rte_comch_drv_fd *pfd;
	int n, did = 0;

	for (n = 0; n < COMCH_PE_FD_BURST; n++) {
		if (epoll_wait(pe->epfd, &ev, 1, 0) <= 0)
			break;
		pfd = ev.data.ptr;
		pfd->handler(pfd, ev.events);
		did = 1;
	}
	return did;
}

int
rte_comch_pe_progress(struct rte_comch_pe *pe)
{
	struct rte_comch_ctx *ctx;
	uint64_t now;
	uint32_t gen;
	bool slow;
	int did = 0;
	int rc;

	if (COMCH_BAD_OBJ_FAST(pe, magic, COMCH_MAGIC_PE))
		return -EINVAL;
	rc = comch_pe_enter(pe, __func__);
	if (unlikely(rc < 0))
		return rc;
	now = rte_rdtsc();
	slow = now >= pe->next_slow;
	if (unlikely(slow)) {
		pe->next_slow = now + pe->slow_interval;
		did |= comch_pe_poll_fds(pe);
	}
	gen = pe->gen;
	TAILQ_FOREACH(ctx, &pe->ctxs, pe_next) {
		/* A quiet context has only the slow tick's checks to make. */
		if (ctx->state == RTE_COMCH_CTX_STATE_IDLE || (ctx->quiet && !slow))
			continue;
		did |= ctx->ops->progress(ctx, slow, now);
		/* A callback attached or destroyed a context: the rest waits a round. */
		if (unlikely(pe->gen != gen))
			break;
	}
	comch_pe_leave(pe);
	return did != 0;
}

unsigned int
rte_comch_pe_get_lcore(const struct rte_comch_pe *pe)
{
	if (pe == NULL) {
		rte_errno = EINVAL;
		return LCORE_ID_ANY;
	}
	return pe->lcore_id;
}

int
rte_comch_pe_get_num_inflight_tasks(const struct rte_comch_pe *pe, uint64_t *num)
{
	if (COMCH_BAD_OBJ_FAST(pe, magic, COMCH_MAGIC_PE) || COMCH_NULL_ARG(num))
		return -EINVAL;
	*num = pe->nb_inflight;
	return 0;
}

int
rte_comch_pe_get_notification_fd(const struct rte_comch_pe *pe, int *fd)
{
	if (COMCH_BAD_OBJ_FAST(pe, magic, COMCH_MAGIC_PE) || COMCH_NULL_ARG(fd))
		return -EINVAL;
	*fd = pe->epfd;
	return 0;
}

static void
comch_pe_disarm_all(struct rte_comch_pe *pe)
{
	struct rte_comch_ctx *ctx;

	TAILQ_FOREACH(ctx, &pe->ctxs, pe_next)
		if (ctx->state != RTE_COMCH_CTX_STATE_IDLE && ctx->ops->disarm != NULL)
			ctx->ops->disarm(ctx);
}

int
rte_comch_pe_request_notification(struct rte_comch_pe *pe)
{
	struct rte_comch_ctx *ctx;
	int rc;

	if (COMCH_BAD_OBJ_FAST(pe, magic, COMCH_MAGIC_PE))
		return -EINVAL;
	rc = comch_pe_enter(pe, __func__);
	if (rc < 0)
		return rc;
	/* Each context says whether it can sleep: its driver arms what can wake it. */
	TAILQ_FOREACH(ctx, &pe->ctxs, pe_next) {
		if (ctx->state == RTE_COMCH_CTX_STATE_IDLE)
			continue;
		rc = ctx->ops->arm(ctx);
		if (rc < 0) {
			comch_pe_disarm_all(pe);
			break;
		}
	}
	comch_pe_leave(pe);
	return rc < 0 ? rc : 0;
}

int
rte_comch_pe_clear_notification(struct rte_comch_pe *pe)
{
	int rc;

	if (COMCH_BAD_OBJ_FAST(pe, magic, COMCH_MAGIC_PE))
		return -EINVAL;
	rc = comch_pe_enter(pe, __func__);
	if (rc < 0)
		return rc;
	/* Disarming consumes the doorbells, the usual reason to wake. */
	comch_pe_disarm_all(pe);
	/*
	 * Anything else (a socket event, a wake-up from another lcore) is handled
	 * by the fd poll of the next round, at once: an application waiting
	 * edge-triggered on the notification fd would see no new edge for it.
	 */
	pe->next_slow = 0;
	comch_pe_leave(pe);
	return 0;
}
