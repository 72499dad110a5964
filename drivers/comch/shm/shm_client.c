/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Client side: finds the server's socket in its own host function's directory
 * (so only servers on that function's representor are reachable), and retries
 * until one listens or the library's connect timeout expires.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "shm_internal.h"

struct shm_client {
	char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct shm_conn *sc;  /* while the handshake runs */
	int failed;           /* why the last handshake failed, for the next tick to report */
};

static void
shm_client_abort(struct rte_comch_client *cli)
{
	struct shm_client *cs = cli->priv;

	if (cs->sc != NULL)
		shm_conn_free(cs->sc);
	cs->sc = NULL;
}

static void
shm_client_failed(struct rte_comch_client *cli, int reason, const char *why)
{
	SHM_LOG(NOTICE, "client of \"%s\": %s", cli->ctrl.name, why);
	shm_client_abort(cli);
	comch_client_connect_failed(cli, reason);
}

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

/* ACCEPT: check the server's limits, map its ring, offer ours. */
static void
shm_client_on_accept(struct rte_comch_client *cli, struct shm_conn *sc,
		     const struct shm_msg *m, int *fds, unsigned int nb_fds)
{
	struct shm_client *cs = cli->priv;
	struct comch_conn_params p;
	struct shm_msg ready;
	int rfds[2];

	if (m->max_msg_size == 0 || m->max_msg_size > SHM_MAX_MSG_SIZE ||
	    (cli->ctrl.max_msg_size_set && m->max_msg_size != cli->ctrl.max_msg_size) ||
	    m->recv_queue_size == 0 || m->recv_queue_size > SHM_MAX_RECV_QUEUE) {
		shm_close_fds(fds, nb_fds);
		shm_client_failed(cli, -EPROTO, "server offered limits out of range");
		return;
	}
	sc->max_msg = m->max_msg_size;
	sc->peer_queue = m->recv_queue_size;
	if (shm_conn_attach_tx(sc, fds, nb_fds) < 0) {
		shm_client_failed(cli, -EPROTO, "server's ring is not usable");
		return;
	}
	if (shm_conn_create_rx(sc, cli->ctrl.recv_queue_size) < 0) {
		shm_client_failed(cli, -ENOMEM, "cannot create our ring");
		return;
	}
	shm_msg_init(&ready, SHM_MSG_READY);
	ready.recv_queue_size = cli->ctrl.recv_queue_size;
	rfds[0] = sc->rx.memfd;
	rfds[1] = sc->rx.peer_bell;
	if (shm_msg_send(sc->sock.fd, &ready, rfds, 2) < 0 || shm_conn_up(sc) < 0) {
		shm_client_failed(cli, -ECONNRESET, "server left during the handshake");
		return;
	}
	shm_ring_handed_over(&sc->rx);
	cs->sc = NULL;
	p.max_msg_size = sc->max_msg;
	p.peer_queue_size = sc->peer_queue;
	sc->conn = comch_client_connected(cli, sc, &p);
	if (sc->conn == NULL) {
		(void)shm_conn_send_msg(sc, SHM_MSG_BYE, 0);
		shm_conn_free(sc);
	}
}

static void
shm_client_hs_handler(struct comch_pe_fd *pfd, uint32_t events)
{
	struct shm_conn *sc = pfd->arg;
	struct rte_comch_client *cli = sc->owner;
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[4];
	int rc;

	rc = shm_msg_recv(sc->sock.fd, &m, fds, RTE_DIM(fds), &nb_fds);
	if (rc == -EAGAIN)
		return;
	if (rc == -ECONNRESET) {
		/*
		 * The server went away mid-handshake (restarting?): the next tick
		 * reports it, and the library retries after its back-off.
		 */
		SHM_LOG(INFO, "client of \"%s\": server left during the handshake", cli->ctrl.name);
		shm_client_abort(cli);
		((struct shm_client *)cli->priv)->failed = -ECONNRESET;
	} else if (rc < 0) {
		shm_client_failed(cli, -EPROTO, "server garbled the handshake");
	} else if (m.type == SHM_MSG_ACCEPT) {
		shm_client_on_accept(cli, sc, &m, fds, nb_fds);
	} else if (m.type == SHM_MSG_REJECT && nb_fds == 0) {
		shm_client_failed(cli, shm_client_reject_reason(m.status),
				  "server refused the connection");
	} else {
		shm_close_fds(fds, nb_fds);
		shm_client_failed(cli, -EPROTO, "unexpected message during the handshake");
	}
}

/* One connection attempt. -EINPROGRESS once connected and waiting for the server. */
static int
shm_client_try(struct rte_comch_client *cli)
{
	struct shm_client *cs = cli->priv;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct shm_msg hello;
	int fd, err;

	if (cs->sc != NULL)
		return -EINPROGRESS;
	if (cs->failed != 0) {
		err = cs->failed;
		cs->failed = 0;
		return err;
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strlcpy(addr.sun_path, cs->sock_path, sizeof(addr.sun_path));
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		err = errno;
		close(fd);
		/* No socket, or a dead server's socket: nobody of that name is there yet. */
		return err == ENOENT || err == ECONNREFUSED ? -ENOENT : -err;
	}
	cs->sc = shm_conn_new(cli->ctrl.ctx.dev, cli->ctrl.ctx.pe, fd, shm_client_hs_handler, cli);
	if (cs->sc == NULL)
		return -ENOMEM;
	cs->sc->state = SHM_CONN_WAIT_ACCEPT;
	shm_msg_init(&hello, SHM_MSG_HELLO);
	strlcpy(hello.name, cli->ctrl.name, sizeof(hello.name));
	hello.max_msg_size = cli->ctrl.max_msg_size_set ? cli->ctrl.max_msg_size : 0;
	hello.recv_queue_size = cli->ctrl.recv_queue_size;
	if (shm_msg_send(fd, &hello, NULL, 0) < 0) {
		shm_client_abort(cli);
		return -ECONNRESET;
	}
	return -EINPROGRESS;
}

int
shm_client_start(struct rte_comch_client *cli)
{
	const struct shm_dev *sd = cli->ctrl.ctx.dev->priv;
	struct shm_client *cs;
	int rc;

	cs = calloc(1, sizeof(*cs));
	if (cs == NULL)
		return -ENOMEM;
	rc = shm_path(cs->sock_path, sizeof(cs->sock_path), sd->dir, sd->fn, cli->ctrl.name,
		      "sock");
	if (rc < 0) {
		free(cs);
		return rc;
	}
	cli->priv = cs;
	(void)shm_client_try(cli);
	return 0;
}

int
shm_client_tick(struct rte_comch_client *cli)
{
	if (cli->priv == NULL)
		return -EINPROGRESS;
	return shm_client_try(cli);
}

void
shm_client_stop(struct rte_comch_client *cli)
{
	if (cli->priv == NULL)
		return;
	shm_client_abort(cli);
	free(cli->priv);
	cli->priv = NULL;
}
