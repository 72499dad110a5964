/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_PRIVATE_H
#define COMCH_PRIVATE_H

/* Library-internal glue between the object files; drivers never include this. */

#include <stdbool.h>
#include <stdint.h>

#include <errno.h>
#include <string.h>

#include "rte_comch_driver.h"

/** Store to a counter read by other threads (stats, telemetry); one writer only. */
#define COMCH_CNT_ADD(field, v) \
	__atomic_store_n(&(field), (field) + (v), __ATOMIC_RELAXED)
#define COMCH_CNT_READ(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)

/* comch_check.c: argument checks of the public calls */

/*
 * Magic words: the first thing each public object holds, set at create and
 * overwritten with COMCH_MAGIC_DEAD at destroy, so that destroy and
 * configuration calls recognise an object destroyed already (or a connection
 * ended and freed) and refuse it with -EINVAL and a log line. Best effort: the
 * memory may have been reused since, and reading it is what tools such as
 * AddressSanitizer report; the rule stays "never use an object after its end".
 */
enum {
	COMCH_MAGIC_DEAD = 0xdeadc0deu,
	COMCH_MAGIC_DEV = 0xc0c40001u,
	COMCH_MAGIC_REP = 0xc0c40002u,
	COMCH_MAGIC_PE = 0xc0c40003u,
	COMCH_MAGIC_CONN = 0xc0c40004u,
	COMCH_MAGIC_MMAP = 0xc0c40005u,
	COMCH_MAGIC_BUF_POOL = 0xc0c40006u,
	/* Contexts: COMCH_MAGIC_CTX | enum comch_ctx_type. */
	COMCH_MAGIC_CTX = 0xc0c41000u,
	COMCH_MAGIC_CTX_TYPES = 0xffu,
	/* Not a magic: asks comch_obj_bad() for a context of any type. */
	COMCH_MAGIC_CTX_ANY = 0xc0c410ffu,
};

/** Log "<func>(): <name> is NULL" for the first NULL of args; true if there was one. */
bool comch_null_args(const char *func, const char *names, const void * const *args,
		     unsigned int n);
/** Log why, and return true, unless magic points to want (NULL: the object is NULL). */
bool comch_obj_bad(const char *func, const char *name, const uint32_t *magic, uint32_t want);

/*
 * Mark an object dead just before it is freed. Volatile: a plain store to
 * memory about to be freed is one the compiler may leave out.
 */
static inline void
comch_obj_kill(uint32_t *magic)
{
	*(volatile uint32_t *)magic = COMCH_MAGIC_DEAD;
}

/** True, after a log line naming it, if one of the (pointer) arguments is NULL. */
#define COMCH_NULL_ARG(...) \
	unlikely(comch_null_args(__func__, #__VA_ARGS__, (const void * const []){ __VA_ARGS__ }, \
				 RTE_DIM(((const void * const []){ __VA_ARGS__ }))))
static inline bool
comch_magic_ok(uint32_t magic, uint32_t want)
{
	return magic == want || (want == COMCH_MAGIC_CTX_ANY &&
				 (magic & ~(uint32_t)COMCH_MAGIC_CTX_TYPES) == COMCH_MAGIC_CTX);
}

/**
 * True, after a log line, if obj is NULL or not a live object of its kind
 * (field: its magic word). The test is inline: cheap enough for hot paths.
 */
