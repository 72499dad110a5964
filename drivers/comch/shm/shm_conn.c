/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * An shm connection: a SOCK_SEQPACKET socket for set-up, control messages,
 * orderly close and peer-death detection, plus two rings, one per direction,
 * each in memory created by its receiver.
 *
 * Every message that arrives on the socket, in the handshake or after it,
 * comes through one receive-and-triage path (shm_conn_sock_handler): it
 * checks the message and the number of descriptors its type carries, closes
 * them on every path but the one that keeps them, and hands the message to
 * the step that expects it. Results wait in the connection for the library's
 * next poll: a driver never calls the library.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "shm_internal.h"

/* Messages read per socket event, so that one peer cannot hold the engine. */
#define SHM_SOCK_BURST 8

static void
shm_conn_bell_handler(struct rte_comch_drv_fd *pfd, uint32_t events)
{
	struct shm_conn *sc = pfd->arg;

	shm_bell_drain(&sc->rx.bell);
}

/* Descriptors each message type carries: anything else breaks the protocol. */
static bool
shm_msg_fds_ok(const struct shm_msg *m, unsigned int nb_fds)
{
	switch (m->type) {
	case SHM_MSG_ACCEPT:
	case SHM_MSG_READY:
		return nb_fds == 2;
	case SHM_MSG_CTL:
		return true; /* up to SHM_MAX_FDS, as shm_msg_recv() allows */
	default:
		return nb_fds == 0;
	}
}

/* A message (and its descriptors) for the library, or the end of the connection. */
static void
shm_conn_on_msg(struct shm_conn *sc, int rc, const struct shm_msg *m, int *fds,
		unsigned int nb_fds)
{
	struct rte_comch_drv_ctl *ctl;

	if (rc == -ECONNRESET) {
		SHM_LOG(INFO, "connection ends: peer closed its socket (died?)");
		sc->end = -ECONNRESET;
	} else if (rc < 0 || (m->type != SHM_MSG_CTL && m->type != SHM_MSG_BYE)) {
		SHM_LOG(ERR, "dropping peer: %s", rc < 0 ? "unreadable control message" :
			"unexpected message on an established connection");
		sc->end = -EPROTO;
	} else if (m->type == SHM_MSG_BYE) {
		SHM_LOG(INFO, "connection ends: peer closed it");
		sc->end = m->status == EPROTO ? -EPROTO : -ECONNABORTED;
	} else if (m->ctl_len > SHM_CTL_MAX || m->blob_len > SHM_BLOB_MAX) {
		SHM_LOG(ERR, "dropping peer: control message of %u + %u bytes", m->ctl_len,
			m->blob_len);
		sc->end = -EPROTO;
	} else {
		ctl = &sc->ctlq[sc->ctl_tail++ % SHM_CTL_QUEUE];
		memcpy(ctl->msg, m->ctl.msg, m->ctl_len);
		ctl->len = m->ctl_len;
		memcpy(ctl->blob.data, m->ctl.blob, m->blob_len);
		ctl->blob.len = m->blob_len;
		memcpy(ctl->blob.fds, fds, nb_fds * sizeof(int));
		ctl->blob.nb_fds = nb_fds;
		return; /* the descriptors are the library's now */
	}
	shm_close_fds(fds, nb_fds);
}

/*
 * The socket's handler: every message of the handshake and of the connection
 * (see the file's comment). It reads at most what the control queue can take:
 * the rest waits in the socket, which stays readable.
 */
static void
shm_conn_sock_handler(struct rte_comch_drv_fd *pfd, uint32_t events)
{
	struct shm_conn *sc = pfd->arg;
	unsigned int nb_fds, i;
	struct shm_msg m;
	int fds[SHM_MAX_FDS];
	int rc;

	for (i = 0; i < SHM_SOCK_BURST && sc->sock.fd >= 0 && sc->end == 0 &&
		    sc->ctl_tail - sc->ctl_head < SHM_CTL_QUEUE; i++) {
		rc = shm_msg_recv(sc->sock.fd, &m, fds, RTE_DIM(fds), &nb_fds);
		if (rc == -EAGAIN)
			return;
		if (rc == 0 && !shm_msg_fds_ok(&m, nb_fds)) {
			SHM_LOG(ERR, "peer sent message type %u with %u descriptors", m.type, nb_fds);
			shm_close_fds(fds, nb_fds);
			nb_fds = 0;
			rc = -EPROTO;
		}
		switch (sc->state) {
		case SHM_CONN_UP:
			shm_conn_on_msg(sc, rc, &m, fds, nb_fds);
			break;
		case SHM_CONN_WAIT_ACCEPT:
			shm_client_on_msg(sc, rc, &m, fds, nb_fds);
			break;
		default:
			/* The server's handshake: its step may free sc. */
			shm_server_on_msg(sc, rc, &m, fds, nb_fds);
			return;
		}
		if (rc < 0)
			return;
	}
}

