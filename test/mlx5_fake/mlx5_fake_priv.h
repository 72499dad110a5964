/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef MLX5_FAKE_PRIV_H
#define MLX5_FAKE_PRIV_H

/*
 * The fake fabric's objects. Each embeds the rdma-core structure it hands
 * out as its first member, so that a pointer the application gives back is
 * converted with a cast after it was found in the fabric's lists (a pointer
 * that is not there is refused with EINVAL instead of being trusted).
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include "mlx5_fake.h"

#ifndef TAILQ_FOREACH_SAFE /* glibc's sys/queue.h has no _SAFE variants */
#define TAILQ_FOREACH_SAFE(var, head, field, tvar) \
	for ((var) = TAILQ_FIRST(head); \
	     (var) != NULL && ((tvar) = TAILQ_NEXT(var, field), 1); \
	     (var) = (tvar))
#endif

#define FK_MAX_DEVS 16
#define FK_MAX_PORTS 2
#define FK_MAX_GIDS 16
#define FK_MAX_ADDRS 64

/* Device limits, those of a ConnectX-6 Dx, about. */
#define FK_MAX_QP_WR 32768
#define FK_MAX_SEND_SGE 30
#define FK_MAX_RECV_SGE 32
#define FK_MAX_INLINE 512
#define FK_MAX_CQE 4194303
#define FK_MAX_SRQ_WR 32767
#define FK_MAX_RD_ATOM 16
#define FK_MAX_MSG (1u << 30)
#define FK_NUM_COMP_VECTORS 8
#define FK_GID_TBL_LEN 256

/* rdma_cm over RoCE: the private data sizes of the IB CM's messages, less
 * rdma_cm's own header in the REQ. What a peer receives is padded to these. */
#define FK_REQ_PDATA 56
#define FK_REP_PDATA 196
#define FK_REJ_PDATA 148
/* IB CM reject reasons rdma_cm reports as the REJECTED event's status. */
#define FK_REJ_TIMEOUT 1
#define FK_REJ_INVALID_SERVICE_ID 8
#define FK_REJ_CONSUMER_DEFINED 28

#define FK_PSN_MASK 0xffffffu

struct fk_ctx;
struct fk_cq;
struct fk_qp;
struct fk_id;

/* A readable-while-non-empty fd: an eventfd whose counter is non-zero
 * exactly while its owner's queue has entries (kept under the fabric lock). */
struct fk_evfd {
	int fd;
	unsigned int count;
};

struct fk_port {
	union ibv_gid gid[FK_MAX_GIDS];
	unsigned int nb_gids;
	enum ibv_mtu mtu;
};

struct fk_dev {
	struct ibv_device dev;   /* first: handed out */
	unsigned int idx;
	unsigned int nb_ports;
	bool down;
	uint64_t guid;
	struct fk_port port[FK_MAX_PORTS];
	struct fk_ctx *cm_ctx;   /* librdmacm's own context on this device */
	struct fk_pd *cm_pd;     /* librdmacm's default PD (cm_create_qp with no PD) */
};

/* An IP address a device port owns. */
struct fk_addr {
	struct sockaddr_storage ss;
	struct fk_dev *dev;
	unsigned int port;
	unsigned int gid_index;
};

struct fk_ctx {
	struct ibv_context ctx;
	TAILQ_ENTRY(fk_ctx) next;
	struct fk_dev *dev;
	bool cm_owned;
};

struct fk_pd {
	struct ibv_pd pd;
	TAILQ_ENTRY(fk_pd) next;
	struct fk_ctx *ctx;
	unsigned int refs;       /* MRs, QPs, SRQs on it */
	bool cm_default;         /* librdmacm's, not the application's */
};

struct fk_mr {
	struct ibv_mr mr;
	TAILQ_ENTRY(fk_mr) next;
	struct fk_pd *pd;
	int access;
};

/* A completion channel: its fd is readable while events are queued. */
struct fk_cqev {
	TAILQ_ENTRY(fk_cqev) next;
	struct fk_cq *cq;
};

struct fk_chan {
	struct ibv_comp_channel ch;
	TAILQ_ENTRY(fk_chan) next;
	struct fk_ctx *ctx;
	struct fk_evfd efd;
	TAILQ_HEAD(, fk_cqev) events;
};

/* A completion as the fabric keeps it: the work completion and what polling
 * it frees (the work queue slots up to it, or an SRQ slot). */
