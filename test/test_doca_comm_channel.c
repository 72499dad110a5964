/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The DOCA layer's legacy endpoint API (doca_comm_channel.h), used as a DOCA
 * program uses it: devices found by PCI address through the layer's mapping
 * (RTE_COMCH_DOCA_DEVICES, set once for the process and inherited by the
 * peers), EAL started by the layer, the other side a process of its own.
 *
 * The peer is this binary re-executed with "--child srv|cli <name>": a
 * service or a client driven by one-line commands on its stdin, answering on
 * its stdout. While idle it keeps its endpoint progressing, as a program
 * would, so the parent never depends on its timing.
 *
 * Covered: every bad input and state error; an exchange both ways with the
 * statistics, user data, DOCA_ERROR_AGAIN on an empty queue, a receive buffer
 * too small (DOCA_ERROR_TOO_BIG, message kept) and the message size limit; a
 * disconnect seen by the other side, from either side, and connecting again;
 * the event handles: the service handle wakes on a connection and a
 * disconnection, the receive handle on a message (and at once when one is
 * already waiting), the send handle when there is room; the host side in this
 * process against a service in the child.
 * No timing is asserted: every wait is bounded by a generous timeout only.
 */

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <rte_eal.h>

#include <doca_comm_channel.h>
#include <doca_dev.h>
#include <doca_error.h>

/* Generous bound of every wait on the other process. */
#define LONG_MS 30000

/* The mapping of this test: one unpinned device, one per pinned side. */
#define PCI_ANY "0000:03:00.0"	/* unpinned: its side follows listen / connect */
#define PCI_HOST "0000:04:00.0"	/* pinned to the host side, a domain nobody serves */
#define PCI_DPU "0000:05:00.0"	/* pinned to the BlueField side, a domain of its own */

/* The child's service sets this message size; a client takes it. */
#define SRV_MSG_SIZE 2048

static char g_dir[64];

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int
rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* EAL's runtime directory of a file prefix, as EAL makes it. */
static void
eal_rundir(const char *prefix, char *buf, size_t len)
{
	const char *base = geteuid() == 0 ? "/var/run" : getenv("XDG_RUNTIME_DIR");

	if (base == NULL)
		base = "/tmp";
	snprintf(buf, len, "%s/dpdk/%s", base, prefix);
}

/* ----------------------------------------------------- device helpers */

/* Open the device of a PCI address; NULL if there is none (no cmocka: the child uses it). */
static struct doca_dev *
dev_open_pci(const char *pci)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t nb, i;
	uint8_t eq;

	if (doca_devinfo_create_list(&list, &nb) != DOCA_SUCCESS)
		return NULL;
	for (i = 0; i < nb && dev == NULL; i++)
		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq &&
		    doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	doca_devinfo_destroy_list(list);
	return dev;
}

/* Open the first representor of a device (which becomes the BlueField side). */
static struct doca_dev_rep *
rep_open_first(struct doca_dev *dev)
{
	struct doca_devinfo_rep **list;
	struct doca_dev_rep *rep = NULL;
	uint32_t nb;

	if (doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &list, &nb) !=
	    DOCA_SUCCESS)
		return NULL;
	if (nb == 0 || doca_dev_rep_open(list[0], &rep) != DOCA_SUCCESS)
		rep = NULL;
	doca_devinfo_rep_destroy_list(list);
	return rep;
}

/* --------------------------------------------- non-blocking call loops */

/* Progress an endpoint without taking a message (no test sends an empty one). */
static doca_error_t
pump(struct doca_comm_channel_ep_t *ep)
{
	struct doca_comm_channel_addr_t *from;
	size_t len = 0;

	return doca_comm_channel_ep_recvfrom(ep, NULL, &len, DOCA_CC_MSG_FLAG_NONE, &from);
}

static doca_error_t
send_retry(struct doca_comm_channel_ep_t *ep, const void *msg, size_t len,
	   struct doca_comm_channel_addr_t *peer)
{
	uint64_t t0 = now_ms();
	doca_error_t ret;

	while ((ret = doca_comm_channel_ep_sendto(ep, msg, len, DOCA_CC_MSG_FLAG_NONE, peer)) ==
	       DOCA_ERROR_AGAIN && now_ms() - t0 < LONG_MS)
		usleep(100);
	return ret;
}

static doca_error_t
recv_retry(struct doca_comm_channel_ep_t *ep, void *buf, size_t *len,
	   struct doca_comm_channel_addr_t **from)
{
	uint64_t t0 = now_ms();
	size_t cap = *len;
	doca_error_t ret;

	do {
		*len = cap;
		ret = doca_comm_channel_ep_recvfrom(ep, buf, len, DOCA_CC_MSG_FLAG_NONE, from);
		if (ret != DOCA_ERROR_AGAIN)
			return ret;
		usleep(100);
	} while (now_ms() - t0 < LONG_MS);
	return ret;
}

/* update_info until it says something else than want; the last answer. */
static doca_error_t
info_while(struct doca_comm_channel_addr_t *peer, doca_error_t want)
{
	uint64_t t0 = now_ms();
	doca_error_t ret;

	while ((ret = doca_comm_channel_peer_addr_update_info(peer)) == want &&
	       now_ms() - t0 < LONG_MS)
		usleep(100);
	return ret;
}

/* ============================================================ child process */

/*
 * Commands, one a line; each answers one line (two for wait_end):
 *   send <text>   SENT <error name>           (to the connection, or the last sender)
 *   recv          RECV <text> | RECV_ERR <name>
 *   echo          ECHOED <text> | ECHO_ERR <name>  (receive one, send it back)
 *   wait_end      END <update_info's answer once not SUCCESS>, SEND_AFTER <sendto's>
 *   disconnect    DISCONNECTED <name>
 *   reconnect     RECONNECTED <name>          (client: connect again, up, send "again")
 *   quit          BYE <destroy's answer>, then exit
 */
