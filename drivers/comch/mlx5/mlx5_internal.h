/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_MLX5_INTERNAL_H
#define COMCH_MLX5_INTERNAL_H

/*
 * The mlx5 driver: rte_comch over rdma-core (libibverbs and librdmacm), for
 * a BlueField's host and Arm sides, or any two machines with RoCE or
 * InfiniBand (soft-RoCE too). Every rdma-core call goes through the glue
 * table a device was opened with (mlx5_glue.h).
 *
 * Set-up: rdma_cm, one listening id per BlueField-side device (dev, addr,
 * port); a client's RC connection carries its HELLO (function, server
 * name, sizes), the server's ACCEPT or REJECT, and the client's READY.
 * The connection's queue pair is then the control path: user messages and
 * the library's control messages as SENDs into receive buffers of one size,
 * under credits so that no SEND ever finds no receive (mlx5_conn.c).
 *
 * Fast path: each consumer start makes a queue pair of its own towards a
 * queue pair the peer's import makes. The consumer SENDs its posts (where
 * each buffer is); a producer RDMA WRITEs a message into the next one and
 * SENDs a completion record after it, which the consumer receives in post
 * order (mlx5_consumer.c, mlx5_producer.c).
 *
 * Threads: a device's rdma_cm events, and what is not yet any server's or
 * not any more the library's (handshakes before their HELLO, connections
 * lingering after their free), are handled under the device's mutex by
 * whichever engine watches the device's descriptors (mlx5_cm.c); the rest
 * of a connection runs on its engine's lcore, as the contract says, its
 * CQ's completion channel a wake-up descriptor of that engine.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_ticketlock.h>

#include <rte_comch_driver.h>
#include <rte_comch_drv_atomic.h>

#include "mlx5_glue.h"

#ifndef TAILQ_FOREACH_SAFE /* glibc's sys/queue.h has no _SAFE variants */
#define TAILQ_FOREACH_SAFE(var, head, field, tvar) \
	for ((var) = TAILQ_FIRST(head); \
	     (var) != NULL && ((tvar) = TAILQ_NEXT(var, field), 1); \
	     (var) = (tvar))
#endif

extern int mlx5_logtype;
#define MLX5_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5_logtype, "COMCH_MLX5: %s(): " fmt "\n", __func__, \
		##__VA_ARGS__)

/* The table installed: what the next device opened uses (mlx5_glue.c). */
extern const struct rte_comch_mlx5_glue *mlx5_glue;

/* ------------------------------------------------------------------ limits */

#define MLX5_NAME_MAX 32              /* representor and function names, with the NUL */
#define MLX5_MAX_REPS 16
#define MLX5_DEFAULT_PORT 18515       /* rdma_cm port (perftest's) */
#define MLX5_MAX_NAME_LEN 128         /* server names, with the NUL */
#define MLX5_MAX_MSG_SIZE (1u << 20)  /* clamped by the port's max_msg_sz */
#define MLX5_MAX_QUEUE 4096           /* clamped by max_qp_wr */
#define MLX5_MAX_CLIENTS 512
#define MLX5_MAX_SEND_TASKS 65536
#define MLX5_MAX_FAST 256             /* producers, and consumers, per connection side */
#define MLX5_MAX_FAST_TASKS 65536     /* clamped by max_qp_wr: a post is a receive */
#define MLX5_MAX_BUF_SIZE (1ull << 30) /* clamped by the port's max_msg_sz */
#define MLX5_MAX_PENDING 1024         /* handshakes of a device before their HELLO */

/* Time limits. */
#define MLX5_HELLO_MS 5000            /* a client must say who it wants within it */
#define MLX5_CLIENT_HS_MS 10000       /* an attempt the server never answers */
#define MLX5_RESOLVE_MS 2000          /* rdma_cm address and route resolution */
#define MLX5_LINGER_MS 1000           /* a BYE or REJECT that never completes */
#define MLX5_FLUSH_SPIN 100000        /* polls for an erroring QP's flushes */

/* ------------------------------------------------------------------ wire */

/* Every message of a connection's queue pair, little endian. */
#define MLX5_MAGIC 0x354c4d43u        /* "CML5" */
#define MLX5_VERSION 1u

