/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_mbuf.h>
#include <rte_memory.h>
#include <rte_mempool.h>
#include <rte_pause.h>

#include "bench_memif.h"
#include "bench_msg.h"

#define BM_RING_LOG2 BENCH_MEMIF_RING_LOG2
#define BM_RING_SIZE BENCH_MEMIF_RING_SIZE
/* mbufs of a side's pool: its rings and the bursts in flight, whatever the size. */
#define BM_POOL_SIZE (4 * BM_RING_SIZE - 1)
#define BM_POOL_CACHE 256
/* One mbuf's data: memif's default buffer for small messages, whole messages up to this. */
#define BM_MIN_SEG 2048u
#define BM_MAX_SEG 32768u
/* Between two looks at the link, or for the server. */
#define BM_RETRY_US 1000
/* The longest bm_close() waits for EAL's interrupt thread (see intr_thread_sync()). */
#define BM_INTR_SYNC_S 2

/*
 * One mbuf's data for messages of len bytes. A longer message is a chain of a
 * power of two of them: memif (DPDK 22.11) copy mode sets a descriptor's
 * chained flag but never clears it, so a ring stays right only if every slot
 * always holds the same piece of a chain. With every message of a test the
 * same shape (bm_port.ctl_len) and chains that divide the ring, it does.
 */
static uint32_t
seg_size(uint32_t len)
{
	uint32_t k = rte_align32pow2((len + BM_MAX_SEG - 1) / BM_MAX_SEG);

	return RTE_MAX(RTE_ALIGN_CEIL((len + k - 1) / k, RTE_CACHE_LINE_SIZE), BM_MIN_SEG);
}

/* The test's socket, or the file that says the server's port is started. */
static int
test_path(struct bench_ctx *bc, const struct bench_test *t, const char *what, char *buf,
	  size_t len, struct bench_result *res)
{
	int n = snprintf(buf, len, "%s/memif-%u.%s", bc->opts->dir, t->id, what);

	if (n < 0 || (size_t)n >= len)
		return bench_fail(res, -ENAMETOOLONG, "runtime directory %s: path too long",
				  bc->opts->dir);
	return 0;
}

bool
bm_link_up(struct bm_port *p)
{
	struct rte_eth_link link;

	return rte_eth_link_get_nowait(p->port, &link) == 0 && link.link_status != 0;
}

/* Create the vdev: memif's server listens on the socket; its client connects at start. */
static int
plug(struct bm_port *p, struct bench_ctx *bc, const struct bench_test *t, bool server)
{
	char path[256], args[512];
	int ret;

	ret = test_path(bc, t, "sock", path, sizeof(path), p->res);
	if (ret == 0)
		ret = test_path(bc, t, "ready", p->ready, sizeof(p->ready), p->res);
	if (ret < 0)
		return ret;
	if (server) {
		unlink(path);
		unlink(p->ready);
	}
	snprintf(p->name, sizeof(p->name), "net_memif%u", t->id);
	snprintf(args, sizeof(args), "role=%s,id=0,socket=%s,socket-abstract=no,bsize=%" PRIu32
		 ",rsize=%u%s", server ? "server" : "client", path, p->seg, BM_RING_LOG2,
		 !server && t->transport == BENCH_TR_MEMIF_ZC ? ",zero-copy=yes" : "");
	ret = rte_eal_hotplug_add("vdev", p->name, args);
	if (ret < 0) {
		/* No memif driver at all: a DPDK built without it, or its plugin not loaded. */
		if (rte_eth_dev_get_port_by_name(p->name, &p->port) != 0 &&
		    (ret == -ENOENT || ret == -EINVAL || ret == -ENOTSUP))
			return -ENOTSUP;
		return bench_fail(p->res, ret, "memif vdev %s (%s): %s", p->name, args,
				  strerror(-ret));
	}
	p->plugged = true;
	ret = rte_eth_dev_get_port_by_name(p->name, &p->port);
	if (ret != 0)
		return bench_fail(p->res, -ENODEV, "memif vdev %s: no port", p->name);
	return 0;
}