#define COMCH_BAD_OBJ(obj, field, want) \
	(unlikely((obj) == NULL || !comch_magic_ok((obj)->field, (want))) && \
	 comch_obj_bad(__func__, #obj, (obj) == NULL ? NULL : &(obj)->field, (want)))
#define COMCH_BAD_SERVER(s) COMCH_BAD_OBJ(s, ctrl.ctx.magic, COMCH_MAGIC_CTX | COMCH_CTX_SERVER)
#define COMCH_BAD_CLIENT(c) COMCH_BAD_OBJ(c, ctrl.ctx.magic, COMCH_MAGIC_CTX | COMCH_CTX_CLIENT)
#define COMCH_BAD_PRODUCER(p) COMCH_BAD_OBJ(p, ctx.magic, COMCH_MAGIC_CTX | COMCH_CTX_PRODUCER)
#define COMCH_BAD_CONSUMER(c) COMCH_BAD_OBJ(c, ctx.magic, COMCH_MAGIC_CTX | COMCH_CTX_CONSUMER)
#define COMCH_BAD_CTX(c) COMCH_BAD_OBJ(c, magic, COMCH_MAGIC_CTX_ANY)
#define COMCH_BAD_CONN(c) COMCH_BAD_OBJ(c, magic, COMCH_MAGIC_CONN)

/* comch_mmap.c */
/** Hold a started mmap (a buffer or consumer uses it): -EPERM if it is not started. */
int comch_mmap_hold(struct rte_comch_mmap *mmap);
void comch_mmap_release(struct rte_comch_mmap *mmap);
bool comch_mmap_started(const struct rte_comch_mmap *mmap);

/* comch_driver.c */
const struct rte_comch_driver *comch_driver_find(const char *name, size_t len);

/* comch_dev.c */
struct rte_comch_dev *comch_dev_lookup_locked(uint16_t id);
void comch_devs_lock(void);
void comch_devs_unlock(void);

/* comch_pe.c; the engine's fields are here so that the per-task helpers inline. */
struct rte_comch_pe {
	uint32_t magic;          /**< COMCH_MAGIC_PE. */
	unsigned int lcore_id;
	int epfd;
	uint32_t cb_depth;       /**< > 0 while a user callback runs. */
	uint32_t gen;            /**< Bumped when the context list changes. */
	uint64_t nb_inflight;
	uint64_t next_slow;      /**< TSC of the next slow tick. */
	uint64_t slow_interval;
	/* Another lcore of this process wakes a sleeping engine with it. */
	struct comch_pe_fd kick;
	TAILQ_HEAD(, rte_comch_ctx) ctxs;
};

void comch_pe_detach(struct rte_comch_ctx *ctx);
uint64_t comch_ms_to_tsc(uint64_t ms);

static inline void
comch_pe_add_inflight(struct rte_comch_pe *pe, int64_t n)
{
	pe->nb_inflight += n;
}

/** Run a user callback: progress is refused while it runs. */
static inline void
comch_pe_enter_cb(struct rte_comch_pe *pe)
{
	if (pe != NULL)
		pe->cb_depth++;
}

static inline void
comch_pe_leave_cb(struct rte_comch_pe *pe)
{
	if (pe != NULL)
		pe->cb_depth--;
}

static inline bool
comch_pe_in_cb(const struct rte_comch_pe *pe)
{
	return pe != NULL && pe->cb_depth != 0;
}

/* comch_ctx.c */
void comch_ctx_init(struct rte_comch_ctx *ctx, const struct comch_ctx_ops *ops,
		    enum comch_ctx_type type, struct rte_comch_dev *dev);
void comch_ctx_set_state(struct rte_comch_ctx *ctx, enum rte_comch_ctx_state next);
int comch_ctx_check_idle(const struct rte_comch_ctx *ctx, const char *what);

/* comch_ctrl.c: what server and client share */
struct comch_ctrl *comch_ctrl_alloc(size_t outer_size, size_t ctrl_offset,
				    struct rte_comch_dev *dev, enum comch_ctx_type type,
				    const struct comch_ctx_ops *ops, const char *name);
int comch_ctrl_release(struct comch_ctrl *ctrl);
int comch_ctrl_check_no_fast(const struct comch_ctrl *ctrl, const char *what);
int comch_ctrl_event_consumer_register(struct comch_ctrl *ctrl,
				       rte_comch_event_consumer_cb_t new_cb,
				       rte_comch_event_consumer_cb_t expired_cb);
int comch_ctrl_set_max_msg_size(struct comch_ctrl *ctrl, uint32_t size);
int comch_ctrl_set_recv_queue_size(struct comch_ctrl *ctrl, uint32_t size);
int comch_ctrl_task_send_set_conf(struct comch_ctrl *ctrl, rte_comch_task_send_cb_t ok_cb,
				  rte_comch_task_send_cb_t err_cb, uint32_t num);
int comch_ctrl_task_send_alloc_init(struct comch_ctrl *ctrl, struct rte_comch_connection *conn,
				    const void *msg, uint32_t len,
				    struct rte_comch_task_send **task);
int comch_ctrl_event_msg_recv_register(struct comch_ctrl *ctrl, rte_comch_event_msg_recv_cb_t cb);
int comch_ctrl_prepare_start(struct comch_ctrl *ctrl);
int comch_ctrl_progress_conns(struct comch_ctrl *ctrl, uint64_t now);
int comch_ctrl_arm(struct rte_comch_ctx *ctx);
void comch_ctrl_disarm(struct rte_comch_ctx *ctx);
void comch_ctrl_close_all(struct comch_ctrl *ctrl, int reason);

/* comch_conn.c */
struct rte_comch_connection *comch_conn_create(struct comch_ctrl *ctrl, void *priv,
					       const struct comch_conn_params *p);
void comch_conn_close_local(struct rte_comch_connection *conn, int reason);
/** End of a dead or drained connection: tasks, events, memory. Returns 1. */
int comch_conn_teardown(struct rte_comch_connection *conn);
int comch_conn_task_send_submit(struct rte_comch_task_send *task);

/* comch_fast.c: the fast path's side of a connection */
int comch_fast_attach(struct rte_comch_connection *conn, uint32_t count, uint32_t max,
		      const char *what);
void comch_fast_detach(struct rte_comch_connection *conn);
int comch_fast_request(struct rte_comch_consumer *c, bool expire);

/**
 * In a list of producers or consumers (both have id and next): how many there
 * are, and the smallest id none of them has, so ids are reused after a destroy.
 */
#define COMCH_FAST_FREE_ID(head, type, count) __extension__ ({ \
	const struct type *_o; \
	uint32_t _id = 0; \
	bool _used; \
	*(count) = 0; \
	TAILQ_FOREACH(_o, head, next) \
		(*(count))++; \
	do { \
		_used = false; \
		TAILQ_FOREACH(_o, head, next) \
			_used |= _o->id == _id; \
	} while (_used && ++_id != 0); \
	_id; \
})
int comch_fast_serve(struct rte_comch_connection *conn, bool dead);
void comch_fast_conn_ended(struct rte_comch_connection *conn);
/*
 * comch_task_pool.c: a context's task pool, a stack of free tasks that only
 * the context's engine lcore touches (see the file for why not rte_mempool).
 */