static int
child_main(int argc, char **argv)
{
	struct doca_comm_channel_addr_t *peer = NULL, *from;
	struct doca_comm_channel_ep_t *ep = NULL;
	struct doca_dev_rep *rep = NULL;
	struct doca_dev *dev;
	char line[512], buf[SRV_MSG_SIZE];
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	doca_error_t ret;
	bool server;
	size_t len;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 4)
		return 2;
	server = strcmp(argv[2], "srv") == 0;
	dev = dev_open_pci(PCI_ANY);
	if (dev == NULL || doca_comm_channel_ep_create(&ep) != DOCA_SUCCESS ||
	    doca_comm_channel_ep_set_device(ep, dev) != DOCA_SUCCESS)
		return 3;
	if (server) {
		rep = rep_open_first(dev);
		if (rep == NULL || doca_comm_channel_ep_set_device_rep(ep, rep) != DOCA_SUCCESS ||
		    doca_comm_channel_ep_set_max_msg_size(ep, SRV_MSG_SIZE) != DOCA_SUCCESS ||
		    doca_comm_channel_ep_listen(ep, argv[3]) != DOCA_SUCCESS)
			return 4;
	} else {
		if (doca_comm_channel_ep_connect(ep, argv[3], &peer) != DOCA_SUCCESS)
			return 5;
		ret = info_while(peer, DOCA_ERROR_CONNECTION_INPROGRESS);
		if (ret != DOCA_SUCCESS) {
			fprintf(stderr, "child: connect: %s\n", doca_error_get_name(ret));
			return 6;
		}
	}
	printf("READY\n");
	for (;;) {
		/* Idle: keep the endpoint progressing, as a DOCA program's loop would. */
		if (poll(&pfd, 1, 1) == 0) {
			pump(ep);
			continue;
		}
		if (fgets(line, sizeof(line), stdin) == NULL)
			break;
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "send ", 5) == 0) {
			ret = send_retry(ep, line + 5, strlen(line + 5) + 1, peer);
			printf("SENT %s\n", doca_error_get_name(ret));
		} else if (strcmp(line, "recv") == 0 || strcmp(line, "echo") == 0) {
			len = sizeof(buf);
			ret = recv_retry(ep, buf, &len, &from);
			if (ret == DOCA_SUCCESS && server)
				peer = from;
			if (ret == DOCA_SUCCESS && line[0] == 'e')
				ret = send_retry(ep, buf, len, from);
			if (ret == DOCA_SUCCESS)
				printf("%s %s\n", line[0] == 'e' ? "ECHOED" : "RECV", buf);
			else
				printf("%s %s\n", line[0] == 'e' ? "ECHO_ERR" : "RECV_ERR",
				       doca_error_get_name(ret));
		} else if (strcmp(line, "wait_end") == 0) {
			ret = info_while(peer, DOCA_SUCCESS);
			printf("END %s\n", doca_error_get_name(ret));
			ret = doca_comm_channel_ep_sendto(ep, "x", 2, DOCA_CC_MSG_FLAG_NONE, peer);
			printf("SEND_AFTER %s\n", doca_error_get_name(ret));
		} else if (strcmp(line, "disconnect") == 0) {
			ret = doca_comm_channel_ep_disconnect(ep, peer);
			peer = NULL;
			printf("DISCONNECTED %s\n", doca_error_get_name(ret));
		} else if (strcmp(line, "reconnect") == 0) {
			uint64_t t0 = now_ms();

			/* the previous connection may still be closing: DOCA_ERROR_AGAIN */
			while ((ret = doca_comm_channel_ep_connect(ep, argv[3], &peer)) ==
			       DOCA_ERROR_AGAIN && now_ms() - t0 < LONG_MS)
				usleep(100);
			if (ret == DOCA_SUCCESS)
				ret = info_while(peer, DOCA_ERROR_CONNECTION_INPROGRESS);
			if (ret == DOCA_SUCCESS)
				ret = send_retry(ep, "again", 6, peer);
			printf("RECONNECTED %s\n", doca_error_get_name(ret));
		} else if (strcmp(line, "quit") == 0) {
			break;
		}
	}
	ret = doca_comm_channel_ep_destroy(ep);
	if (rep != NULL && ret == DOCA_SUCCESS)
		ret = doca_dev_rep_close(rep);
	if (ret == DOCA_SUCCESS)
		ret = doca_dev_close(dev);
	printf("BYE %s\n", doca_error_get_name(ret));
	return ret == DOCA_SUCCESS ? 0 : 7;
}

/* ------------------------------------------------- the parent's side */

struct child {
	pid_t pid;
	int in;			/* its stdin */
	int out;		/* its stdout */
	char buf[4096];		/* what was read and not yet returned as lines */
	size_t n;
};

static struct child *
child_spawn(const char *role, const char *name)
{
	struct child *c = calloc(1, sizeof(*c));
	int to[2], from[2];

	assert_non_null(c);
	assert_int_equal(pipe(to), 0);
	assert_int_equal(pipe(from), 0);
	fflush(NULL);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		char *argv[] = { (char *)"test_doca_comm_channel", (char *)"--child",
				 (char *)role, (char *)name, NULL };

		dup2(to[0], STDIN_FILENO);
		dup2(from[1], STDOUT_FILENO);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	c->in = to[1];
	c->out = from[0];
	return c;
}

static void
child_cmd(struct child *c, const char *cmd)
{
	size_t len = strlen(cmd);

	assert_int_equal(write(c->in, cmd, len), (ssize_t)len);
	assert_int_equal(write(c->in, "\n", 1), 1);
}

/*
 * Wait for the child's next line starting with prefix (others are skipped),
 * copying what follows the prefix to rest. ep, if not NULL, is progressed
 * meanwhile: the child's call may need this side to answer.
 */