static int
configure(struct bm_port *p)
{
	static const struct rte_eth_conf conf;
	char pool[RTE_MEMPOOL_NAMESIZE];
	int ret;

	snprintf(pool, sizeof(pool), "bm_%" PRIu16, p->port);
	p->mp = rte_pktmbuf_pool_create(pool, BM_POOL_SIZE, BM_POOL_CACHE, 0,
					RTE_PKTMBUF_HEADROOM + p->seg, SOCKET_ID_ANY);
	if (p->mp == NULL)
		return bench_fail(p->res, -rte_errno, "mbuf pool of %u x %" PRIu32 " bytes: %s",
				  BM_POOL_SIZE, p->seg, rte_strerror(rte_errno));
	ret = rte_eth_dev_configure(p->port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(p->port, 0, BM_RING_SIZE, SOCKET_ID_ANY, NULL, p->mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(p->port, 0, BM_RING_SIZE, SOCKET_ID_ANY, NULL);
	if (ret < 0)
		return bench_fail(p->res, ret, "memif port %s: configure: %s", p->name,
				  strerror(-ret));
	return 0;
}

/*
 * Start the port and wait for the link. memif's client gives up for good if
 * it connects before the server's port is started (and restarting a
 * zero-copy client does not work): the server says it is started with a file
 * next to its socket, which the client waits for.
 */
static int
start(struct bm_port *p, bool server)
{
	uint64_t deadline = rte_rdtsc() + BENCH_CONNECT_TIMEOUT_S * p->tsc_hz;
	struct stat st;
	int ret, fd;

	while (!server && stat(p->ready, &st) != 0) {
		if (rte_rdtsc() > deadline)
			return bench_fail(p->res, -ETIMEDOUT, "memif: no server at %s after %d s",
					  p->ready, BENCH_CONNECT_TIMEOUT_S);
		usleep(BM_RETRY_US);
	}
	ret = rte_eth_dev_start(p->port);
	if (ret < 0)
		return bench_fail(p->res, ret, "memif port %s: start: %s", p->name,
				  strerror(-ret));
	p->started = true;
	if (server) {
		fd = open(p->ready, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			return bench_fail(p->res, -errno, "memif: %s: %s", p->ready,
					  strerror(errno));
		close(fd);
	}
	while (!bm_link_up(p)) {
		if (rte_rdtsc() > deadline)
			return bench_fail(p->res, -ETIMEDOUT, "memif port %s: no link after %d s",
					  p->name, BENCH_CONNECT_TIMEOUT_S);
		usleep(BM_RETRY_US);
	}
	return 0;
}

/*
 * memif's zero-copy client (DPDK 22.11) hands the server EAL's own memory
 * file descriptors, then closes them once connected: the next zero-copy port
 * of the process would find them gone. Each is duplicated before the start
 * and put back in its place after, if memif closed it.
 */
static int
memseg_fd_collect(const struct rte_memseg_list *msl, const struct rte_memseg *ms, void *arg)
{
	struct bm_port *p = arg;
	int fd = rte_memseg_get_fd_thread_unsafe(ms);
	unsigned int i;

	if (fd < 0)
		return 0;
	for (i = 0; i < p->nb_saved; i++)
		if (p->saved[i].fd == fd)
			return 0;
	if (p->nb_saved == RTE_DIM(p->saved))
		return -1;
	p->saved[p->nb_saved].fd = fd;
	p->saved[p->nb_saved++].dup = -1;
	return 0;
}

static int
memseg_fds_save(struct bm_port *p)
{
	unsigned int i;

	if (rte_memseg_walk_thread_unsafe(memseg_fd_collect, p) != 0)
		return bench_fail(p->res, -E2BIG, "memif-zc: more than %zu memory files",
				  RTE_DIM(p->saved));
	for (i = 0; i < p->nb_saved; i++) {
		p->saved[i].dup = fcntl(p->saved[i].fd, F_DUPFD_CLOEXEC, 0);
		if (p->saved[i].dup < 0)
			return bench_fail(p->res, -errno, "memif-zc: dup: %s", strerror(errno));
	}
	return 0;
}

static int
memseg_fds_restore(struct bm_port *p)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < p->nb_saved; i++) {
		if (p->saved[i].dup < 0)
			continue;
		/* Closed by memif and not taken since: the same number, the same file. */
		if (ret == 0 && fcntl(p->saved[i].fd, F_GETFD) < 0 && errno == EBADF &&
		    dup2(p->saved[i].dup, p->saved[i].fd) < 0)
			ret = bench_fail(p->res, -errno, "memif-zc: restoring EAL's memory file "
					 "%d: %s", p->saved[i].fd, strerror(errno));
		close(p->saved[i].dup);
		p->saved[i].dup = -1;
	}
	p->nb_saved = 0;
	return ret;
}

int
bm_open(struct bm_port *p, struct bench_ctx *bc, const struct bench_test *t,
	struct bench_result *res, bool server)
{
	int ret;

	memset(p, 0, sizeof(*p));
	p->res = res;
	p->tsc_hz = bc->tsc_hz;
	p->server = server;
	p->len = t->size + BENCH_MSG_HDR_LEN;
	p->seg = seg_size(p->len);
	p->ctl_len = RTE_MAX(p->len, (uint32_t)BENCH_CTRL_MSG_ROOM);
	if ((p->len + p->seg - 1) / p->seg > BM_MAX_SEGS) {
		bench_skip(res, "memif: a message of %" PRIu32 " bytes is a chain of more than %u "
			   "mbufs of %" PRIu32 " bytes", p->len, BM_MAX_SEGS, p->seg);
		return -ENOTSUP;
	}
	ret = plug(p, bc, t, server);
	if (ret == -ENOTSUP) {
		bench_skip(res, "no memif PMD in this DPDK (net_memif)");
		return ret;
	}
	if (ret == 0)
		ret = configure(p);
	if (ret == 0 && !server && t->transport == BENCH_TR_MEMIF_ZC)
		ret = memseg_fds_save(p);
	if (ret == 0)
		ret = start(p, server);
	if (p->nb_saved != 0 && memseg_fds_restore(p) < 0)
		ret = p->res->status;
	return ret;
}

/* What intr_thread_sync() waits on: an eventfd that EAL's interrupt thread polls. */
struct bm_intr_sync {
	int fd;
	bool reached;
};

/* The eventfd's callback, on EAL's interrupt thread: it has come this far. */
static void
intr_thread_reached(void *arg)
{
	struct bm_intr_sync *s = arg;
	eventfd_t v;

	/* Read, or the thread would call again: epoll reports a readable fd until then. */
	(void)eventfd_read(s->fd, &v);
	__atomic_store_n(&s->reached, true, __ATOMIC_RELEASE);
}

/*
 * Wait until EAL's interrupt thread has returned from the callback it is in.
 * It runs its callbacks one after another: once it has run the callback of an
 * eventfd made readable now, whatever it was doing meanwhile is over. (Not an
 * alarm: DPDK 22.11 frees the alarms' interrupt handle at rte_eal_cleanup()
 * while that thread still polls it, and the process crashes as it exits.)
 */
static void
intr_thread_sync(struct bm_port *p)
{
	struct bm_intr_sync s = { .fd = -1, .reached = false };
	struct rte_intr_handle *ih;
	uint64_t deadline;
	int ret;

	ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	s.fd = eventfd(1, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ih == NULL || s.fd < 0 || rte_intr_fd_set(ih, s.fd) != 0 ||
	    rte_intr_type_set(ih, RTE_INTR_HANDLE_EXT) != 0) {
		bench_fail(p->res, -ENOMEM, "memif: no eventfd for EAL's interrupt thread");
		goto out;
	}
	ret = rte_intr_callback_register(ih, intr_thread_reached, &s);
	if (ret < 0) {
		bench_fail(p->res, ret, "memif: registering with EAL's interrupt thread: %s",
			   strerror(-ret));
		goto out;
	}
	deadline = rte_rdtsc() + BM_INTR_SYNC_S * p->tsc_hz;
	while (!__atomic_load_n(&s.reached, __ATOMIC_ACQUIRE) && rte_rdtsc() < deadline)
		usleep(BM_RETRY_US);
	if (!__atomic_load_n(&s.reached, __ATOMIC_ACQUIRE))
		bench_fail(p->res, -ETIMEDOUT, "memif: EAL's interrupt thread still busy %d s "
			   "after the link went down", BM_INTR_SYNC_S);
	/* -EAGAIN while the callback runs, which is short. */
	while (rte_intr_callback_unregister(ih, intr_thread_reached, &s) == -EAGAIN)
		rte_pause();
out:
	if (s.fd >= 0)
		close(s.fd);
	/* Some DPDK releases read the handle before they check it for NULL. */
	if (ih != NULL)
		rte_intr_instance_free(ih);
}

void
bm_close(struct bm_port *p)
{
	/*
	 * The peer gone, memif's interrupt thread tears the connection down
	 * (unmapping the peer's regions: the whole of a zero-copy client's
	 * memory) and marks the link down first; stopping the port meanwhile
	 * runs the same teardown on this thread, and the two race in EAL's
	 * interrupt list and memif's regions (DPDK 22.11: a crash in
	 * rte_eth_dev_stop(), about one run in ten of 1 MiB memif-zc with no
	 * wait; a server still died in that test now and then after a fixed
	 * wait of 20 ms). Wait for the interrupt thread to be done with it.
	 */
	if (p->started && !bm_link_up(p))
		intr_thread_sync(p);
	if (p->started)
		rte_eth_dev_stop(p->port);
	p->started = false;
	if (p->plugged) {
		rte_eth_dev_close(p->port);
		rte_eal_hotplug_remove("vdev", p->name);
	}
	p->plugged = false;
	if (p->server && p->ready[0] != '\0')
		unlink(p->ready);
	rte_mempool_free(p->mp);
	p->mp = NULL;
}

struct rte_mbuf *
bm_build(struct bm_port *p, uint32_t kind, uint64_t seq, uint32_t len)
{
	const struct bench_msg_hdr hdr = { .seq = seq, .kind = kind, .len = len };
	const uint8_t *src = bench_msg_pattern(seq);
	struct rte_mbuf *head, *m, *prev = NULL;
	uint32_t off = 0, n;

	head = rte_pktmbuf_alloc(p->mp);
	if (head == NULL)
		return NULL;
	for (m = head; ; ) {
		n = RTE_MIN(len - off, p->seg);
		/* The header first, then the pattern runs on across the segments. */
		if (m == head) {
			memcpy(rte_pktmbuf_mtod(m, uint8_t *), &hdr, sizeof(hdr));
			memcpy(rte_pktmbuf_mtod_offset(m, uint8_t *, sizeof(hdr)), src,
			       n - sizeof(hdr));
		} else {
			memcpy(rte_pktmbuf_mtod(m, uint8_t *), src + off - sizeof(hdr), n);
		}
		m->data_len = n;
		off += n;
		if (prev != NULL) {
			prev->next = m;
			head->nb_segs++;
		}
		prev = m;
		if (off == len)
			break;
		m = rte_pktmbuf_alloc(p->mp);
		if (m == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
	}
	head->pkt_len = len;
	return head;
}

int
bm_send(struct bm_port *p, struct rte_mbuf *m)
{
	uint64_t deadline = 0;

	if (m == NULL)
		return bench_fail(p->res, -ENOBUFS, "memif port %s: mbuf pool empty", p->name);
	while (rte_eth_tx_burst(p->port, 0, &m, 1) == 0) {
		if (deadline == 0)
			deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * p->tsc_hz;
		if (rte_rdtsc() > deadline || !bm_link_up(p)) {
			rte_pktmbuf_free(m);
			return bench_fail(p->res, -ETIMEDOUT, "memif port %s: %s", p->name,
					  bm_link_up(p) ? "ring full for 10 s" : "peer gone");
		}
	}
	return 0;
}

int
bm_recv(struct bm_port *p, struct rte_mbuf **m)
{
	uint64_t deadline = 0;
	unsigned int spins = 0;

	while (rte_eth_rx_burst(p->port, 0, m, 1) == 0) {
		/* The clock and the link, now and then: a round trip is well under this. */
		if (++spins % 4096 != 0)
			continue;
		if (deadline == 0)
			deadline = rte_rdtsc() + BENCH_REPLY_TIMEOUT_S * p->tsc_hz;
		if (!bm_link_up(p))
			return bench_fail(p->res, -ENOTCONN, "memif port %s: peer gone", p->name);
		if (rte_rdtsc() > deadline)
			return bench_fail(p->res, -ETIMEDOUT, "memif port %s: no answer for %d s",
					  p->name, BENCH_REPLY_TIMEOUT_S);
	}
	return 0;
}

unsigned int
bm_iov(const struct rte_mbuf *m, struct iovec *iov, unsigned int max)
{
	unsigned int n = 0;

	for (; m != NULL; m = m->next) {
		if (n == max)
			return 0;
		iov[n].iov_base = rte_pktmbuf_mtod(m, void *);
		iov[n++].iov_len = m->data_len;
	}
	return n;
}

int
bm_check(struct bm_port *p, const struct rte_mbuf *m, uint32_t kind, uint64_t seq,
	 uint32_t len)
{
	struct iovec iov[BM_MAX_SEGS];
	unsigned int n = bm_iov(m, iov, RTE_DIM(iov));

	if (n == 0)
		return bench_fail(p->res, -EBADMSG, "%s seq %" PRIu64 ": a chain of more than %u "
				  "mbufs", bench_msg_kind_name(kind), seq, BM_MAX_SEGS);
	return bench_msg_check_iov(iov, n, kind, seq, len, p->res);
}

/*
 * A message's length from its segments: memif's zero-copy receive leaves a
 * chain's pkt_len at its first segment's.
 */
static uint64_t
seg_len_sum(const struct rte_mbuf *m)
{
	uint64_t len = 0;

	for (; m != NULL; m = m->next)
		len += m->data_len;
	return len;
}

struct rte_mbuf *
bm_build_result(struct bm_port *p, uint64_t seq, const struct bench_msg_result *result)
{
	struct rte_mbuf *m = bm_build(p, BENCH_MSG_RESULT, seq, p->ctl_len);

	/* After the header, where the pattern would start: seg is larger than both. */
	if (m != NULL)
		memcpy(rte_pktmbuf_mtod_offset(m, void *, BENCH_MSG_HDR_LEN), result,
		       sizeof(*result));
	return m;
}

int
bm_request(struct bm_port *p, uint32_t ctl, uint64_t seq, uint32_t want)
{
	struct bench_msg_hdr hdr = { 0 };
	struct rte_mbuf *m;
	uint64_t len;
	int ret;

	ret = bm_send(p, bm_build(p, ctl, seq, p->ctl_len));
	if (ret == 0)
		ret = bm_recv(p, &m);
	if (ret < 0)
		return ret;
	if (want != BENCH_MSG_RESULT) {
		ret = bm_check(p, m, want, seq, p->ctl_len);
	} else {
		bench_msg_peek(rte_pktmbuf_mtod(m, uint8_t *), m->data_len, &hdr);
		len = seg_len_sum(m);
		ret = hdr.kind == BENCH_MSG_RESULT && hdr.seq == seq && hdr.len == p->ctl_len &&
		      len == p->ctl_len ? 0 : bench_fail(p->res, -EBADMSG, "expected RESULT for "
		      "%" PRIu64 " messages, got %s seq %" PRIu64 " of %" PRIu64 " bytes", seq,
		      bench_msg_kind_name(hdr.kind), hdr.seq, len);
		if (ret == 0)
			memcpy(&p->result, rte_pktmbuf_mtod_offset(m, void *, BENCH_MSG_HDR_LEN),
			       sizeof(p->result));
	}
	rte_pktmbuf_free(m);
	return ret;
}
