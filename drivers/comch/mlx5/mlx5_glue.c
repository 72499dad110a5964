/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The glue table over rdma-core, and the one installed. rdma-core inlines
 * some verbs (they call through the context's ops): those get a function
 * here, so that the table is all functions.
 */

#include <errno.h>

#include "mlx5_glue.h"
#include "mlx5_internal.h"

static int
glue_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr)
{
	return ibv_query_port(context, port_num, attr);
}

static int
glue_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	return ibv_req_notify_cq(cq, solicited_only);
}

static int
glue_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, num_entries, wc);
}

static int
glue_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	return ibv_post_srq_recv(srq, wr, bad_wr);
}

static int
glue_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	return ibv_post_send(qp, wr, bad_wr);
}

static int
glue_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	return ibv_post_recv(qp, wr, bad_wr);
}

static struct ibv_mr *
glue_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return ibv_reg_mr(pd, addr, length, access);
}

static const struct rte_comch_mlx5_glue mlx5_rdma_core_glue = {
	.name = "rdma-core",
	.get_device_list = ibv_get_device_list,
	.free_device_list = ibv_free_device_list,
	.get_device_name = ibv_get_device_name,
	.open_device = ibv_open_device,
	.close_device = ibv_close_device,
	.query_device = ibv_query_device,
	.query_port = glue_query_port,
	.query_gid = ibv_query_gid,
	.alloc_pd = ibv_alloc_pd,
	.dealloc_pd = ibv_dealloc_pd,
	.reg_mr = glue_reg_mr,
	.dereg_mr = ibv_dereg_mr,
	.create_comp_channel = ibv_create_comp_channel,
	.destroy_comp_channel = ibv_destroy_comp_channel,
	.create_cq = ibv_create_cq,
	.destroy_cq = ibv_destroy_cq,
	.req_notify_cq = glue_req_notify_cq,
	.get_cq_event = ibv_get_cq_event,
	.ack_cq_events = ibv_ack_cq_events,
	.poll_cq = glue_poll_cq,
	.create_srq = ibv_create_srq,
	.destroy_srq = ibv_destroy_srq,
	.post_srq_recv = glue_post_srq_recv,
	.create_qp = ibv_create_qp,
	.modify_qp = ibv_modify_qp,
	.destroy_qp = ibv_destroy_qp,
	.post_send = glue_post_send,
	.post_recv = glue_post_recv,
	.create_event_channel = rdma_create_event_channel,
	.destroy_event_channel = rdma_destroy_event_channel,
	.create_id = rdma_create_id,
	.destroy_id = rdma_destroy_id,
	.bind_addr = rdma_bind_addr,
	.listen = rdma_listen,
	.resolve_addr = rdma_resolve_addr,
	.resolve_route = rdma_resolve_route,
	.cm_create_qp = rdma_create_qp,
	.cm_destroy_qp = rdma_destroy_qp,
	.init_qp_attr = rdma_init_qp_attr,
	.connect = rdma_connect,
	.accept = rdma_accept,
	.reject = rdma_reject,
	.disconnect = rdma_disconnect,
	.get_cm_event = rdma_get_cm_event,
	.ack_cm_event = rdma_ack_cm_event,
	.rdma_get_devices = rdma_get_devices,
	.rdma_free_devices = rdma_free_devices,
};

const struct rte_comch_mlx5_glue *mlx5_glue = &mlx5_rdma_core_glue;

int
rte_comch_mlx5_glue_set(const struct rte_comch_mlx5_glue *glue)
{
	const void * const *fn;
	size_t i;

	if (glue == NULL) {
		mlx5_glue = &mlx5_rdma_core_glue;
		return 0;
	}
	/* Every entry after the name is a function pointer: none may be NULL. */
	fn = (const void * const *)(const void *)&glue->get_device_list;
	for (i = 0; i < (sizeof(*glue) - offsetof(struct rte_comch_mlx5_glue, get_device_list)) /
		    sizeof(void *); i++) {
		if (fn[i] == NULL) {
			MLX5_LOG(ERR, "glue table %s: entry %zu is NULL", glue->name, i);
			return -EINVAL;
		}
	}
	MLX5_LOG(INFO, "rdma-core calls go to %s", glue->name);
	mlx5_glue = glue;
	return 0;
}
