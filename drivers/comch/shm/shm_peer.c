/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Peer processes: what each one makes a device hold, over all its
 * connections, and what all of them do together. A connection's budgets
 * (max_peer_fds, max_peer_map) bound one connection only: a process that
 * opens hundreds of them would otherwise take what the device's other peers
 * need. So a device also bounds, per peer process, its connections to our
 * servers (max_proc_conns), the descriptors and mapped bytes of its consumers
 * (max_proc_fds, max_proc_map), and those of all peers (max_dev_fds,
 * max_dev_map).
 *
 * The kernel names the process (SO_PEERCRED): a server's client at accept, a
 * client's server at connect; a peer cannot choose what it says. A process
 * that forks gets a budget per process: the device's totals bound them all.
 * The table is the device's, shared by its connections on every lcore under
 * one lock, taken only when connections come and go and consumers are
 * imported or unmapped.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/socket.h>

#include <rte_common.h>

#include "shm_internal.h"

int
shm_peer_cred(int sock, struct ucred *cred)
{
	socklen_t len = sizeof(*cred);

	return getsockopt(sock, SOL_SOCKET, SO_PEERCRED, cred, &len) < 0 ? -errno : 0;
}

static struct shm_peer *
shm_peer_find(struct shm_peers *ps, pid_t pid)
{
	struct shm_peer *p;

	LIST_FOREACH(p, &ps->list, next)
		if (p->pid == pid)
			return p;
	return NULL;
}

int
shm_peer_join(struct shm_dev *sd, pid_t pid, uint32_t max_conns, struct shm_peer **peer)
{
	struct shm_peers *ps = &sd->peers;
	struct shm_peer *p, *fresh = malloc(sizeof(*fresh));
	uint32_t nb_refused = 0, nb_conns = 0;

	pthread_mutex_lock(&ps->lock);
	p = shm_peer_find(ps, pid);
	if (p == NULL && fresh != NULL) {
		*fresh = (struct shm_peer){ .pid = pid };
		LIST_INSERT_HEAD(&ps->list, fresh, next);
		p = fresh;
		fresh = NULL;
	}
	if (p != NULL && p->nb_conns >= max_conns) {
		nb_refused = ++p->nb_refused;
		nb_conns = p->nb_conns;
		p = NULL;
	} else if (p != NULL) {
		p->nb_conns++;
	}
	pthread_mutex_unlock(&ps->lock);
	free(fresh);
	/* A process that keeps trying is logged at its 1st, 2nd, 4th, 8th... refusal. */
	if (nb_refused != 0 && rte_is_power_of_2(nb_refused))
		SHM_LOG(NOTICE, "refusing a connection of process %d: it has its budget of %u "
			"connections to this device (max_proc_conns); %u refused so far",
			(int)pid, nb_conns, nb_refused);
	*peer = p;
	return p != NULL ? 0 : nb_refused != 0 ? -EUSERS : -ENOMEM;
}

void
shm_peer_leave(struct shm_dev *sd, struct shm_peer *peer)
{
	struct shm_peers *ps = &sd->peers;
	bool gone;

	pthread_mutex_lock(&ps->lock);
	gone = --peer->nb_conns == 0;
	if (gone)
		LIST_REMOVE(peer, next);
	pthread_mutex_unlock(&ps->lock);
	if (gone)
		free(peer);
}

int
shm_peer_charge(struct shm_dev *sd, struct shm_peer *peer, uint64_t bytes)
{
	struct shm_peers *ps = &sd->peers;
	struct shm_peer p;
	uint32_t dev_fds;
	uint64_t dev_bytes;
	int rc = -EMFILE;

	pthread_mutex_lock(&ps->lock);
	p = *peer;
	dev_fds = ps->nb_fds;
	dev_bytes = ps->bytes;
	if (p.nb_fds < sd->proc_fds && dev_fds < sd->dev_fds) {
		rc = -ENOSPC;
		if (p.bytes + bytes <= sd->proc_map && dev_bytes + bytes <= sd->dev_map) {
			peer->nb_fds++;
			peer->bytes += bytes;
			ps->nb_fds++;
			ps->bytes += bytes;
			rc = 0;
		}
	}
	pthread_mutex_unlock(&ps->lock);
	if (rc == 0)
		return 0;
	if (p.nb_fds >= sd->proc_fds)
		SHM_LOG(NOTICE, "peer consumer refused: process %d holds %u descriptors, its "
			"budget (max_proc_fds)", (int)p.pid, p.nb_fds);
	else if (dev_fds >= sd->dev_fds)
		SHM_LOG(NOTICE, "peer consumer refused: the peers of this device hold %u "
			"descriptors, their budget (max_dev_fds)", dev_fds);
	else if (p.bytes + bytes > sd->proc_map)
		SHM_LOG(NOTICE, "peer consumer refused: process %d maps %" PRIu64 " of its %"
			PRIu64 " bytes (max_proc_map), it asks %" PRIu64, (int)p.pid, p.bytes,
			sd->proc_map, bytes);
	else
		SHM_LOG(NOTICE, "peer consumer refused: the peers of this device map %" PRIu64
			" of their %" PRIu64 " bytes (max_dev_map), it asks %" PRIu64, dev_bytes,
			sd->dev_map, bytes);
	return rc;
}

void
shm_peer_refund(struct shm_dev *sd, struct shm_peer *peer, uint64_t bytes)
{
	struct shm_peers *ps = &sd->peers;

	pthread_mutex_lock(&ps->lock);
	peer->nb_fds--;
	peer->bytes -= bytes;
	ps->nb_fds--;
	ps->bytes -= bytes;
	pthread_mutex_unlock(&ps->lock);
}