enum mlx5_msg_type {
	MLX5_MSG_HELLO = 1,           /* client -> server: who and what */
	MLX5_MSG_ACCEPT,              /* server -> client: what was agreed */
	MLX5_MSG_REJECT,              /* server -> client: status is why */
	MLX5_MSG_READY,               /* client -> server: its receives are posted */
	MLX5_MSG_USER,                /* a user message */
	MLX5_MSG_CTL,                 /* a library control message and its blob */
	MLX5_MSG_CREDIT,              /* nothing but the header's credits */
	MLX5_MSG_BYE,                 /* the end: status 0 (closed) or EPROTO */
};

struct mlx5_hdr {
	uint8_t type;
	uint8_t status;               /* REJECT, BYE: a positive errno */
	uint16_t rsvd;
	uint32_t len;                 /* bytes after the header */
	uint32_t user_back;           /* user messages the sender released, since the start */
	uint32_t other_back;          /* other messages it reposted the buffer of */
};

/* What the client tells in the rdma_cm request: this protocol, nothing more. */
struct mlx5_req_pdata {
	uint32_t magic;
	uint32_t version;
};

struct mlx5_hello {
	uint32_t magic;
	uint32_t version;
	uint32_t max_msg_size;        /* 0: the server's */
	uint32_t recv_queue_size;
	char fn[MLX5_NAME_MAX];
	char name[RTE_COMCH_DRV_NAME_MAX];
};

struct mlx5_accept {
	uint32_t magic;
	uint32_t version;
	uint32_t max_msg_size;
	uint32_t server_queue;        /* user messages the client may have in flight */
	uint32_t client_queue;        /* the client's receive queue, as agreed */
};

struct mlx5_ctl_wire {
	uint32_t msg_len;
	uint32_t blob_len;
	uint8_t msg[RTE_COMCH_DRV_CTL_MAX];
	uint8_t blob[RTE_COMCH_DRV_BLOB_MAX];
};

/* A consumer's start (blob of NEW) and the import's answer (reply of READY). */
struct mlx5_cons_blob {
	uint32_t magic;
	uint32_t qpn;
	uint32_t psn;
	uint32_t rkey;
	uint64_t base;                /* where its mmap is, in its address space */
};

struct mlx5_import_reply {
	uint32_t magic;
	uint32_t qpn;
	uint32_t psn;
};

/* A consumer's posts, as it SENDs them to the import of the other side. */
#define MLX5_POSTS_PER_MSG 16
struct mlx5_post_entry {
	uint64_t addr;                /* in the consumer's memory; 0 with len 0: imm only */
	uint32_t len;
	uint32_t rsvd;
};

struct mlx5_post_msg {
	uint32_t first;               /* index of the first entry, counted from 0 at start */
	uint32_t count;
	struct mlx5_post_entry e[MLX5_POSTS_PER_MSG];
};

/* What a producer SENDs after the data it wrote: the consumer's completion. */
struct mlx5_record {
	uint32_t index;               /* of the post it filled */
	uint32_t len;
	uint32_t producer_id;
	uint32_t imm_len;
	uint8_t imm[RTE_COMCH_MAX_IMM_DATA_LEN];
};

/*
 * Credits of the control path. The receiver posts its receive queue for
 * user messages plus MLX5_OTHER_CREDITS buffers for everything else; the
 * sender counts both classes and is told back, in every header, how many
 * it may reuse. Control messages stop MLX5_OTHER_RESERVE short of the
 * end: the last three are for CREDIT messages (two) and the BYE (one), so
 * that credits can always be returned and no side waits for the other
 * forever (a CREDIT is sent only with credits to return: see mlx5_conn.c).
 */
#define MLX5_CTL_CREDITS 64
#define MLX5_OTHER_RESERVE 3
#define MLX5_OTHER_CREDITS (MLX5_CTL_CREDITS + MLX5_OTHER_RESERVE)
#define MLX5_CREDIT_BATCH 32          /* other buffers reposted before a CREDIT says so */
#define MLX5_CTL_PENDING 512          /* control messages waiting for credits */
/*
 * A connection's sends in flight at most (its send buffers, and its send
 * queue but for the handshake's few): more wait for completions (-EAGAIN),
 * which every poll takes. The queue is made before the peer's receive queue
 * is known: sized for it, it would be the device's largest on every side.
 */
#define MLX5_CONN_TX (512 + MLX5_OTHER_CREDITS)
#define MLX5_HS_SLOT 512              /* handshake buffers */

