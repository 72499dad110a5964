/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/* The stage of the hostile-peer tests: see shm_raw_peer.h. */

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_cycles.h>

#include <bsd/string.h>

#include "comch_test_common.h"
#include "shm_raw_peer.h"

/* shm_ring.c and shm_sock.c are compiled into these tests; they log here. */
int shm_logtype;


struct rte_comch_dev *dpu, *host;
struct rte_comch_dev_rep *rep;
struct rte_comch_server *srv;
struct rte_comch_pe *pe;
int last_disconnect = 1;
struct rte_comch_connection *last_conn;
int last_new_consumer = -1, last_expired_consumer = -1;
unsigned int nb_connects, nb_server_msgs, nb_client_msgs;
/* The domain of the server under test: where raw_connect() looks for it. */
static char raw_domain[32] = "hostile";

void
task_free_cb(struct rte_comch_task_send *t, union rte_comch_data a, union rte_comch_data b)
{
	rte_comch_task_free(rte_comch_task_send_as_task(t));
}

static void
srv_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	struct rte_comch_task_send *t;

	nb_server_msgs++;
	/* Echo, so a well-behaved client can check the server still works. */
	if (rte_comch_server_task_send_alloc_init(srv, conn, msg, len, &t) == 0 &&
	    rte_comch_task_submit(rte_comch_task_send_as_task(t)) != 0)
		rte_comch_task_free(rte_comch_task_send_as_task(t));
}

static void
cli_recv(struct rte_comch_connection *conn, const uint8_t *msg, uint32_t len)
{
	nb_client_msgs++;
}

static void
srv_connect(struct rte_comch_connection *conn, int status)
{
	if (status != 0)
		return; /* a client that could not connect */
	last_conn = conn;
	nb_connects++;
}

static void
srv_new_consumer(struct rte_comch_connection *conn, uint32_t id)
{
	last_new_consumer = id;
}

static void
srv_expired_consumer(struct rte_comch_connection *conn, uint32_t id)
{
	last_expired_consumer = id;
}

static void
srv_disconnect(struct rte_comch_connection *conn, int status)
{
	last_disconnect = status;
}

void
pump(unsigned int ms)
{
	uint64_t end = rte_rdtsc() + rte_get_tsc_hz() / 1000 * ms;

	while (rte_rdtsc() < end)
		rte_comch_pe_progress(pe);
}

uint64_t
rejected(void)
{
	struct rte_comch_dev_stats st;

	assert_int_equal(rte_comch_dev_stats_get(dpu, &st), 0);
	return st.connections_rejected;
}

uint64_t
peer_errors(void)
{
	struct rte_comch_dev_stats st;

	assert_int_equal(rte_comch_dev_stats_get(dpu, &st), 0);
	return st.peer_errors;
}

void
assert_server_running(void)
{
	enum rte_comch_ctx_state st;

	assert_int_equal(rte_comch_ctx_get_state(rte_comch_server_as_ctx(srv), &st), 0);
	assert_int_equal(st, RTE_COMCH_CTX_STATE_RUNNING);
}