static void
child_expect(struct child *c, const char *prefix, struct doca_comm_channel_ep_t *ep, char *rest,
	     size_t len)
{
	struct pollfd pfd = { .fd = c->out, .events = POLLIN };
	uint64_t t0 = now_ms();
	char *nl;
	ssize_t r;

	for (;;) {
		while ((nl = memchr(c->buf, '\n', c->n)) != NULL) {
			size_t l = (size_t)(nl - c->buf) + 1;
			bool match;

			*nl = '\0';
			match = strncmp(c->buf, prefix, strlen(prefix)) == 0;
			if (match && rest != NULL)
				snprintf(rest, len, "%s", c->buf + strlen(prefix));
			memmove(c->buf, c->buf + l, c->n - l);
			c->n -= l;
			if (match)
				return;
		}
		if (now_ms() - t0 > LONG_MS)
			fail_msg("child %d: no \"%s\" line", (int)c->pid, prefix);
		if (poll(&pfd, 1, ep != NULL ? 1 : 100) == 0) {
			if (ep != NULL)
				pump(ep);
			continue;
		}
		r = read(c->out, c->buf + c->n, sizeof(c->buf) - 1 - c->n);
		if (r <= 0)
			fail_msg("child %d ended before \"%s\"", (int)c->pid, prefix);
		c->n += (size_t)r;
		if (c->n == sizeof(c->buf) - 1)
			c->n = 0;	/* a line this long is nothing we wait for */
	}
}

/* Expect "<prefix>DOCA_SUCCESS". */
static void
child_expect_ok(struct child *c, const char *prefix, struct doca_comm_channel_ep_t *ep)
{
	char rest[256];

	child_expect(c, prefix, ep, rest, sizeof(rest));
	assert_string_equal(rest, "DOCA_SUCCESS");
}

/* Reap the child (quit first if asked) and remove what its EAL left. */
static void
child_end(struct child *c, bool quit, struct doca_comm_channel_ep_t *ep)
{
	char prefix[64], rundir[PATH_MAX];
	int st;

	if (quit) {
		child_cmd(c, "quit");
		child_expect_ok(c, "BYE ", ep);
		assert_int_equal(waitpid(c->pid, &st, 0), c->pid);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	} else {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, &st, 0);
	}
	close(c->in);
	close(c->out);
	/* The layer starts EAL with --file-prefix=doca-<pid> and never cleans it up. */
	snprintf(prefix, sizeof(prefix), "doca-%d", (int)c->pid);
	eal_rundir(prefix, rundir, sizeof(rundir));
	nftw(rundir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	free(c);
}

/* A service in this process: device PCI_ANY, its first representor. */
struct service {
	struct doca_dev *dev;
	struct doca_dev_rep *rep;
	struct doca_comm_channel_ep_t *ep;
};

static void
service_open(struct service *s, const char *name, uint16_t msg_size)
{
	memset(s, 0, sizeof(*s));
	s->dev = dev_open_pci(PCI_ANY);
	assert_non_null(s->dev);
	s->rep = rep_open_first(s->dev);
	assert_non_null(s->rep);
	assert_int_equal(doca_comm_channel_ep_create(&s->ep), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_set_device(s->ep, s->dev), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_set_device_rep(s->ep, s->rep), DOCA_SUCCESS);
	if (msg_size != 0)
		assert_int_equal(doca_comm_channel_ep_set_max_msg_size(s->ep, msg_size),
				 DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_listen(s->ep, name), DOCA_SUCCESS);
}

static void
service_close(struct service *s)
{
	assert_int_equal(doca_comm_channel_ep_destroy(s->ep), DOCA_SUCCESS);
	assert_int_equal(doca_dev_rep_close(s->rep), DOCA_SUCCESS);
	assert_int_equal(doca_dev_close(s->dev), DOCA_SUCCESS);
}

/* Receive one message (retrying while there is none) and check its text. */
static struct doca_comm_channel_addr_t *
recv_text(struct doca_comm_channel_ep_t *ep, const char *want)
{
	struct doca_comm_channel_addr_t *from = NULL;
	char buf[SRV_MSG_SIZE];
	size_t len = sizeof(buf);

	assert_int_equal(recv_retry(ep, buf, &len, &from), DOCA_SUCCESS);
	assert_int_equal(len, strlen(want) + 1);
	assert_string_equal(buf, want);
	assert_non_null(from);
	return from;
}

/* The number of connected peers in a fresh service state snapshot. */
static uint32_t
svc_peers(struct doca_comm_channel_ep_t *ep)
{
	struct doca_comm_channel_addr_t **list;
	uint32_t nb = UINT32_MAX;

	assert_int_equal(doca_comm_channel_ep_update_service_state_info(ep), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_get_peer_addr_list(ep, &list, &nb), DOCA_SUCCESS);
	assert_true(nb == 0 ? list == NULL : list != NULL);
	return nb;
}

static bool
readable(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN) != 0;
}

/* =================================================================== tests */

