/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef COMCH_MLX5_GLUE_H
#define COMCH_MLX5_GLUE_H

/**
 * @file
 * Every rdma-core call of the mlx5 driver, as a table of function pointers.
 *
 * The driver calls libibverbs and librdmacm only through the table installed
 * (comch_mlx5_glue, set by rte_comch_mlx5_glue_set()): the real one wraps
 * rdma-core (mlx5_glue.c; the verbs that rdma-core inlines, such as
 * ibv_post_send() and ibv_poll_cq(), become functions there), and tests install
 * a fake provider's table that runs a whole fabric inside the process.
 *
 * The driver reads the public fields of rdma-core's structures (qp->qp_num,
 * mr->lkey and mr->rkey, channel fds, cm_event fields, id->verbs): a table
 * must return real rdma-core structures with those fields set.
 *
 * Internal: for the driver and its tests. Not installed.
 */

#include <stdint.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The rdma-core calls of the driver. Every entry must be set. */
struct rte_comch_mlx5_glue {
	const char *name; /**< "rdma-core", or the fake provider's name, for logs. */

	/* Devices and ports. */
	struct ibv_device **(*get_device_list)(int *num_devices);
	void (*free_device_list)(struct ibv_device **list);
	const char *(*get_device_name)(struct ibv_device *device);
	struct ibv_context *(*open_device)(struct ibv_device *device);
	int (*close_device)(struct ibv_context *context);
	int (*query_device)(struct ibv_context *context, struct ibv_device_attr *attr);
	int (*query_port)(struct ibv_context *context, uint8_t port_num,
			  struct ibv_port_attr *attr);
	int (*query_gid)(struct ibv_context *context, uint8_t port_num, int index,
			 union ibv_gid *gid);

	/* Protection domains and memory. */
	struct ibv_pd *(*alloc_pd)(struct ibv_context *context);
	int (*dealloc_pd)(struct ibv_pd *pd);
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length, int access);
	int (*dereg_mr)(struct ibv_mr *mr);

	/* Completion queues and their channels. */
	struct ibv_comp_channel *(*create_comp_channel)(struct ibv_context *context);
	int (*destroy_comp_channel)(struct ibv_comp_channel *channel);
	struct ibv_cq *(*create_cq)(struct ibv_context *context, int cqe, void *cq_context,
				    struct ibv_comp_channel *channel, int comp_vector);
	int (*destroy_cq)(struct ibv_cq *cq);
	int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only);
	int (*get_cq_event)(struct ibv_comp_channel *channel, struct ibv_cq **cq,
			    void **cq_context);
	void (*ack_cq_events)(struct ibv_cq *cq, unsigned int nevents);
	int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);

	/* Shared receive queues. */
	struct ibv_srq *(*create_srq)(struct ibv_pd *pd, struct ibv_srq_init_attr *attr);
	int (*destroy_srq)(struct ibv_srq *srq);
	int (*post_srq_recv)(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			     struct ibv_recv_wr **bad_wr);

	/* Queue pairs. */
	struct ibv_qp *(*create_qp)(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask);
	int (*destroy_qp)(struct ibv_qp *qp);
	int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
	int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);

	/* Connection manager. */
	struct rdma_event_channel *(*create_event_channel)(void);
	void (*destroy_event_channel)(struct rdma_event_channel *channel);
	int (*create_id)(struct rdma_event_channel *channel, struct rdma_cm_id **id,
			 void *context, enum rdma_port_space ps);
	int (*destroy_id)(struct rdma_cm_id *id);
	int (*bind_addr)(struct rdma_cm_id *id, struct sockaddr *addr);
	int (*listen)(struct rdma_cm_id *id, int backlog);
	int (*resolve_addr)(struct rdma_cm_id *id, struct sockaddr *src_addr,
			    struct sockaddr *dst_addr, int timeout_ms);
	int (*resolve_route)(struct rdma_cm_id *id, int timeout_ms);
	int (*cm_create_qp)(struct rdma_cm_id *id, struct ibv_pd *pd,
			    struct ibv_qp_init_attr *qp_init_attr);
	void (*cm_destroy_qp)(struct rdma_cm_id *id);
	int (*init_qp_attr)(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr,
			    int *qp_attr_mask);
	int (*connect)(struct rdma_cm_id *id, struct rdma_conn_param *param);
	int (*accept)(struct rdma_cm_id *id, struct rdma_conn_param *param);
	int (*reject)(struct rdma_cm_id *id, const void *private_data, uint8_t len);
	int (*disconnect)(struct rdma_cm_id *id);
	int (*get_cm_event)(struct rdma_event_channel *channel, struct rdma_cm_event **event);
	int (*ack_cm_event)(struct rdma_cm_event *event);
	/*
	 * The device contexts librdmacm's ids use (id->verbs): a PD allocated
	 * on one of them serves the QPs of the ids on that device. The list
	 * holds them open until it is freed.
	 */
	struct ibv_context **(*rdma_get_devices)(int *num_devices);
	void (*rdma_free_devices)(struct ibv_context **list);
};

/**
 * Install the rdma-core calls the mlx5 driver uses from now on (NULL: back
 * to rdma-core's). For tests, before any mlx5 device is opened, from one
 * thread; devices open stay on the table they were opened with.
 *
 * @param glue
 *   The table, valid for as long as devices use it; or NULL.
 * @return
 *   0, or -EINVAL if an entry of glue is NULL.
 */
__rte_internal
int
rte_comch_mlx5_glue_set(const struct rte_comch_mlx5_glue *glue);

#ifdef __cplusplus
}
#endif

#endif /* COMCH_MLX5_GLUE_H */
