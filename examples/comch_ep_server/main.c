/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Endpoint server sample (BlueField side), on the legacy endpoint API.
 *
 * What DOCA's Comm Channel cc_server sample does, with rte_comch_ep: create an
 * endpoint on a BlueField-side device and one of its representors, listen as a
 * service, print the message a client sends and answer it with a text of our
 * own, then, once that client has gone, release everything and exit. Every
 * message of the client is answered; it stops with a failure when no message
 * comes within the timeout.
 *
 * The endpoint runs its own progress engine inside its calls. The sample never
 * spins: whenever the endpoint has nothing for it, it arms the endpoint's
 * event channel and sleeps in epoll_wait() on the descriptors of
 * rte_comch_ep_get_event_channel() (recv_fd: something arrived; send_fd: the
 * send queue has room) and of rte_comch_ep_get_service_event_channel() (a
 * client connected or left).
 *
 * Usage: dpdk-comch_ep_server [EAL args] -- -p <devargs> [-r <rep>]
 *        [-n <service name>] [-t <text>] [-T <timeout s>]
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

#define DEFAULT_REP "pf0"
#define DEFAULT_SERVICE_NAME "comch_ep_sample"
#define DEFAULT_TEXT "Message from the server"
#define DEFAULT_TIMEOUT_S 30

struct server_app {
	/* -p, -r, -n: the service, -t: the answer, -T: give up when no message came for that long */
	struct comch_sample_args args;
	struct rte_comch_dev *dev;
	struct rte_comch_dev_rep *rep;
	struct rte_comch_ep *ep;
	struct rte_comch_ep_peer *client; /* the client served, from its first message */
	int epfd;                         /* epoll set of the event channels */
	int send_fd, recv_fd, service_fd; /* the endpoint's (not ours to close) */
	uint64_t deadline;                /* TSC past which the sample gives up */
	uint64_t nb_received, nb_answered;
};

static void
usage(const char *prgname)
{
	printf("Usage: %s [EAL args] -- -p <devargs> [options]\n"
	       "  -p, --devargs <devargs>  device to open, e.g. shm:domain=bf0,role=dpu,rep=pf0\n"
	       "                           (alias: --pci-addr)\n"
	       "  -r, --rep <name>         representor clients connect through (default %s)\n"
	       "                           (alias: --rep-pci)\n"
	       "  -n, --name <name>        service name (default \"%s\")\n"
	       "  -t, --text <text>        answer sent for every message (default \"%s\")\n"
	       "  -T, --timeout <seconds>  give up when no message came for that long, 0 for\n"
	       "                           never (default %u)\n"
	       "  -h, --help               this text\n",
	       prgname, DEFAULT_REP, DEFAULT_SERVICE_NAME, DEFAULT_TEXT, DEFAULT_TIMEOUT_S);
}

static const struct comch_sample_opts opts = {
	.optstring = "p:r:n:t:T:h",
	.timeout_max = UINT32_MAX,
	.usage = usage,
};

static int
fail(const char *what, int err)
{
	fprintf(stderr, "Server: %s: %s (-%s)\n", what, rte_strerror(-err),
		comch_sample_errno_name(err));
	return err;
}

static void
restart_deadline(struct server_app *app)
{
	if (app->args.timeout_s > 0)
		app->deadline = rte_get_timer_cycles() +
				(uint64_t)app->args.timeout_s * rte_get_timer_hz();
}

/* ------------------------------------------------------------------ event channels */