struct shm_conn *
shm_conn_new(struct shm_dev *sd, struct rte_comch_pe *pe, int sock, struct shm_peer *peer)
{
	struct shm_conn *sc = calloc(1, sizeof(*sc));

	if (sc == NULL)
		goto fail;
	sc->sd = sd;
	sc->pe = pe;
	sc->peer = peer;
	sc->rx.memfd = sc->rx.bell.fd = sc->rx.peer_bell = -1;
	sc->tx.memfd = sc->tx.bell.fd = sc->tx.peer_bell = -1;
	sc->bell.fd = -1;
	sc->sock.fd = sock;
	sc->sock.handler = shm_conn_sock_handler;
	sc->sock.arg = sc;
	sc->hs_result = -EINPROGRESS;
	if (rte_comch_drv_pe_fd_add(pe, &sc->sock) < 0) {
		free(sc);
		goto fail;
	}
	shm_fds_keep(1);
	return sc;
fail:
	close(sock);
	if (peer != NULL)
		shm_peer_leave(sd, peer);
	return NULL;
}

/* Stop watching our fds: nothing more is read from a connection that is down. */
static void
shm_conn_unwatch(struct shm_conn *sc)
{
	if (sc->sock.fd >= 0) {
		rte_comch_drv_pe_fd_del(sc->pe, &sc->sock);
		close(sc->sock.fd);
		shm_fds_keep(-1);
		sc->sock.fd = -1;
	}
	if (sc->bell.fd >= 0) {
		rte_comch_drv_pe_fd_del(sc->pe, &sc->bell);
		sc->bell.fd = -1;
	}
}

void
shm_conn_release(struct shm_conn *sc)
{
	struct rte_comch_drv_ctl *ctl;

	shm_conn_unwatch(sc);
	shm_ring_release(&sc->rx);
	shm_ring_release(&sc->tx);
	/* Control messages the library never took: their descriptors too. */
	while (sc->ctl_head != sc->ctl_tail) {
		ctl = &sc->ctlq[sc->ctl_head++ % SHM_CTL_QUEUE];
		shm_close_fds(ctl->blob.fds, ctl->blob.nb_fds);
	}
}

void
shm_conn_free(struct shm_conn *sc)
{
	shm_conn_release(sc);
	/* Its peer's consumers were unmapped before (they may be, after the release). */
	if (sc->peer != NULL)
		shm_peer_leave(sc->sd, sc->peer);
	free(sc);
}

int
shm_conn_send_msg(struct shm_conn *sc, enum shm_msg_type type, int status)
{
	struct shm_msg m;

	shm_msg_init(&m, type);
	m.status = status;
	return shm_msg_send(sc->sock.fd, &m, NULL, 0);
}

int
shm_conn_create_rx(struct shm_conn *sc, uint32_t capacity)
{
	return shm_ring_create(&sc->rx, capacity, sc->max_msg, sc->sd->efd_bells);
}

/* Map the peer's ring from the two fds it passed (memfd, doorbell); they become ours. */
int
shm_conn_attach_tx(struct shm_conn *sc, int *fds, unsigned int nb_fds)
{
	int rc;

	rc = shm_ring_attach(&sc->tx, fds[0], fds[1], sc->peer_queue, sc->max_msg,
			     sc->sd->efd_bells);
	if (rc < 0) {
		shm_ring_release(&sc->tx);
		return rc;
	}
	shm_ring_set_copy(&sc->tx, sc->sd->nt_min, sc->sd->nt_auto != 0);
	return 0;
}

int
shm_conn_up(struct shm_conn *sc)
{
	sc->bell.fd = sc->rx.bell.fd;
	sc->bell.handler = shm_conn_bell_handler;
	sc->bell.arg = sc;
	if (rte_comch_drv_pe_fd_add(sc->pe, &sc->bell) < 0) {
		sc->bell.fd = -1;
		return -EIO;
	}
	sc->state = SHM_CONN_UP;
	return 0;
}

/* ------------------------------------------------------------------ ops */

static int
shm_conn_send(void *conn, const void *msg, uint32_t len)
{
	struct shm_conn *sc = conn;

	if (unlikely(sc->state != SHM_CONN_UP))
		return -ENOTCONN;
	return shm_ring_send(&sc->tx, msg, len);
}

