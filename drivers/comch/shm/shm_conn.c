/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * An shm connection: a SOCK_SEQPACKET socket for set-up, orderly close and
 * peer-death detection, plus two rings, one per direction, each in memory
 * created by its receiver.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "shm_internal.h"

static void
shm_conn_bell_handler(struct comch_pe_fd *pfd, uint32_t events)
{
	struct shm_conn *sc = pfd->arg;

	shm_bell_drain(&sc->rx.bell);
}

struct shm_conn *
shm_conn_new(struct rte_comch_dev *dev, struct rte_comch_pe *pe, int sock,
	     void (*handler)(struct comch_pe_fd *, uint32_t), void *owner)
{
	struct shm_conn *sc = calloc(1, sizeof(*sc));

	if (sc == NULL) {
		close(sock);
		return NULL;
	}
	sc->dev = dev;
	sc->pe = pe;
	sc->owner = owner;
	sc->rx.memfd = sc->rx.bell.fd = sc->rx.peer_bell = -1;
	sc->tx.memfd = sc->tx.bell.fd = sc->tx.peer_bell = -1;
	sc->bell.fd = -1;
	sc->sock.fd = sock;
	sc->sock.handler = handler;
	sc->sock.arg = sc;
	sc->deadline = rte_rdtsc() + rte_get_tsc_hz() / 1000 * SHM_HANDSHAKE_TIMEOUT_MS;
	if (comch_pe_fd_add(pe, &sc->sock) < 0) {
		close(sock);
		free(sc);
		return NULL;
	}
	return sc;
}

/* Stop watching our fds: nothing more is read from a connection that is down. */
static void
shm_conn_unwatch(struct shm_conn *sc)
{
	if (sc->sock.fd >= 0) {
		comch_pe_fd_del(sc->pe, &sc->sock);
		close(sc->sock.fd);
		sc->sock.fd = -1;
	}
	if (sc->bell.fd >= 0) {
		comch_pe_fd_del(sc->pe, &sc->bell);
		sc->bell.fd = -1;
	}
}

/* Everything that touches the peer goes: fds, rings, the peer's consumers. */
static void
shm_conn_release(struct shm_conn *sc)
{
	shm_conn_unwatch(sc);
	shm_fast_conn_down(sc);
	shm_ring_release(&sc->rx);
	shm_ring_release(&sc->tx);
}

void
shm_conn_free(struct shm_conn *sc)
{
	shm_conn_release(sc);
	free(sc->remote);
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
	const struct shm_dev *sd = sc->dev->priv;

	return shm_ring_create(&sc->rx, capacity, sc->max_msg, sd->efd_bells);
}

/* Map the peer's ring from the two fds it passed (memfd, doorbell); they become ours. */
int
shm_conn_attach_tx(struct shm_conn *sc, int *fds, unsigned int nb_fds)
{
	int rc;

	if (nb_fds != 2) {
		SHM_LOG(ERR, "peer passed %u descriptors for its ring, expected 2", nb_fds);
		shm_close_fds(fds, nb_fds);
		return -EPROTO;
	}
	rc = shm_ring_attach(&sc->tx, fds[0], fds[1], sc->peer_queue, sc->max_msg,
			     ((const struct shm_dev *)sc->dev->priv)->efd_bells);
	if (rc < 0)
		shm_ring_release(&sc->tx);
	return rc;
}

int
shm_conn_up(struct shm_conn *sc)
{
	unsigned int i;

	sc->remote = calloc(SHM_MAX_FAST, sizeof(*sc->remote));
	if (sc->remote == NULL)
		return -ENOMEM;
	for (i = 0; i < SHM_MAX_FAST; i++)
		sc->remote[i].bell.fd = -1;
	sc->bell.fd = sc->rx.bell.fd;
	sc->bell.handler = shm_conn_bell_handler;
	sc->bell.arg = sc;
	if (comch_pe_fd_add(sc->pe, &sc->bell) < 0) {
		sc->bell.fd = -1;
		return -EIO;
	}
	sc->sock.handler = shm_conn_sock_handler;
	sc->state = SHM_CONN_UP;
	return 0;
}

/* The connection is over for the reason given; the library tears it down. */
void
shm_conn_fail(struct shm_conn *sc, int reason, const char *why)
{
	if (sc->state != SHM_CONN_UP)
		return;
	if (reason == -EPROTO) {
		SHM_LOG(ERR, "dropping peer: %s", why);
		(void)shm_conn_send_msg(sc, SHM_MSG_BYE, EPROTO);
	} else {
		SHM_LOG(INFO, "connection ends: %s", why);
	}
	sc->state = SHM_CONN_DOWN;
	shm_conn_unwatch(sc);
	comch_conn_lost(sc->conn, reason);
}

static bool
shm_conn_rx_cb(void *arg, const void *msg, uint32_t len)
{
	struct rte_comch_connection *conn = arg;

	comch_conn_recv(conn, msg, len);
	/* Closed from the callback: nothing more is delivered. */
	return conn->state == COMCH_CONN_ESTABLISHED;
}

/*
 * Report what the peer took of ours, so that only what it never took fails.
 * Returns -EPROTO if its consumer index is a lie.
 */
static int
shm_conn_reap(struct shm_conn *sc)
{
	uint32_t taken;

	if (shm_ring_tx_reap(&sc->tx, &taken) < 0)
		return -EPROTO;
	if (taken != 0)
		comch_conn_tx_done(sc->conn, taken);
	return 0;
}