struct comch_task_pool {
	uint32_t size;     /**< Tasks in the pool. */
	uint32_t nb_free;  /**< Written by the owner; read by others through COMCH_CNT_READ. */
	uint8_t *elts;     /**< The tasks, cache-line aligned. */
	void *free[];      /**< Free tasks, nb_free of them, the next one on top. */
};
struct comch_task_pool *comch_task_pool_create(uint32_t num, size_t elt_size);
/** Tasks taken and not returned. */
unsigned int comch_task_pool_in_use(const struct comch_task_pool *tp);
void comch_task_pool_free(struct comch_task_pool *tp);

static inline int
comch_task_get(struct comch_task_pool *tp, void **obj)
{
	if (unlikely(tp->nb_free == 0))
		return -ENOMEM;
	*obj = tp->free[tp->nb_free - 1];
	COMCH_CNT_ADD(tp->nb_free, -1);
	return 0;
}

static inline void
comch_task_put(struct rte_comch_task *task)
{
	struct comch_task_pool *tp = task->pool;

	tp->free[tp->nb_free] = task;
	COMCH_CNT_ADD(tp->nb_free, 1);
}
int comch_fast_tasks_setup(struct comch_fast_tasks *ft, size_t elt_size);
int comch_fast_tasks_release(struct comch_fast_tasks *ft, const char *what);
int comch_fast_tasks_resize(struct comch_fast_tasks *ft, uint32_t num, const char *what);
int comch_fast_set_conf(struct rte_comch_ctx *ctx, struct comch_fast_tasks *ft, bool cbs_given,
			uint32_t num, const char *what);
int comch_fast_start(const struct rte_comch_ctx *ctx, struct comch_fast_tasks *ft,
		     size_t elt_size, bool configured, const struct rte_comch_connection *conn,
		     const char *what);
int comch_fast_destroy(struct rte_comch_ctx *ctx, struct comch_fast_tasks *ft, const char *what,
		       void (*drv_release)(struct rte_comch_ctx *ctx));

static inline void
comch_fast_tasks_push(struct comch_fast_tasks *ft, void *t)
{
	ft->q[ft->tail++ & ft->mask] = t;
}

static inline void *
comch_fast_tasks_pop(struct comch_fast_tasks *ft)
{
	return ft->q[ft->head++ & ft->mask];
}

static inline uint32_t
comch_fast_tasks_inflight(const struct comch_fast_tasks *ft)
{
	return ft->tail - ft->head;
}
/** Release a connection's memory (after teardown, once no producer/consumer holds it). */
void comch_conn_free(struct rte_comch_connection *conn);
/** Free a torn-down connection if no task, producer or consumer points at it. */
void comch_conn_release_check(struct rte_comch_connection *conn);
/** A send task that pointed at conn was freed. */
void comch_conn_task_released(struct rte_comch_connection *conn);
/** Flush a fast-path context's tasks and stop it, on its own lcore. */
int comch_producer_submit(struct rte_comch_producer_task_send *t);
int comch_consumer_submit(struct rte_comch_consumer_task_post_recv *t);

/* comch_server.c / comch_client.c: the end of a connection, as each side sees it */
void comch_server_conn_ended(struct rte_comch_server *srv, struct rte_comch_connection *conn);
void comch_client_conn_ended(struct rte_comch_client *cli, struct rte_comch_connection *conn);

static inline struct rte_comch_server *
comch_ctrl_server(struct comch_ctrl *ctrl)
{
	return container_of(ctrl, struct rte_comch_server, ctrl);
}

static inline struct rte_comch_client *
comch_ctrl_client(struct comch_ctrl *ctrl)
{
	return container_of(ctrl, struct rte_comch_client, ctrl);
}

/* Hot path (every submit, every consumer round): inline. */
static inline bool
comch_fast_conn_dead(const struct rte_comch_connection *conn)
{
	return __atomic_load_n(&conn->fp_dead, __ATOMIC_ACQUIRE) != 0;
}

/* What submit checks for producers and consumers alike, before the driver. */
static inline int
comch_fast_submit_check(const struct rte_comch_ctx *ctx, const struct rte_comch_connection *conn,
			uint32_t id, const char *what)
{
	if (unlikely(ctx->state != RTE_COMCH_CTX_STATE_RUNNING)) {
		COMCH_LOG(ERR, "%s %u: not running", what, id);
		return -EBUSY;
	}
	if (unlikely(comch_fast_conn_dead(conn)))
		return -ENOTCONN;
	return 0;
}

#endif /* COMCH_PRIVATE_H */