/* wr_id of a connection's work requests: the kind in the top byte. */
#define MLX5_WR_KIND(id) ((id) >> 56)
#define MLX5_WR_IDX(id) ((uint32_t)(id))
#define MLX5_WR(kind, idx) (((uint64_t)(kind) << 56) | (idx))
enum { MLX5_WR_HS_RECV = 1, MLX5_WR_RX, MLX5_WR_HS_SEND, MLX5_WR_TX, MLX5_WR_FINAL };

/* ------------------------------------------------------------------ device */

TAILQ_HEAD(mlx5_conn_list, mlx5_conn);

/* The device's descriptors on one engine: handled by mlx5_dispatch(). */
struct mlx5_watch {
	TAILQ_ENTRY(mlx5_watch) next;
	struct mlx5_dev *dev;
	struct rte_comch_pe *pe;
	unsigned int refs;            /* servers started, connections and attempts on pe */
	struct rte_comch_drv_fd cm;   /* the rdma_cm event channel */
	struct rte_comch_drv_fd ep;   /* the device's epoll set of channels */
};

struct mlx5_dev {
	const struct rte_comch_mlx5_glue *glue; /* the table it was opened with */
	char name[RTE_COMCH_DEV_NAME_MAX];
	char ibdev[IBV_SYSFS_NAME_MAX];
	bool dpu;
	uint8_t ib_port;
	struct sockaddr_storage addr; /* dpu: where it listens; host: where the dpu does */
	char addr_str[64];            /* "ip:port", for logs */
	char fn[MLX5_NAME_MAX];
	char reps[MLX5_MAX_REPS][MLX5_NAME_MAX];
	const char *rep_names[MLX5_MAX_REPS];
	unsigned int nb_reps;
	struct ibv_context **devs;    /* rdma_get_devices(), held while open */
	struct ibv_context *ctx;      /* librdmacm's context of the device */
	struct ibv_pd *pd;
	uint32_t max_qp_wr;
	uint32_t max_cqe;
	uint32_t max_msg;             /* control path */
	uint32_t max_queue;
	uint32_t max_fast_tasks;
	uint64_t max_buf;
	uint64_t tsc_hz;
	struct rdma_event_channel *cm_ch;    /* non-blocking: every id of the device */
	int epfd;                     /* channels of the connections the device owns */
	struct rdma_cm_id *listener;  /* dpu */
	pthread_mutex_t lock;         /* everything below, and dispatching */
	TAILQ_HEAD(, mlx5_watch) watches;
	TAILQ_HEAD(, mlx5_server) servers;
	struct mlx5_conn_list pending;       /* dpu: accepted, waiting for their HELLO */
	struct mlx5_conn_list linger;        /* freed, waiting for their last SEND */
	unsigned int nb_pending;
};

/* ------------------------------------------------------------------ memory */

/* Memory of the driver's own, registered on a device's PD. */
struct mlx5_mem {
	uint8_t *addr;
	size_t len;
	struct ibv_mr *mr;
};

/* A registration of mlx5_mmap_ops (the library's mmaps). */
struct mlx5_reg {
	struct ibv_mr *mr;
	const struct rte_comch_mlx5_glue *glue;
};

int mlx5_mem_alloc(struct mlx5_dev *dev, struct mlx5_mem *m, size_t len, int access);
void mlx5_mem_free(struct mlx5_dev *dev, struct mlx5_mem *m);

extern const struct rte_comch_drv_mmap_ops mlx5_mmap_ops;

/* ------------------------------------------------------------------ servers */

struct mlx5_server {
	TAILQ_ENTRY(mlx5_server) next;
	struct mlx5_dev *dev;
	char rep[MLX5_NAME_MAX];
	const char *name;
	uint32_t max_pending;
	uint32_t handshake_ms;
	bool listening;
	struct rte_comch_pe *pe;
	unsigned int nb_pending;      /* handshakes routed to it, not yet up or failed */
	unsigned int nb_drops;        /* DROPPED events to report */
	int drop_status;
	struct mlx5_conn_list hs;     /* its handshakes (dev->lock) */
};

/* ------------------------------------------------------------------ connections */