void
shm_conn_sock_handler(struct comch_pe_fd *pfd, uint32_t events)
{
	struct shm_conn *sc = pfd->arg;
	struct shm_msg m;
	unsigned int nb_fds;
	int fds[4];
	int rc;

	rc = shm_msg_recv(sc->sock.fd, &m, fds, RTE_DIM(fds), &nb_fds);
	if (rc == -EAGAIN)
		return;
	if (rc == -ECONNRESET) {
		/*
		 * Whatever the peer finished writing before it died is still ours to take,
		 * and whatever it took of ours before dying was delivered.
		 */
		if (sc->conn->state == COMCH_CONN_ESTABLISHED &&
		    shm_ring_rx_burst(&sc->rx, sc->rx.capacity, shm_conn_rx_cb, sc->conn) < 0)
			shm_conn_fail(sc, -EPROTO, "peer corrupted our receive ring");
		else if (shm_conn_reap(sc) < 0)
			shm_conn_fail(sc, -EPROTO, "peer corrupted its consumer index");
		else
			shm_conn_fail(sc, -ECONNRESET, "peer closed its socket (died?)");
		return;
	}
	if (rc < 0) {
		shm_conn_fail(sc, -EPROTO, "unreadable control message");
		return;
	}
	if (m.type != SHM_MSG_BYE) {
		rc = shm_fast_on_msg(sc, &m, fds, nb_fds);
		if (rc < 0)
			shm_conn_fail(sc, rc == -EPROTO ? -EPROTO : -ECONNRESET,
				      "bad fast-path message");
		return;
	}
	shm_close_fds(fds, nb_fds);
	if (nb_fds == 0 && shm_conn_reap(sc) == 0)
		shm_conn_fail(sc, m.status == EPROTO ? -EPROTO : -ECONNABORTED,
			      "peer closed the connection");
	else
		shm_conn_fail(sc, -EPROTO, "malformed close message");
}

/* ------------------------------------------------------------------ ops */

int
shm_conn_send(struct rte_comch_connection *conn, const void *msg, uint32_t len)
{
	struct shm_conn *sc = conn->priv;
	int rc;

	if (unlikely(sc->state != SHM_CONN_UP))
		return -ENOTCONN;
	rc = shm_ring_send(&sc->tx, msg, len);
	if (unlikely(rc == -EPROTO)) {
		shm_conn_fail(sc, -EPROTO, "peer corrupted its consumer index");
		return -ENOTCONN;
	}
	return rc;
}

unsigned int
shm_conn_poll(struct rte_comch_connection *conn, unsigned int max)
{
	struct shm_conn *sc = conn->priv;
	uint32_t taken;
	int n;

	if (unlikely(sc->state != SHM_CONN_UP))
		return 0;
	if (unlikely(__atomic_load_n(&sc->fp_violation, __ATOMIC_ACQUIRE) != 0)) {
		shm_conn_fail(sc, -EPROTO, "peer broke the fast-path protocol");
		return 1;
	}
	n = max == 0 ? 0 : shm_ring_rx_burst(&sc->rx, max, shm_conn_rx_cb, conn);
	if (unlikely(n < 0)) {
		shm_conn_fail(sc, -EPROTO, "peer corrupted our receive ring");
		return 1;
	}
	if (sc->state != SHM_CONN_UP)
		return n;
	if (sc->tx.done != sc->tx.head) {
		if (unlikely(shm_ring_tx_reap(&sc->tx, &taken) < 0)) {
			shm_conn_fail(sc, -EPROTO, "peer corrupted its consumer index");
			return n + 1;
		}
		if (taken != 0)
			comch_conn_tx_done(conn, taken);
		n += taken;
	}
	/* Callbacks may have closed it; otherwise wake the peer if it sleeps. */
	if (sc->state == SHM_CONN_UP)
		shm_ring_pair_kick(&sc->rx, &sc->tx);
	return n;
}

bool
shm_conn_tx_idle(struct rte_comch_connection *conn)
{
	struct shm_conn *sc = conn->priv;

	return sc->state != SHM_CONN_UP || sc->tx.done == sc->tx.head;
}

void
shm_conn_close(struct rte_comch_connection *conn)
{
	struct shm_conn *sc = conn->priv;

	/* A drain that timed out: count what was taken at the last moment as delivered. */
	if (sc->state == SHM_CONN_UP && shm_conn_reap(sc) == 0)
		(void)shm_conn_send_msg(sc, SHM_MSG_BYE, 0);
	sc->state = SHM_CONN_DOWN;
	/* Producers on other lcores may still look at sc: it is freed in conn_free. */
	shm_conn_release(sc);
}

void
shm_conn_free_op(struct rte_comch_connection *conn)
{
	struct shm_conn *sc = conn->priv;

	free(sc->remote);
	free(sc);
	conn->priv = NULL;
}

int
shm_conn_arm(struct rte_comch_connection *conn)
{
	struct shm_conn *sc = conn->priv;

	if (sc->state != SHM_CONN_UP)
		return -EAGAIN;
	return shm_ring_pair_arm(&sc->rx, &sc->tx);
}

void
shm_conn_disarm(struct rte_comch_connection *conn)
{
	struct shm_conn *sc = conn->priv;

	if (sc->state != SHM_CONN_UP)
		return;
	shm_ring_pair_disarm(&sc->rx, &sc->tx);
}