int
raw_connect_try(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char sockdir[PATH_MAX];
	int fd, rc;

	snprintf(sockdir, sizeof(sockdir), "%s/%s", ct_dir(), raw_domain);
	if (shm_path(addr.sun_path, sizeof(addr.sun_path), sockdir, "pf0", SERVER_NAME,
		     "sock") < 0)
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

int
raw_connect(void)
{
	int fd = raw_connect_try();

	assert_true(fd >= 0);
	return fd;
}

/* What the server sent back: a message type, or 0 once it closed the socket. */
int
raw_reply(int fd, struct shm_msg *m, int *fds, unsigned int *nb_fds)
{
	unsigned int i;
	int rc;

	for (i = 0; i < 2000; i++) {
		pump(1);
		rc = shm_msg_recv(fd, m, fds, 4, nb_fds);
		if (rc == 0)
			return m->type;
		if (rc == -ECONNRESET)
			return 0;
		assert_int_equal(rc, -EAGAIN);
	}
	fail_msg("the server neither answered nor closed the socket");
	return -1;
}

void
raw_hello(int fd, uint32_t queue)
{
	struct shm_msg m;

	shm_msg_init(&m, SHM_MSG_HELLO);
	strlcpy(m.name, SERVER_NAME, sizeof(m.name));
	m.recv_queue_size = queue;
	assert_int_equal(shm_msg_send(fd, &m, NULL, 0), 0);
}

/* HELLO, then the server's ACCEPT: returns its ring's fds. */
void
raw_hello_accept(int fd, int *fds, struct shm_msg *accept)
{
	unsigned int nb_fds;

	raw_hello(fd, 8);
	assert_int_equal(raw_reply(fd, accept, fds, &nb_fds), SHM_MSG_ACCEPT);
	assert_int_equal(nb_fds, 2);
}

struct rte_comch_client *
raw_client_start(enum rte_comch_ctx_state until)
{
	struct rte_comch_client *cli;
	enum rte_comch_ctx_state st;
	int i;

	cli = rte_comch_client_create(host, SERVER_NAME);
	assert_non_null(cli);
	assert_int_equal(rte_comch_client_task_send_set_conf(cli, task_free_cb, task_free_cb, 4),
			 0);
	assert_int_equal(rte_comch_client_event_msg_recv_register(cli, cli_recv), 0);
	assert_int_equal(rte_comch_pe_connect_ctx(pe, rte_comch_client_as_ctx(cli)), 0);
	assert_int_equal(rte_comch_ctx_start(rte_comch_client_as_ctx(cli)), -EINPROGRESS);
	for (i = 0; i < 2000; i++) {
		pump(1);
		rte_comch_ctx_get_state(rte_comch_client_as_ctx(cli), &st);
		if (st == until)
			break;
	}
	assert_int_equal(st, until);
	return cli;
}

/* The well-behaved client: connect, send, get the echo back, stop. */
void
good_client_roundtrip(void)
{
	static const char text[] = "still alive?";
	struct rte_comch_connection *conn;
	struct rte_comch_task_send *t;
	struct rte_comch_client *cli;
	enum rte_comch_ctx_state st;
	unsigned int before = nb_server_msgs, echoes = nb_client_msgs;
	int i;

	cli = raw_client_start(RTE_COMCH_CTX_STATE_RUNNING);
	assert_int_equal(rte_comch_client_get_connection(cli, &conn), 0);
	assert_int_equal(rte_comch_client_task_send_alloc_init(cli, conn, text, sizeof(text), &t),
			 0);
	assert_int_equal(rte_comch_task_submit(rte_comch_task_send_as_task(t)), 0);
	for (i = 0; i < 2000 && nb_client_msgs == echoes; i++)
		pump(1);
	assert_int_equal(nb_server_msgs, before + 1);
	assert_int_equal(nb_client_msgs, echoes + 1);
	rte_comch_ctx_stop(rte_comch_client_as_ctx(cli));
	for (i = 0; i < 2000; i++) {
		pump(1);
		rte_comch_ctx_get_state(rte_comch_client_as_ctx(cli), &st);
		if (st == RTE_COMCH_CTX_STATE_IDLE)
			break;
	}
	assert_int_equal(st, RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(rte_comch_client_destroy(cli), 0);
	pump(2);
	assert_server_running();
}


void
raw_peer_connect(struct raw_peer *p)
{
	struct shm_msg m, accept;
	int sfds[4], fds[2];
	unsigned int i, before = nb_connects;

	p->fd = raw_connect();
	raw_hello_accept(p->fd, sfds, &accept);
	assert_int_equal(shm_ring_attach(&p->tx, sfds[0], sfds[1], accept.recv_queue_size,
					 accept.max_msg_size, false), 0);
	assert_int_equal(shm_ring_create(&p->rx, 8, accept.max_msg_size, false), 0);
	shm_msg_init(&m, SHM_MSG_READY);
	m.recv_queue_size = 8;
	fds[0] = p->rx.memfd;
	fds[1] = p->rx.peer_bell;
	assert_int_equal(shm_msg_send(p->fd, &m, fds, 2), 0);
	for (i = 0; i < 2000 && nb_connects == before; i++)
		pump(1);
	assert_int_equal(nb_connects, before + 1);
}

void
raw_peer_close(struct raw_peer *p)
{
	close(p->fd);
	shm_ring_release(&p->rx);
	shm_ring_release(&p->tx);
}

void
raw_peer_expect_dropped(struct raw_peer *p, uint64_t errors_before)
{
	unsigned int i, nb_fds;
	struct shm_msg m;
	int fds[4];

	last_disconnect = 1;
	for (i = 0; i < 2000 && last_disconnect == 1; i++)
		pump(1);
	assert_int_equal(last_disconnect, -EPROTO);
	assert_int_equal(peer_errors(), errors_before + 1);
	if (raw_reply(p->fd, &m, fds, &nb_fds) == SHM_MSG_BYE)
		assert_int_equal(m.status, EPROTO);
	close(p->fd);
	shm_ring_release(&p->rx);
	shm_ring_release(&p->tx);
	good_client_roundtrip();
}

int
raw_ctl_send_blob_try(int fd, enum comch_ctl_type type, uint32_t id,
		      const struct comch_ctl_msg *tmpl, const void *blob, uint32_t blob_len,
		      const int *fds, unsigned int nb_fds)
{
	struct comch_ctl_msg c = { 0 };
	struct shm_msg m;

	if (tmpl != NULL)
		c = *tmpl;
	c.version = COMCH_CTL_VERSION;
	c.type = type;
	c.id = id;
	shm_msg_init(&m, SHM_MSG_CTL);
	memcpy(m.ctl.msg, &c, sizeof(c));
	m.ctl_len = sizeof(c);
	if (blob_len != 0)
		memcpy(m.ctl.blob, blob, blob_len);
	m.blob_len = blob_len;
	return shm_msg_send(fd, &m, fds, nb_fds);
}

int
raw_ctl_send_try(int fd, enum comch_ctl_type type, uint32_t id, const struct comch_ctl_msg *tmpl,
		 const int *fds, unsigned int nb_fds)
{
	return raw_ctl_send_blob_try(fd, type, id, tmpl, NULL, 0, fds, nb_fds);
}

void
raw_ctl_send(int fd, enum comch_ctl_type type, uint32_t id, const struct comch_ctl_msg *tmpl,
	     const int *fds, unsigned int nb_fds)
{
	assert_int_equal(raw_ctl_send_try(fd, type, id, tmpl, fds, nb_fds), 0);
}

int
raw_ctl_reply_blob(int fd, struct comch_ctl_msg *c, uint8_t *blob, uint32_t *blob_len, int *fds,
		   unsigned int *nb_fds)
{
	struct shm_msg m;

	if (raw_reply(fd, &m, fds, nb_fds) != SHM_MSG_CTL)
		return 0;
	assert_int_equal(m.ctl_len, sizeof(*c));
	memcpy(c, m.ctl.msg, sizeof(*c));
	if (blob != NULL) {
		memcpy(blob, m.ctl.blob, m.blob_len);
		*blob_len = m.blob_len;
	}
	return c->type;
}

int
raw_ctl_reply(int fd, struct comch_ctl_msg *c, int *fds, unsigned int *nb_fds)
{
	return raw_ctl_reply_blob(fd, c, NULL, NULL, fds, nb_fds);
}

/* ------------------------------------------------------------ fast path */
int
sealed_memfd(size_t len, bool seal)
{
	int fd = memfd_create("raw", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, len), 0);
	if (seal)
		assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW), 0);
	return fd;
}