enum mlx5_state {
	MLX5_ST_RESOLVING,            /* client: address and route */
	MLX5_ST_CONNECTING,           /* client: rdma_cm request sent */
	MLX5_ST_WAIT_ACCEPT,          /* client: HELLO sent */
	MLX5_ST_WAIT_HELLO,           /* server: accepted, in dev->pending */
	MLX5_ST_OFFER,                /* server: routed, not yet offered */
	MLX5_ST_OFFERED,              /* server: offered, the library answers */
	MLX5_ST_WAIT_READY,           /* server: ACCEPT sent */
	MLX5_ST_FAILED,               /* server: answered, then failed (hs_result) */
	MLX5_ST_UP,
	MLX5_ST_CLOSED,
};

/* rdma_cm events the dispatcher saw of a connection's id (bits). */
#define MLX5_CM_BIT(ev) (1u << (ev))

/* A control message waiting for credits, as it will go. */
struct mlx5_ctl_pending {
	uint32_t len;
	struct mlx5_ctl_wire w;
};

/* The fast path's shared part: the send CQ of the imports, their producers. */
struct mlx5_fast {
	rte_ticketlock_t lock;        /* polling scq, the graveyard (TSan sees it) */
	struct ibv_cq *scq;           /* imports' sends (made at the first import) */
	uint32_t scq_depth;
	uint32_t scq_used;            /* atomic: WQEs not yet covered by a polled completion */
	TAILQ_HEAD(, mlx5_import) imports;
	TAILQ_HEAD(, mlx5_producer) graveyard; /* destroyed with sends in flight */
	/* How the connection's id brings a QP up: for the fast path's QPs. */
	struct ibv_qp_attr init, rtr, rts;
	int init_mask, rtr_mask, rts_mask;
};

/*
 * One side of a connection, from its first handshake step on: the same
 * object is the handshake (hs) and then the connection of the contract.
 */
struct mlx5_conn {
	struct mlx5_dev *dev;
	const struct rte_comch_mlx5_glue *glue;
	TAILQ_ENTRY(mlx5_conn) next;  /* dev->pending, its server's hs, dev->linger */
	struct mlx5_conn_list *on;    /* which of them, or NULL */
	enum mlx5_state state;
	bool server;
	struct rdma_cm_id *id;
	struct ibv_comp_channel *ch;  /* of cq, its own: a wake-up descriptor of pe */
	struct ibv_cq *cq;
	struct ibv_qp *qp;            /* id->qp */
	struct rte_comch_pe *pe;      /* its engine: a watch, and ch watched, while set */
	bool in_dev_ep;               /* ch is in dev->epfd (the device owns it) */
	bool wake_on;                 /* ch is a wake-up descriptor of pe (armed) */
	struct mlx5_server *srv;
	uint64_t deadline;            /* TSC: of the handshake step, or of the linger */
	/* What the dispatcher saw (dev->lock). */
	uint32_t cm_events;
	int cm_status;
	int cm_end;                   /* atomic: -ECONNRESET once the id disconnected */
	bool route_asked;
	bool disconnected;
	/* Handshake. */
	struct mlx5_mem hs;           /* [0]: receive, [1]: send, [2]: REJECT */
	struct rte_comch_drv_offer offer;
	struct rte_comch_drv_conn_params params;
	uint32_t want_msg;            /* client: max message size asked, 0: any */
	int hs_result;                /* client: the answer; server: why it failed */
	/* The carrier (UP). */
	int end;                      /* 0, or the end the queue pair showed */
	uint32_t max_msg;
	uint32_t slot;                /* bytes of a buffer: header and the largest payload */
	struct mlx5_mem rx;
	uint32_t nb_rx;
	struct mlx5_mem tx;
	uint32_t nb_tx;
	uint32_t tx_head, tx_tail;    /* send buffers used, freed in order */
	uint32_t *uq;                 /* user messages received, not released: buffers */
	uint32_t uq_mask, uq_head, uq_tail, uq_cap;
	uint32_t *cq_ctl;             /* control messages received, not polled: buffers */
	uint32_t ctl_mask, ctl_head, ctl_tail;
	struct mlx5_ctl_pending *pend;
	uint32_t pend_head, pend_tail;
	uint32_t user_cap;            /* the peer's receive queue */
	uint32_t user_sent, user_back;
	uint32_t other_sent, other_back;
	uint32_t user_freed, other_freed; /* ours, told back in each header */
	uint32_t user_told, other_told;
	uint32_t taken;               /* of user_back, reported taken by poll */
	bool final_posted;            /* BYE or REJECT on its way */
	bool final_done;
	/* Fast path. */
	struct mlx5_fast fast;
};

