/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Telemetry: /comch/devs, /comch/dev_info, /comch/dev_stats, /comch/conns and
 * /comch/conn,
 * read through this process's DPDK telemetry socket while traffic flows, and
 * compared with the counters the API returns.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <poll.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "comch_test_common.h"

/* Send one command to this process's telemetry socket; reply in buf (NUL terminated). */

static int
ct_read_reply(int fd, char *buf, size_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (poll(&pfd, 1, CT_TIMEOUT_MS) <= 0)
		return -ETIMEDOUT;
	n = read(fd, buf, len - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

static int
ct_telemetry_query(const char *cmd, char *buf, size_t len)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, ret;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		ret = -errno;
		fprintf(stderr, "connect %s: %s\n", sun.sun_path, strerror(errno));
		close(fd);
		return ret;
	}
	/* The first message is the telemetry library's greeting. */
	ret = ct_read_reply(fd, buf, len);
	if (ret >= 0) {
		if (write(fd, cmd, strlen(cmd)) < 0)
			ret = -errno;
		else
			ret = ct_read_reply(fd, buf, len);
	}
	close(fd);
	return ret;
}

static int64_t
ct_json_u64(const char *json, const char *key)
{
	char pat[128];
	const char *p;
	char *end;
	long long v;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	if (p == NULL)
		return -1;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	v = strtoll(p, &end, 10);
	if (end == p)
		return -1;
	return v;
}

#define REPLY_LEN 16384

static char reply[REPLY_LEN];

static void
query(const char *cmd)
{
	int ret = ct_telemetry_query(cmd, reply, sizeof(reply));

	if (ret <= 0)
		fail_msg("telemetry query %s: %d", cmd, ret);
	print_message("%s -> %s\n", cmd, reply);
}

/* Parse the integer array of the last reply; returns how many (at most max). */
static int
reply_ints(long *out, int max)
{
	const char *p = strchr(reply, '[');
	char *end;
	int n = 0;

	if (p == NULL)
		return -1;
	p++;
	while (*p != ']' && *p != '\0' && n < max) {
		out[n] = strtol(p, &end, 10);
		if (end == p)
			return -1;
		n++;
		p = end;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return n;
}

/* Whether the array of "/comch/devs" holds id. */
static bool
devs_has(uint16_t id)
{
	long ids[64];
	int i, n = reply_ints(ids, 64);

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static void
test_telemetry_devs_and_info(void **state)
{
	struct rte_comch_dev_info hi, di;
	struct ct_pair p;
	char cmd[64], name[80];

	(void)state;
	ct_pair_open(&p, NULL);
	assert_int_equal(rte_comch_dev_info_get(p.host, &hi), 0);
	assert_int_equal(rte_comch_dev_info_get(p.dpu, &di), 0);

	query("/comch/devs");
	assert_non_null(strstr(reply, "\"/comch/devs\""));
	assert_true(devs_has(hi.dev_id));
	assert_true(devs_has(di.dev_id));

	snprintf(cmd, sizeof(cmd), "/comch/dev_info,%u", di.dev_id);
	query(cmd);
	snprintf(name, sizeof(name), "\"%s\"", di.name);
	assert_non_null(strstr(reply, name));
	snprintf(name, sizeof(name), "\"%s\"", ct_driver());
	assert_non_null(strstr(reply, name));
	assert_non_null(strstr(reply, "\"pf0\""));
	assert_non_null(strstr(reply, "\"pf1\""));
	assert_int_equal(ct_json_u64(reply, "max_msg_size"), 1024 * 1024);
	assert_int_equal(ct_json_u64(reply, "max_clients"), 512);

	snprintf(cmd, sizeof(cmd), "/comch/dev_info,%u", hi.dev_id);
	query(cmd);
	snprintf(name, sizeof(name), "\"%s\"", hi.name);
	assert_non_null(strstr(reply, name));

	/* a closed device disappears; a bad id gives no data */
	ct_pair_close(&p);
	query("/comch/devs");
	assert_false(devs_has(hi.dev_id));
	assert_false(devs_has(di.dev_id));
	snprintf(cmd, sizeof(cmd), "/comch/dev_stats,%u", hi.dev_id);
	query(cmd);
	assert_int_equal(ct_json_u64(reply, "msgs_sent"), -1);
	query("/comch/dev_stats,notanumber");
	assert_int_equal(ct_json_u64(reply, "msgs_sent"), -1);
}

static void
expect_tel_stats(uint16_t id, const struct rte_comch_dev_stats *st)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "/comch/dev_stats,%u", id);
	query(cmd);
	assert_int_equal(ct_json_u64(reply, "connections_opened"), st->connections_opened);
	assert_int_equal(ct_json_u64(reply, "connections_closed"), st->connections_closed);
	assert_int_equal(ct_json_u64(reply, "connections_rejected"), st->connections_rejected);
	assert_int_equal(ct_json_u64(reply, "peer_errors"), st->peer_errors);
	assert_int_equal(ct_json_u64(reply, "msgs_sent"), st->msgs_sent);
	assert_int_equal(ct_json_u64(reply, "bytes_sent"), st->bytes_sent);
	assert_int_equal(ct_json_u64(reply, "msgs_received"), st->msgs_received);
	assert_int_equal(ct_json_u64(reply, "bytes_received"), st->bytes_received);
	assert_int_equal(ct_json_u64(reply, "send_errors"), st->send_errors);
	assert_int_equal(ct_json_u64(reply, "budget_refusals"), st->budget_refusals);
}