static void
test_bad_inputs(void **state)
{
	struct doca_comm_channel_addr_t *peer, **list, *bogus;
	struct doca_comm_channel_ep_t *ep, *ep2;
	struct doca_devinfo **devs;
	struct doca_dev *dev, *hdev, *ddev, *got;
	struct doca_dev_rep *drep, *grep;
	doca_event_channel_t sch, rch;
	uint32_t v, nb;
	uint64_t u64;
	uint16_t sz;
	size_t len = 4;
	char buf[4];
	uint64_t t0;
	doca_error_t ret;
	int dummy;

	(void)state;
	bogus = (struct doca_comm_channel_addr_t *)&dummy; /* never dereferenced */
	/* capabilities */
	assert_int_equal(doca_comm_channel_get_max_service_name_len(NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_get_max_service_name_len(&v), DOCA_SUCCESS);
	assert_true(v > 1);
	assert_int_equal(doca_devinfo_create_list(&devs, &nb), DOCA_SUCCESS);
	assert_int_equal(nb, 3);
	assert_int_equal(doca_comm_channel_get_max_message_size(NULL, &v),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_get_max_message_size(devs[0], NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_get_max_message_size(devs[0], &v), DOCA_SUCCESS);
	assert_true(v >= SRV_MSG_SIZE);
	assert_int_equal(doca_comm_channel_get_max_send_queue_size(devs[0], NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_get_max_send_queue_size(devs[0], &v), DOCA_SUCCESS);
	assert_true(v > 0);
	assert_int_equal(doca_comm_channel_get_max_recv_queue_size(NULL, &v),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_get_max_recv_queue_size(devs[0], &v), DOCA_SUCCESS);
	assert_true(v > 0 && v < UINT16_MAX); /* the over-the-limit case below needs it */
	assert_int_equal(doca_comm_channel_get_service_max_num_connections(devs[0], NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_get_service_max_num_connections(devs[0], &v),
			 DOCA_SUCCESS);
	assert_true(v > 0);
	assert_int_equal(doca_devinfo_destroy_list(devs), DOCA_SUCCESS);

	/* every call with no endpoint, or no peer address */
	assert_int_equal(doca_comm_channel_ep_create(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_set_device(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_device(NULL, &got), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_set_device_rep(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_device_rep(NULL, &grep),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_set_max_msg_size(NULL, 64), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_max_msg_size(NULL, &sz),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_set_send_queue_size(NULL, 8),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_send_queue_size(NULL, &sz),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_set_recv_queue_size(NULL, 8),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_recv_queue_size(NULL, &sz),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_listen(NULL, "x"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_connect(NULL, "x", &peer), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_disconnect(NULL, bogus), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_sendto(NULL, "x", 2, 0, bogus),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_recvfrom(NULL, buf, &len, 0, &peer),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_event_channel(NULL, &sch, &rch),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_event_handle_arm_send(NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_event_handle_arm_recv(NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_service_event_channel(NULL, &sch),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_update_service_state_info(NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_peer_addr_list(NULL, &list, &nb),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_pending_connections(NULL, &v),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_set_user_data(NULL, 1),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_get_user_data(NULL, &u64),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_update_info(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_get_send_messages(NULL, &u64),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_get_send_bytes(NULL, &u64),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_get_recv_messages(NULL, &u64),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_get_recv_bytes(NULL, &u64),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_get_send_in_flight_messages(NULL, &u64),
			 DOCA_ERROR_INVALID_VALUE);

	/* an endpoint with nothing set */
	assert_int_equal(doca_comm_channel_ep_create(&ep), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_get_device(ep, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_device(ep, &got), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(doca_comm_channel_ep_get_device_rep(ep, &grep), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(doca_comm_channel_ep_set_device(ep, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_set_device_rep(ep, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_set_max_msg_size(ep, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_set_send_queue_size(ep, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_set_recv_queue_size(ep, 0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_max_msg_size(ep, NULL), DOCA_ERROR_INVALID_VALUE);
	/* no device: no default message size; the queues' defaults */
	assert_int_equal(doca_comm_channel_ep_get_max_msg_size(ep, &sz), DOCA_SUCCESS);
	assert_int_equal(sz, 0);
	assert_int_equal(doca_comm_channel_ep_get_send_queue_size(ep, &sz), DOCA_SUCCESS);
	assert_int_equal(sz, 64);
	assert_int_equal(doca_comm_channel_ep_get_recv_queue_size(ep, &sz), DOCA_SUCCESS);
	assert_int_equal(sz, 64);
	/* mandatory properties missing */
	assert_int_equal(doca_comm_channel_ep_listen(ep, "bad_in"), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_connect(ep, "bad_in", &peer), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_listen(ep, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_connect(ep, NULL, &peer), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_connect(ep, "bad_in", NULL),
			 DOCA_ERROR_INVALID_VALUE);
	/* neither listening nor connected */
	assert_int_equal(doca_comm_channel_ep_get_event_channel(ep, NULL, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_event_channel(ep, &sch, &rch),
			 DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_event_handle_arm_send(ep), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_event_handle_arm_recv(ep), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_get_service_event_channel(ep, &sch),
			 DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_update_service_state_info(ep), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_get_peer_addr_list(ep, &list, &nb),
			 DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_get_pending_connections(ep, &v),
			 DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_sendto(ep, "x", 2, 0, NULL),
			 DOCA_ERROR_NOT_CONNECTED);
	assert_int_equal(doca_comm_channel_ep_sendto(ep, NULL, 2, 0, bogus),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_sendto(ep, "x", 2, 1, bogus),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_sendto(ep, "x", 2, 0, bogus),
			 DOCA_ERROR_NOT_CONNECTED);
	assert_int_equal(doca_comm_channel_ep_recvfrom(ep, buf, NULL, 0, &peer),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_recvfrom(ep, buf, &len, 0, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_recvfrom(ep, NULL, &len, 0, &peer),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_recvfrom(ep, buf, &len, 4, &peer),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_recvfrom(ep, buf, &len, 0, &peer),
			 DOCA_ERROR_NOT_CONNECTED);
	assert_int_equal(doca_comm_channel_ep_disconnect(ep, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_disconnect(ep, bogus), DOCA_ERROR_NOT_CONNECTED);

	/* with a device: its defaults and limits */
	dev = dev_open_pci(PCI_ANY);
	assert_non_null(dev);
	assert_int_equal(doca_comm_channel_ep_set_device(ep, dev), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_get_device(ep, &got), DOCA_SUCCESS);
	assert_ptr_equal(got, dev);
	assert_int_equal(doca_comm_channel_ep_get_max_msg_size(ep, &sz), DOCA_SUCCESS);
	assert_true(sz > 0);
	assert_int_equal(doca_comm_channel_get_max_recv_queue_size(doca_dev_as_devinfo(dev), &v),
			 DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_set_recv_queue_size(ep, (uint16_t)(v + 1)),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_set_recv_queue_size(ep, 16), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_get_recv_queue_size(ep, &sz), DOCA_SUCCESS);
	assert_int_equal(sz, 16);
	assert_int_equal(doca_comm_channel_ep_set_send_queue_size(ep, 8), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_get_send_queue_size(ep, &sz), DOCA_SUCCESS);
	assert_int_equal(sz, 8);
	assert_int_equal(doca_comm_channel_ep_set_max_msg_size(ep, 512), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_get_max_msg_size(ep, &sz), DOCA_SUCCESS);
	assert_int_equal(sz, 512);
	/* no representor: no service */
	assert_int_equal(doca_comm_channel_ep_listen(ep, "bad_in"), DOCA_ERROR_BAD_STATE);

	/* the representor of another device */
	ddev = dev_open_pci(PCI_DPU);
	assert_non_null(ddev);
	drep = rep_open_first(ddev);
	assert_non_null(drep);
	assert_int_equal(doca_comm_channel_ep_set_device_rep(ep, drep), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_get_device_rep(ep, &grep), DOCA_SUCCESS);
	assert_ptr_equal(grep, drep);
	assert_int_equal(doca_comm_channel_ep_listen(ep, "bad_in"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_destroy(ep), DOCA_SUCCESS);

	/* a device of the BlueField side cannot connect */
	assert_int_equal(doca_comm_channel_ep_create(&ep), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_set_device(ep, ddev), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_connect(ep, "bad_in", &peer),
			 DOCA_ERROR_NOT_PERMITTED);
	/* nothing stays of the failed attempt: it may still listen */
	assert_int_equal(doca_comm_channel_ep_set_device_rep(ep, drep), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_listen(ep, "bad_in"), DOCA_SUCCESS);
	/* listening: configuration is over */
	assert_int_equal(doca_comm_channel_ep_set_device(ep, ddev), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_set_device_rep(ep, drep), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_set_max_msg_size(ep, 64), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_set_send_queue_size(ep, 8), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_set_recv_queue_size(ep, 8), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_comm_channel_ep_listen(ep, "bad_in"), DOCA_ERROR_NOT_PERMITTED);
	assert_int_equal(doca_comm_channel_ep_connect(ep, "bad_in", &peer),
			 DOCA_ERROR_NOT_PERMITTED);
	/* a second service of the same name on the same representor */
	assert_int_equal(doca_comm_channel_ep_create(&ep2), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_set_device(ep2, ddev), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_set_device_rep(ep2, drep), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_listen(ep2, "bad_in"), DOCA_ERROR_ALREADY_EXIST);
	assert_int_equal(doca_comm_channel_ep_destroy(ep2), DOCA_SUCCESS);
	/* the service calls, with no client */
	assert_int_equal(doca_comm_channel_ep_get_pending_connections(ep, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_pending_connections(ep, &v), DOCA_SUCCESS);
	assert_int_equal(v, 0);
	assert_int_equal(doca_comm_channel_ep_get_peer_addr_list(ep, NULL, &nb),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(svc_peers(ep), 0);
	assert_int_equal(doca_comm_channel_ep_get_service_event_channel(ep, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_ep_get_service_event_channel(ep, &sch), DOCA_SUCCESS);
	assert_true(sch >= 0);
	assert_int_equal(doca_comm_channel_ep_get_event_channel(ep, &sch, NULL), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_get_event_channel(ep, NULL, &rch), DOCA_SUCCESS);
	assert_true(sch >= 0 && rch >= 0 && sch != rch);
	len = sizeof(buf);
	assert_int_equal(doca_comm_channel_ep_recvfrom(ep, buf, &len, 0, &peer), DOCA_ERROR_AGAIN);
	assert_int_equal(doca_comm_channel_ep_sendto(ep, "x", 2, 0, bogus),
			 DOCA_ERROR_NOT_CONNECTED);
	/* the endpoint holds its device */
	assert_int_equal(doca_dev_close(ddev), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_comm_channel_ep_destroy(ep), DOCA_SUCCESS);
	assert_int_equal(doca_dev_rep_close(drep), DOCA_SUCCESS);
	assert_int_equal(doca_dev_close(ddev), DOCA_SUCCESS);

	/* a host-side device connects to a service nobody runs: it keeps trying */
	hdev = dev_open_pci(PCI_HOST);
	assert_non_null(hdev);
	assert_int_equal(doca_comm_channel_ep_create(&ep), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_set_device(ep, hdev), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_connect(ep, "nobody", &peer), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_peer_addr_update_info(peer),
			 DOCA_ERROR_CONNECTION_INPROGRESS);
	assert_int_equal(doca_comm_channel_ep_sendto(ep, "x", 2, 0, peer), DOCA_ERROR_AGAIN);
	assert_int_equal(doca_comm_channel_ep_connect(ep, "nobody", &peer),
			 DOCA_ERROR_NOT_PERMITTED);
	assert_int_equal(doca_comm_channel_ep_update_service_state_info(ep),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_comm_channel_ep_get_service_event_channel(ep, &sch),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_comm_channel_ep_get_peer_addr_list(ep, &list, &nb),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_comm_channel_ep_get_pending_connections(ep, &v),
			 DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_comm_channel_ep_listen(ep, "bad_in"), DOCA_ERROR_NOT_PERMITTED);
	assert_int_equal(doca_comm_channel_ep_disconnect(ep, peer), DOCA_SUCCESS);
	/* the attempt still closing answers DOCA_ERROR_AGAIN, then it connects again */
	t0 = now_ms();
	while ((ret = doca_comm_channel_ep_connect(ep, "nobody", &peer)) == DOCA_ERROR_AGAIN &&
	       now_ms() - t0 < LONG_MS)
		usleep(100);
	assert_int_equal(ret, DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_destroy(ep), DOCA_SUCCESS);
	assert_int_equal(doca_dev_close(hdev), DOCA_SUCCESS);
	assert_int_equal(doca_dev_close(dev), DOCA_SUCCESS);
}

/*
 * A service here, a client in the child: both directions, AGAIN, a buffer too
 * small, the size limit, counters, user data, the client's disconnect seen here.
 */
static void
test_exchange(void **state)
{
	struct doca_comm_channel_addr_t *p, *from, **list;
	char big[SRV_MSG_SIZE + 1], buf[256], rest[256];
	struct service s;
	struct child *c;
	uint64_t u64, t0;
	uint32_t nb;
	uint16_t sz;
	size_t len;

	(void)state;
	service_open(&s, "dcc_exchange", SRV_MSG_SIZE);
	assert_int_equal(doca_comm_channel_ep_get_max_msg_size(s.ep, &sz), DOCA_SUCCESS);
	assert_int_equal(sz, SRV_MSG_SIZE);
	c = child_spawn("cli", "dcc_exchange");
	child_expect(c, "READY", s.ep, NULL, 0);

	/* nothing yet */
	len = sizeof(buf);
	assert_int_equal(doca_comm_channel_ep_recvfrom(s.ep, buf, &len, 0, &from),
			 DOCA_ERROR_AGAIN);
	child_cmd(c, "send hello from the client");
	child_expect_ok(c, "SENT ", s.ep);
	p = recv_text(s.ep, "hello from the client");
	len = sizeof(buf);
	assert_int_equal(doca_comm_channel_ep_recvfrom(s.ep, buf, &len, 0, &from),
			 DOCA_ERROR_AGAIN);
	assert_int_equal(doca_comm_channel_peer_addr_get_user_data(p, &u64), DOCA_SUCCESS);
	assert_int_equal(u64, 0);
	assert_int_equal(doca_comm_channel_peer_addr_set_user_data(p, 77), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_peer_addr_get_user_data(p, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_get_user_data(p, &u64), DOCA_SUCCESS);
	assert_int_equal(u64, 77);
	/* the guide's other spelling: the same value */
	assert_int_equal(doca_comm_channel_peer_addr_user_data_get(p, &u64), DOCA_SUCCESS);
	assert_int_equal(u64, 77);
	assert_int_equal(doca_comm_channel_peer_addr_user_data_set(p, 78), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_peer_addr_get_user_data(p, &u64), DOCA_SUCCESS);
	assert_int_equal(u64, 78);
	assert_int_equal(doca_comm_channel_peer_addr_user_data_get(p, NULL),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_user_data_set(NULL, 1),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_comm_channel_peer_addr_set_user_data(p, 77), DOCA_SUCCESS);
	assert_int_equal(svc_peers(s.ep), 1);
	assert_int_equal(doca_comm_channel_ep_get_peer_addr_list(s.ep, &list, &nb), DOCA_SUCCESS);
	assert_ptr_equal(list[0], p);

	/* the other way */
	assert_int_equal(send_retry(s.ep, "answer from the service", 24, p), DOCA_SUCCESS);
	child_cmd(c, "recv");
	child_expect(c, "RECV ", s.ep, rest, sizeof(rest));
	assert_string_equal(rest, "answer from the service");

	/* a buffer too small: the length needed, the message kept first in line */
	child_cmd(c, "send a message of forty bytes or so, really");
	child_expect_ok(c, "SENT ", s.ep);
	t0 = now_ms();
	do {
		len = 10;
		if (doca_comm_channel_ep_recvfrom(s.ep, buf, &len, 0, &from) != DOCA_ERROR_AGAIN)
			break;
		usleep(100);
	} while (now_ms() - t0 < LONG_MS);
	len = 10;
	assert_int_equal(doca_comm_channel_ep_recvfrom(s.ep, buf, &len, 0, &from),
			 DOCA_ERROR_TOO_BIG);
	assert_int_equal(len, 39);
	from = recv_text(s.ep, "a message of forty bytes or so, really");
	assert_ptr_equal(from, p);

	/* the size limit: the service's; the client, which set none, took it */
	memset(big, 'b', sizeof(big));
	big[sz - 1] = '\0';
	assert_int_equal(doca_comm_channel_ep_sendto(s.ep, big, (size_t)sz + 1, 0, p),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(send_retry(s.ep, big, sz, p), DOCA_SUCCESS);
	child_cmd(c, "recv");
	child_expect(c, "RECV ", s.ep, NULL, 0);

	/* counters: 2 messages received, 2 sent and taken */
	t0 = now_ms();
	do {
		assert_int_equal(doca_comm_channel_peer_addr_update_info(p), DOCA_SUCCESS);
		assert_int_equal(doca_comm_channel_peer_addr_get_send_messages(p, &u64),
				 DOCA_SUCCESS);
	} while (u64 < 2 && now_ms() - t0 < LONG_MS);
	assert_int_equal(u64, 2);
	assert_int_equal(doca_comm_channel_peer_addr_get_send_bytes(p, &u64), DOCA_SUCCESS);
	assert_int_equal(u64, 24 + sz);
	assert_int_equal(doca_comm_channel_peer_addr_get_recv_messages(p, &u64), DOCA_SUCCESS);
	assert_int_equal(u64, 2);
	assert_int_equal(doca_comm_channel_peer_addr_get_recv_bytes(p, &u64), DOCA_SUCCESS);
	assert_int_equal(u64, 22 + 39);
	assert_int_equal(doca_comm_channel_peer_addr_get_send_in_flight_messages(p, &u64),
			 DOCA_SUCCESS);
	assert_int_equal(u64, 0);
	assert_int_equal(doca_comm_channel_peer_addr_get_recv_bytes(p, NULL),
			 DOCA_ERROR_INVALID_VALUE);

	/* the client disconnects: seen here, the peer address stays until released */
	child_cmd(c, "disconnect");
	child_expect_ok(c, "DISCONNECTED ", s.ep);
	assert_int_equal(info_while(p, DOCA_SUCCESS), DOCA_ERROR_CONNECTION_ABORTED);
	assert_int_equal(doca_comm_channel_ep_sendto(s.ep, "x", 2, 0, p),
			 DOCA_ERROR_CONNECTION_RESET);
	assert_int_equal(doca_comm_channel_peer_addr_get_user_data(p, &u64), DOCA_SUCCESS);
	assert_int_equal(u64, 77);
	assert_int_equal(svc_peers(s.ep), 0);
	assert_int_equal(doca_comm_channel_ep_disconnect(s.ep, p), DOCA_SUCCESS);
	child_end(c, true, s.ep);
	service_close(&s);
}

/* The service disconnects its client: the client sees it, and connects again. */
static void
test_service_disconnects(void **state)
{
	struct doca_comm_channel_addr_t *p;
	struct service s;
	struct child *c;
	char rest[256];

	(void)state;
	service_open(&s, "dcc_svc_disc", 0);
	c = child_spawn("cli", "dcc_svc_disc");
	child_expect(c, "READY", s.ep, NULL, 0);
	child_cmd(c, "send first");
	child_expect_ok(c, "SENT ", s.ep);
	p = recv_text(s.ep, "first");
	assert_int_equal(doca_comm_channel_ep_disconnect(s.ep, p), DOCA_SUCCESS);
	child_cmd(c, "wait_end");
	child_expect(c, "END ", s.ep, rest, sizeof(rest));
	assert_string_equal(rest, "DOCA_ERROR_CONNECTION_ABORTED");
	child_expect(c, "SEND_AFTER ", s.ep, rest, sizeof(rest));
	assert_string_equal(rest, "DOCA_ERROR_CONNECTION_RESET");
	/* the client releases its peer address and connects again */
	child_cmd(c, "disconnect");
	child_expect_ok(c, "DISCONNECTED ", s.ep);
	child_cmd(c, "reconnect");
	child_expect_ok(c, "RECONNECTED ", s.ep);
	p = recv_text(s.ep, "again");
	assert_int_equal(doca_comm_channel_peer_addr_update_info(p), DOCA_SUCCESS);
	assert_int_equal(send_retry(s.ep, "welcome back", 13, p), DOCA_SUCCESS);
	child_cmd(c, "recv");
	child_expect(c, "RECV ", s.ep, rest, sizeof(rest));
	assert_string_equal(rest, "welcome back");
	child_end(c, true, s.ep);
	/* the client destroyed its endpoint: its connection ended */
	assert_int_equal(info_while(p, DOCA_SUCCESS), DOCA_ERROR_CONNECTION_ABORTED);
	service_close(&s);
}

/* Wait on one handle, at most until deadline; true if it became readable. */
static bool
wait_handle(int epfd, uint64_t deadline)
{
	struct epoll_event ev;
	uint64_t now = now_ms();
	int n;

	if (now >= deadline)
		return false;
	do {
		n = epoll_wait(epfd, &ev, 1, (int)(deadline - now));
	} while (n < 0 && errno == EINTR);
	return n == 1;
}

/*
 * The event handles, each waited on alone, as a DOCA program does: no other
 * call progresses the endpoint between arming and waking.
 */
static void
test_event_channels(void **state)
{
	struct doca_comm_channel_addr_t *p, *from;
	doca_event_channel_t sch, rch, vch;
	int ep_send, ep_recv, ep_svc;
	struct epoll_event ev;
	struct service s;
	struct child *c;
	uint64_t deadline;
	uint32_t nb = 0;
	char buf[64];
	size_t len;
	doca_error_t ret;

	(void)state;
	service_open(&s, "dcc_events", 0);
	assert_int_equal(doca_comm_channel_ep_get_event_channel(s.ep, &sch, &rch), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_get_service_event_channel(s.ep, &vch), DOCA_SUCCESS);
	/* each in an epoll set of its own, as a program nests them */
	ep_send = epoll_create1(0);
	ep_recv = epoll_create1(0);
	ep_svc = epoll_create1(0);
	assert_true(ep_send >= 0 && ep_recv >= 0 && ep_svc >= 0);
	ev = (struct epoll_event){ .events = EPOLLIN };
	assert_int_equal(epoll_ctl(ep_send, EPOLL_CTL_ADD, sch, &ev), 0);
	assert_int_equal(epoll_ctl(ep_recv, EPOLL_CTL_ADD, rch, &ev), 0);
	assert_int_equal(epoll_ctl(ep_svc, EPOLL_CTL_ADD, vch, &ev), 0);

	/* a client connects: the service handle (armed when returned) wakes */
	c = child_spawn("cli", "dcc_events");
	deadline = now_ms() + LONG_MS;
	while (nb == 0) {
		assert_true(wait_handle(ep_svc, deadline));
		nb = svc_peers(s.ep); /* progresses, and arms the handle again */
	}
	assert_int_equal(nb, 1);
	child_expect(c, "READY", NULL, NULL, 0);

	/* a message: the receive handle wakes */
	assert_int_equal(doca_comm_channel_ep_event_handle_arm_recv(s.ep), DOCA_SUCCESS);
	child_cmd(c, "send ping");
	deadline = now_ms() + LONG_MS;
	for (;;) {
		assert_true(wait_handle(ep_recv, deadline));
		len = sizeof(buf);
		ret = doca_comm_channel_ep_recvfrom(s.ep, buf, &len, 0, &from);
		if (ret != DOCA_ERROR_AGAIN)
			break;
		/* a wake-up for something else: arm and wait again */
		assert_int_equal(doca_comm_channel_ep_event_handle_arm_recv(s.ep), DOCA_SUCCESS);
	}
	assert_int_equal(ret, DOCA_SUCCESS);
	assert_string_equal(buf, "ping");
	p = from;
	child_expect_ok(c, "SENT ", NULL);

	/* a message already waiting: arming makes the handle readable at once */
	child_cmd(c, "send pong");
	child_expect_ok(c, "SENT ", NULL);
	deadline = now_ms() + LONG_MS;
	while (pump(s.ep) != DOCA_ERROR_TOO_BIG && now_ms() < deadline)
		usleep(100);
	assert_int_equal(doca_comm_channel_ep_event_handle_arm_recv(s.ep), DOCA_SUCCESS);
	assert_true(readable(rch, LONG_MS));
	from = recv_text(s.ep, "pong");
	assert_ptr_equal(from, p);

	/* room in the send queue: the send handle is readable once armed */
	assert_int_equal(doca_comm_channel_ep_event_handle_arm_send(s.ep), DOCA_SUCCESS);
	assert_true(wait_handle(ep_send, now_ms() + LONG_MS));
	assert_int_equal(doca_comm_channel_ep_sendto(s.ep, "x", 2, 0, p), DOCA_SUCCESS);

	/* the client leaves: the service handle wakes again */
	assert_int_equal(svc_peers(s.ep), 1);
	child_cmd(c, "disconnect");
	deadline = now_ms() + LONG_MS;
	while (nb != 0) {
		assert_true(wait_handle(ep_svc, deadline));
		nb = svc_peers(s.ep);
	}
	child_expect_ok(c, "DISCONNECTED ", NULL);
	assert_int_equal(doca_comm_channel_peer_addr_update_info(p),
			 DOCA_ERROR_CONNECTION_ABORTED);
	assert_int_equal(doca_comm_channel_ep_disconnect(s.ep, p), DOCA_SUCCESS);
	child_end(c, true, s.ep);
	close(ep_send);
	close(ep_recv);
	close(ep_svc);
	service_close(&s);
}

/*
 * The host side here, the service in the child: the unpinned device opens as
 * the host side, the client takes the service's message size, waits for the
 * answer on its receive handle, disconnects and connects again.
 */
static void
test_client_side(void **state)
{
	struct doca_comm_channel_addr_t *p, *from;
	struct doca_comm_channel_ep_t *ep;
	doca_event_channel_t rch;
	struct doca_dev *dev;
	struct child *c;
	char buf[64];
	uint64_t deadline, t0;
	uint16_t sz;
	size_t len;
	doca_error_t ret;

	(void)state;
	c = child_spawn("srv", "dcc_client");
	child_expect(c, "READY", NULL, NULL, 0);
	dev = dev_open_pci(PCI_ANY);
	assert_non_null(dev);
	assert_int_equal(doca_comm_channel_ep_create(&ep), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_set_device(ep, dev), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_connect(ep, "dcc_client", &p), DOCA_SUCCESS);
	assert_int_equal(info_while(p, DOCA_ERROR_CONNECTION_INPROGRESS), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_get_max_msg_size(ep, &sz), DOCA_SUCCESS);
	assert_int_equal(sz, SRV_MSG_SIZE);
	/* the device is the host side now, held by the endpoint */
	assert_null(rep_open_first(dev));
	assert_int_equal(doca_dev_close(dev), DOCA_ERROR_IN_USE);

	assert_int_equal(doca_comm_channel_ep_get_event_channel(ep, NULL, &rch), DOCA_SUCCESS);
	assert_int_equal(send_retry(ep, "hi", 3, p), DOCA_SUCCESS);
	child_cmd(c, "echo");
	assert_int_equal(doca_comm_channel_ep_event_handle_arm_recv(ep), DOCA_SUCCESS);
	deadline = now_ms() + LONG_MS;
	for (;;) {
		assert_true(readable(rch, (int)(deadline > now_ms() ? deadline - now_ms() : 0)));
		len = sizeof(buf);
		ret = doca_comm_channel_ep_recvfrom(ep, buf, &len, 0, &from);
		if (ret != DOCA_ERROR_AGAIN)
			break;
		assert_int_equal(doca_comm_channel_ep_event_handle_arm_recv(ep), DOCA_SUCCESS);
	}
	assert_int_equal(ret, DOCA_SUCCESS);
	assert_string_equal(buf, "hi");
	assert_ptr_equal(from, p);
	child_expect(c, "ECHOED ", ep, NULL, 0);

	/* disconnect, connect again */
	assert_int_equal(doca_comm_channel_ep_disconnect(ep, p), DOCA_SUCCESS);
	t0 = now_ms();
	while ((ret = doca_comm_channel_ep_connect(ep, "dcc_client", &p)) == DOCA_ERROR_AGAIN &&
	       now_ms() - t0 < LONG_MS)
		usleep(100);
	assert_int_equal(ret, DOCA_SUCCESS);
	assert_int_equal(info_while(p, DOCA_ERROR_CONNECTION_INPROGRESS), DOCA_SUCCESS);
	assert_int_equal(send_retry(ep, "hi again", 9, p), DOCA_SUCCESS);
	child_cmd(c, "echo");
	child_expect(c, "ECHOED ", ep, NULL, 0);
	from = recv_text(ep, "hi again");
	assert_ptr_equal(from, p);

	/* the service goes away: the connection ends */
	child_end(c, true, ep);
	assert_int_equal(info_while(p, DOCA_SUCCESS), DOCA_ERROR_CONNECTION_ABORTED);
	assert_int_equal(doca_comm_channel_ep_sendto(ep, "x", 2, 0, p),
			 DOCA_ERROR_CONNECTION_RESET);
	assert_int_equal(doca_comm_channel_ep_disconnect(ep, p), DOCA_SUCCESS);
	assert_int_equal(doca_comm_channel_ep_destroy(ep), DOCA_SUCCESS);
	assert_int_equal(doca_dev_close(dev), DOCA_SUCCESS);
}

/* ------------------------------------------------------------ group set-up */

static int
group_setup(void **state)
{
	char domain[32], map[512];
	struct doca_devinfo **list;
	uint32_t nb;

	(void)state;
	snprintf(g_dir, sizeof(g_dir), "/tmp/doca-cc-test-XXXXXX");
	if (mkdtemp(g_dir) == NULL) {
		perror("mkdtemp");
		return -1;
	}
	/* Domains of this process: tests running at the same time never meet. */
	snprintf(domain, sizeof(domain), "dcc%d", (int)getpid());
	snprintf(map, sizeof(map),
		 PCI_ANY "=shm:domain=%s,dir=%s;"
		 PCI_HOST "=shm:domain=%sh,role=host,dir=%s;"
		 PCI_DPU "=shm:domain=%sd,role=dpu,dir=%s",
		 domain, g_dir, domain, g_dir, domain, g_dir);
	/* The children inherit it: they find the same devices. */
	setenv("RTE_COMCH_DOCA_DEVICES", map, 1);
	/* The layer starts EAL on the first call, as for any DOCA program. */
	if (doca_devinfo_create_list(&list, &nb) != DOCA_SUCCESS) {
		fprintf(stderr, "doca_devinfo_create_list failed\n");
		return -1;
	}
	doca_devinfo_destroy_list(list);
	return 0;
}

static int
group_teardown(void **state)
{
	char rundir[PATH_MAX];

	(void)state;
	snprintf(rundir, sizeof(rundir), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	if (strstr(rundir, "/doca-") != NULL)
		nftw(rundir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	nftw(g_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_exchange),
		cmocka_unit_test(test_service_disconnects),
		cmocka_unit_test(test_event_channels),
		cmocka_unit_test(test_client_side),
	};

	if (argc > 1 && strcmp(argv[1], "--child") == 0)
		return child_main(argc, argv);
	return cmocka_run_group_tests_name("doca_comm_channel", tests, group_setup,
					   group_teardown);
}