/* mlx5_carrier.c: the object and its carrier. */
struct mlx5_conn *mlx5_conn_new(struct mlx5_dev *dev, bool server);
int mlx5_conn_create_qp(struct mlx5_conn *c, uint32_t recv_wr);
int mlx5_conn_carrier(struct mlx5_conn *c, uint32_t max_msg, uint32_t recv_queue,
		      uint32_t peer_queue);
void mlx5_conn_drain(struct mlx5_conn *c);
void mlx5_conn_release_user(struct mlx5_conn *c, unsigned int n);
int mlx5_conn_take_ctl(struct mlx5_conn *c, struct rte_comch_drv_ctl *ctl);
void mlx5_conn_tell(struct mlx5_conn *c);
int mlx5_conn_send(struct mlx5_conn *c, uint8_t type, uint8_t status, const void *a,
		   uint32_t alen, const void *b, uint32_t blen);
int mlx5_conn_hs_send(struct mlx5_conn *c, unsigned int slot, uint64_t wr_id, uint8_t type,
		      uint8_t status, const void *payload, uint32_t len);
int mlx5_conn_hs_recv(struct mlx5_conn *c);
void mlx5_conn_fail(struct mlx5_conn *c, int reason, const char *why);
void mlx5_conn_destroy_locked(struct mlx5_conn *c);
void mlx5_conn_linger_locked(struct mlx5_conn *c);
bool mlx5_conn_linger_done_locked(struct mlx5_conn *c, uint64_t now);
int mlx5_conn_fast_attrs(struct mlx5_conn *c);
void mlx5_conn_disconnect(struct mlx5_conn *c);
const char *mlx5_wc_status_str(const struct mlx5_conn *c, int status);
uint64_t mlx5_ms(const struct mlx5_dev *dev, uint32_t ms);

/* What the handshake messages carry, checked (mlx5_carrier.c calls them). */
void mlx5_srv_on_hello(struct mlx5_conn *c, const void *payload, uint32_t len);
void mlx5_srv_on_ready(struct mlx5_conn *c);
void mlx5_cli_on_answer(struct mlx5_conn *c, const struct mlx5_hdr *h, const void *payload,
			uint32_t len);

extern const struct rte_comch_drv_conn_ops mlx5_conn_ops;
extern const struct rte_comch_drv_server_ops mlx5_server_ops;
extern const struct rte_comch_drv_client_ops mlx5_client_ops;

/* mlx5_server.c: a request from the listener, handshakes before their HELLO. */
struct rdma_cm_id *mlx5_srv_on_request(struct mlx5_dev *dev, struct rdma_cm_event *ev);
void mlx5_srv_pump_pending(struct mlx5_dev *dev, uint64_t now);

/* mlx5_cm.c: the device's rdma_cm events and handshakes nobody else owns. */
void mlx5_dispatch(struct mlx5_dev *dev, const struct rte_comch_pe *self);

/* mlx5_sleep.c: the device's descriptors on engines, completion channels. */
int mlx5_watch_get(struct mlx5_dev *dev, struct rte_comch_pe *pe);
void mlx5_watch_put(struct mlx5_dev *dev, struct rte_comch_pe *pe);
int mlx5_watch_get_locked(struct mlx5_dev *dev, struct rte_comch_pe *pe);
void mlx5_watch_put_locked(struct mlx5_dev *dev, struct rte_comch_pe *pe);
void mlx5_watch_free_all(struct mlx5_dev *dev);
int mlx5_nonblock(int fd);
void mlx5_channel_drain(const struct rte_comch_mlx5_glue *glue, struct ibv_comp_channel *ch);
int mlx5_wake_on(struct rte_comch_pe *pe, struct ibv_comp_channel *ch, bool *on);
void mlx5_wake_off(struct rte_comch_pe *pe, struct ibv_comp_channel *ch, bool *on);
int mlx5_conn_attach_locked(struct mlx5_conn *c, struct rte_comch_pe *pe);
void mlx5_conn_detach_locked(struct mlx5_conn *c);
int mlx5_conn_dev_watch_locked(struct mlx5_conn *c, bool on);
int mlx5_cq_with_channel(struct mlx5_dev *dev, uint32_t depth, void *cq_ctx,
			 struct ibv_comp_channel **ch, struct ibv_cq **cq);
