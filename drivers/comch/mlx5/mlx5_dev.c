/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The mlx5 device: devargs, probe (the verbs device, its port, the PD, the
 * event channels, the BlueField side's listening id), capabilities from the
 * device's real limits, the listing of what rdma-core sees, registration.
 *
 *   mlx5:dev=mlx5_2,role=dpu,addr=192.168.100.2[,port=18515][,ib_port=1][,rep=pf0,...]
 *   mlx5:dev=mlx5_0,role=host,addr=192.168.100.2[,port=18515][,ib_port=1][,fn=pf0]
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <bsd/string.h>

#include <rte_cycles.h>
#include <rte_kvargs.h>

#include "mlx5_internal.h"

RTE_LOG_REGISTER_DEFAULT(mlx5_logtype, NOTICE);

static const char * const mlx5_keys[] = {
	"dev", "role", "addr", "port", "ib_port", "rep", "fn", NULL
};

struct mlx5_args {
	const char *dev, *role, *addr, *port, *ib_port, *fn;
	const char *reps[MLX5_MAX_REPS];
	unsigned int nb_reps;
};

static int
mlx5_arg(const char *key, const char *value, void *opaque)
{
	struct mlx5_args *a = opaque;
	const char **slot;

	if (value == NULL || *value == '\0') {
		MLX5_LOG(ERR, "devargs: %s needs a value", key);
		return -1;
	}
	if (strcmp(key, "rep") == 0) {
		if (a->nb_reps == MLX5_MAX_REPS) {
			MLX5_LOG(ERR, "devargs: rep: more than %d representors", MLX5_MAX_REPS);
			return -1;
		}
		a->reps[a->nb_reps++] = value;
		return 0;
	}
	slot = strcmp(key, "dev") == 0 ? &a->dev : strcmp(key, "role") == 0 ? &a->role :
	       strcmp(key, "addr") == 0 ? &a->addr : strcmp(key, "port") == 0 ? &a->port :
	       strcmp(key, "ib_port") == 0 ? &a->ib_port : &a->fn;
	if (*slot != NULL) {
		MLX5_LOG(ERR, "devargs: %s given twice", key);
		return -1;
	}
	*slot = value;
	return 0;
}

/* A number of [min, max] in decimal, or -EINVAL (logged, naming the key). */
static int
mlx5_arg_u32(const char *key, const char *value, uint32_t min, uint32_t max, uint32_t *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value, &end, 10);
	if (*value < '0' || *value > '9' || *end != '\0' || errno != 0 || v < min || v > max) {
		MLX5_LOG(ERR, "devargs: %s=%s: give a number of %u to %u", key, value, min, max);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

static int
mlx5_arg_name(const char *key, const char *value, size_t max)
{
	if (strlen(value) >= max) {
		MLX5_LOG(ERR, "devargs: %s=%s: at most %zu characters", key, value, max - 1);
		return -EINVAL;
	}
	return 0;
}

/* Read and check every key into dev (no rdma-core yet). */
static int
mlx5_parse(const struct rte_kvargs *kvlist, struct mlx5_dev *dev)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&dev->addr;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&dev->addr;
	struct mlx5_args a = { .dev = NULL };
	uint32_t port = MLX5_DEFAULT_PORT, ib_port = 1;
	char ip[INET6_ADDRSTRLEN];
	unsigned int i;

	if (rte_kvargs_process(kvlist, NULL, mlx5_arg, &a) < 0)
		return -EINVAL;
	if (a.dev == NULL || a.role == NULL || a.addr == NULL) {
		MLX5_LOG(ERR, "devargs: %s is required (dev=<verbs device>,role=dpu|host,"
			 "addr=<IP address>)", a.dev == NULL ? "dev" : a.role == NULL ? "role" :
			 "addr");
		return -EINVAL;
	}
	if (mlx5_arg_name("dev", a.dev, sizeof(dev->ibdev)) < 0)
		return -EINVAL;
	if (strcmp(a.role, "dpu") != 0 && strcmp(a.role, "host") != 0) {
		MLX5_LOG(ERR, "devargs: role=%s: give dpu (the BlueField side) or host", a.role);
		return -EINVAL;
	}
	dev->dpu = strcmp(a.role, "dpu") == 0;
	if ((a.port != NULL && mlx5_arg_u32("port", a.port, 1, 65535, &port) < 0) ||
	    (a.ib_port != NULL && mlx5_arg_u32("ib_port", a.ib_port, 1, 255, &ib_port) < 0))
		return -EINVAL;
	memset(&dev->addr, 0, sizeof(dev->addr));
	if (inet_pton(AF_INET, a.addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
	} else if (inet_pton(AF_INET6, a.addr, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
	} else {
		MLX5_LOG(ERR, "devargs: addr=%s: not an IPv4 or IPv6 address", a.addr);
		return -EINVAL;
	}
	inet_ntop(dev->addr.ss_family, dev->addr.ss_family == AF_INET ? (void *)&sin->sin_addr :
		  (void *)&sin6->sin6_addr, ip, sizeof(ip));
	snprintf(dev->addr_str, sizeof(dev->addr_str), dev->addr.ss_family == AF_INET ?
		 "%s:%u" : "[%s]:%u", ip, port);
	if (!dev->dpu && a.nb_reps != 0) {
		MLX5_LOG(ERR, "devargs: rep= is for the BlueField side (role=dpu)");
		return -EINVAL;
	}
	if (dev->dpu && a.fn != NULL) {
		MLX5_LOG(ERR, "devargs: fn= is for the host side (role=host)");
		return -EINVAL;
	}
	if (a.fn != NULL && mlx5_arg_name("fn", a.fn, MLX5_NAME_MAX) < 0)
		return -EINVAL;
	for (i = 0; i < a.nb_reps; i++)
		if (mlx5_arg_name("rep", a.reps[i], MLX5_NAME_MAX) < 0)
			return -EINVAL;
	strlcpy(dev->ibdev, a.dev, sizeof(dev->ibdev));
	strlcpy(dev->fn, a.fn != NULL ? a.fn : "pf0", sizeof(dev->fn));
	if (dev->dpu && a.nb_reps == 0)
		a.reps[a.nb_reps++] = "pf0";
	for (i = 0; i < a.nb_reps; i++) {
		strlcpy(dev->reps[i], a.reps[i], sizeof(dev->reps[i]));
		dev->rep_names[i] = dev->reps[i];
	}
	dev->nb_reps = a.nb_reps;
	dev->ib_port = (uint8_t)ib_port;
	/* Unique in a process: a host may reach several BlueFields, on several functions. */
	if (snprintf(dev->name, sizeof(dev->name), "%s@%s/%s", dev->ibdev, dev->addr_str,
		     dev->dpu ? "dpu" : dev->fn) >= (int)sizeof(dev->name))
		MLX5_LOG(NOTICE, "device name cut to %s", dev->name);
	return 0;
}

/* ------------------------------------------------------------------ strings */

static const char *
mlx5_port_state_str(enum ibv_port_state s)
{
	switch (s) {
	case IBV_PORT_NOP: return "NOP";
	case IBV_PORT_DOWN: return "DOWN";
	case IBV_PORT_INIT: return "INIT";
	case IBV_PORT_ARMED: return "ARMED";
	case IBV_PORT_ACTIVE: return "ACTIVE";
	case IBV_PORT_ACTIVE_DEFER: return "ACTIVE_DEFER";
	default: return "unknown";
	}
}

static unsigned int
mlx5_mtu_bytes(enum ibv_mtu mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128u << mtu : 0;
}

/* ------------------------------------------------------------------ open */

/* The context of dev->ibdev among librdmacm's, or -ENODEV saying what there is. */
static int
mlx5_find_ctx(struct mlx5_dev *dev)
{
	char names[256] = "";
	size_t off = 0;
	int i, n = 0;

	dev->devs = dev->glue->rdma_get_devices(&n);
	if (dev->devs == NULL || n <= 0) {
		MLX5_LOG(ERR, "no RDMA device (rdma-core found none: is a driver loaded? for "
			 "soft-RoCE: rdma link add rxe0 type rxe netdev <if>)");
		if (dev->devs != NULL)
			dev->glue->rdma_free_devices(dev->devs);
		dev->devs = NULL;
		return -ENODEV;
	}
	for (i = 0; i < n && dev->devs[i] != NULL; i++) {
		const char *nm = dev->glue->get_device_name(dev->devs[i]->device);

		if (nm != NULL && strcmp(nm, dev->ibdev) == 0) {
			dev->ctx = dev->devs[i];
			return 0;
		}
		if (off < sizeof(names))
			off += snprintf(names + off, sizeof(names) - off, "%s%s",
					i == 0 ? "" : ", ", nm != NULL ? nm : "?");
	}
	MLX5_LOG(ERR, "no RDMA device %s: rdma-core has %s", dev->ibdev, names);
	dev->glue->rdma_free_devices(dev->devs);
	dev->devs = NULL;
	return -ENODEV;
}

/* Limits: the device's, clamped by the driver's own. */
static int
mlx5_query(struct mlx5_dev *dev)
{
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	uint32_t fixed = MLX5_OTHER_CREDITS + 8;
	int rc;

	rc = dev->glue->query_device(dev->ctx, &da);
	if (rc != 0) {
		MLX5_LOG(ERR, "%s: query_device: %s", dev->ibdev, strerror(rc));
		return -rc;
	}
	if (dev->ib_port > da.phys_port_cnt) {
		MLX5_LOG(ERR, "devargs: ib_port=%u: %s has %u port(s)", dev->ib_port, dev->ibdev,
			 da.phys_port_cnt);
		return -EINVAL;
	}
	rc = dev->glue->query_port(dev->ctx, dev->ib_port, &pa);
	if (rc != 0) {
		MLX5_LOG(ERR, "%s port %u: query_port: %s", dev->ibdev, dev->ib_port, strerror(rc));
		return -rc;
	}
	if (pa.state != IBV_PORT_ACTIVE) {
		MLX5_LOG(ERR, "%s port %u is %s, not ACTIVE (is the link up? ip link, rdma link)",
			 dev->ibdev, dev->ib_port, mlx5_port_state_str(pa.state));
		return -ENETDOWN;
	}
	if (da.max_qp_wr <= (int)(2 * fixed) || da.max_cqe <= (int)(2 * fixed)) {
		MLX5_LOG(ERR, "%s: queues of %d work requests and CQs of %d entries are too "
			 "small", dev->ibdev, da.max_qp_wr, da.max_cqe);
		return -ENOTSUP;
	}
	dev->max_qp_wr = (uint32_t)da.max_qp_wr;
	dev->max_cqe = (uint32_t)da.max_cqe;
	dev->max_queue = RTE_MIN((uint32_t)MLX5_MAX_QUEUE, (dev->max_qp_wr - fixed) / 2);
	dev->max_msg = RTE_MIN((uint32_t)MLX5_MAX_MSG_SIZE,
			       pa.max_msg_sz - (uint32_t)sizeof(struct mlx5_hdr));
	/* A post is a receive of the consumer's QP; a message, two sends of the import's. */
	dev->max_fast_tasks = RTE_MIN((uint32_t)MLX5_MAX_FAST_TASKS, (dev->max_qp_wr - 2) / 2);
	dev->max_buf = RTE_MIN((uint64_t)MLX5_MAX_BUF_SIZE, (uint64_t)pa.max_msg_sz);
	MLX5_LOG(INFO, "%s port %u: %s, MTU %u, max_qp_wr %d, max_cqe %d, max_msg_sz %u",
		 dev->ibdev, dev->ib_port, pa.link_layer == IBV_LINK_LAYER_ETHERNET ?
		 "RoCE" : "InfiniBand", mlx5_mtu_bytes(pa.active_mtu), da.max_qp_wr,
		 da.max_cqe, pa.max_msg_sz);
	return 0;
}

/* The BlueField side listens on addr: one id for every server of the device. */
static int
mlx5_listen(struct mlx5_dev *dev)
{
	const char *nm;

	if (dev->glue->create_id(dev->cm_ch, &dev->listener, NULL, RDMA_PS_TCP) != 0) {
		MLX5_LOG(ERR, "%s: rdma_create_id: %s", dev->name, strerror(errno));
		dev->listener = NULL;
		return -errno;
	}
	if (dev->glue->bind_addr(dev->listener, (struct sockaddr *)&dev->addr) != 0) {
		MLX5_LOG(ERR, "devargs: addr: cannot listen on %s: %s%s", dev->addr_str,
			 strerror(errno), errno == EADDRNOTAVAIL ? " (no RDMA device has that "
			 "address: ip addr, rdma link)" : errno == EADDRINUSE ? " (port= another)" :
			 "");
		return -errno;
	}
	if (dev->listener->verbs != dev->ctx) {
		nm = dev->listener->verbs != NULL ?
		     dev->glue->get_device_name(dev->listener->verbs->device) : NULL;
		MLX5_LOG(ERR, "devargs: addr %s belongs to RDMA device %s, not %s", dev->addr_str,
			 nm != NULL ? nm : "(none)", dev->ibdev);
		return -EINVAL;
	}
	if (dev->glue->listen(dev->listener, 128) != 0) {
		MLX5_LOG(ERR, "%s: rdma_listen: %s", dev->name, strerror(errno));
		return -errno;
	}
	return 0;
}

static void
mlx5_dev_free(struct mlx5_dev *dev)
{
	const struct rte_comch_mlx5_glue *g = dev->glue;
	struct mlx5_conn *c;

	pthread_mutex_lock(&dev->lock);
	/* What still lingers goes now: its last message had a second at least, or not. */
	while ((c = TAILQ_FIRST(&dev->linger)) != NULL)
		mlx5_conn_destroy_locked(c);
	while ((c = TAILQ_FIRST(&dev->pending)) != NULL)
		mlx5_conn_destroy_locked(c);
	pthread_mutex_unlock(&dev->lock);
	mlx5_watch_free_all(dev);
	if (dev->listener != NULL)
		g->destroy_id(dev->listener);
	if (dev->epfd >= 0)
		close(dev->epfd);
	if (dev->cm_ch != NULL)
		g->destroy_event_channel(dev->cm_ch);
	if (dev->pd != NULL)
		g->dealloc_pd(dev->pd);
	if (dev->devs != NULL)
		g->rdma_free_devices(dev->devs);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

static int
mlx5_dev_open(struct mlx5_dev *dev)
{
	int rc;

	rc = mlx5_find_ctx(dev);
	if (rc == 0)
		rc = mlx5_query(dev);
	if (rc < 0)
		return rc;
	dev->pd = dev->glue->alloc_pd(dev->ctx);
	if (dev->pd == NULL) {
		MLX5_LOG(ERR, "%s: alloc_pd: %s", dev->ibdev, strerror(errno));
		return -ENOMEM;
	}
	dev->cm_ch = dev->glue->create_event_channel();
	if (dev->cm_ch == NULL || mlx5_nonblock(dev->cm_ch->fd) < 0) {
		MLX5_LOG(ERR, "%s: rdma_create_event_channel: %s", dev->ibdev, strerror(errno));
		return -ENOMEM;
	}
	dev->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (dev->epfd < 0) {
		MLX5_LOG(ERR, "%s: epoll_create1: %s", dev->ibdev, strerror(errno));
		return -errno;
	}
	return dev->dpu ? mlx5_listen(dev) : 0;
}

static void
mlx5_close(void *dev)
{
	mlx5_dev_free(dev);
}

static const struct rte_comch_drv_dev_ops mlx5_dev_ops = { .close = mlx5_close };

static const struct rte_comch_drv_ops mlx5_ops = {
	.dev = &mlx5_dev_ops,
	.server = &mlx5_server_ops,
	.client = &mlx5_client_ops,
	.conn = &mlx5_conn_ops,
	.mmap = &mlx5_mmap_ops,
	.consumer = &mlx5_consumer_ops,
	.producer = &mlx5_producer_ops,
};

static int
mlx5_probe(const struct rte_kvargs *kvlist, struct rte_comch_drv_dev_conf *conf)
{
	struct rte_comch_dev_info *info = &conf->info;
	struct mlx5_dev *dev;
	int rc;

	dev = calloc(1, sizeof(*dev));
	if (dev == NULL)
		return -ENOMEM;
	dev->glue = mlx5_glue;
	dev->tsc_hz = rte_get_tsc_hz();
	dev->epfd = -1;
	pthread_mutex_init(&dev->lock, NULL);
	TAILQ_INIT(&dev->watches);
	TAILQ_INIT(&dev->servers);
	TAILQ_INIT(&dev->pending);
	TAILQ_INIT(&dev->linger);
	rc = mlx5_parse(kvlist, dev);
	if (rc == 0)
		rc = mlx5_dev_open(dev);
	if (rc < 0) {
		mlx5_dev_free(dev);
		return rc;
	}
	conf->priv = dev;
	conf->role = dev->dpu ? RTE_COMCH_ROLE_DPU : RTE_COMCH_ROLE_HOST;
	conf->rep_names = dev->dpu ? dev->rep_names : NULL;
	conf->nb_reps = dev->dpu ? dev->nb_reps : 0;
	strlcpy(info->name, dev->name, sizeof(info->name));
	info->max_name_len = MLX5_MAX_NAME_LEN;
	info->max_msg_size = dev->max_msg;
	info->default_msg_size = RTE_MIN((uint32_t)RTE_COMCH_DEFAULT_MSG_SIZE, dev->max_msg);
	info->max_recv_queue_size = dev->max_queue;
	info->max_clients = MLX5_MAX_CLIENTS;
	info->max_send_tasks = MLX5_MAX_SEND_TASKS;
	info->capa = (dev->dpu ? RTE_COMCH_CAPA_SERVER : RTE_COMCH_CAPA_CLIENT) |
		     RTE_COMCH_CAPA_PRODUCER | RTE_COMCH_CAPA_CONSUMER | RTE_COMCH_CAPA_SLEEP |
		     RTE_COMCH_CAPA_MULTI_PROCESS;
	info->max_fast_tasks = dev->max_fast_tasks;
	info->max_buf_size = dev->max_buf;
	info->max_producers = MLX5_MAX_FAST;
	info->max_consumers = MLX5_MAX_FAST;
	info->max_imm_data_len = RTE_COMCH_MAX_IMM_DATA_LEN;
	MLX5_LOG(INFO, "%s: %s side on %s port %u, %s %s (rdma-core calls: %s)", dev->name,
		 dev->dpu ? "BlueField" : "host", dev->ibdev, dev->ib_port,
		 dev->dpu ? "listening on" : "connecting to", dev->addr_str, dev->glue->name);
	return 0;
}

/* ------------------------------------------------------------------ listing */

/* One entry per port of every verbs device, with what it is. */
static int
mlx5_list(struct rte_comch_dev_desc *descs, unsigned int max)
{
	const struct rte_comch_mlx5_glue *g = mlx5_glue;
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	unsigned int n = 0;
	int i, nb = 0, p;

	list = g->get_device_list(&nb);
	if (list == NULL)
		return 0; /* no verbs at all: nothing to list */
	for (i = 0; i < nb && list[i] != NULL; i++) {
		const char *nm = g->get_device_name(list[i]);

		ctx = g->open_device(list[i]);
		if (ctx == NULL || nm == NULL)
			continue;
		if (g->query_device(ctx, &da) == 0) {
			for (p = 1; p <= da.phys_port_cnt; p++) {
				if (g->query_port(ctx, (uint8_t)p, &pa) != 0)
					continue;
				if (n < max) {
					snprintf(descs[n].devargs, sizeof(descs[n].devargs),
						 "mlx5:dev=%s,ib_port=%d", nm, p);
					snprintf(descs[n].description,
						 sizeof(descs[n].description),
						 "%s port %d: %s, %s, MTU %u (add addr=<its IP>)",
						 nm, p, pa.link_layer == IBV_LINK_LAYER_ETHERNET ?
						 "RoCE" : "InfiniBand",
						 mlx5_port_state_str(pa.state),
						 mlx5_mtu_bytes(pa.active_mtu));
				}
				n++;
			}
		}
		g->close_device(ctx);
	}
	g->free_device_list(list);
	return (int)n;
}

static struct rte_comch_driver mlx5_driver = {
	.name = "mlx5",
	.valid_keys = mlx5_keys,
	.probe = mlx5_probe,
	.ops = &mlx5_ops,
	.list = mlx5_list,
};

RTE_COMCH_REGISTER_DRIVER(mlx5, mlx5_driver);

/* ------------------------------------------------------------------ helpers */

uint64_t
mlx5_ms(const struct mlx5_dev *dev, uint32_t ms)
{
	return dev->tsc_hz / 1000 * ms;
}

uint32_t
mlx5_pow2(uint32_t v)
{
	return rte_align32pow2(v == 0 ? 1 : v);
}
