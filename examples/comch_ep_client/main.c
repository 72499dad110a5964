/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Endpoint client sample (host side), on the legacy endpoint API.
 *
 * What DOCA's Comm Channel cc_client sample does, with rte_comch_ep: create an
 * endpoint on a host-side device, connect it to a service by name, send one
 * text message, wait for the server's answer, print it, then disconnect and
 * release everything. It fails, saying why, when the service cannot be
 * reached, goes away, or does not answer within the timeout.
 *
 * The endpoint runs its own progress engine inside its calls. The sample never
 * spins: whenever the endpoint has nothing for it, it arms the endpoint's
 * event channel and sleeps in epoll_wait() on the two descriptors of
 * rte_comch_ep_get_event_channel() (recv_fd: something arrived; send_fd: the
 * send queue has room).
 *
 * Usage: dpdk-comch_ep_client [EAL args] -- -p <devargs> [-n <service name>]
 *        [-t <text>] [-T <timeout s>]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include <rte_comch.h>
#include <rte_comch_ep.h>

#include "comch_sample.h"
#include "comch_sample_ep.h"

#define DEFAULT_SERVICE_NAME "comch_ep_sample"
#define DEFAULT_TEXT "Message from the client"
#define DEFAULT_TIMEOUT_S 30

struct client_app {
	/* -p, -n: the service to reach, -t: the message, -T: give up after that long */
	struct comch_sample_args args;
	struct rte_comch_dev *dev;
	struct rte_comch_ep *ep;
	struct rte_comch_ep_peer *peer; /* the connection to the service */
	int epfd;                       /* epoll set of the event channel */
	int send_fd, recv_fd;           /* the endpoint's event channel (not ours to close) */
	uint64_t deadline;              /* TSC past which the sample gives up */
};

static void
usage(const char *prgname)
{
	printf("Usage: %s [EAL args] -- -p <devargs> [options]\n"
	       "  -p, --devargs <devargs>  device to open, e.g. shm:domain=bf0,role=host,fn=pf0\n"
	       "                           (alias: --pci-addr)\n"
	       "  -n, --name <name>        service to connect to (default \"%s\")\n"
	       "  -t, --text <text>        message to send (default \"%s\")\n"
	       "  -T, --timeout <seconds>  give up when the service cannot be reached, or does\n"
	       "                           not answer, within that time; 0 for never (default %u)\n"
	       "  -h, --help               this text\n",
	       prgname, DEFAULT_SERVICE_NAME, DEFAULT_TEXT, DEFAULT_TIMEOUT_S);
}

static const struct comch_sample_opts opts = {
	.optstring = "p:n:t:T:h",
	.timeout_max = UINT32_MAX / 1000,
	.usage = usage,
};

static int
fail(const char *what, int err)
{
	fprintf(stderr, "Client: %s: %s (-%s)\n", what, rte_strerror(-err),
		comch_sample_errno_name(err));
	return err;
}

/* ------------------------------------------------------------------ event channel */

/* Put the endpoint's two descriptors in an epoll set. */
static int
event_channel_open(struct client_app *app)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ret;

	ret = rte_comch_ep_get_event_channel(app->ep, &app->send_fd, &app->recv_fd);
	if (ret < 0)
		return fail("cannot get the event channel", ret);
	app->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (app->epfd < 0)
		return fail("epoll_create1", -errno);
	ev.data.fd = app->recv_fd;
	if (epoll_ctl(app->epfd, EPOLL_CTL_ADD, app->recv_fd, &ev) < 0)
		return fail("epoll_ctl(recv_fd)", -errno);
	/* send_fd is watched only while waiting for room (see wait_event()). */
	ev = (struct epoll_event){ .events = 0, .data.fd = app->send_fd };
	if (epoll_ctl(app->epfd, EPOLL_CTL_ADD, app->send_fd, &ev) < 0)
		return fail("epoll_ctl(send_fd)", -errno);
	return 0;
}

/*
 * Sleep until the endpoint may have something new: arm the receive event (and
 * the send event if for_send), then wait on the descriptors. Returns 0 to call
 * the endpoint again, -ETIMEDOUT past the deadline, -EINTR on a signal.
 */
static int
wait_event(struct client_app *app, bool for_send)
{
	struct epoll_event events[2];
	int ret;

	ret = comch_sample_ep_wait(app->ep, app->epfd, app->send_fd, for_send, app->deadline,
				   events, RTE_DIM(events), "Client");
	if (ret < 0)
		return ret;
	return comch_sample_signal() != 0 ? -EINTR : 0;
}

/* ------------------------------------------------------------------ the exchange */