static void
test_telemetry_stats(void **state)
{
	struct rte_comch_dev_stats hexp = { 0 }, dexp = { 0 }, api;
	struct rte_comch_dev_info hi, di;
	struct ct_pair p;
	uint8_t msg[200];
	char cmd[64];
	uint32_t i;

	(void)state;
	ct_pair_up(&p, NULL);
	assert_int_equal(rte_comch_dev_info_get(p.host, &hi), 0);
	assert_int_equal(rte_comch_dev_info_get(p.dpu, &di), 0);
	hexp.connections_opened = 1;
	dexp.connections_opened = 1;
	expect_tel_stats(hi.dev_id, &hexp);
	expect_tel_stats(di.dev_id, &dexp);

	/* 7 messages of 200 bytes host -> dpu, 2 of 50 dpu -> host */
	for (i = 0; i < 7; i++) {
		ct_msg_fill(msg, sizeof(msg), 1, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
		assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, i + 1, CT_TIMEOUT_MS), 0);
	}
	for (i = 0; i < 2; i++) {
		ct_msg_fill(msg, 50, 2, i);
		assert_int_equal(ct_send(&p.srv, p.sconn, msg, 50, NULL), 0);
		assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_send_ok, i + 1, CT_TIMEOUT_MS), 0);
	}
	hexp.msgs_sent = 7;
	hexp.bytes_sent = 1400;
	hexp.msgs_received = 2;
	hexp.bytes_received = 100;
	dexp.msgs_sent = 2;
	dexp.bytes_sent = 100;
	dexp.msgs_received = 7;
	dexp.bytes_received = 1400;
	expect_tel_stats(hi.dev_id, &hexp);
	expect_tel_stats(di.dev_id, &dexp);
	/* telemetry and the API agree */
	assert_int_equal(rte_comch_dev_stats_get(p.dpu, &api), 0);
	assert_int_equal(api.msgs_received, 7);
	assert_int_equal(api.bytes_received, 1400);

	/* reset, then close: telemetry follows */
	assert_int_equal(rte_comch_dev_stats_reset(p.dpu), 0);
	memset(&dexp, 0, sizeof(dexp));
	expect_tel_stats(di.dev_id, &dexp);
	ct_ctx_stop_wait(p.pe, p.cli.ctx);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	dexp.connections_closed = 1;
	expect_tel_stats(di.dev_id, &dexp);
	snprintf(cmd, sizeof(cmd), "/comch/conns,%u", di.dev_id);
	ct_pair_close(&p);
}

