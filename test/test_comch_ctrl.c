/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Connection establishment: unknown server name (-ENOENT after the connect
 * timeout), wrong representor, message size negotiation (-EMSGSIZE), a client
 * that could not connect reported to the server's callback, servers
 * of the same name on different representors, many clients on one server,
 * and a server that meets garbage on its socket.
 */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <rte_errno.h>

#include "comch_test_common.h"

struct env {
	char domain[32];
	struct rte_comch_dev *dpu;
	struct rte_comch_dev *host0; /* fn=pf0 */
	struct rte_comch_dev *host1; /* fn=pf1 */
	struct rte_comch_dev_rep *rep0;
	struct rte_comch_dev_rep *rep1;
	struct rte_comch_pe *pe;
};

static void
env_open(struct env *e)
{
	memset(e, 0, sizeof(*e));
	ct_domain(e->domain, sizeof(e->domain));
	e->dpu = ct_dev_open("domain=%s,role=dpu,rep=pf0,rep=pf1", e->domain);
	assert_non_null(e->dpu);
	e->host0 = ct_dev_open("domain=%s,role=host,fn=pf0", e->domain);
	assert_non_null(e->host0);
	e->host1 = ct_dev_open("domain=%s,role=host,fn=pf1", e->domain);
	assert_non_null(e->host1);
	e->rep0 = rte_comch_dev_rep_open(e->dpu, "pf0");
	assert_non_null(e->rep0);
	e->rep1 = rte_comch_dev_rep_open(e->dpu, "pf1");
	assert_non_null(e->rep1);
	e->pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	assert_non_null(e->pe);
}

static void
env_close(struct env *e)
{
	assert_int_equal(rte_comch_pe_destroy(e->pe), 0);
	assert_int_equal(rte_comch_dev_rep_close(e->rep1), 0);
	assert_int_equal(rte_comch_dev_rep_close(e->rep0), 0);
	assert_int_equal(rte_comch_dev_close(e->host1), 0);
	assert_int_equal(rte_comch_dev_close(e->host0), 0);
	assert_int_equal(rte_comch_dev_close(e->dpu), 0);
}

static struct rte_comch_server *
start_server(struct env *e, struct ct_side *s, struct rte_comch_dev_rep *rep, const char *name,
	     const struct ct_cfg *cfg)
{
	memset(s, 0, sizeof(*s));
	assert_non_null(ct_server_new(s, e->dpu, rep, name, cfg));
	assert_int_equal(rte_comch_pe_connect_ctx(e->pe, s->ctx), 0);
	assert_int_equal(rte_comch_ctx_start(s->ctx), 0);
	return s->server;
}

static struct rte_comch_client *
start_client(struct env *e, struct ct_side *c, struct rte_comch_dev *host, const char *name,
	     const struct ct_cfg *cfg)
{
	memset(c, 0, sizeof(*c));
	assert_non_null(ct_client_new(c, host, name, cfg));
	assert_int_equal(rte_comch_pe_connect_ctx(e->pe, c->ctx), 0);
	assert_int_equal(rte_comch_ctx_start(c->ctx), -EINPROGRESS);
	return c->client;
}

static void
destroy_side(struct env *e, struct ct_side *s)
{
	ct_ctx_stop_wait(e->pe, s->ctx);
	if (s->server != NULL)
		assert_int_equal(rte_comch_server_destroy(s->server), 0);
	else
		assert_int_equal(rte_comch_client_destroy(s->client), 0);
}

/* Wait until a client that must fail is IDLE; return how long it took. */
static uint64_t
wait_client_fails(struct env *e, struct ct_side *c)
{
	uint64_t t0 = ct_now_ms();

	assert_int_equal(ct_wait_state(e->pe, c->ctx, RTE_COMCH_CTX_STATE_IDLE, 3000), 0);
	/* it never reached RUNNING */
	assert_int_equal(c->nb_states >= 2, 1);
	assert_int_equal(c->next[0], RTE_COMCH_CTX_STATE_STARTING);
	for (uint32_t i = 0; i < c->nb_states && i < CT_MAX_LOG; i++)
		assert_int_not_equal(c->next[i], RTE_COMCH_CTX_STATE_RUNNING);
	return ct_now_ms() - t0;
}

static void
test_unknown_server_name(void **state)
{
	struct ct_cfg cfg = { .connect_timeout_ms = 300 };
	struct ct_side srv, cli;
	struct env e;
	uint64_t ms;

	(void)state;
	env_open(&e);
	start_server(&e, &srv, e.rep0, "present", NULL);
	start_client(&e, &cli, e.host0, "absent", &cfg);
	ms = wait_client_fails(&e, &cli);
	assert_int_equal(rte_comch_ctx_get_last_error(cli.ctx), -ENOENT);
	/* not before the connect timeout */
	assert_true(ms >= 250);
	assert_int_equal(srv.nb_connect, 0);
	destroy_side(&e, &cli);
	destroy_side(&e, &srv);
	env_close(&e);
}