static int
connect_service(struct client_app *app)
{
	int ret;

	app->ep = rte_comch_ep_create();
	if (app->ep == NULL)
		return fail("cannot create the endpoint", -rte_errno);
	ret = rte_comch_ep_set_device(app->ep, app->dev);
	if (ret < 0)
		return fail("cannot set the device", ret);
	ret = event_channel_open(app);
	if (ret < 0)
		return ret;
	/* The connection is made by the endpoint's later calls. */
	ret = rte_comch_ep_connect(app->ep, app->args.name, &app->peer);
	if (ret < 0)
		return fail("cannot connect", ret);
	printf("Client connecting to service \"%s\"\n", app->args.name);
	while ((ret = rte_comch_ep_peer_addr_update_info(app->peer)) == -EINPROGRESS) {
		ret = wait_event(app, false);
		if (ret < 0)
			break;
	}
	if (ret == -ECONNABORTED)
		fprintf(stderr, "Client: cannot reach service \"%s\" (see the log for why)\n",
			app->args.name);
	else if (ret == -ETIMEDOUT)
		fprintf(stderr, "Client: cannot reach service \"%s\" within %" PRIu32 " s\n",
			app->args.name, app->args.timeout_s);
	if (ret == 0)
		printf("Client connected to service \"%s\"\n", app->args.name);
	return ret;
}

static int
send_text(struct client_app *app)
{
	size_t len = strlen(app->args.text);
	int ret;

	/* The message is copied: the text could be reused as soon as this returns. */
	while ((ret = rte_comch_ep_sendto(app->ep, app->args.text, len,
					  RTE_COMCH_EP_MSG_FLAG_NONE, app->peer)) == -EAGAIN) {
		ret = wait_event(app, true);
		if (ret < 0)
			return ret;
	}
	if (ret < 0)
		return fail("cannot send", ret);
	printf("Client sent message: \"%s\"\n", app->args.text);
	return 0;
}

static int
recv_answer(struct client_app *app)
{
	char quoted[COMCH_SAMPLE_QUOTE_SIZE];
	struct rte_comch_ep_peer *from;
	uint8_t buf[4096];
	size_t len;
	int ret;

	for (;;) {
		len = sizeof(buf);
		ret = rte_comch_ep_recvfrom(app->ep, buf, &len, RTE_COMCH_EP_MSG_FLAG_NONE,
					    &from);
		if (ret == 0)
			break;
		if (ret != -EAGAIN)
			return fail("cannot receive", ret);
		/* Nothing yet: make sure the server is still there, then sleep. */
		if (rte_comch_ep_peer_addr_update_info(app->peer) == -ECONNABORTED) {
			fprintf(stderr, "Client: the service closed the connection without "
				"answering\n");
			return -ECONNABORTED;
		}
		ret = wait_event(app, false);
		if (ret == -ETIMEDOUT)
			fprintf(stderr, "Client: no answer within %" PRIu32 " s\n",
				app->args.timeout_s);
		if (ret < 0)
			return ret;
	}
	printf("Client received message: %s\n", comch_sample_quote(quoted, buf, len));
	return 0;
}

/* ------------------------------------------------------------------ teardown */

/* Release in the reverse order of set-up; the endpoint goes before its device. */
static int
cleanup(struct client_app *app)
{
	int ret, rc = 0, tries;

	if (app->peer != NULL) {
		/* Closes the connection in order: what we sent still drains. */
		ret = rte_comch_ep_disconnect(app->ep, app->peer);
		if (ret < 0)
			rc = fail("cannot disconnect", ret);
	}
	if (app->epfd >= 0)
		close(app->epfd);
	if (app->ep != NULL) {
		/* -EBUSY: the client has not finished stopping yet; call again. */
		tries = 0;
		while ((ret = rte_comch_ep_destroy(app->ep)) == -EBUSY && ++tries < 5)
			;
		if (ret < 0)
			rc = fail("cannot destroy the endpoint", ret);
	}
	ret = comch_sample_close_device(NULL, app->dev);
	return ret < 0 ? ret : rc;
}

int
main(int argc, char **argv)
{
	struct client_app app = {
		.args = {
			.name = DEFAULT_SERVICE_NAME,
			.text = DEFAULT_TEXT,
			.timeout_s = DEFAULT_TIMEOUT_S,
		},
		.epfd = -1,
	};
	int ret, rc;

	ret = comch_sample_init(argc, argv, &opts, &app.args);
	if (ret != 0)
		return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	if (app.args.timeout_s > 0)
		app.deadline = rte_get_timer_cycles() +
			       (uint64_t)app.args.timeout_s * rte_get_timer_hz();

	ret = comch_sample_open_device(app.args.devargs, NULL, false, &app.dev, NULL);
	if (ret == 0)
		ret = connect_service(&app);
	if (ret == 0)
		ret = send_text(&app);
	if (ret == 0)
		ret = recv_answer(&app);
	if (ret == -EINTR)
		fprintf(stderr, "Client: signal %d received, stopping\n", comch_sample_signal());

	rc = cleanup(&app);
	if (ret == 0 && rc == 0)
		printf("Client done\n");
	rte_eal_cleanup();
	return ret == 0 && rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
