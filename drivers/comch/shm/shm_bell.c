/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Doorbells: how one side wakes the other's sleeping engine.
 *
 * By default a doorbell is a Unix datagram socket pair. Our end is a file
 * description the peer never holds, and every call on either end says
 * MSG_DONTWAIT, so a peer can never make us block.
 *
 * With devargs doorbell=eventfd, a device uses eventfds instead, for peers it
 * trusts: a wake-up through an eventfd costs less than a datagram (measured by
 * dpdk-test-comch's event modes), but the peer shares the eventfd's file
 * description, so it could clear O_NONBLOCK, fill the counter, and make our
 * next ring block. Such a device also accepts eventfds from its peers; a
 * default device refuses them.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "shm_internal.h"

int
shm_bell_create(bool use_efd, struct shm_bell *ours, int *peers)
{
	int sv[2];

	if (use_efd) {
		ours->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (ours->fd < 0)
			return -errno;
		/* The peer gets the same eventfd: it writes, we read. */
		*peers = dup(ours->fd);
		if (*peers < 0) {
			close(ours->fd);
			ours->fd = -1;
			return -errno;
		}
		ours->efd = true;
		return 0;
	}
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	ours->fd = sv[0];
	ours->efd = false;
	*peers = sv[1];
	return 0;
}

/* Whether fd is an eventfd: its anonymous inode says so. */
static bool
shm_fd_is_eventfd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	return strcmp(target, "anon_inode:[eventfd]") == 0;
}

int
shm_bell_adopt(int fd, bool allow_efd, struct shm_bell *bell)
{
	int type, domain;
	socklen_t len = sizeof(int);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0) {
		len = sizeof(int);
		if (type != SOCK_DGRAM ||
		    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0 || domain != AF_UNIX)
			return -EPROTO;
		bell->fd = fd;
		bell->efd = false;
		return 0;
	}
	if (allow_efd && shm_fd_is_eventfd(fd)) {
		bell->fd = fd;
		bell->efd = true;
		return 0;
	}
	return -EPROTO;
}

void
shm_bell_ring(const struct shm_bell *bell)
{
	uint64_t one = 1;

	if (bell->efd)
		(void)!write(bell->fd, &one, sizeof(one));
	else
		(void)send(bell->fd, "", 1, MSG_DONTWAIT | MSG_NOSIGNAL);
}

#define SHM_BELL_BATCH 16

void
shm_bell_drain(const struct shm_bell *bell)
{
	struct mmsghdr msgs[SHM_BELL_BATCH];
	struct iovec iov[SHM_BELL_BATCH];
	char buf[SHM_BELL_BATCH];
	uint64_t n64;
	int i, n;

	if (bell->efd) {
		/* One read takes every wake-up: the counter goes back to 0. */
		(void)!read(bell->fd, &n64, sizeof(n64));
		return;
	}
	for (i = 0; i < SHM_BELL_BATCH; i++) {
		iov[i].iov_base = &buf[i];
		iov[i].iov_len = 1;
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	/*
	 * Usually one wake-up waits: one call takes it, and tells us none is left,
	 * where recv() would need a second call to see EAGAIN. Bounded: a peer
	 * ringing without pause must not keep us here.
	 */
	for (i = 0; i < 4; i++) {
		n = recvmmsg(bell->fd, msgs, SHM_BELL_BATCH, MSG_DONTWAIT, NULL);
		if (n < SHM_BELL_BATCH)
			break;
	}
}