void *
map_fd(int fd, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	assert_true(p != MAP_FAILED);
	return p;
}

void
raw_consumer_init_chunks(struct raw_consumer *rc, bool seal_mem, uint32_t nb_chunks)
{
	struct shm_fp_hdr *hdr;

	rc->nb_chunks = nb_chunks;
	rc->ring_bytes = shm_fp_ring_bytes(NB_SLOTS, nb_chunks);
	rc->memfd = sealed_memfd(MEM_LEN, seal_mem);
	rc->ringfd = sealed_memfd(rc->ring_bytes, true);
	rc->mem = map_fd(rc->memfd, MEM_LEN);
	rc->ring = map_fd(rc->ringfd, rc->ring_bytes);
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
				    rc->bell), 0);
	hdr = (struct shm_fp_hdr *)(void *)rc->ring;
	hdr->magic = SHM_FP_MAGIC;
	hdr->version = SHM_PROTO_VERSION;
	hdr->nb_slots = NB_SLOTS;
	hdr->imm_len = 8;
	rc->posted = (uint32_t *)RTE_PTR_ADD(rc->ring, SHM_FP_POSTED_OFF);
	rc->posts = (struct shm_fp_post *)RTE_PTR_ADD(rc->ring, SHM_FP_POSTS_OFF);
	rc->slots = (struct shm_fp_slot *)RTE_PTR_ADD(rc->ring, shm_fp_slots_off(NB_SLOTS));
	rc->bounce = (uint8_t *)RTE_PTR_ADD(rc->ring, shm_fp_bounce_off(NB_SLOTS));
}

void
raw_consumer_init(struct raw_consumer *rc, bool seal_mem)
{
	raw_consumer_init_chunks(rc, seal_mem, 0);
}

void
raw_consumer_fini(struct raw_consumer *rc)
{
	munmap(rc->mem, MEM_LEN);
	munmap(rc->ring, rc->ring_bytes);
	close(rc->memfd);
	close(rc->ringfd);
	close(rc->bell[0]);
	close(rc->bell[1]);
}

/* NEW for a consumer of nb_posts buffers, with the three descriptors given. */
void
raw_announce_fds(int fd, uint32_t id, uint32_t nb_posts, const int *fds)
{
	struct comch_ctl_msg c = { .nb_posts = nb_posts, .imm_len = 8, .mem_len = MEM_LEN };

	raw_ctl_send(fd, COMCH_CTL_CONSUMER_NEW, id, &c, fds, 3);
}

