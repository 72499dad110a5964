/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The host side of the DOCA-style sample: a Comch client. */

#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "doca_comch_common.h"

DOCA_LOG_REGISTER(DOCA_COMCH_SAMPLE::CLIENT);

static void
client_recv(struct doca_comch_event_msg_recv *event, uint8_t *msg, uint32_t len,
	    struct doca_comch_connection *conn)
{
	(void)event;
	sample_ctrl_msg(sample_state_of_conn(conn), msg, len);
}

static doca_error_t
client_run(struct sample_cfg *cfg, struct sample_state *st)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;
	struct doca_ctx *ctx;
	doca_error_t ret;
	uint32_t max_msg = 0;

	ret = doca_comch_cap_client_is_supported(doca_dev_as_devinfo(st->dev));
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_cap_get_max_msg_size(doca_dev_as_devinfo(st->dev), &max_msg);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&st->pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_client_create(st->dev, cfg->server_name, &st->client);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create the client: %s", doca_error_get_descr(ret));
		return ret;
	}
	ctx = st->ctrl_ctx = doca_comch_client_as_ctx(st->client);
	ret = doca_comch_client_set_max_msg_size(st->client, max_msg);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_client_task_send_set_conf(st->client, sample_send_done,
							   sample_send_failed, SAMPLE_NUM_TASKS);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_client_event_msg_recv_register(st->client, client_recv);
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_client_event_consumer_register(st->client, sample_new_consumer,
								sample_expired_consumer);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = st });
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_state_changed_cb(ctx, sample_state_changed);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(st->pe, ctx);
	if (ret == DOCA_SUCCESS) {
		ret = doca_ctx_start(ctx);
		if (ret == DOCA_ERROR_IN_PROGRESS) /* a client connects through progress */
			ret = DOCA_SUCCESS;
	}
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start the client: %s", doca_error_get_descr(ret));
		return ret;
	}
	DOCA_LOG_INFO("Connecting to server '%s'", cfg->server_name);
	while (ret == DOCA_SUCCESS && state != DOCA_CTX_STATE_RUNNING) {
		bool progressed = doca_pe_progress(st->pe);

		ret = doca_ctx_get_state(ctx, &state);
		if (ret == DOCA_SUCCESS && !progressed && state == DOCA_CTX_STATE_IDLE) {
			DOCA_LOG_ERR("Could not connect to server '%s'", cfg->server_name);
			ret = DOCA_ERROR_NOT_CONNECTED;
		}
	}
	if (ret == DOCA_SUCCESS)
		ret = doca_comch_client_get_connection(st->client, &st->conn);
	if (ret == DOCA_SUCCESS)
		ret = sample_send_ctrl(st, SAMPLE_START_MSG);
	if (ret == DOCA_SUCCESS)
		ret = sample_wait(st, &st->got_text);
	if (ret == DOCA_SUCCESS)
		ret = sample_fast_start(st);
	if (ret == DOCA_SUCCESS)
		ret = sample_wait(st, &st->peer_ready);
	if (ret == DOCA_SUCCESS)
		ret = sample_fast_send(st);
	if (ret == DOCA_SUCCESS)
		ret = sample_wait(st, &st->fast_received);
	if (ret == DOCA_SUCCESS)
		ret = sample_send_ctrl(st, SAMPLE_STOP_MSG);
	if (ret == DOCA_SUCCESS)
		ret = sample_wait(st, &st->got_stop);
	sample_fast_stop(st);
	return ret;
}

int
main(int argc, char **argv)
{
	struct sample_state st = { 0 };
	struct sample_cfg cfg;
	doca_error_t ret;

	ret = sample_start(argc, argv, &cfg, false);
	if (ret != DOCA_SUCCESS)
		goto out;
	DOCA_LOG_INFO("Starting the client");
	st.text = cfg.text;
	ret = sample_open_dev(cfg.pci_addr, &st.dev);
	if (ret == DOCA_SUCCESS)
		ret = client_run(&cfg, &st);
	if (st.client != NULL) {
		sample_ctx_stop(&st, st.ctrl_ctx);
		doca_comch_client_destroy(st.client);
	}
	if (st.pe != NULL)
		doca_pe_destroy(st.pe);
	if (st.dev != NULL)
		doca_dev_close(st.dev);
	if (ret == DOCA_SUCCESS)
		DOCA_LOG_INFO("Exchanged: control path received '%s'; fast path sent '%s', "
			      "received '%s'", st.ctrl_text, cfg.text, st.fast_text);
out:
	return sample_finish(ret, "Client");
}
