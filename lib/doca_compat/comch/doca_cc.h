/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_CC_H
#define DOCA_COMPAT_CC_H

/**
 * @file
 * DOCA compatibility layer: DOCA 2.5's names of Comch, doca_cc_*, which DOCA
 * 2.7 renamed doca_comch_* with the same objects and calls. A program written
 * for DOCA 2.5 builds unchanged: each name below is the doca_comch one
 * (doca_comch.h), a type or a call of the same signature, by a macro; a call
 * whose signature changed is a function of the layer (doca_cc_consumer.h,
 * doca_cc_producer.h). Objects are the doca_comch ones: a program may mix the
 * two sets of names.
 *
 * Both spellings of the task configuration calls are accepted: the 2.5
 * headers' (doca_cc_server_task_send_set_conf()) and its guide's
 * (doca_cc_server_send_task_set_conf()). The counters of
 * doca_cc_connection_get_counter() have DOCA 2.5's names and doca_comch's
 * values: programs name them.
 *
 * Thread safety: as doca_comch.h.
 */

#include <doca_comch.h>

/* ------------------------------------------------------------------ types */

/** A connection between a client and a server (struct doca_comch_connection). */
#define doca_cc_connection doca_comch_connection
/** A server (struct doca_comch_server). */
#define doca_cc_server doca_comch_server
/** A client (struct doca_comch_client). */
#define doca_cc_client doca_comch_client
/** A control-path send task (struct doca_comch_task_send). */
#define doca_cc_task_send doca_comch_task_send
/** The message event (struct doca_comch_event_msg_recv). */
#define doca_cc_event_msg_recv doca_comch_event_msg_recv
/** The connection event (struct doca_comch_event_connection_status_changed). */
#define doca_cc_event_connection_status_changed doca_comch_event_connection_status_changed
/** The consumer event (struct doca_comch_event_consumer). */
#define doca_cc_event_consumer doca_comch_event_consumer
/** Connection counters (enum doca_comch_counter). */
#define doca_cc_counter doca_comch_counter
/** Messages the peer took (DOCA_COMCH_COUNTER_SENT_MESSAGES). */
#define DOCA_CC_COUNTER_SENT_MESSAGES DOCA_COMCH_COUNTER_SENT_MESSAGES
/** Their bytes (DOCA_COMCH_COUNTER_SENT_BYTES). */
#define DOCA_CC_COUNTER_SENT_BYTES DOCA_COMCH_COUNTER_SENT_BYTES
/** Messages received (DOCA_COMCH_COUNTER_RECV_MESSAGES). */
#define DOCA_CC_COUNTER_RECV_MESSAGES DOCA_COMCH_COUNTER_RECV_MESSAGES
/** Their bytes (DOCA_COMCH_COUNTER_RECV_BYTES). */
#define DOCA_CC_COUNTER_RECV_BYTES DOCA_COMCH_COUNTER_RECV_BYTES

/** Send task callback (doca_comch_task_send_completion_cb_t). */
typedef doca_comch_task_send_completion_cb_t doca_cc_task_send_completion_cb_t;
/** Message callback (doca_comch_event_msg_recv_cb_t). */
typedef doca_comch_event_msg_recv_cb_t doca_cc_event_msg_recv_cb_t;
/** Connection callback (doca_comch_event_connection_status_changed_cb_t). */
typedef doca_comch_event_connection_status_changed_cb_t
	doca_cc_event_connection_status_changed_cb_t;
/** Consumer callback (doca_comch_event_consumer_cb_t). */
typedef doca_comch_event_consumer_cb_t doca_cc_event_consumer_cb_t;

/* ---------------------------------------------------------- capabilities */

/** doca_comch_cap_get_max_name_len(). */
#define doca_cc_cap_get_max_name_len doca_comch_cap_get_max_name_len
/** doca_comch_cap_get_max_msg_size(). */
#define doca_cc_cap_get_max_msg_size doca_comch_cap_get_max_msg_size
/** doca_comch_cap_get_max_recv_queue_size(). */
#define doca_cc_cap_get_max_recv_queue_size doca_comch_cap_get_max_recv_queue_size
/** doca_comch_cap_get_max_clients(). */
#define doca_cc_cap_get_max_clients doca_comch_cap_get_max_clients
/** doca_comch_cap_get_max_send_tasks(). */
#define doca_cc_cap_get_max_send_tasks doca_comch_cap_get_max_send_tasks
/** doca_comch_cap_server_is_supported(). */
#define doca_cc_cap_server_is_supported doca_comch_cap_server_is_supported
/** doca_comch_cap_client_is_supported(). */
#define doca_cc_cap_client_is_supported doca_comch_cap_client_is_supported

/* ---------------------------------------------------------------- server */