int
raw_consumer_announce_try(int fd, const struct raw_consumer *rc, uint32_t id)
{
	struct comch_ctl_msg c = { .nb_posts = NB_SLOTS, .imm_len = 8, .mem_len = MEM_LEN };
	int fds[3] = { rc->memfd, rc->ringfd, rc->bell[1] };

	/* Its bounce chunks, if any: a blob of none says there are none, as 0 does. */
	return raw_ctl_send_blob_try(fd, COMCH_CTL_CONSUMER_NEW, id, &c, &rc->nb_chunks,
				     rc->nb_chunks != 0 ? sizeof(rc->nb_chunks) : 0, fds, 3);
}

void
raw_consumer_announce(struct raw_peer *p, struct raw_consumer *rc, uint32_t id)
{
	assert_int_equal(raw_consumer_announce_try(p->fd, rc, id), 0);
}

unsigned int
count_fds(void)
{
	struct dirent *de;
	unsigned int n = 0;
	DIR *d = opendir("/proc/self/fd");

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own */
}

void
raw_send_empty_with_fds(int fd, unsigned int nb_fds)
{
	unsigned int i;
	int fds[4];

	assert_true(nb_fds > 0 && nb_fds <= 4);
	for (i = 0; i < nb_fds; i++) {
		fds[i] = memfd_create("hostile", MFD_CLOEXEC);
		assert_true(fds[i] >= 0);
	}
	assert_int_equal(shm_sendmsg_fds(fd, NULL, 0, fds, nb_fds), 0);
	for (i = 0; i < nb_fds; i++)
		close(fds[i]);
}

int
raw_server_open(const char *domain, const char *dpu_args)
{
	snprintf(raw_domain, sizeof(raw_domain), "%s", domain);
	dpu = ct_dev_open("domain=%s,role=dpu%s%s", domain, *dpu_args != '\0' ? "," : "",
			  dpu_args);
	host = ct_dev_open("domain=%s,role=host", domain);
	rep = dpu != NULL ? rte_comch_dev_rep_open(dpu, "pf0") : NULL;
	srv = rep != NULL ? rte_comch_server_create(dpu, rep, SERVER_NAME) : NULL;
	pe = rte_comch_pe_create(RTE_COMCH_PE_LCORE_SELF);
	if (srv == NULL || host == NULL || pe == NULL ||
	    rte_comch_server_task_send_set_conf(srv, task_free_cb, task_free_cb, 64) != 0 ||
	    rte_comch_server_event_msg_recv_register(srv, srv_recv) != 0 ||
	    rte_comch_server_event_connection_status_changed_register(srv, srv_connect,
								      srv_disconnect) != 0 ||
	    rte_comch_server_event_consumer_register(srv, srv_new_consumer,
						     srv_expired_consumer) != 0 ||
	    rte_comch_pe_connect_ctx(pe, rte_comch_server_as_ctx(srv)) != 0 ||
	    rte_comch_ctx_start(rte_comch_server_as_ctx(srv)) != 0)
		return -1;
	return 0;
}

void
raw_server_save(struct raw_server *s)
{
	*s = (struct raw_server){ .dpu = dpu, .host = host, .rep = rep, .srv = srv, .pe = pe };
	strlcpy(s->domain, raw_domain, sizeof(s->domain));
	dpu = host = NULL;
	rep = NULL;
	srv = NULL;
	pe = NULL;
}

void
raw_server_restore(const struct raw_server *s)
{
	raw_server_close();
	dpu = s->dpu;
	host = s->host;
	rep = s->rep;
	srv = s->srv;
	pe = s->pe;
	strlcpy(raw_domain, s->domain, sizeof(raw_domain));
}

void
raw_server_close(void)
{
	rte_comch_ctx_stop(rte_comch_server_as_ctx(srv));
	pump(10);
	rte_comch_server_destroy(srv);
	rte_comch_pe_destroy(pe);
	rte_comch_dev_rep_close(rep);
	rte_comch_dev_close(dpu);
	rte_comch_dev_close(host);
}

int
setup(void **state)
{
	if (ct_group_setup(state) < 0)
		return -1;
	/* A bounce area whatever the architecture's default (none off x86). */
	return raw_server_open("hostile", "bounce=" RTE_STR(RAW_SERVER_BOUNCE));
}

int
teardown(void **state)
{
	raw_server_close();
	return ct_group_teardown(state);
}

static void
reset_counts(void)
{
	nb_connects = 0;
	nb_server_msgs = 0;
	last_new_consumer = -1;
	last_expired_consumer = -1;
}

int
before_each(void **state)
{
	reset_counts();
	return 0;
}
