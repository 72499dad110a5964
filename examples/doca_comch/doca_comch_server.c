/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The BlueField side of the DOCA-style sample: a Comch server. */

#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "doca_comch_common.h"

DOCA_LOG_REGISTER(DOCA_COMCH_SAMPLE::SERVER);

static void
server_recv(struct doca_comch_event_msg_recv *event, uint8_t *msg, uint32_t len,
	    struct doca_comch_connection *conn)
{
	struct sample_state *st = sample_state_of_conn(conn);

	(void)event;
	st->conn = conn;
	sample_ctrl_msg(st, msg, len);
}

static void
server_connected(struct doca_comch_event_connection_status_changed *event,
		 struct doca_comch_connection *conn, uint8_t ok)
{
	struct sample_state *st = sample_state_of_conn(conn);

	(void)event;
	if (st->conn != NULL) {
		DOCA_LOG_WARN("A second client connected: refusing it");
		doca_comch_server_disconnect(st->server, conn);
		return;
	}
	if (ok)
		DOCA_LOG_INFO("A client connected");
}

static void
server_disconnected(struct doca_comch_event_connection_status_changed *event,
		    struct doca_comch_connection *conn, uint8_t ok)
{
	struct sample_state *st = sample_state_of_conn(conn);

	(void)event;
	(void)ok;
	if (conn == st->conn) {
		DOCA_LOG_INFO("The client disconnected");
		st->disconnected = true;
	}
}

static doca_error_t
server_run(struct sample_cfg *cfg, struct sample_state *st, struct doca_dev_rep *rep)
{
	struct doca_ctx *ctx;
	doca_error_t ret;
	uint32_t max_msg = 0;

	ret = doca_comch_cap_server_is_supported(doca_dev_as_devinfo(st->dev));
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_cap_get_max_msg_size(doca_dev_as_devinfo(st->dev), &max_msg);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&st->pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_server_create(st->dev, rep, cfg->server_name, &st->server);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create the server: %s", doca_error_get_descr(ret));
		return ret;
	}
	ctx = st->ctrl_ctx = doca_comch_server_as_ctx(st->server);
	ret = doca_comch_server_set_max_msg_size(st->server, max_msg);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_server_task_send_set_conf(st->server, sample_send_done,
							   sample_send_failed, SAMPLE_NUM_TASKS);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_server_event_msg_recv_register(st->server, server_recv);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_server_event_connection_status_changed_register(
			st->server, server_connected, server_disconnected);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_server_event_consumer_register(st->server, sample_new_consumer,
								sample_expired_consumer);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = st });
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_state_changed_cb(ctx, sample_state_changed);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(st->pe, ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(ctx); /* a server runs at once */
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start the server: %s", doca_error_get_descr(ret));
		return ret;
	}
	DOCA_LOG_INFO("Server '%s' is running (messages up to %u bytes); waiting for a client",
		      cfg->server_name, max_msg);
	ret = sample_wait(st, &st->got_start);
	if (ret == DOCA_SUCCESS)
		ret = sample_send_ctrl(st, st->text);
	if (ret == DOCA_SUCCESS)
		ret = sample_fast_start(st);
	if (ret == DOCA_SUCCESS)
		ret = sample_wait(st, &st->peer_ready);
	if (ret == DOCA_SUCCESS)
		ret = sample_fast_send(st);
	if (ret == DOCA_SUCCESS)
		ret = sample_wait(st, &st->fast_received);
	if (ret == DOCA_SUCCESS)
		ret = sample_wait(st, &st->got_stop);
	/* Our producer and consumer go first, then the client may stop. */
	sample_fast_stop(st);
	if (ret == DOCA_SUCCESS)
		ret = sample_send_ctrl(st, SAMPLE_STOP_MSG);
	if (ret == DOCA_SUCCESS)
		ret = sample_wait(st, &st->disconnected);
	return ret;
}

int
main(int argc, char **argv)
{
	struct sample_state st = { 0 };
	struct doca_dev_rep *rep = NULL;
	struct sample_cfg cfg;
	doca_error_t ret;

	ret = sample_start(argc, argv, &cfg, true);
	if (ret != DOCA_SUCCESS)
		goto out;
	DOCA_LOG_INFO("Starting the server");
	st.text = cfg.text;
	ret = sample_open_dev(cfg.pci_addr, &st.dev);
	if (ret == DOCA_SUCCESS)
		ret = sample_open_rep(st.dev, cfg.rep_pci_addr, &rep);
	if (ret == DOCA_SUCCESS)
		ret = server_run(&cfg, &st, rep);
	if (st.server != NULL) {
		sample_ctx_stop(&st, st.ctrl_ctx);
		doca_comch_server_destroy(st.server);
	}
	if (st.pe != NULL)
		doca_pe_destroy(st.pe);
	if (rep != NULL)
		doca_dev_rep_close(rep);
	if (st.dev != NULL)
		doca_dev_close(st.dev);
	if (ret == DOCA_SUCCESS)
		DOCA_LOG_INFO("Exchanged: control path sent '%s'; fast path sent '%s', received '%s'",
			      cfg.text, cfg.text, st.fast_text);
out:
	return sample_finish(ret, "Server");
}
