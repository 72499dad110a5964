/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench_fdpass.h"

/* The one byte of payload a message needs to carry ancillary data. */
#define FD_MSG_TAG 'F'

/* A message of one byte, tag, with room for one fd of ancillary data. */
struct fd_msg {
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	char tag;
	struct iovec iov;
	struct msghdr mh;
};

static void
fd_msg_init(struct fd_msg *m, char tag)
{
	memset(m, 0, sizeof(*m));
	m->tag = tag;
	m->iov.iov_base = &m->tag;
	m->iov.iov_len = 1;
	m->mh.msg_iov = &m->iov;
	m->mh.msg_iovlen = 1;
	m->mh.msg_control = m->u.buf;
	m->mh.msg_controllen = sizeof(m->u.buf);
}

int
bench_fd_send(int sock, int fd, struct bench_result *res)
{
	struct fd_msg m;
	struct cmsghdr *cm;
	ssize_t n;

	fd_msg_init(&m, FD_MSG_TAG);
	cm = CMSG_FIRSTHDR(&m.mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(fd));
	do {
		n = sendmsg(sock, &m.mh, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n != 1)
		return bench_fail(res, n < 0 ? -errno : -EIO, "passing an fd to the peer: %s",
				  n < 0 ? strerror(errno) : "short send");
	return 0;
}

int
bench_fd_recv(int sock, int *fd, struct bench_result *res)
{
	struct fd_msg m;
	struct cmsghdr *cm;
	ssize_t n;

	fd_msg_init(&m, 0);
	*fd = -1;
	do {
		n = recvmsg(sock, &m.mh, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return bench_fail(res, errno == EAGAIN ? -ETIMEDOUT : -errno, "waiting for the "
				  "peer's fd: %s", errno == EAGAIN ? "timed out" : strerror(errno));
	if (n == 0)
		return bench_fail(res, -ECONNRESET, "peer closed the socket instead of passing "
				  "an fd");
	cm = CMSG_FIRSTHDR(&m.mh);
	if (cm != NULL && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
	    cm->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(fd, CMSG_DATA(cm), sizeof(*fd));
	/* One fd exactly (the buffer has room for no more): anything else is not our peer. */
	if (m.tag != FD_MSG_TAG || *fd < 0 || (m.mh.msg_flags & MSG_CTRUNC) != 0) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return bench_fail(res, -EPROTO, "peer's message is not one fd");
	}
	return 0;
}