static int
epoll_add(struct server_app *app, int fd, uint32_t events, const char *what)
{
	struct epoll_event ev = { .events = events, .data.fd = fd };

	if (epoll_ctl(app->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return fail(what, -errno);
	return 0;
}

/* Put the endpoint's three descriptors in an epoll set. */
static int
event_channels_open(struct server_app *app)
{
	int ret;

	ret = rte_comch_ep_get_event_channel(app->ep, &app->send_fd, &app->recv_fd);
	if (ret < 0)
		return fail("cannot get the event channel", ret);
	ret = rte_comch_ep_get_service_event_channel(app->ep, &app->service_fd);
	if (ret < 0)
		return fail("cannot get the service event channel", ret);
	app->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (app->epfd < 0)
		return fail("epoll_create1", -errno);
	ret = epoll_add(app, app->recv_fd, EPOLLIN, "epoll_ctl(recv_fd)");
	if (ret == 0)
		ret = epoll_add(app, app->service_fd, EPOLLIN, "epoll_ctl(service_fd)");
	/* send_fd is watched only while waiting for room (see wait_event()). */
	if (ret == 0)
		ret = epoll_add(app, app->send_fd, 0, "epoll_ctl(send_fd)");
	return ret;
}

/* The service event fired: take the snapshot (which re-arms it) and say who is there. */
static int
service_event(struct server_app *app)
{
	struct rte_comch_ep_peer * const *peers;
	uint32_t nb;
	int ret;

	ret = rte_comch_ep_update_service_state_info(app->ep);
	if (ret == 0)
		ret = rte_comch_ep_get_peer_addr_list(app->ep, &peers, &nb);
	if (ret < 0)
		return fail("cannot read the service state", ret);
	printf("Server: service state changed, %" PRIu32 " client(s) connected\n", nb);
	return 0;
}

/*
 * Sleep until the endpoint may have something new: arm the receive event (and
 * the send event if for_send), then wait on the descriptors. Returns 0 to call
 * the endpoint again, -ETIMEDOUT past the deadline, -EINTR on a signal.
 */
static int
wait_event(struct server_app *app, bool for_send)
{
	struct epoll_event events[3];
	int i, n, ret;

	n = comch_sample_ep_wait(app->ep, app->epfd, app->send_fd, for_send, app->deadline,
				 events, RTE_DIM(events), "Server");
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (events[i].data.fd != app->service_fd)
			continue;
		ret = service_event(app);
		if (ret < 0)
			return ret;
	}
	return comch_sample_signal() != 0 ? -EINTR : 0;
}

/* ------------------------------------------------------------------ the service */

static int
listen_service(struct server_app *app)
{
	int ret;

	app->ep = rte_comch_ep_create();
	if (app->ep == NULL)
		return fail("cannot create the endpoint", -rte_errno);
	/* Mandatory on the BlueField side: the device and the representor served. */
	ret = rte_comch_ep_set_device(app->ep, app->dev);
	if (ret == 0)
		ret = rte_comch_ep_set_device_rep(app->ep, app->rep);
	if (ret < 0)
		return fail("cannot configure the endpoint", ret);
	ret = rte_comch_ep_listen(app->ep, app->args.name);
	if (ret < 0)
		return fail("cannot listen", ret);
	ret = event_channels_open(app);
	if (ret < 0)
		return ret;
	printf("Server listening as service \"%s\" on representor %s\n", app->args.name,
	       app->args.rep);
	return 0;
}

/* Answer a message of peer. The text is copied: nothing to keep alive. */
static int
answer(struct server_app *app, struct rte_comch_ep_peer *peer)
{
	int ret;

	while ((ret = rte_comch_ep_sendto(app->ep, app->args.text, strlen(app->args.text),
					  RTE_COMCH_EP_MSG_FLAG_NONE, peer)) == -EAGAIN) {
		ret = wait_event(app, true);
		if (ret < 0)
			return ret;
	}
	if (ret < 0)
		return fail("cannot answer", ret);
	app->nb_answered++;
	printf("Server sent message: \"%s\"\n", app->args.text);
	return 0;
}

/* The client left: print what went through its peer address, then release it. */
static void
client_gone(struct server_app *app)
{
	struct rte_comch_ep_peer_stats st = { 0 };

	/* The connection has ended: update_info says so, and still takes the counters. */
	rte_comch_ep_peer_addr_update_info(app->client);
	rte_comch_ep_peer_addr_get_stats(app->client, &st);
	printf("Server: the client disconnected (received %" PRIu64 " message(s), %" PRIu64
	       " bytes; sent %" PRIu64 ", %" PRIu64 " bytes)\n", st.recv_messages, st.recv_bytes,
	       st.send_messages, st.send_bytes);
	rte_comch_ep_disconnect(app->ep, app->client);
	app->client = NULL;
}

/* Answer every message until the client that sent the first one has gone. */
static int
serve(struct server_app *app)
{
	char quoted[COMCH_SAMPLE_QUOTE_SIZE];
	struct rte_comch_ep_peer *from;
	uint8_t buf[4096];
	size_t len;
	int ret;

	restart_deadline(app);
	for (;;) {
		len = sizeof(buf);
		ret = rte_comch_ep_recvfrom(app->ep, buf, &len, RTE_COMCH_EP_MSG_FLAG_NONE,
					    &from);
		if (ret == 0) {
			/* A new client becomes a peer address with its first message. */
			if (app->client == NULL)
				app->client = from;
			app->nb_received++;
			printf("Server received message: %s\n",
			       comch_sample_quote(quoted, buf, len));
			ret = answer(app, from);
			if (ret < 0)
				return ret;
			restart_deadline(app);
			continue;
		}
		if (ret != -EAGAIN)
			return fail("cannot receive", ret);
		/* Nothing queued: done once the client has gone, else sleep. */
		if (app->client != NULL &&
		    rte_comch_ep_peer_addr_update_info(app->client) == -ECONNABORTED) {
			client_gone(app);
			return 0;
		}
		ret = wait_event(app, false);
		if (ret == -ETIMEDOUT)
			fprintf(stderr, "Server: no message within %" PRIu32 " s, giving up\n",
				app->args.timeout_s);
		if (ret < 0)
			return ret;
	}
}

/* ------------------------------------------------------------------ teardown */

/* Release in the reverse order of set-up; the endpoint goes before its device. */
static int
cleanup(struct server_app *app)
{
	int ret, rc = 0, tries = 0;

	if (app->epfd >= 0)
		close(app->epfd);
	if (app->ep != NULL) {
		/* Stops the service, drains what is in flight, releases every peer left. */
		while ((ret = rte_comch_ep_destroy(app->ep)) == -EBUSY && ++tries < 5)
			;
		if (ret < 0)
			rc = fail("cannot destroy the endpoint", ret);
	}
	ret = comch_sample_close_device(app->rep, app->dev);
	return ret < 0 ? ret : rc;
}

int
main(int argc, char **argv)
{
	struct server_app app = {
		.args = {
			.rep = DEFAULT_REP,
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

	ret = comch_sample_open_device(app.args.devargs, app.args.rep, false, &app.dev, &app.rep);
	if (ret == 0)
		ret = listen_service(&app);
	if (ret == 0)
		ret = serve(&app);
	/* A signal is how this server is told to stop: no failure. */
	if (ret == -EINTR) {
		printf("Server: signal %d received, stopping\n", comch_sample_signal());
		ret = 0;
	}

	rc = cleanup(&app);
	if (ret == 0 && rc == 0)
		printf("Server done: %" PRIu64 " message(s) received, %" PRIu64 " answered\n",
		       app.nb_received, app.nb_answered);
	rte_eal_cleanup();
	return ret == 0 && rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