struct fk_cqe {
	struct ibv_wc wc;
	struct fk_qp *qp;
	struct fk_srq *srq;
	uint32_t seq;            /* the WQE's sequence number in its queue */
	bool is_send;
};

enum fk_arm {
	FK_ARM_NONE,
	FK_ARM_SOLICITED,
	FK_ARM_ANY,
};

struct fk_cq {
	struct ibv_cq cq;
	TAILQ_ENTRY(fk_cq) next;
	struct fk_ctx *ctx;
	struct fk_chan *chan;
	struct fk_cqe *ring;     /* cq.cqe entries */
	uint32_t head;           /* oldest entry */
	uint32_t count;
	bool error;              /* overflowed: every poll fails */
	enum fk_arm armed;
	uint32_t ev_reported;    /* events returned by get_cq_event */
	unsigned int refs;       /* QPs using it */
};

struct fk_rwqe {
	uint64_t wr_id;
	uint32_t num_sge;
	struct ibv_sge *sge;     /* max_sge entries */
};

struct fk_srq {
	struct ibv_srq srq;
	TAILQ_ENTRY(fk_srq) next;
	struct fk_pd *pd;
	uint32_t max_wr;
	uint32_t max_sge;
	struct fk_rwqe *ring;    /* max_wr receives not yet consumed, FIFO */
	uint32_t head;
	uint32_t count;
	uint32_t inuse;          /* posted and not freed by a poll of their completion */
	unsigned int refs;       /* QPs using it */
};

struct fk_swqe {
	uint64_t wr_id;
	enum ibv_wr_opcode opcode;
	unsigned int flags;
	uint32_t num_sge;
	struct ibv_sge *sge;     /* max_send_sge entries */
	uint8_t *inl;            /* max_inline_data bytes: inline data copied at post */
	uint32_t inl_len;
	uint64_t raddr;
	uint32_t rkey;
	__be32 imm;
	bool rnr_started;        /* has been RNR NAKed: rnr_left counts down */
	unsigned int rnr_left;
	uint64_t rnr_tick;       /* tick of the last RNR NAK: one retry per tick */
};

struct fk_qp {
	struct ibv_qp qp;
	TAILQ_ENTRY(fk_qp) next;
	struct fk_pd *pd;
	struct fk_dev *dev;
	struct fk_cq *scq;
	struct fk_cq *rcq;
	struct fk_srq *srq;
	struct fk_id *id;        /* the rdma_cm id it was created on */
	enum ibv_qp_state st;    /* the true state */
	struct ibv_qp_cap cap;
	bool sig_all;
	/* send queue: [sq_tail, sq_exec) executed, not freed; [sq_exec, sq_head) to execute */
	struct fk_swqe *sq;
	uint32_t sq_size;
	uint32_t sq_head;
	uint32_t sq_exec;
	uint32_t sq_tail;
	/* receive queue: [rq_tail, rq_next) consumed, not freed; [rq_next, rq_head) posted */
	struct fk_rwqe *rq;
	uint32_t rq_size;
	uint32_t rq_head;
	uint32_t rq_next;
	uint32_t rq_tail;
	/* attributes */
	unsigned int access;
	unsigned int port;
	enum ibv_mtu mtu;
	uint32_t dest_qpn;
	union ibv_gid dgid;
	unsigned int sgid_index;
	struct fk_dev *rdev;     /* device owning dgid at RTR */
	uint32_t rq_psn;         /* next PSN expected */
	uint32_t sq_psn;         /* next PSN sent */
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t min_rnr_timer;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
};

/* rdma_cm */
struct fk_cmev {
	struct rdma_cm_event ev; /* first: handed out */
	TAILQ_ENTRY(fk_cmev) next;
	struct fk_id *fid;       /* ev.id's */
	bool conn_response;      /* internal: becomes ESTABLISHED or CONNECT_ERROR */
	uint8_t pdata[FK_REP_PDATA];
};

struct fk_evch {
	struct rdma_event_channel ch;
	TAILQ_ENTRY(fk_evch) next;
	struct fk_evfd efd;
	TAILQ_HEAD(, fk_cmev) events;
	unsigned int ids;
};

enum fk_id_state {
	FK_ID_IDLE,
	FK_ID_BOUND,
	FK_ID_LISTEN,
	FK_ID_ADDR_RESOLVED,
	FK_ID_ROUTE_RESOLVED,
	FK_ID_CONNECT,           /* active: REQ sent */
	FK_ID_RESPONSE,          /* active: REP received, not processed yet */
	FK_ID_REQ,               /* passive: REQ received */
	FK_ID_ACCEPTED,          /* passive: REP sent, waiting for the RTU */
	FK_ID_CONNECTED,
	FK_ID_DISCONNECTED,
	FK_ID_DEAD,              /* rejected, unreachable, errored */
};

