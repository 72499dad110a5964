/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMCH_COMMON_H
#define DOCA_COMCH_COMMON_H

/*
 * A DOCA-style Comch program of our own: it uses only DOCA's names (the
 * compatibility layer's headers), as a program written for a BlueField would,
 * and runs as a server process and a client process over the shm driver.
 *
 * The flow, both sides: the client sends "start" on the control path; the
 * server answers with its text; each side starts a consumer, and when the other
 * side's consumer is announced, sends its text to it with a producer (the
 * buffer, plus 4 bytes of immediate data); when its consumer has received the
 * peer's text, the client sends "stop", the server answers "stop", and both
 * stop their contexts.
 */

#include <stdbool.h>
#include <stdint.h>

#include <doca_buf_inventory.h>
#include <doca_comch.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#define SAMPLE_SERVER_NAME "doca_comch_compat_sample"
#define SAMPLE_MAX_TEXT 4080
#define SAMPLE_BUF_SIZE (64 * 1024)
#define SAMPLE_NUM_TASKS 4
#define SAMPLE_START_MSG "start"
#define SAMPLE_STOP_MSG "stop"

struct sample_cfg {
	char pci_addr[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char rep_pci_addr[DOCA_DEVINFO_REP_PCI_ADDR_SIZE];
	char text[SAMPLE_MAX_TEXT + 1];
	char server_name[64];
};

/* One side's state, shared by its callbacks through the contexts' user data. */
struct sample_state {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_comch_server *server; /* one of the two */
	struct doca_comch_client *client;
	struct doca_ctx *ctrl_ctx;	/* the server or the client, as a context */
	struct doca_comch_connection *conn;
	struct doca_mmap *mmap;		/* the consumer's memory, and the text to send */
	struct doca_buf_inventory *inv;
	struct doca_comch_consumer *consumer;
	struct doca_comch_producer *producer;
	uint8_t *mem;			/* [0, SAMPLE_BUF_SIZE): receive; then the text */
	const char *text;
	uint32_t peer_consumer_id;	/* 0: none announced yet */
	bool got_start, got_stop, got_text, peer_ready, disconnected;
	bool fast_received, fast_sent, failed;
	char ctrl_text[SAMPLE_MAX_TEXT + 1];
	char fast_text[SAMPLE_MAX_TEXT + 1];
};

/* Set up DOCA's logs (the program's, and the SDK's warnings on stderr), then parse
 * -p, -r, -t, -s with doca_argp. */
doca_error_t
sample_start(int argc, char **argv, struct sample_cfg *cfg, bool server);
/* Log how the side ended and give its exit status. */
int
sample_finish(doca_error_t ret, const char *who);
/* Open the device whose PCI address is pci_addr. */
doca_error_t
sample_open_dev(const char *pci_addr, struct doca_dev **dev);
/* Open the representor of dev whose PCI address is pci_addr. */
doca_error_t
sample_open_rep(struct doca_dev *dev, const char *pci_addr, struct doca_dev_rep **rep);
/* Progress until *flag or a failure, sleeping a little when idle. */
doca_error_t
sample_wait(struct sample_state *st, const bool *flag);
/* Send a control message on the connection (server or client). */
doca_error_t
sample_send_ctrl(struct sample_state *st, const char *msg);
/* Set up the fast path: memory, inventory, consumer (started and posted). */
doca_error_t
sample_fast_start(struct sample_state *st);
/* Send the text to the peer's consumer with a producer, and wait for the completion. */
doca_error_t
sample_fast_send(struct sample_state *st);
/* Stop and destroy the fast-path objects. */
void
sample_fast_stop(struct sample_state *st);
/* Stop a context and progress until it is idle. */
doca_error_t
sample_ctx_stop(struct sample_state *st, struct doca_ctx *ctx);
/* Control-path callbacks both sides use. */
void
sample_send_done(struct doca_comch_task_send *task, union doca_data task_user_data,
		 union doca_data ctx_user_data);
void
sample_send_failed(struct doca_comch_task_send *task, union doca_data task_user_data,
		   union doca_data ctx_user_data);
void
sample_new_consumer(struct doca_comch_event_consumer *event,
		    struct doca_comch_connection *conn, uint32_t id);
void
sample_expired_consumer(struct doca_comch_event_consumer *event,
			struct doca_comch_connection *conn, uint32_t id);
/* Record a control message. */
void
sample_ctrl_msg(struct sample_state *st, const uint8_t *msg, uint32_t len);
/* Log the server's or client's state changes. */
void
sample_state_changed(const union doca_data user_data, struct doca_ctx *ctx,
		     enum doca_ctx_states prev_state, enum doca_ctx_states next_state);
/* The state of the server or client a connection belongs to. */
struct sample_state *
sample_state_of_conn(struct doca_comch_connection *conn);

#endif /* DOCA_COMCH_COMMON_H */
