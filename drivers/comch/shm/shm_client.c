/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Client side: one connection attempt at a time, to the server's socket in the
 * client's own host function's directory (so only servers on that function's
 * representor are reachable). The library decides when to try again.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "shm_internal.h"

/* Reasons a server may give in REJECT; anything else is a protocol error. */
static int
shm_client_reject_reason(int status)
{
	switch (status) {
	case ENOENT:
	case EMSGSIZE:
	case ECONNREFUSED:
	case ENOMEM:
		return -status;
	default:
		return -EPROTO;
	}
}

/* ACCEPT: map the server's ring, offer ours; the connection is up. */
static int
shm_client_on_accept(struct shm_conn *sc, const struct shm_msg *m, int *fds,
		     unsigned int nb_fds)
{
	struct shm_msg ready;
	int rfds[2];

	/* Only what our ring's geometry needs is checked here; the library judges the rest. */
	if (m->max_msg_size == 0 || m->max_msg_size > SHM_MAX_MSG_SIZE ||
	    m->recv_queue_size == 0 || m->recv_queue_size > SHM_MAX_RECV_QUEUE) {
		SHM_LOG(NOTICE, "server offered limits out of range");
		shm_close_fds(fds, nb_fds);
		return -EPROTO;
	}
	sc->max_msg = m->max_msg_size;
	sc->peer_queue = m->recv_queue_size;
	if (shm_conn_attach_tx(sc, fds, nb_fds) < 0)
		return -EPROTO;
	if (shm_conn_create_rx(sc, sc->recv_queue) < 0)
		return -ENOMEM;
	shm_msg_init(&ready, SHM_MSG_READY);
	ready.recv_queue_size = sc->recv_queue;
	rfds[0] = sc->rx.memfd;
	rfds[1] = sc->rx.peer_bell;
	if (shm_msg_send(sc->sock.fd, &ready, rfds, 2) < 0)
		return -ECONNRESET;
	shm_ring_handed_over(&sc->rx);
	return shm_conn_up(sc) < 0 ? -ENOMEM : 0;
}

void
shm_client_on_msg(struct shm_conn *sc, int rc, const struct shm_msg *m, int *fds,
		  unsigned int nb_fds)
{
	if (rc == -ECONNRESET) {
		/* The server went away mid-handshake (restarting?): the library retries. */
		SHM_LOG(INFO, "server left during the handshake");
	} else if (rc < 0) {
		SHM_LOG(NOTICE, "server garbled the handshake");
	} else if (m->type == SHM_MSG_ACCEPT) {
		rc = shm_client_on_accept(sc, m, fds, nb_fds);
	} else if (m->type == SHM_MSG_REJECT) {
		SHM_LOG(NOTICE, "server refused the connection: %s", strerror(m->status));
		rc = shm_client_reject_reason(m->status);
	} else {
		SHM_LOG(NOTICE, "unexpected message type %u during the handshake", m->type);
		shm_close_fds(fds, nb_fds);
		rc = -EPROTO;
	}
	sc->hs_result = rc;
	if (rc < 0)
		shm_conn_release(sc); /* nothing more is read; the library's poll frees it */
}

static int
shm_client_connect(void *dev, const struct rte_comch_drv_client_conf *conf,
		   struct rte_comch_pe *pe, void **hs)
{
	struct shm_dev *sd = dev;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct shm_peer *peer;
	struct shm_msg hello;
	struct ucred cred;
	struct shm_conn *sc;
	int fd, err;

	if (shm_path(addr.sun_path, sizeof(addr.sun_path), sd->dir, sd->fn, conf->name,
		     "sock") < 0)
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		err = errno;
		close(fd);
		/* No socket, or a dead server's socket: nobody of that name is there yet. */
		return err == ENOENT || err == ECONNREFUSED ? -ENOENT : -err;
	}
	/* The server's process: its consumers count against its budgets here. */
	err = shm_peer_cred(fd, &cred);
	if (err == 0)
		err = shm_peer_join(sd, cred.pid, UINT32_MAX, &peer);
	if (err < 0) {
		close(fd);
		return err;
	}
	sc = shm_conn_new(sd, pe, fd, peer);
	if (sc == NULL)
		return -ENOMEM;
	sc->state = SHM_CONN_WAIT_ACCEPT;
	sc->want_msg = conf->max_msg_size;
	sc->recv_queue = conf->recv_queue_size;
	shm_msg_init(&hello, SHM_MSG_HELLO);
	strlcpy(hello.name, conf->name, sizeof(hello.name));
	hello.max_msg_size = conf->max_msg_size;
	hello.recv_queue_size = conf->recv_queue_size;
	if (shm_msg_send(fd, &hello, NULL, 0) < 0) {
		shm_conn_free(sc);
		return -ECONNRESET;
	}
	*hs = sc;
	return 0;
}

static int
shm_client_poll(void *hs, struct rte_comch_drv_conn_params *params)
{
	struct shm_conn *sc = hs;
	int rc = sc->hs_result;

	if (rc == 0) {
		params->max_msg_size = sc->max_msg;
		params->peer_queue_size = sc->peer_queue;
		params->recv_queue_size = sc->recv_queue;
	} else if (rc != -EINPROGRESS) {
		shm_conn_free(sc);
	}
	return rc;
}

static void
shm_client_abort(void *hs)
{
	shm_conn_free(hs);
}

const struct rte_comch_drv_client_ops shm_client_ops = {
	.connect = shm_client_connect,
	.poll = shm_client_poll,
	.abort = shm_client_abort,
};