struct fk_id {
	struct rdma_cm_id id;    /* first: handed out */
	TAILQ_ENTRY(fk_id) next;
	struct fk_evch *ch;
	enum fk_id_state state;
	bool active;
	bool bound;
	struct fk_dev *dev;
	unsigned int gid_index;
	struct fk_id *peer;      /* the other end of the connection */
	struct fk_id *listener;  /* passive: until its request is retrieved */
	struct fk_qp *qp;
	unsigned int unacked;    /* events retrieved, not acknowledged */
	unsigned int backlog;
	unsigned int pending_req;
	uint32_t psn;            /* own starting PSN */
	uint32_t peer_qpn;
	uint32_t peer_psn;
	union ibv_gid peer_gid;
	struct fk_dev *peer_dev;
	enum ibv_mtu mtu;
	uint8_t resp_res;        /* own responder resources */
	uint8_t init_depth;      /* own initiator depth */
	uint8_t retry_count;     /* the REQ's */
	uint8_t rnr_retry;       /* what the peer asked for */
	struct ibv_sa_path_rec path;
};

/* A list rdma_get_devices() handed out: librdmacm's contexts of the devices. */
struct fk_devlist {
	TAILQ_ENTRY(fk_devlist) next;
	struct ibv_context *ctx[FK_MAX_DEVS + 1];
};

/* The fabric: every object, one lock. */
struct fk_fabric {
	pthread_mutex_t lock;
	unsigned int nb_devs;
	struct fk_dev *devs[FK_MAX_DEVS];
	unsigned int nb_addrs;
	struct fk_addr addrs[FK_MAX_ADDRS];
	TAILQ_HEAD(, fk_ctx) ctxs;
	TAILQ_HEAD(, fk_pd) pds;
	TAILQ_HEAD(, fk_mr) mrs;
	TAILQ_HEAD(, fk_chan) chans;
	TAILQ_HEAD(, fk_cq) cqs;
	TAILQ_HEAD(, fk_srq) srqs;
	TAILQ_HEAD(, fk_qp) qps;
	TAILQ_HEAD(, fk_evch) evchs;
	TAILQ_HEAD(, fk_id) ids;
	TAILQ_HEAD(, fk_cmev) retrieved; /* rdma_cm events handed out, not acked */
	TAILQ_HEAD(, fk_devlist) devlists; /* rdma_get_devices() lists not freed */
	uint32_t next_key;
	uint32_t next_qpn;
	uint32_t next_handle;
	uint32_t next_psn;
	uint16_t next_port;
	uint64_t tick;
	bool delay;
	bool reorder;
	unsigned int fail_n[MLX5_FAKE_OP_MAX];
	int fail_err[MLX5_FAKE_OP_MAX];
	unsigned int lose_events;
	struct mlx5_fake_counters cnt;
};

extern struct fk_fabric fk;

/* mlx5_fake.c: the fabric */
void fk_lock(void);
void fk_unlock(void);
/** Consume one failure of op if injected: its errno, else 0. */
int fk_fault(enum mlx5_fake_op op);
/** Log a call rdma-core has undefined behaviour for, and count it. */
void fk_misuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fk_evfd_init(struct fk_evfd *e);
void fk_evfd_push(struct fk_evfd *e);
void fk_evfd_pop(struct fk_evfd *e);
void fk_evfd_close(struct fk_evfd *e);
/** Wait, without the lock, until e->fd is readable; -1 with errno EAGAIN if non-blocking. */
int fk_evfd_wait(int fd);
const struct fk_addr *fk_addr_find(const struct sockaddr *sa);
struct fk_dev *fk_dev_by_gid(const union ibv_gid *gid, unsigned int *port);
struct fk_ctx *fk_ctx_find(const struct ibv_context *c);
struct fk_pd *fk_pd_find(const struct ibv_pd *p);
struct fk_cq *fk_cq_find(const struct ibv_cq *c);
struct fk_qp *fk_qp_find(const struct ibv_qp *q);
struct fk_srq *fk_srq_find(const struct ibv_srq *s);
struct fk_id *fk_id_find(const struct rdma_cm_id *i);
struct fk_ctx *fk_ctx_new(struct fk_dev *dev, bool cm_owned);
struct fk_pd *fk_pd_new(struct fk_ctx *ctx);

