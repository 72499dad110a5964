/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Server side: owns its name with a lock file, listens on an owner-only socket in
 * its representor's directory, and runs the handshake:
 *   client HELLO (name, limits) -> server ACCEPT (limits, server ring)
 *   -> client READY (client ring) -> connection up.
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

#include "shm_internal.h"

#define SHM_ACCEPT_BURST 64

struct shm_server {
	char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char lock_path[PATH_MAX];
	int lock_fd;
	struct comch_pe_fd listen;
	LIST_HEAD(, shm_conn) pending;
	uint32_t nb_pending;
};

int
shm_server_create(struct rte_comch_server *srv)
{
	const struct shm_dev *sd = srv->ctrl.ctx.dev->priv;
	char rep_dir[PATH_MAX];
	struct shm_server *ss;
	int rc;

	ss = calloc(1, sizeof(*ss));
	if (ss == NULL)
		return -ENOMEM;
	ss->listen.fd = -1;
	LIST_INIT(&ss->pending);
	if (snprintf(rep_dir, sizeof(rep_dir), "%s/%s", sd->dir, srv->rep->name) >=
	    (int)sizeof(rep_dir)) {
		rc = -ENAMETOOLONG;
		goto fail;
	}
	rc = shm_mkdir_private(rep_dir);
	if (rc < 0)
		goto fail;
	rc = shm_path(ss->sock_path, sizeof(ss->sock_path), sd->dir, srv->rep->name,
		      srv->ctrl.name, "sock");
	if (rc == 0)
		rc = shm_path(ss->lock_path, sizeof(ss->lock_path), sd->dir, srv->rep->name,
			      srv->ctrl.name, "lock");
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
		SHM_LOG(ERR, "server name \"%s\" on %s: %s", srv->ctrl.name, srv->rep->name,
			rc == -EEXIST ? "taken by a live server" : strerror(errno));
		close(ss->lock_fd);
		goto fail;
	}
	srv->priv = ss;
	return 0;
fail:
	free(ss);
	return rc;
}

void
shm_server_destroy(struct rte_comch_server *srv)
{
	struct shm_server *ss = srv->priv;

	/* The lock file stays: unlinking it would let two servers lock two inodes. */
	close(ss->lock_fd);
	free(ss);
	srv->priv = NULL;
}

static void
shm_server_drop_pending(struct shm_server *ss, struct shm_conn *sc)
{
	LIST_REMOVE(sc, next);
	ss->nb_pending--;
	shm_conn_free(sc);
}

static void
shm_server_reject(struct rte_comch_server *srv, struct shm_conn *sc, int status,
		  const char *why)
{
	SHM_LOG(NOTICE, "server \"%s\": refusing a client: %s", srv->ctrl.name, why);
	(void)shm_conn_send_msg(sc, SHM_MSG_REJECT, status);
	comch_dev_count_rejected(srv->ctrl.ctx.dev);
	shm_server_drop_pending(srv->priv, sc);
}

/* Positive errno for REJECT if a HELLO cannot be accepted, with the reason for the log. */
static int
shm_server_check_hello(struct rte_comch_server *srv, const struct shm_msg *m, const char **why)
{
	const struct shm_server *ss = srv->priv;
	const struct comch_ctrl *ctrl = &srv->ctrl;

	if (strnlen(m->name, sizeof(m->name)) == sizeof(m->name) ||
	    strcmp(m->name, ctrl->name) != 0) {
		*why = "it asked for another server name";
		return ENOENT;
	}
	if (m->max_msg_size != 0 && m->max_msg_size != ctrl->max_msg_size) {
		*why = "its max message size differs";
		return EMSGSIZE;
	}
	if (m->recv_queue_size == 0 || m->recv_queue_size > SHM_MAX_RECV_QUEUE) {
		*why = "its receive queue size is out of range";
		return EPROTO;
	}
	if (ctrl->nb_conns + ss->nb_pending > ctrl->ctx.dev->info.max_clients) {
		*why = "too many clients";
		return ECONNREFUSED;
	}
	*why = NULL;
	return 0;
}

/* HELLO: check the name and limits, then offer our ring. */
static void
shm_server_on_hello(struct rte_comch_server *srv, struct shm_conn *sc, const struct shm_msg *m)
{
	struct comch_ctrl *ctrl = &srv->ctrl;
	struct shm_msg reply;
	const char *why;
	int fds[2];
	int status;

	status = shm_server_check_hello(srv, m, &why);
	if (status == 0) {
		sc->max_msg = ctrl->max_msg_size;
		sc->peer_queue = m->recv_queue_size;
		if (shm_conn_create_rx(sc, ctrl->recv_queue_size) < 0) {
			status = ENOMEM;
			why = "out of memory for its ring";
		}
	}
	if (status != 0) {
		shm_server_reject(srv, sc, status, why);
		return;
	}
	shm_msg_init(&reply, SHM_MSG_ACCEPT);
	reply.max_msg_size = sc->max_msg;
	reply.recv_queue_size = ctrl->recv_queue_size;
	fds[0] = sc->rx.memfd;
	fds[1] = sc->rx.peer_bell;
	if (shm_msg_send(sc->sock.fd, &reply, fds, 2) < 0) {
		SHM_LOG(NOTICE, "server \"%s\": client left during the handshake", ctrl->name);
		shm_server_drop_pending(srv->priv, sc);
		return;
	}
	shm_ring_handed_over(&sc->rx);
	sc->state = SHM_CONN_WAIT_READY;
}