static int
shm_conn_poll(void *conn, struct rte_comch_drv_msg *msgs, unsigned int max, uint32_t *taken)
{
	struct shm_conn *sc = conn;
	int n = 0;

	*taken = 0;
	if (unlikely(sc->state != SHM_CONN_UP))
		return 0;
	if (max != 0)
		n = shm_ring_rx_peek(&sc->rx, msgs, max);
	if (sc->tx.done != sc->tx.head &&
	    unlikely(shm_ring_tx_poll(&sc->tx, sc->end != 0, taken) < 0))
		return -EPROTO;
	return n;
}

static void
shm_conn_release_msgs(void *conn, unsigned int n)
{
	struct shm_conn *sc = conn;

	if (unlikely(sc->state != SHM_CONN_UP))
		return;
	shm_ring_rx_release(&sc->rx, n);
	/* The end of the round: wake the peer if it sleeps and we sent or took. */
	shm_ring_pair_kick(&sc->rx, &sc->tx);
}

static int
shm_conn_ctl_send(void *conn, const void *msg, uint32_t len, struct rte_comch_drv_blob *blob)
{
	struct shm_conn *sc = conn;
	unsigned int nb_fds = blob != NULL ? blob->nb_fds : 0;
	struct shm_msg m;
	int rc = -ENOTCONN;

	if (sc->state == SHM_CONN_UP && len <= SHM_CTL_MAX &&
	    (blob == NULL || (blob->len <= SHM_BLOB_MAX && nb_fds <= SHM_MAX_FDS))) {
		shm_msg_init(&m, SHM_MSG_CTL);
		memcpy(m.ctl.msg, msg, len);
		m.ctl_len = len;
		if (blob != NULL) {
			memcpy(m.ctl.blob, blob->data, blob->len);
			m.blob_len = blob->len;
		}
		rc = shm_msg_send(sc->sock.fd, &m, blob != NULL ? blob->fds : NULL, nb_fds);
	}
	/* The peer has them now, or never will: ours to close either way. */
	if (blob != NULL)
		shm_close_fds(blob->fds, nb_fds);
	return rc;
}

static int
shm_conn_ctl_poll(void *conn, struct rte_comch_drv_ctl *ctl)
{
	struct shm_conn *sc = conn;

	if (sc->ctl_head != sc->ctl_tail) {
		*ctl = sc->ctlq[sc->ctl_head++ % SHM_CTL_QUEUE];
		return 1;
	}
	return sc->end;
}

static void
shm_conn_blob_discard(void *conn, struct rte_comch_drv_blob *blob)
{
	shm_close_fds(blob->fds, blob->nb_fds);
	blob->nb_fds = 0;
}

static int
shm_conn_arm(void *conn, bool recv)
{
	struct shm_conn *sc = conn;

	if (sc->state != SHM_CONN_UP || sc->end != 0 || sc->ctl_head != sc->ctl_tail)
		return -EAGAIN;
	return shm_ring_pair_arm(&sc->rx, &sc->tx, recv);
}

static void
shm_conn_disarm(void *conn)
{
	struct shm_conn *sc = conn;

	if (sc->state == SHM_CONN_UP)
		shm_ring_pair_disarm(&sc->rx, &sc->tx);
}

static void
shm_conn_close(void *conn, int reason)
{
	struct shm_conn *sc = conn;
	uint32_t taken;

	/* Tell a peer that is still there: an orderly close, or why it was dropped. */
	if (sc->state == SHM_CONN_UP && sc->end == 0 && (reason == 0 || reason == -EPROTO) &&
	    shm_ring_tx_reap(&sc->tx, &taken) == 0)
		(void)shm_conn_send_msg(sc, SHM_MSG_BYE, reason == 0 ? 0 : EPROTO);
	if (reason == -EPROTO)
		SHM_LOG(ERR, "dropping peer: it broke the protocol");
	sc->state = SHM_CONN_DOWN;
	shm_conn_release(sc);
}

static void
shm_conn_free_op(void *conn)
{
	shm_conn_free(conn); /* released at close already: its process is left now */
}

const struct rte_comch_drv_conn_ops shm_conn_ops = {
	.send = shm_conn_send,
	.poll = shm_conn_poll,
	.release = shm_conn_release_msgs,
	.ctl_send = shm_conn_ctl_send,
	.ctl_poll = shm_conn_ctl_poll,
	.blob_discard = shm_conn_blob_discard,
	.arm = shm_conn_arm,
	.disarm = shm_conn_disarm,
	.close = shm_conn_close,
	.free = shm_conn_free_op,
};