/* mlx5_fake_verbs.c */
struct fk_qp *fk_qp_create(struct fk_pd *pd, struct ibv_qp_init_attr *attr, int *err);
int fk_qp_destroy(struct fk_qp *q);
int fk_qp_modify(struct fk_qp *q, struct ibv_qp_attr *attr, int mask);
int fk_gid_index(const struct fk_dev *dev, unsigned int port, const union ibv_gid *gid);

/* mlx5_fake_exec.c: the engine */
/** Run what can run; kick_cq/kick_all release WRITEs held by reordering. */
unsigned int fk_run(unsigned int max, const struct fk_cq *kick_cq, bool kick_all);
/** A tick of the synchronous mode (nothing in delay mode). */
void fk_sync_tick(const struct fk_cq *kick_cq);
/** Move q to ERR and flush; async: not asked by modify_qp. */
void fk_qp_err(struct fk_qp *q, bool async);
/** Flush what q has queued, if it is in ERR (after a post). */
void fk_qp_flush(struct fk_qp *q);
/** Drop q's completions from its CQs (destroy, reset), freeing their SRQ slots. */
void fk_cq_clean(struct fk_cq *cq, const struct fk_qp *q);
int fk_cq_poll(struct fk_cq *cq, int n, struct ibv_wc *wc);

/* mlx5_fake_cm.c */
void fk_cm_reset(void);
/** Disconnect every connection for which match(a, b, arg) is true, both ends. */
unsigned int fk_cm_drop(bool (*match)(const struct fk_id *a, const struct fk_id *b,
				      const void *arg), const void *arg);

/* the glue entries, by file */
extern const struct rte_comch_mlx5_glue fk_glue;
struct ibv_device **fk_get_device_list(int *num);
void fk_free_device_list(struct ibv_device **list);
const char *fk_get_device_name(struct ibv_device *device);
struct ibv_context *fk_open_device(struct ibv_device *device);
int fk_close_device(struct ibv_context *context);
int fk_query_device(struct ibv_context *context, struct ibv_device_attr *attr);
int fk_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr);
int fk_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid);
struct ibv_pd *fk_alloc_pd(struct ibv_context *context);
int fk_dealloc_pd(struct ibv_pd *pd);
struct ibv_mr *fk_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access);
int fk_dereg_mr(struct ibv_mr *mr);
struct ibv_comp_channel *fk_create_comp_channel(struct ibv_context *context);
int fk_destroy_comp_channel(struct ibv_comp_channel *channel);
struct ibv_cq *fk_create_cq(struct ibv_context *context, int cqe, void *cq_context,
			    struct ibv_comp_channel *channel, int comp_vector);
int fk_destroy_cq(struct ibv_cq *cq);
int fk_req_notify_cq(struct ibv_cq *cq, int solicited_only);
int fk_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context);
void fk_ack_cq_events(struct ibv_cq *cq, unsigned int nevents);
int fk_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
struct ibv_srq *fk_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *attr);
int fk_destroy_srq(struct ibv_srq *srq);
int fk_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
struct ibv_qp *fk_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
int fk_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask);
int fk_destroy_qp(struct ibv_qp *qp);
int fk_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
int fk_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
struct rdma_event_channel *fk_create_event_channel(void);
void fk_destroy_event_channel(struct rdma_event_channel *channel);
int fk_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context,
		 enum rdma_port_space ps);
int fk_destroy_id(struct rdma_cm_id *id);
int fk_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr);
int fk_listen(struct rdma_cm_id *id, int backlog);
int fk_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		    struct sockaddr *dst_addr, int timeout_ms);
int fk_resolve_route(struct rdma_cm_id *id, int timeout_ms);
int fk_cm_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd,
		    struct ibv_qp_init_attr *qp_init_attr);
void fk_cm_destroy_qp(struct rdma_cm_id *id);
int fk_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr, int *qp_attr_mask);
int fk_connect(struct rdma_cm_id *id, struct rdma_conn_param *param);
int fk_accept(struct rdma_cm_id *id, struct rdma_conn_param *param);
int fk_reject(struct rdma_cm_id *id, const void *private_data, uint8_t len);
int fk_disconnect(struct rdma_cm_id *id);
int fk_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event);
int fk_ack_cm_event(struct rdma_cm_event *event);
struct ibv_context **fk_rdma_get_devices(int *num);
void fk_rdma_free_devices(struct ibv_context **list);

#endif /* MLX5_FAKE_PRIV_H */
