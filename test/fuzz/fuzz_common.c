/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* What the fuzz targets share: see fuzz_common.h. */

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_log.h>

#include "comch_test_common.h"
#include "fuzz_common.h"

/* COMCH_FUZZ_TRACE: print what the real side answers (to check a seed goes where it should). */
static bool fz_trace;

unsigned int
fz_split(const uint8_t *data, size_t size, struct fz_record *recs, unsigned int max)
{
	unsigned int n = 0;
	size_t len;

	while (size >= FZ_HDR && n < max) {
		recs[n].flags = data[0];
		recs[n].kinds = (uint16_t)(data[1] | data[2] << 8);
		len = RTE_MIN((size_t)data[3], size - FZ_HDR);
		recs[n].payload = data + FZ_HDR;
		recs[n].len = len;
		data += FZ_HDR + len;
		size -= FZ_HDR + len;
		n++;
	}
	return n;
}

void
fz_session_init(struct fz_session *s, int fd)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->last_reply = -1;
}

void
fz_session_fini(struct fz_session *s)
{
	unsigned int i;

	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	for (i = 0; i < s->nb_rings; i++)
		shm_ring_release(&s->rings[i]);
	s->nb_rings = 0;
}

void
fz_pump(unsigned int rounds)
{
	unsigned int i;

	for (i = 0; i < rounds; i++)
		rte_comch_pe_progress(pe);
}

/* The engine polls sockets and doorbells once per slow tick (COMCH_PE_SLOW_TICK_US). */
#define FZ_TICK_US 110
#define FZ_SETTLE_MAX_US 10000

void
fz_settle(unsigned int ticks)
{
	uint64_t hz = rte_get_tsc_hz(), now = rte_rdtsc();
	uint64_t quiet = hz / 1000000 * FZ_TICK_US * ticks;
	uint64_t end = now + quiet, bound = now + hz / 1000000 * FZ_SETTLE_MAX_US;

	/*
	 * A message takes a slow tick or more to be read, then maybe more to be
	 * answered: go on until ticks slow ticks in a row did nothing, within a
	 * bound that keeps an input's cost small.
	 */
	while (now < end && now < bound) {
		if (rte_comch_pe_progress(pe) > 0)
			end = now + quiet;
		now = rte_rdtsc();
	}
}

/* A sealed memfd of len bytes; with the header of a post ring when hdr is not NULL. */
static int
fz_memfd(size_t len, const struct shm_fp_hdr *hdr)
{
	int fd = sealed_memfd(len, true);
	void *p;

	if (hdr != NULL && len >= sizeof(*hdr)) {
		p = map_fd(fd, len);
		memcpy(p, hdr, sizeof(*hdr));
		munmap(p, len);
	}
	return fd;
}

/*
 * A descriptor of the kind asked, sized after what m says where that matters,
 * so the fuzzer can give the server what it expects (or almost). *ring is the
 * ring made for this message, if any, for the doorbell that goes with it.
 */
static int
fz_make_fd(struct fz_session *s, enum fz_fd_kind kind, const struct shm_msg *m,
	   struct shm_ring **ring)
{
	struct comch_ctl_msg c;
	struct shm_fp_hdr hdr;
	struct shm_ring *r;
	uint32_t max_msg, nb;
	int sv[2], fd;

	memcpy(&c, m->ctl.msg, sizeof(c));
	switch (kind) {
	case FZ_FD_RING:
		/* The geometry the receiver will check: queue from this message, size agreed. */
		max_msg = s->peer_max_msg != 0 ? s->peer_max_msg : m->max_msg_size;
		if (s->nb_rings < FZ_MAX_RINGS && m->recv_queue_size <= SHM_MAX_RECV_QUEUE &&
		    max_msg <= SHM_MAX_MSG_SIZE) {
			r = &s->rings[s->nb_rings];
			if (shm_ring_create(r, m->recv_queue_size, max_msg, false) == 0) {
				s->nb_rings++;
				*ring = r;
				fd = r->memfd;
				r->memfd = -1; /* the caller closes it once sent */
				return fd;
			}
		}
		return fz_memfd(4096, NULL);
	case FZ_FD_BELL:
		if (*ring != NULL && (*ring)->peer_bell >= 0) {
			fd = (*ring)->peer_bell;
			(*ring)->peer_bell = -1;
			return fd;
		}
		if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0)
			abort();
		close(sv[0]);
		return sv[1];
	case FZ_FD_MEM:
		return fz_memfd(c.mem_len <= (1u << 20) ? c.mem_len : 4096, NULL);
	case FZ_FD_FPRING:
		nb = c.nb_posts != 0 && c.nb_posts <= 4096 ? rte_align32pow2(c.nb_posts) : 8;
		memset(&hdr, 0, sizeof(hdr));
		hdr.magic = SHM_FP_MAGIC;
		hdr.version = SHM_PROTO_VERSION;
		hdr.nb_slots = nb;
		hdr.imm_len = c.imm_len;
		return fz_memfd(shm_fp_ring_bytes(nb, 0), &hdr);
	case FZ_FD_EVENTFD:
		fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (fd < 0)
			abort();
		return fd;
	case FZ_FD_UNSEALED:
		return sealed_memfd(4096, false);
	case FZ_FD_PIPE:
		if (pipe2(sv, O_CLOEXEC) < 0)
			abort();
		close(sv[1]);
		return sv[0];
	case FZ_FD_STREAM:
	default:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
			abort();
		close(sv[0]);
		return sv[1];
	}
}

