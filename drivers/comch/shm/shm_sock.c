/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* Paths, private directories, and fixed-size control messages with fd passing. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shm_internal.h"

/*
 * Socket files are named after a hash of the server name, so any name fits in
 * sun_path; the exact name is still compared in the handshake.
 */
int
shm_path(char *buf, size_t size, const char *dir, const char *fn, const char *name,
	 const char *suffix)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	const unsigned char *p;
	int n;

	for (p = (const unsigned char *)name; *p != '\0'; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	n = snprintf(buf, size, "%s/%s/s-%016" PRIx64 ".%s", dir, fn, h, suffix);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/*
 * Make (or check) a directory only we can use. One that exists must be a real
 * directory, ours, closed to group and others: anyone who could create it
 * first (another user, in a shared /tmp) could otherwise watch or replace our
 * sockets. The log says what is wrong, and fix how to put it right (NULL: the
 * general advice).
 */
int
shm_mkdir_private(const char *path, const char *fix)
{
	struct stat st;
	const char *what;
	int rc;

	if (fix == NULL)
		fix = "Remove it if it is not yours, or choose another base directory: devargs "
		      "dir=, or XDG_RUNTIME_DIR.";
	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		rc = -errno;
		SHM_LOG(ERR, "mkdir %s: %s. %s", path, strerror(-rc), fix);
		return rc;
	}
	if (lstat(path, &st) < 0) {
		rc = -errno;
		SHM_LOG(ERR, "stat %s: %s", path, strerror(-rc));
		return rc;
	}
	if (S_ISLNK(st.st_mode))
		what = "is a symbolic link";
	else if (!S_ISDIR(st.st_mode))
		what = "is not a directory";
	else if (st.st_uid != geteuid())
		what = "belongs to another user";
	else if ((st.st_mode & 077) != 0)
		what = "is open to group or others";
	else
		return 0;
	SHM_LOG(ERR, "%s %s (uid %u, mode %04o): rte_comch needs a directory of uid %u with mode "
		"0700 there, since another user could have made it to reach our sockets. %s",
		path, what, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777),
		(unsigned int)geteuid(), fix);
	return -EPERM;
}

void
shm_msg_init(struct shm_msg *m, enum shm_msg_type type)
{
	memset(m, 0, sizeof(*m));
	m->magic = SHM_MAGIC;
	m->version = SHM_PROTO_VERSION;
	m->type = type;
}

void
shm_close_fds(int *fds, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

ssize_t
shm_sendmsg_fds(int fd, const void *buf, size_t len, const int *fds, unsigned int nb_fds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * SHM_SEND_MAX_FDS)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	ssize_t n;

	if (nb_fds > SHM_SEND_MAX_FDS)
		return -EINVAL;
	if (nb_fds > 0) {
		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nb_fds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * nb_fds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * nb_fds);
	}
	n = sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
	return n < 0 ? -errno : n;
}

int
shm_msg_send(int fd, const struct shm_msg *m, const int *fds, unsigned int nb_fds)
{
	ssize_t n = shm_sendmsg_fds(fd, m, sizeof(*m), fds, nb_fds);

	if (n < 0)
		return (int)n;
	/* SEQPACKET: all or nothing; anything else is a broken socket. */
	return n == (ssize_t)sizeof(*m) ? 0 : -EIO;
}

/* Take every fd the kernel passed, even ones we will refuse: they must be closed. */
static unsigned int
shm_msg_collect_fds(struct msghdr *mh, int *fds, unsigned int max, bool *too_many)
{
	struct cmsghdr *cm;
	unsigned int n = 0, i, cnt;
	int fd;

	for (cm = CMSG_FIRSTHDR(mh); cm != NULL; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		cnt = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < cnt; i++) {
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (n < max)
				fds[n++] = fd;
			else {
				close(fd);
				*too_many = true;
			}
		}
	}
	return n;
}

int
shm_msg_recv(int fd, struct shm_msg *m, int *fds, unsigned int max_fds, unsigned int *nb_fds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * SHM_MAX_FDS)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	bool too_many = false;
	ssize_t n;

	*nb_fds = 0;
	n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return errno == ECONNRESET || errno == EPIPE ? -ECONNRESET : -errno;
	/*
	 * Whatever the message, every descriptor the kernel installed in our table
	 * is ours to close: collect them before looking at anything else.
	 */
	*nb_fds = shm_msg_collect_fds(&mh, fds, RTE_MIN(max_fds, (unsigned int)SHM_MAX_FDS),
				      &too_many);
	if (n == 0 && *nb_fds == 0 && !too_many && (mh.msg_flags & MSG_CTRUNC) == 0)
		return -ECONNRESET; /* end of stream (or an empty message: as good as one) */
	if (n == 0) {
		SHM_LOG(ERR, "peer sent descriptors with an empty message");
		goto bad;
	}
	if (too_many || (mh.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) != 0 ||
	    n != (ssize_t)sizeof(*m)) {
		SHM_LOG(ERR, "peer sent a malformed control message (%zd bytes, flags %#x)",
			n, mh.msg_flags);
		goto bad;
	}
	if (m->magic != SHM_MAGIC || m->version != SHM_PROTO_VERSION) {
		SHM_LOG(ERR, "peer speaks magic %#x version %u, we speak %#x version %u",
			m->magic, m->version, SHM_MAGIC, SHM_PROTO_VERSION);
		goto bad;
	}
	return 0;
bad:
	shm_close_fds(fds, *nb_fds);
	*nb_fds = 0;
	return -EPROTO;
}
