/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Server side: owns its name with a lock file, listens on an owner-only socket in
 * its representor's directory, and carries the handshake:
 *   client HELLO (name, limits)     -> offered to the library
 *   the library's verdict           -> ACCEPT (limits, server ring) or REJECT
 *   client READY (client ring)      -> the connection is up
 * The library decides who is admitted; this file only moves the messages, and
 * keeps what each handshake came to in a list of events for the next poll.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "shm_internal.h"

#define SHM_ACCEPT_BURST 64

struct shm_server {
	struct shm_dev *sd;
	const char *name;
	char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char lock_path[PATH_MAX];
	int lock_fd;
	struct rte_comch_drv_fd listen;
	struct rte_comch_pe *pe;
	uint32_t max_pending;
	uint64_t hs_tsc;                   /* a handshake's time limit, in TSC */
	LIST_HEAD(, shm_conn) pending;     /* handshakes under way */
	uint32_t nb_pending;
	TAILQ_HEAD(, shm_conn) events;     /* handshakes with an event for the library */
	uint32_t nb_dropped;               /* dropped before any offer, not yet reported */
	int drop_status;
	uint32_t nb_refused;               /* refused for a budget (-EUSERS), not yet reported */
};

static int
shm_server_create(void *dev, const struct rte_comch_drv_server_conf *conf, void **priv)
{
	struct shm_dev *sd = dev;
	char rep_dir[PATH_MAX];
	struct shm_server *ss;
	int rc;

	ss = calloc(1, sizeof(*ss));
	if (ss == NULL)
		return -ENOMEM;
	ss->sd = sd;
	ss->name = conf->name;
	ss->listen.fd = -1;
	ss->max_pending = conf->max_pending;
	ss->hs_tsc = rte_get_tsc_hz() / 1000 * conf->handshake_ms;
	LIST_INIT(&ss->pending);
	TAILQ_INIT(&ss->events);
	if (snprintf(rep_dir, sizeof(rep_dir), "%s/%s", sd->dir, conf->rep_name) >=
	    (int)sizeof(rep_dir)) {
		rc = -ENAMETOOLONG;
		goto fail;
	}
	rc = shm_mkdir_private(rep_dir, NULL);
	if (rc == 0)
		rc = shm_path(ss->sock_path, sizeof(ss->sock_path), sd->dir, conf->rep_name,
			      conf->name, "sock");
	if (rc == 0)
		rc = shm_path(ss->lock_path, sizeof(ss->lock_path), sd->dir, conf->rep_name,
			      conf->name, "lock");
	if (rc < 0)
		goto fail;
	/* The kernel drops the lock when we die, so a dead server's name is free at once. */
	ss->lock_fd = open(ss->lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (ss->lock_fd < 0) {
		rc = -errno;
		SHM_LOG(ERR, "open %s: %s", ss->lock_path, strerror(errno));
		goto fail;
	}
	if (flock(ss->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		rc = errno == EWOULDBLOCK ? -EEXIST : -errno;
		SHM_LOG(ERR, "server name \"%s\" on %s: %s", conf->name, conf->rep_name,
			rc == -EEXIST ? "taken by a live server" : strerror(errno));
		close(ss->lock_fd);
		goto fail;
	}
	shm_fds_keep(1);
	*priv = ss;
	return 0;
fail:
	free(ss);
	return rc;
}

static void
shm_server_destroy(void *srv)
{
	struct shm_server *ss = srv;

	/* The lock file stays: unlinking it would let two servers lock two inodes. */
	close(ss->lock_fd);
	shm_fds_keep(-1);
	free(ss);
}

static void
shm_server_forget(struct shm_server *ss, struct shm_conn *sc)
{
	LIST_REMOVE(sc, next);
	ss->nb_pending--;
	if (sc->ev != 0)
		TAILQ_REMOVE(&ss->events, sc, ev_next);
	sc->ev = 0;
}

/* A handshake that ended before the library heard of it: counted, reported as one. */
static void
shm_server_drop(struct shm_server *ss, struct shm_conn *sc, int status, const char *why)
{
	SHM_LOG(NOTICE, "server \"%s\": dropping a client's handshake: %s", ss->name, why);
	ss->nb_dropped++;
	ss->drop_status = status;
	shm_server_forget(ss, sc);
	shm_conn_free(sc);
}

/*
 * A handshake of a process over its budget of connections, at its HELLO
 * (answered REJECT) or at its time limit: reported as refused for a budget
 * (shm_peer_join() logged it).
 */
static void
shm_server_refuse(struct shm_server *ss, struct shm_conn *sc, bool answer)
{
	if (answer)
		(void)shm_conn_send_msg(sc, SHM_MSG_REJECT, ECONNREFUSED);
	ss->nb_refused++;
	shm_server_forget(ss, sc);
	shm_conn_free(sc);
}

/* What a handshake came to, for the library's next poll. */
static void
shm_server_event(struct shm_server *ss, struct shm_conn *sc,
		 enum rte_comch_drv_srv_event_type ev, int status)
{
	sc->ev = ev;
	sc->ev_status = status;
	TAILQ_INSERT_TAIL(&ss->events, sc, ev_next);
}

/* An answered handshake failed: the library hears of it, then it goes. */
static void
shm_server_failed(struct shm_server *ss, struct shm_conn *sc, int status, const char *why)
{
	SHM_LOG(NOTICE, "server \"%s\": a client's handshake failed: %s", ss->name, why);
	shm_conn_release(sc);
	shm_server_event(ss, sc, RTE_COMCH_DRV_SRV_FAILED, status);
}

/* HELLO: the client's offer goes to the library, which answers with shm_server_answer(). */
static void
shm_server_on_hello(struct shm_server *ss, struct shm_conn *sc, const struct shm_msg *m)
{
	struct rte_comch_drv_offer *o = &sc->offer;

	/* The name's length is the library's to judge: copy all, keep it terminated. */
	memset(o->name, 0, sizeof(o->name));
	memcpy(o->name, m->name, RTE_MIN(sizeof(m->name), sizeof(o->name) - 1));
	if (strnlen(m->name, sizeof(m->name)) == sizeof(m->name))
		o->name[0] = '\0'; /* no NUL: a name no server has */
	o->max_msg_size = m->max_msg_size;
	o->recv_queue_size = m->recv_queue_size;
	sc->state = SHM_CONN_WAIT_ANSWER;
	shm_server_event(ss, sc, RTE_COMCH_DRV_SRV_OFFER, 0);
}

/* READY: map the client's ring; the connection is up. */
static void
shm_server_on_ready(struct shm_server *ss, struct shm_conn *sc, int *fds, unsigned int nb_fds)
{
	if (shm_conn_attach_tx(sc, fds, nb_fds) < 0) {
		(void)shm_conn_send_msg(sc, SHM_MSG_BYE, EPROTO);
		shm_server_failed(ss, sc, -EPROTO, "its ring is not usable");
	} else if (shm_conn_up(sc) < 0) {
		shm_server_failed(ss, sc, -ENOMEM, "cannot watch its doorbell");
	} else {
		shm_server_event(ss, sc, RTE_COMCH_DRV_SRV_UP, 0);
	}
}

void
shm_server_on_msg(struct shm_conn *sc, int rc, const struct shm_msg *m, int *fds,
		  unsigned int nb_fds)
{
	struct shm_server *ss = sc->srv;

	if (sc->over_budget) {
		shm_close_fds(fds, nb_fds);
		shm_server_refuse(ss, sc, rc == 0);
		return;
	}
	if (rc < 0) {
		if (sc->state == SHM_CONN_WAIT_READY)
			shm_server_failed(ss, sc, rc, rc == -EPROTO ? "garbled message" :
					  "client left");
		else
			shm_server_drop(ss, sc, rc, rc == -EPROTO ? "garbled message" :
					"client left");
	} else if (sc->state == SHM_CONN_WAIT_HELLO && m->type == SHM_MSG_HELLO) {
		shm_server_on_hello(ss, sc, m);
	} else if (sc->state == SHM_CONN_WAIT_READY && m->type == SHM_MSG_READY) {
		shm_server_on_ready(ss, sc, fds, nb_fds);
	} else {
		shm_close_fds(fds, nb_fds);
		(void)shm_conn_send_msg(sc, SHM_MSG_REJECT, EPROTO);
		if (sc->state == SHM_CONN_WAIT_READY)
			shm_server_failed(ss, sc, -EPROTO, "unexpected message");
		else if (sc->state == SHM_CONN_WAIT_HELLO)
			shm_server_drop(ss, sc, -EPROTO, "unexpected message");
		/* WAIT_ANSWER: the library's answer is due; it goes then. */
		else
			sc->hs_result = -EPROTO;
	}
}

static void
shm_server_answer(void *srv, void *hs, int status, const struct rte_comch_drv_conn_params *agreed)
{
	struct shm_server *ss = srv;
	struct shm_conn *sc = hs;
	struct shm_msg reply;
	int fds[2];

	if (status == 0 && sc->hs_result == -EPROTO)
		status = EPROTO; /* it spoke out of turn meanwhile */
	if (status != 0) {
		(void)shm_conn_send_msg(sc, SHM_MSG_REJECT, status);
		shm_server_forget(ss, sc);
		shm_conn_free(sc);
		return;
	}
	sc->max_msg = agreed->max_msg_size;
	sc->peer_queue = agreed->peer_queue_size;
	sc->recv_queue = agreed->recv_queue_size;
	sc->state = SHM_CONN_WAIT_READY;
	if (shm_conn_create_rx(sc, sc->recv_queue) < 0) {
		(void)shm_conn_send_msg(sc, SHM_MSG_REJECT, ENOMEM);
		shm_server_failed(ss, sc, -ENOMEM, "out of memory for its ring");
		return;
	}
	shm_msg_init(&reply, SHM_MSG_ACCEPT);
	reply.max_msg_size = sc->max_msg;
	reply.recv_queue_size = sc->recv_queue;
	fds[0] = sc->rx.memfd;
	fds[1] = sc->rx.peer_bell;
	if (shm_msg_send(sc->sock.fd, &reply, fds, 2) < 0) {
		shm_server_failed(ss, sc, -ECONNRESET, "client left");
		return;
	}
	shm_ring_handed_over(&sc->rx);
}

/*
 * A new client's connection, counted against its process; if that process
 * has its budget of connections already, one to refuse with REJECT
 * (ECONNREFUSED: final for the client's library) at its HELLO. NULL if out of
 * memory.
 */
static struct shm_conn *
shm_server_admit(struct shm_server *ss, int fd, pid_t pid)
{
	struct shm_peer *peer = NULL;
	struct shm_conn *sc;
	int rc;

	rc = shm_peer_join(ss->sd, pid, ss->sd->proc_conns, &peer);
	if (rc < 0 && rc != -EUSERS) {
		close(fd);
		return NULL;
	}
	sc = shm_conn_new(ss->sd, ss->pe, fd, peer);
	if (sc != NULL)
		sc->over_budget = rc == -EUSERS;
	return sc;
}

static void
shm_server_accept_handler(struct rte_comch_drv_fd *pfd, uint32_t events)
{
	struct shm_server *ss = pfd->arg;
	struct shm_conn *sc;
	struct ucred cred;
	int i, fd;

	for (i = 0; i < SHM_ACCEPT_BURST; i++) {
		/* Half-open handshakes cost descriptors: no more of them than clients allowed. */
		if (ss->nb_pending >= ss->max_pending)
			return;
		fd = accept4(ss->listen.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		/* Only our own user (or root) may talk to us, whatever the socket's mode says. */
		if (shm_peer_cred(fd, &cred) < 0 || (cred.uid != geteuid() && cred.uid != 0)) {
			SHM_LOG(WARNING, "server \"%s\": refusing a process of another user",
				ss->name);
			ss->nb_dropped++;
			ss->drop_status = -EPERM;
			close(fd);
			continue;
		}
		sc = shm_server_admit(ss, fd, cred.pid);
		if (sc == NULL)
			continue;
		sc->srv = ss;
		sc->state = SHM_CONN_WAIT_HELLO;
		sc->deadline = rte_rdtsc() + ss->hs_tsc;
		LIST_INSERT_HEAD(&ss->pending, sc, next);
		ss->nb_pending++;
	}
}

static int
shm_server_start(void *srv, struct rte_comch_pe *pe)
{
	struct shm_server *ss = srv;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, rc;

	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strlcpy(addr.sun_path, ss->sock_path, sizeof(addr.sun_path));
	/* We hold the name's lock: a socket file left there is a dead server's. */
	unlink(ss->sock_path);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    chmod(ss->sock_path, 0600) < 0 || listen(fd, SOMAXCONN) < 0) {
		rc = -errno;
		SHM_LOG(ERR, "cannot listen on %s: %s", ss->sock_path, strerror(errno));
		close(fd);
		unlink(ss->sock_path);
		return rc;
	}
	shm_fds_keep(1);
	ss->pe = pe;
	ss->listen.fd = fd;
	ss->listen.handler = shm_server_accept_handler;
	ss->listen.arg = ss;
	rc = rte_comch_drv_pe_fd_add(pe, &ss->listen);
	if (rc < 0) {
		close(fd);
		shm_fds_keep(-1);
		unlink(ss->sock_path);
		ss->listen.fd = -1;
		return rc;
	}
	SHM_LOG(INFO, "server \"%s\" listening on %s", ss->name, ss->sock_path);
	return 0;
}

static void
shm_server_stop(void *srv)
{
	struct shm_server *ss = srv;
	struct shm_conn *sc;

	if (ss->listen.fd >= 0) {
		rte_comch_drv_pe_fd_del(ss->pe, &ss->listen);
		close(ss->listen.fd);
		shm_fds_keep(-1);
		unlink(ss->sock_path);
		ss->listen.fd = -1;
	}
	while ((sc = LIST_FIRST(&ss->pending)) != NULL) {
		shm_server_forget(ss, sc);
		shm_conn_free(sc);
	}
	ss->nb_dropped = 0;
	ss->nb_refused = 0;
}

/* Up to max DROPPED events of status, taken from *count: how many. */
static unsigned int
shm_server_dropped(struct rte_comch_drv_srv_event *ev, unsigned int max, uint32_t *count,
		   int status)
{
	unsigned int n;

	for (n = 0; *count != 0 && n < max; n++, (*count)--) {
		ev[n].type = RTE_COMCH_DRV_SRV_DROPPED;
		ev[n].hs = NULL;
		ev[n].status = status;
	}
	return n;
}

static unsigned int
shm_server_poll(void *srv, struct rte_comch_drv_srv_event *ev, unsigned int max, uint64_t now)
{
	struct shm_server *ss = srv;
	struct shm_conn *sc, *tmp;
	unsigned int n;

	/* Handshakes that take too long: drop them, whoever's turn it is. */
	for (sc = LIST_FIRST(&ss->pending); sc != NULL; sc = tmp) {
		tmp = LIST_NEXT(sc, next);
		if (now < sc->deadline)
			continue;
		if (sc->over_budget)
			shm_server_refuse(ss, sc, false);
		else if (sc->state == SHM_CONN_WAIT_HELLO)
			shm_server_drop(ss, sc, -ETIMEDOUT, "the client took too long");
		else if (sc->state == SHM_CONN_WAIT_READY && sc->ev == 0)
			shm_server_failed(ss, sc, -ETIMEDOUT, "the client took too long");
	}
	n = shm_server_dropped(ev, max, &ss->nb_refused, -EUSERS);
	n += shm_server_dropped(ev + n, max - n, &ss->nb_dropped, ss->drop_status);
	while (n < max && (sc = TAILQ_FIRST(&ss->events)) != NULL) {
		TAILQ_REMOVE(&ss->events, sc, ev_next);
		ev[n].type = sc->ev;
		ev[n].hs = sc;
		ev[n].status = sc->ev_status;
		sc->ev = 0;
		switch (ev[n].type) {
		case RTE_COMCH_DRV_SRV_OFFER:
			ev[n].offer = sc->offer;
			break;
		case RTE_COMCH_DRV_SRV_UP:
			ev[n].params.max_msg_size = sc->max_msg;
			ev[n].params.peer_queue_size = sc->peer_queue;
			ev[n].params.recv_queue_size = sc->recv_queue;
			LIST_REMOVE(sc, next);
			ss->nb_pending--;
			sc->srv = NULL;
			break;
		default: /* FAILED: the handshake goes */
			LIST_REMOVE(sc, next);
			ss->nb_pending--;
			shm_conn_free(sc);
			ev[n].hs = NULL;
			break;
		}
		n++;
	}
	return n;
}

const struct rte_comch_drv_server_ops shm_server_ops = {
	.create = shm_server_create,
	.destroy = shm_server_destroy,
	.start = shm_server_start,
	.stop = shm_server_stop,
	.poll = shm_server_poll,
	.answer = shm_server_answer,
};