void
fz_drain(struct fz_session *s)
{
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[SHM_MAX_FDS];
	int rc;

	while (!s->closed) {
		rc = shm_msg_recv(s->fd, &m, fds, SHM_MAX_FDS, &nb_fds);
		if (rc == -EAGAIN)
			return;
		if (rc == -ECONNRESET) {
			s->closed = true;
			s->last_reply = 0;
			return;
		}
		if (rc < 0) {
			/* The real side must only ever send well-formed messages. */
			fprintf(stderr, "fuzz: the real peer sent a malformed message: %s\n",
				strerror(-rc));
			abort();
		}
		s->nb_replies++;
		s->last_reply = m.type;
		if (fz_trace)
			fprintf(stderr, "fuzz: got type %u status %d ctl %u/%u, %u fds\n", m.type,
				m.status, m.ctl_len >= 2 ? m.ctl.msg[1] : 0,
				m.ctl_len >= 8 ? m.ctl.msg[4] : 0, nb_fds);
		if ((m.type == SHM_MSG_ACCEPT || m.type == SHM_MSG_HELLO) && m.max_msg_size != 0)
			s->peer_max_msg = m.max_msg_size;
		if (m.type == SHM_MSG_ACCEPT || m.type == SHM_MSG_HELLO)
			s->peer_queue = m.recv_queue_size;
		shm_close_fds(fds, nb_fds);
	}
}

bool
fz_send_record(struct fz_session *s, const struct fz_record *r, fz_fix_t fix, void *arg)
{
	unsigned int nb_fds = r->flags & FZ_F_NB_FDS, i, tries;
	struct shm_ring *ring = NULL;
	int fds[FZ_MAX_FDS];
	struct shm_msg m;
	const void *buf;
	size_t len;
	int rc;

	if (s->closed)
		return false;
	memset(&m, 0, sizeof(m));
	memcpy(&m, r->payload, RTE_MIN(r->len, sizeof(m)));
	if ((r->flags & FZ_F_RAW) == 0) {
		m.magic = SHM_MAGIC;
		m.version = SHM_PROTO_VERSION;
		if (fix != NULL)
			fix(&m, r, arg);
		buf = &m;
		len = sizeof(m);
	} else {
		buf = r->payload;
		len = r->len;
	}
	for (i = 0; i < nb_fds; i++)
		fds[i] = fz_make_fd(s, (r->kinds >> (3 * i)) & 7, &m, &ring);
	for (tries = 0; ; tries++) {
		/* Any bytes, any descriptors (shm_msg_send() sends only good ones). */
		rc = (int)RTE_MIN(shm_sendmsg_fds(s->fd, buf, len, fds, nb_fds), 0);
		if (rc != -EAGAIN || tries == 64)
			break;
		/* The receiver's socket buffer is full: let it read. */
		fz_settle(1);
		fz_drain(s);
	}
	for (i = 0; i < nb_fds; i++)
		close(fds[i]);
	if (rc == -EPIPE || rc == -ECONNRESET) {
		s->closed = true;
		return false;
	}
	fz_settle((r->flags & FZ_F_WAIT) != 0 ? 8 : 2);
	fz_drain(s);
	return !s->closed;
}

void
fz_fix_common(struct shm_msg *m, const struct fz_record *r, void *arg)
{
	struct comch_ctl_msg c;

	RTE_SET_USED(arg);
	if ((r->flags & FZ_F_ALT) != 0)
		return;
	/* The right name, or the fuzzer spends its time finding it. */
	if (m->type == SHM_MSG_HELLO)
		snprintf(m->name, sizeof(m->name), "%s", SERVER_NAME);
	if (m->type == SHM_MSG_CTL) {
		m->ctl_len = sizeof(c);
		memcpy(&c, m->ctl.msg, sizeof(c));
		c.version = COMCH_CTL_VERSION;
		memcpy(m->ctl.msg, &c, sizeof(c));
	}
}