static void
test_wrong_representor(void **state)
{
	struct ct_cfg cfg = { .connect_timeout_ms = 200 };
	struct ct_side srv0, srv1, cli;
	struct env e;

	(void)state;
	env_open(&e);
	/* a server on pf0 only: a client of function pf1 cannot reach it */
	start_server(&e, &srv0, e.rep0, "svc", NULL);
	start_client(&e, &cli, e.host1, "svc", &cfg);
	wait_client_fails(&e, &cli);
	assert_int_equal(rte_comch_ctx_get_last_error(cli.ctx), -ENOENT);
	assert_int_equal(srv0.nb_connect, 0);

	/* the same name on pf1 is another server, and pf1's client reaches it */
	start_server(&e, &srv1, e.rep1, "svc", NULL);
	cli.nb_states = 0;
	assert_int_equal(rte_comch_ctx_start(cli.ctx), -EINPROGRESS);
	assert_int_equal(ct_wait_state(e.pe, cli.ctx, RTE_COMCH_CTX_STATE_RUNNING,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(e.pe, &srv1.nb_connect, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_ctx_get_last_error(cli.ctx), 0);
	assert_int_equal(srv0.nb_connect, 0);
	destroy_side(&e, &cli);
	destroy_side(&e, &srv1);
	destroy_side(&e, &srv0);
	env_close(&e);
}

/* What a server's callback can do with a client that could not connect. */
struct failed_probe {
	uint32_t calls;
	int status;
	bool server_ok;
	bool user_data_ok;
	int update_info;
	int disconnect;
	int send_alloc;
	int producer_errno;
	int pause;
};

static void
probe_failed(struct ct_side *s, struct rte_comch_connection *conn, int status)
{
	struct failed_probe *f = s->arg;
	struct rte_comch_task_send *t = NULL;
	union rte_comch_data ud = { .u64 = 42 };
	uint8_t msg[8] = { 0 };

	if (status == 0)
		return;
	f->calls++;
	f->status = status;
	f->server_ok = rte_comch_connection_get_server(conn) == s->server &&
		       rte_comch_connection_get_ctx(conn) == s->ctx;
	ud.u64 = 0;
	f->user_data_ok = rte_comch_connection_set_user_data(conn,
			(union rte_comch_data){ .u64 = 42 }) == 0 &&
		rte_comch_connection_get_user_data(conn, &ud) == 0 && ud.u64 == 42;
	f->update_info = rte_comch_connection_update_info(conn);
	f->disconnect = rte_comch_server_disconnect(s->server, conn);
	f->send_alloc = rte_comch_server_task_send_alloc_init(s->server, conn, msg, sizeof(msg),
							      &t);
	rte_errno = 0;
	f->producer_errno = rte_comch_producer_create(conn) == NULL ? rte_errno : 0;
	f->pause = rte_comch_connection_recv_pause(conn);
}

/*
 * A client that asks for a server and cannot connect is reported to the
 * server's connection callback with the reason (DOCA's change_successful =
 * 0), with a connection that ended before it began: readable, refusing
 * everything else, gone after the callback.
 */
static void
test_failed_connection_reported(void **state)
{
	struct ct_cfg scfg = { .srv_msg_size = 100 };
	struct ct_cfg big = { .cli_msg_size = 200 };
	struct failed_probe f = { .calls = 0 };
	struct rte_comch_obj_stats before, after;
	struct ct_side srv, cli;
	struct env e;

	(void)state;
	env_open(&e);
	start_server(&e, &srv, e.rep0, "failed", &scfg);
	srv.arg = &f;
	srv.on_connect = probe_failed;
	assert_int_equal(rte_comch_obj_stats_get(&before), 0);
	start_client(&e, &cli, e.host0, "failed", &big);
	wait_client_fails(&e, &cli);
	assert_int_equal(ct_wait_count(e.pe, &srv.nb_connect_failed, 1, CT_TIMEOUT_MS), 0);
	assert_int_equal(srv.nb_connect, 0);
	assert_int_equal(srv.connect_failed[0], -EMSGSIZE);
	assert_int_equal(f.calls, 1);
	assert_int_equal(f.status, -EMSGSIZE);
	assert_true(f.server_ok);
	assert_true(f.user_data_ok);
	assert_int_equal(f.update_info, -ECONNRESET);
	assert_int_equal(f.disconnect, -ENOTCONN);
	assert_int_equal(f.send_alloc, -ENOTCONN);
	assert_int_equal(f.producer_errno, ENOTCONN);
	assert_int_equal(f.pause, -ENOTCONN);
	/* nothing of it is left: the client's context is all that was added */
	assert_int_equal(rte_comch_obj_stats_get(&after), 0);
	assert_int_equal(after.live, before.live + 1);
	destroy_side(&e, &cli);
	destroy_side(&e, &srv);
	env_close(&e);
}

static void
test_msg_size_mismatch(void **state)
{
	struct ct_cfg scfg = { .srv_msg_size = 100 };
	struct ct_cfg big = { .cli_msg_size = 200 };
	struct ct_cfg same = { .cli_msg_size = 100 };
	struct rte_comch_dev_stats ds;
	struct ct_side srv, c1, c2, c3;
	struct rte_comch_connection *conn;
	uint32_t v = 0;
	struct env e;

	(void)state;
	env_open(&e);
	start_server(&e, &srv, e.rep0, "sz", &scfg);
	start_client(&e, &c1, e.host0, "sz", &big);
	wait_client_fails(&e, &c1);
	assert_int_equal(rte_comch_ctx_get_last_error(c1.ctx), -EMSGSIZE);
	assert_int_equal(srv.nb_connect, 0);
	assert_int_equal(rte_comch_dev_stats_get(e.dpu, &ds), 0);
	assert_int_equal(ds.connections_rejected, 1);
	assert_int_equal(ds.connections_opened, 0);

	/* the same size explicitly, or no size at all, both connect */
	start_client(&e, &c2, e.host0, "sz", &same);
	start_client(&e, &c3, e.host0, "sz", NULL);
	assert_int_equal(ct_wait_state(e.pe, c2.ctx, RTE_COMCH_CTX_STATE_RUNNING,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_state(e.pe, c3.ctx, RTE_COMCH_CTX_STATE_RUNNING,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(e.pe, &srv.nb_connect, 2, CT_TIMEOUT_MS), 0);
	assert_int_equal(rte_comch_client_get_max_msg_size(c3.client, &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(rte_comch_client_get_connection(c3.client, &conn), 0);
	assert_int_equal(rte_comch_connection_get_max_msg_size(conn, &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(rte_comch_dev_stats_get(e.dpu, &ds), 0);
	assert_int_equal(ds.connections_opened, 2);
	assert_int_equal(ds.connections_rejected, 1);
	destroy_side(&e, &c3);
	destroy_side(&e, &c2);
	destroy_side(&e, &c1);
	destroy_side(&e, &srv);
	env_close(&e);
}

#define NB_MANY 40

static void
test_many_clients_one_server(void **state)
{
	static struct ct_side cli[NB_MANY];
	struct ct_cfg cfg = { .srv_tasks = 256 };
	struct ct_side srv;
	uint8_t msg[NB_MANY][64];
	bool seen[NB_MANY] = { false };
	uint32_t i, total_recv = 0;
	struct env e;

	(void)state;
	env_open(&e);
	start_server(&e, &srv, e.rep0, "many", &cfg);
	for (i = 0; i < NB_MANY; i++)
		start_client(&e, &cli[i], e.host0, "many", NULL);
	for (i = 0; i < NB_MANY; i++)
		assert_int_equal(ct_wait_state(e.pe, cli[i].ctx, RTE_COMCH_CTX_STATE_RUNNING,
					       CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(e.pe, &srv.nb_connect, NB_MANY, CT_TIMEOUT_MS), 0);
	/* the server answers each connection with a message of its own */
	for (i = 0; i < NB_MANY; i++) {
		union rte_comch_data ud = { .u64 = i };

		assert_int_equal(rte_comch_connection_set_user_data(srv.conns[i], ud), 0);
		ct_msg_fill(msg[i], sizeof(msg[i]), i, 0);
		assert_int_equal(ct_send(&srv, srv.conns[i], msg[i], sizeof(msg[i]), NULL), 0);
	}
	assert_int_equal(ct_wait_count(e.pe, &srv.nb_send_ok, NB_MANY, CT_TIMEOUT_MS), 0);
	for (i = 0; i < NB_MANY; i++) {
		uint32_t id = UINT32_MAX, seq;

		assert_int_equal(cli[i].nb_recv, 1);
		assert_int_equal(cli[i].bad_msgs, 0);
		total_recv += cli[i].nb_recv;
		/* each server connection reached a different client */
		assert_int_equal(ct_msg_check(cli[i].last_msg, 64, &id, &seq), 0);
		assert_true(id < NB_MANY);
		assert_false(seen[id]);
		seen[id] = true;
	}
	assert_int_equal(total_recv, NB_MANY);
	for (i = 0; i < NB_MANY; i++)
		destroy_side(&e, &cli[i]);
	assert_int_equal(ct_wait_count(e.pe, &srv.nb_disconnect, NB_MANY, CT_TIMEOUT_MS), 0);
	for (i = 0; i < NB_MANY; i++)
		assert_int_equal(srv.disc_status[i], -ECONNABORTED);
	destroy_side(&e, &srv);
	env_close(&e);
}

/* A server that exists but never progresses: the client gives up with -ETIMEDOUT. */
static void
test_connect_timeout_unresponsive(void **state)
{
	struct ct_cfg cfg = { .connect_timeout_ms = 300 };
	struct ct_pair p;
	uint64_t t0;

	(void)state;
	ct_pair_open_split(&p, &cfg);
	t0 = ct_now_ms();
	assert_int_equal(rte_comch_ctx_start(p.cli.ctx), -EINPROGRESS);
	/* only the client's engine runs */
	assert_int_equal(ct_wait_state(p.cpe, p.cli.ctx, RTE_COMCH_CTX_STATE_IDLE, 5000), 0);
	assert_true(ct_now_ms() - t0 >= 250);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), -ETIMEDOUT);
	for (uint32_t i = 0; i < p.cli.nb_states && i < CT_MAX_LOG; i++)
		assert_int_not_equal(p.cli.next[i], RTE_COMCH_CTX_STATE_RUNNING);
	/* the server wakes up, finds nobody, and still serves a new attempt */
	ct_progress_for(p.pe, 100);
	assert_int_equal(p.srv.nb_connect, p.srv.nb_disconnect);
	ct_pair_connect(&p);
	assert_int_equal(rte_comch_ctx_get_last_error(p.cli.ctx), 0);
	ct_pair_close(&p);
}

/* Find the server's socket under <dir>/<domain>/<rep>/. */
static int
find_server_socket(const struct env *e, const char *rep, char *path, size_t len)
{
	char dpath[80];
	struct dirent *de;
	DIR *d;
	int found = -1;

	snprintf(dpath, sizeof(dpath), "%s/%s/%s", ct_dir(), e->domain, rep);
	d = opendir(dpath);
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (strncmp(de->d_name, "s-", 2) == 0 && n > 5 &&
		    strcmp(de->d_name + n - 5, ".sock") == 0) {
			snprintf(path, len, "%s/%s", dpath, de->d_name);
			found = 0;
		}
	}
	closedir(d);
	return found;
}

static void
test_garbage_handshake(void **state)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct rte_comch_dev_stats ds;
	struct ct_side srv, cli;
	uint8_t junk[300];
	struct env e;
	int fd, i;

	(void)state;
	CT_ONLY_DRIVER("shm", "junk written to the server's socket, which skeleton has not");
	env_open(&e);
	start_server(&e, &srv, e.rep0, "robust", NULL);
	assert_int_equal(find_server_socket(&e, "pf0", sun.sun_path, sizeof(sun.sun_path)), 0);
	for (i = 0; i < 3; i++) {
		fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		assert_true(fd >= 0);
		assert_int_equal(connect(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
		memset(junk, 0x41 + i, sizeof(junk));
		/* short, long and empty junk */
		assert_true(write(fd, junk, i == 0 ? 3 : (i == 1 ? sizeof(junk) : 0)) >= 0);
		ct_progress_for(e.pe, 50);
		close(fd);
	}
	ct_progress_for(e.pe, 50);
	assert_int_equal(srv.nb_connect, 0);
	assert_int_equal(rte_comch_dev_stats_get(e.dpu, &ds), 0);
	assert_int_equal(ds.connections_opened, 0);
	assert_true(ds.connections_rejected + ds.peer_errors >= 1);
	/* a real client is still served */
	start_client(&e, &cli, e.host0, "robust", NULL);
	assert_int_equal(ct_wait_state(e.pe, cli.ctx, RTE_COMCH_CTX_STATE_RUNNING,
				       CT_TIMEOUT_MS), 0);
	assert_int_equal(ct_wait_count(e.pe, &srv.nb_connect, 1, CT_TIMEOUT_MS), 0);
	destroy_side(&e, &cli);
	destroy_side(&e, &srv);
	env_close(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_server_name),
		cmocka_unit_test(test_wrong_representor),
		cmocka_unit_test(test_msg_size_mismatch),
		cmocka_unit_test(test_failed_connection_reported),
		cmocka_unit_test(test_connect_timeout_unresponsive),
		cmocka_unit_test(test_many_clients_one_server),
		cmocka_unit_test(test_garbage_handshake),
	};

	return CT_RUN("comch_ctrl", tests);
}