/* READY: map the client's ring; the connection is up. */
static void
shm_server_on_ready(struct rte_comch_server *srv, struct shm_conn *sc, int *fds,
		    unsigned int nb_fds)
{
	struct shm_server *ss = srv->priv;
	struct comch_conn_params p;

	if (shm_conn_attach_tx(sc, fds, nb_fds) < 0) {
		comch_dev_count_rejected(srv->ctrl.ctx.dev);
		(void)shm_conn_send_msg(sc, SHM_MSG_BYE, EPROTO);
		shm_server_drop_pending(ss, sc);
		return;
	}
	LIST_REMOVE(sc, next);
	ss->nb_pending--;
	if (shm_conn_up(sc) == 0) {
		p.max_msg_size = sc->max_msg;
		p.peer_queue_size = sc->peer_queue;
		sc->conn = comch_server_conn_new(srv, sc, &p);
		if (sc->conn != NULL)
			return;
	}
	(void)shm_conn_send_msg(sc, SHM_MSG_BYE, ECONNREFUSED);
	shm_conn_free(sc);
}

static void
shm_server_hs_handler(struct comch_pe_fd *pfd, uint32_t events)
{
	struct shm_conn *sc = pfd->arg;
	struct rte_comch_server *srv = sc->owner;
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[4];
	int rc;

	rc = shm_msg_recv(sc->sock.fd, &m, fds, RTE_DIM(fds), &nb_fds);
	if (rc == -EAGAIN)
		return;
	if (rc < 0) {
		if (rc == -EPROTO)
			comch_dev_count_rejected(srv->ctrl.ctx.dev);
		shm_server_drop_pending(srv->priv, sc);
	} else if (sc->state == SHM_CONN_WAIT_HELLO && m.type == SHM_MSG_HELLO && nb_fds == 0) {
		shm_server_on_hello(srv, sc, &m);
	} else if (sc->state == SHM_CONN_WAIT_READY && m.type == SHM_MSG_READY) {
		shm_server_on_ready(srv, sc, fds, nb_fds);
	} else {
		shm_close_fds(fds, nb_fds);
		shm_server_reject(srv, sc, EPROTO, "unexpected message during the handshake");
	}
}

/* Only our own user (or root) may talk to us, whatever the socket's mode says. */
static bool
shm_server_peer_allowed(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return false;
	return cred.uid == geteuid() || cred.uid == 0;
}

static void
shm_server_accept_handler(struct comch_pe_fd *pfd, uint32_t events)
{
	struct rte_comch_server *srv = pfd->arg;
	struct shm_server *ss = srv->priv;
	struct shm_conn *sc;
	int i, fd;

	for (i = 0; i < SHM_ACCEPT_BURST; i++) {
		/* Half-open handshakes cost descriptors: no more of them than clients allowed. */
		if (ss->nb_pending >= srv->ctrl.ctx.dev->info.max_clients)
			return;
		fd = accept4(ss->listen.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		if (!shm_server_peer_allowed(fd)) {
			SHM_LOG(WARNING, "server \"%s\": refusing a process of another user",
				srv->ctrl.name);
			comch_dev_count_rejected(srv->ctrl.ctx.dev);
			close(fd);
			continue;
		}
		sc = shm_conn_new(srv->ctrl.ctx.dev, srv->ctrl.ctx.pe, fd,
				  shm_server_hs_handler, srv);
		if (sc == NULL)
			continue;
		sc->state = SHM_CONN_WAIT_HELLO;
		LIST_INSERT_HEAD(&ss->pending, sc, next);
		ss->nb_pending++;
	}
}

int
shm_server_start(struct rte_comch_server *srv)
{
	struct shm_server *ss = srv->priv;
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
	ss->listen.fd = fd;
	ss->listen.handler = shm_server_accept_handler;
	ss->listen.arg = srv;
	rc = comch_pe_fd_add(srv->ctrl.ctx.pe, &ss->listen);
	if (rc < 0) {
		close(fd);
		unlink(ss->sock_path);
		ss->listen.fd = -1;
		return rc;
	}
	SHM_LOG(INFO, "server \"%s\" listening on %s", srv->ctrl.name, ss->sock_path);
	return 0;
}

void
shm_server_stop(struct rte_comch_server *srv)
{
	struct shm_server *ss = srv->priv;

	if (ss->listen.fd >= 0) {
		comch_pe_fd_del(srv->ctrl.ctx.pe, &ss->listen);
		close(ss->listen.fd);
		unlink(ss->sock_path);
		ss->listen.fd = -1;
	}
	while (!LIST_EMPTY(&ss->pending))
		shm_server_drop_pending(ss, LIST_FIRST(&ss->pending));
}

void
shm_server_tick(struct rte_comch_server *srv, uint64_t now)
{
	struct shm_server *ss = srv->priv;
	struct shm_conn *sc, *tmp;

	for (sc = LIST_FIRST(&ss->pending); sc != NULL; sc = tmp) {
		tmp = LIST_NEXT(sc, next);
		if (now < sc->deadline)
			continue;
		SHM_LOG(NOTICE, "server \"%s\": a client took too long to complete the handshake",
			srv->ctrl.name);
		comch_dev_count_rejected(srv->ctrl.ctx.dev);
		shm_server_drop_pending(ss, sc);
	}
}