static void
fz_list_fds(void)
{
	char path[64], target[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	ssize_t n;

	while (d != NULL && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		fprintf(stderr, "  fd %s -> %s\n", de->d_name, target);
	}
	if (d != NULL)
		closedir(d);
}

void
fz_check_fds(unsigned int before, const char *what)
{
	unsigned int i, now = 0;

	for (i = 0; i < 2000; i++) {
		now = count_fds();
		if (now <= before)
			return;
		fz_pump(16);
		if (i >= 100)
			usleep(100);
	}
	fprintf(stderr, "fuzz: %s: %u descriptors open after the input, %u before\n", what, now,
		before);
	fz_list_fds();
	abort();
}

/* The next message of the real side, progressing in rounds: its type, 0 if it closed. */
int
fz_reply(int fd, struct shm_msg *m, int *fds, unsigned int *nb_fds)
{
	unsigned int i;
	int rc;

	for (i = 0; i < 100000; i++) {
		fz_pump(1);
		rc = shm_msg_recv(fd, m, fds, SHM_MAX_FDS, nb_fds);
		if (rc == 0)
			return m->type;
		if (rc == -ECONNRESET)
			return 0;
		if (rc != -EAGAIN) {
			fprintf(stderr, "fuzz: the real peer sent a malformed message\n");
			abort();
		}
		if (i >= 1000)
			usleep(10);
	}
	fprintf(stderr, "fuzz: the real peer neither answered nor closed\n");
	abort();
}

void
fz_peer_connect(struct raw_peer *p)
{
	unsigned int i, nb_fds, before = nb_connects;
	struct shm_msg m, accept;
	int sfds[SHM_MAX_FDS], fds[2];

	p->fd = raw_connect();
	shm_msg_init(&m, SHM_MSG_HELLO);
	snprintf(m.name, sizeof(m.name), "%s", SERVER_NAME);
	m.recv_queue_size = 8;
	if (shm_msg_send(p->fd, &m, NULL, 0) != 0 ||
	    fz_reply(p->fd, &accept, sfds, &nb_fds) != SHM_MSG_ACCEPT || nb_fds != 2 ||
	    shm_ring_attach(&p->tx, sfds[0], sfds[1], accept.recv_queue_size,
			    accept.max_msg_size, false) != 0 ||
	    shm_ring_create(&p->rx, 8, accept.max_msg_size, false) != 0)
		goto fail;
	shm_msg_init(&m, SHM_MSG_READY);
	m.recv_queue_size = 8;
	fds[0] = p->rx.memfd;
	fds[1] = p->rx.peer_bell;
	if (shm_msg_send(p->fd, &m, fds, 2) != 0)
		goto fail;
	/* Ours to close: the server has its copies. */
	shm_ring_handed_over(&p->rx);
	for (i = 0; i < 100000 && nb_connects == before; i++)
		fz_pump(1);
	if (nb_connects != before + 1)
		goto fail;
	return;
fail:
	fprintf(stderr, "fuzz: a correct handshake failed\n");
	abort();
}

void
fz_peer_close(struct raw_peer *p)
{
	close(p->fd);
	p->fd = -1;
	shm_ring_release(&p->rx);
	shm_ring_release(&p->tx);
}

static char fz_rundir[PATH_MAX];

static int
fz_rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	RTE_SET_USED(sb);
	RTE_SET_USED(flag);
	RTE_SET_USED(ftw);
	remove(path);
	return 0;
}

/*
 * libFuzzer ends with exit(): remove the socket and runtime directories then.
 * EAL is not cleaned up, the server may be in any state the last input left.
 */
static void
fz_at_exit(void)
{
	if (fz_rundir[0] != '\0')
		nftw(fz_rundir, fz_rm_one, 8, FTW_DEPTH | FTW_PHYS);
	if (ct_dir()[0] != '\0')
		nftw(ct_dir(), fz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void
fz_init(const char *domain)
{
	/* A failed cmocka assertion in the shared helpers: a crash libFuzzer reports. */
	setenv("CMOCKA_TEST_ABORT", "1", 1);
	if (ct_group_setup(NULL) < 0)
		abort();
	snprintf(fz_rundir, sizeof(fz_rundir), "%s", rte_eal_get_runtime_dir());
	atexit(fz_at_exit);
	/* Every refused message is logged: at fuzzing speed that is all the time goes to. */
	fz_trace = getenv("COMCH_FUZZ_TRACE") != NULL;
	if (getenv("COMCH_FUZZ_LOG") == NULL)
		rte_log_set_global_level(RTE_LOG_CRIT);
	if (raw_server_open(domain, "") < 0) {
		fprintf(stderr, "fuzz: cannot open the stage\n");
		abort();
	}
}

void
fz_check_server(unsigned int *iter)
{
	enum rte_comch_ctx_state st;

	if (rte_comch_ctx_get_state(rte_comch_server_as_ctx(srv), &st) != 0 ||
	    st != RTE_COMCH_CTX_STATE_RUNNING) {
		fprintf(stderr, "fuzz: a peer stopped the server (state %d)\n", (int)st);
		abort();
	}
	/* Now and then, a well-behaved client must still be served (a few ms). */
	if ((++*iter & 255) == 0)
		good_client_roundtrip();
}

/* Stop ctx, progressing until it is idle; abort() if it never gets there. */
void
fz_stop_wait(struct rte_comch_ctx *ctx, const char *what)
{
	enum rte_comch_ctx_state s = RTE_COMCH_CTX_STATE_RUNNING;
	unsigned int i;

	rte_comch_ctx_stop(ctx);
	for (i = 0; i < 50000; i++) {
		if (rte_comch_ctx_get_state(ctx, &s) == 0 && s == RTE_COMCH_CTX_STATE_IDLE)
			return;
		fz_pump(1);
		if (i >= 1000)
			usleep(100);
	}
	fprintf(stderr, "fuzz: the server's %s never stopped (state %d)\n", what, (int)s);
	abort();
}