void mlx5_cq_with_channel_free(struct mlx5_dev *dev, struct ibv_comp_channel **ch,
			       struct ibv_cq **cq);

/* ------------------------------------------------------------------ fast path */

/* mlx5_qp.c: CQs with a channel, QPs made by hand towards the connection's peer. */
struct ibv_qp *mlx5_qp_new(struct mlx5_conn *c, struct ibv_cq *scq, struct ibv_cq *rcq,
			   uint32_t send_wr, uint32_t recv_wr, uint32_t inline_len, int access);
int mlx5_qp_connect(struct mlx5_conn *c, struct ibv_qp *qp, uint32_t dest_qpn,
		    uint32_t rq_psn, uint32_t sq_psn);
int mlx5_qp_to_err(const struct rte_comch_mlx5_glue *glue, struct ibv_qp *qp);
uint32_t mlx5_psn(void);
uint32_t mlx5_pow2(uint32_t v);

/* A send in flight on an import's queue pair, in the order of its completions. */
struct mlx5_inflight {
	struct mlx5_producer *p;      /* NULL: its producer is gone */
	uint32_t seq;                 /* in p's ring */
	uint32_t wqes;                /* work requests it covers (WRITE and SEND) */
};

/* A consumer of the peer, as our producers write into it. */
struct mlx5_import {
	TAILQ_ENTRY(mlx5_import) next;
	struct mlx5_conn *conn;
	struct ibv_qp *qp;            /* send CQ: conn->fast.scq */
	struct ibv_cq *rcq;           /* the consumer's post messages */
	struct mlx5_mem rbuf;         /* their receive buffers, one per post at most */
	uint64_t base, mem_len;
	uint32_t rkey;
	uint32_t nb_posts;
	uint32_t inline_max;
	/* The post mirror: what the consumer posted, not yet filled. */
	struct mlx5_post_entry *mirror;
	uint32_t m_mask, m_head, m_tail;
	uint32_t next_index;          /* of the next entry the consumer must send */
	/* Signaled SENDs in flight: pushed by senders, popped by pollers. */
	struct mlx5_inflight *fifo;
	uint32_t f_mask;
	uint32_t f_head;              /* atomic */
	uint32_t f_tail;              /* fast.lock; atomic: senders read it */
	uint32_t sq_depth;
	uint32_t sq_posted;           /* senders (serialised by the library) */
	uint32_t sq_done;             /* atomic, pollers */
	int error;                    /* atomic: the queue pair failed */
	bool broken;                  /* the consumer sent a bad post: -EPROTO */
};

/* One send of a producer, until its completion is returned. */
struct mlx5_psend {
	int32_t status;               /* atomic: -EINPROGRESS until a poller sets it */
	uint32_t stage_end;           /* staging bytes to free up to, with it */
	struct ibv_mr *mr;            /* a registration made for it alone, or NULL */
};

struct mlx5_producer {
	TAILQ_ENTRY(mlx5_producer) next; /* in the graveyard */
	struct mlx5_conn *conn;
	uint32_t id;
	struct mlx5_psend *ring;
	uint32_t mask;
	uint32_t head;                /* atomic: sends posted */
	uint32_t reaped;              /* their resources freed */
	uint32_t tail;                /* returned by completed() */
	uint32_t done;                /* atomic: completions pollers saw */
	struct mlx5_mem stage;        /* data sent without a registration, copied */
	uint32_t st_head, st_tail;    /* bytes, counted from the start */
};

#define MLX5_PROD_RING 4096           /* sends of a producer in flight at most */
#define MLX5_STAGE_BYTES (1u << 20)   /* a producer's staging ring */
#define MLX5_STAGE_MAX (64u << 10)    /* larger, unregistered: registered for the send */
#define MLX5_IMPORT_INLINE 64         /* inline data asked of an import's QP */
#define MLX5_FAST_CQ_DEPTH 16384      /* the imports' shared send CQ */

/* mlx5_producer.c */
void mlx5_fast_init(struct mlx5_conn *c);
void mlx5_fast_fini(struct mlx5_conn *c);
void mlx5_fast_poll(struct mlx5_conn *c);
extern const struct rte_comch_drv_producer_ops mlx5_producer_ops;

/* mlx5_consumer.c */
extern const struct rte_comch_drv_consumer_ops mlx5_consumer_ops;

#endif /* COMCH_MLX5_INTERNAL_H */