/** doca_comch_server_create(). */
#define doca_cc_server_create doca_comch_server_create
/** doca_comch_server_destroy(). */
#define doca_cc_server_destroy doca_comch_server_destroy
/** doca_comch_server_set_max_msg_size(). */
#define doca_cc_server_set_max_msg_size doca_comch_server_set_max_msg_size
/** doca_comch_server_get_max_msg_size(). */
#define doca_cc_server_get_max_msg_size doca_comch_server_get_max_msg_size
/** doca_comch_server_set_recv_queue_size(). */
#define doca_cc_server_set_recv_queue_size doca_comch_server_set_recv_queue_size
/** doca_comch_server_get_recv_queue_size(). */
#define doca_cc_server_get_recv_queue_size doca_comch_server_get_recv_queue_size
/** doca_comch_server_get_device(). */
#define doca_cc_server_get_device doca_comch_server_get_device
/** doca_comch_server_get_device_rep(). */
#define doca_cc_server_get_device_repr doca_comch_server_get_device_rep
/** doca_comch_server_as_ctx(). */
#define doca_cc_server_as_ctx doca_comch_server_as_ctx
/** doca_comch_server_get_server_ctx(). */
#define doca_cc_server_get_server_ctx doca_comch_server_get_server_ctx
/** doca_comch_server_task_send_set_conf() (DOCA 2.5's header). */
#define doca_cc_server_task_send_set_conf doca_comch_server_task_send_set_conf
/** doca_comch_server_task_send_set_conf() (DOCA 2.5's guide). */
#define doca_cc_server_send_task_set_conf doca_comch_server_task_send_set_conf
/** doca_comch_server_task_send_alloc_init(). */
#define doca_cc_server_task_send_alloc_init doca_comch_server_task_send_alloc_init
/** doca_comch_server_event_msg_recv_register(). */
#define doca_cc_server_event_msg_recv_register doca_comch_server_event_msg_recv_register
/** doca_comch_server_event_connection_status_changed_register(). */
#define doca_cc_server_event_connection_register \
	doca_comch_server_event_connection_status_changed_register
/** doca_comch_server_event_consumer_register(). */
#define doca_cc_server_event_consumer_register doca_comch_server_event_consumer_register

/* ---------------------------------------------------------------- client */

/** doca_comch_client_create(). */
#define doca_cc_client_create doca_comch_client_create
/** doca_comch_client_destroy(). */
#define doca_cc_client_destroy doca_comch_client_destroy
/** doca_comch_client_set_max_msg_size(). */
#define doca_cc_client_set_max_msg_size doca_comch_client_set_max_msg_size
/** doca_comch_client_get_max_msg_size(). */
#define doca_cc_client_get_max_msg_size doca_comch_client_get_max_msg_size
/** doca_comch_client_set_recv_queue_size(). */
#define doca_cc_client_set_recv_queue_size doca_comch_client_set_recv_queue_size
/** doca_comch_client_get_recv_queue_size(). */
#define doca_cc_client_get_recv_queue_size doca_comch_client_get_recv_queue_size
/** doca_comch_client_get_device(). */
#define doca_cc_client_get_device doca_comch_client_get_device
/** doca_comch_client_as_ctx(). */
#define doca_cc_client_as_ctx doca_comch_client_as_ctx
/** doca_comch_client_get_connection(). */
#define doca_cc_client_get_connection doca_comch_client_get_connection
/** doca_comch_client_get_client_ctx(). */
#define doca_cc_client_get_client_ctx doca_comch_client_get_client_ctx
/** doca_comch_client_task_send_set_conf() (DOCA 2.5's header). */
#define doca_cc_client_task_send_set_conf doca_comch_client_task_send_set_conf
/** doca_comch_client_task_send_set_conf() (DOCA 2.5's guide). */
#define doca_cc_client_send_task_set_conf doca_comch_client_task_send_set_conf
/** doca_comch_client_task_send_alloc_init(). */
#define doca_cc_client_task_send_alloc_init doca_comch_client_task_send_alloc_init
/** doca_comch_client_event_msg_recv_register(). */
#define doca_cc_client_event_msg_recv_register doca_comch_client_event_msg_recv_register
/** doca_comch_client_event_consumer_register(). */
#define doca_cc_client_event_consumer_register doca_comch_client_event_consumer_register

/* ------------------------------------------------- connections, send tasks */

/** doca_comch_connection_set_user_data(). */
#define doca_cc_connection_set_user_data doca_comch_connection_set_user_data
/** doca_comch_connection_get_user_data(). */
#define doca_cc_connection_get_user_data doca_comch_connection_get_user_data
/** doca_comch_connection_update_info(). */
#define doca_cc_connection_update_info doca_comch_connection_update_info
/** doca_comch_connection_get_counter(). */
#define doca_cc_connection_get_counter doca_comch_connection_get_counter
/** doca_comch_task_send_as_task(). */
#define doca_cc_task_send_as_task doca_comch_task_send_as_task

#endif /* DOCA_COMPAT_CC_H */