static void
test_telemetry_conns(void **state)
{
	struct rte_comch_dev_info hi, di;
	struct ct_pair p;
	uint8_t msg[200];
	long ids[8], srv_id;
	char cmd[64];
	uint32_t i;

	(void)state;
	ct_pair_up(&p, NULL);
	assert_int_equal(rte_comch_dev_info_get(p.host, &hi), 0);
	assert_int_equal(rte_comch_dev_info_get(p.dpu, &di), 0);
	for (i = 0; i < 7; i++) {
		ct_msg_fill(msg, sizeof(msg), 1, i);
		assert_int_equal(ct_send(&p.cli, p.cconn, msg, sizeof(msg), NULL), 0);
		assert_int_equal(ct_wait_count(p.pe, &p.cli.nb_send_ok, i + 1, CT_TIMEOUT_MS), 0);
	}
	for (i = 0; i < 2; i++) {
		ct_msg_fill(msg, 50, 2, i);
		assert_int_equal(ct_send(&p.srv, p.sconn, msg, 50, NULL), 0);
		assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_send_ok, i + 1, CT_TIMEOUT_MS), 0);
	}
	/* each device lists its one live connection, and describes it */
	snprintf(cmd, sizeof(cmd), "/comch/conns,%u", di.dev_id);
	query(cmd);
	assert_int_equal(reply_ints(ids, 8), 1);
	snprintf(cmd, sizeof(cmd), "/comch/conn,%u,%ld", di.dev_id, ids[0]);
	query(cmd);
	assert_non_null(strstr(reply, p.name));
	assert_non_null(strstr(reply, "\"side\":\"server\""));
	assert_int_equal(ct_json_u64(reply, "max_msg_size"), RTE_COMCH_DEFAULT_MSG_SIZE);
	assert_int_equal(ct_json_u64(reply, "sent_messages"), 2);
	assert_int_equal(ct_json_u64(reply, "sent_bytes"), 100);
	assert_int_equal(ct_json_u64(reply, "recv_messages"), 7);
	assert_int_equal(ct_json_u64(reply, "recv_bytes"), 1400);
	srv_id = ids[0];
	snprintf(cmd, sizeof(cmd), "/comch/conns,%u", hi.dev_id);
	query(cmd);
	assert_int_equal(reply_ints(ids, 8), 1);
	snprintf(cmd, sizeof(cmd), "/comch/conn,%u,%ld", hi.dev_id, ids[0]);
	query(cmd);
	assert_non_null(strstr(reply, "\"side\":\"client\""));
	assert_int_equal(ct_json_u64(reply, "sent_messages"), 7);
	assert_int_equal(ct_json_u64(reply, "sent_bytes"), 1400);
	assert_int_equal(ct_json_u64(reply, "recv_messages"), 2);
	assert_int_equal(ct_json_u64(reply, "recv_bytes"), 100);
	/* bad parameters give no data */
	snprintf(cmd, sizeof(cmd), "/comch/conn,%u", di.dev_id);
	query(cmd);
	assert_int_equal(ct_json_u64(reply, "sent_messages"), -1);
	snprintf(cmd, sizeof(cmd), "/comch/conn,%u,%ld", di.dev_id, srv_id + 1000);
	query(cmd);
	assert_int_equal(ct_json_u64(reply, "sent_messages"), -1);

	/* a closed connection leaves the list */
	ct_ctx_stop_wait(p.pe, p.cli.ctx);
	assert_int_equal(ct_wait_count(p.pe, &p.srv.nb_disconnect, 1, CT_TIMEOUT_MS), 0);
	snprintf(cmd, sizeof(cmd), "/comch/conns,%u", di.dev_id);
	query(cmd);
	assert_int_equal(reply_ints(ids, 8), 0);
	snprintf(cmd, sizeof(cmd), "/comch/conn,%u,%ld", di.dev_id, srv_id);
	query(cmd);
	assert_int_equal(ct_json_u64(reply, "sent_messages"), -1);
	ct_pair_close(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_telemetry_devs_and_info),
		cmocka_unit_test(test_telemetry_stats),
		cmocka_unit_test(test_telemetry_conns),
	};

	return CT_RUN("comch_telemetry", tests);
}
