/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * What a peer's consumers may make a server hold: descriptors and mapped bytes
 * per connection (shm's max_peer_fds, max_peer_map), per peer process and for
 * all peers of the device (max_proc_*, max_dev_*), descriptors left free in
 * the process (fd_reserve), and the number of consumers (the library's
 * max_peer_consumers). A raw peer announces consumers until one is refused:
 * the refusal says which budget, the device counts it, the connection stays,
 * nothing leaks, and an honest client is still served.
 *
 * A hostile process (a forked raw peer, so that the server sees another pid)
 * opens many connections and announces many consumers on each: it is held to
 * its process's budgets, and others are still served.
 *
 * At thousands of open descriptors, the fd_reserve budget does not scan them
 * at every import.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <bsd/string.h>

#include <rte_cycles.h>
#include <rte_log.h>

#include "comch_test_common.h"
#include "shm_raw_peer.h"

static uint64_t
budget_refusals(void)
{
	struct rte_comch_dev_stats st;

	assert_int_equal(rte_comch_dev_stats_get(dpu, &st), 0);
	return st.budget_refusals;
}

/*
 * On a server opened with dpu_args: nb_ok consumers are taken, the next is
 * refused with status.
 */
static void
budget_case_chunks(const char *domain, const char *dpu_args, unsigned int nb_ok, int status,
		   uint32_t nb_chunks)
{
	struct raw_consumer rc[8];
	struct comch_ctl_msg c;
	unsigned int i, nb_fds, fds_before;
	struct raw_peer p;
	int fds[4];

	assert_true(nb_ok < RTE_DIM(rc));
	fds_before = count_fds();
	assert_int_equal(raw_server_open(domain, dpu_args), 0);
	last_disconnect = 1;
	raw_peer_connect(&p);
	for (i = 0; i <= nb_ok; i++) {
		raw_consumer_init_chunks(&rc[i], true, nb_chunks);
		raw_consumer_announce(&p, &rc[i], i + 1); /* ids start at 1 */
		if (i < nb_ok) {
			assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds),
					 COMCH_CTL_CONSUMER_READY);
			continue;
		}
		assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds),
				 COMCH_CTL_CONSUMER_REFUSED);
		assert_int_equal(c.id, i + 1);
		assert_int_equal(c.status, status);
	}
	/* The device counts the refusal, whichever budget it was, until a reset. */
	assert_int_equal(budget_refusals(), 1);
	assert_int_equal(rte_comch_dev_stats_reset(dpu), 0);
	assert_int_equal(budget_refusals(), 0);
	/* Refused, not dropped: the connection still carries messages. */
	pump(5);
	assert_int_equal(last_disconnect, 1);
	assert_int_equal(peer_errors(), 0);
	good_client_roundtrip();
	raw_peer_close(&p);
	for (i = 0; i <= nb_ok; i++)
		raw_consumer_fini(&rc[i]);
	pump(20);
	raw_server_close();
	/* The devices' descriptors, the peer's doorbells and sockets: all gone. */
	assert_int_equal(count_fds(), fds_before);
}

static void
budget_case(const char *domain, const char *dpu_args, unsigned int nb_ok, int status)
{
	budget_case_chunks(domain, dpu_args, nb_ok, status, 0);
}

/* Each consumer holds a descriptor (its doorbell): two fit in max_peer_fds=2. */
static void
test_budget_descriptors(void **state)
{
	budget_case("bfds", "max_peer_fds=2", 2, EMFILE);
}

/* 64 KiB of memory and a 4 KiB post ring each: two fit in 150 KiB, not three. */
static void
test_budget_mapped_bytes(void **state)
{
	budget_case("bmap", "max_peer_map=150K", 2, ENOSPC);
}

/*
 * A bounce area is mapped with its post ring, and counted: 64 KiB of memory
 * and a post ring of 4 + 64 KiB (16 chunks) each, one fits in 150 KiB.
 */
static void
test_budget_mapped_bounce(void **state)
{
	budget_case_chunks("bbnc", "max_peer_map=150K", 1, ENOSPC, 16);
}

/* A reserve as large as the process's limit: no consumer of the peer fits. */
static void
test_budget_fd_reserve(void **state)
{
	budget_case("bres", "fd_reserve=1048576", 0, EMFILE);
}

/* The library's budget, for every driver: consumers per connection. */
static void
test_budget_consumers(void **state)
{
	budget_case("bcons", "max_peer_consumers=3", 3, ENOSPC);
}

/* The budgets of a peer process and of the device bind one connection too. */
static void
test_budget_proc_descriptors(void **state)
{
	budget_case("bpfds", "max_proc_fds=2", 2, EMFILE);
}

static void
test_budget_proc_mapped_bytes(void **state)
{
	budget_case("bpmap", "max_proc_map=150K", 2, ENOSPC);
}

static void
test_budget_dev_descriptors(void **state)
{
	budget_case("bdfds", "max_dev_fds=3", 3, EMFILE);
}

static void
test_budget_dev_mapped_bytes(void **state)
{
	budget_case("bdmap", "max_dev_map=220K", 3, ENOSPC);
}

/*
 * A process's connections past max_proc_conns: a client of the library is
 * refused at its HELLO, for good (-ECONNREFUSED), and counted; once the
 * process's other connection ends, it connects.
 */
static void
test_budget_proc_connections(void **state)
{
	struct rte_comch_client *cli;
	struct raw_peer p;

	assert_int_equal(raw_server_open("bconn", "max_proc_conns=1"), 0);
	raw_peer_connect(&p);
	cli = raw_client_start(RTE_COMCH_CTX_STATE_IDLE);
	assert_int_equal(rte_comch_ctx_get_last_error(rte_comch_client_as_ctx(cli)),
			 -ECONNREFUSED);
	assert_int_equal(rte_comch_client_destroy(cli), 0);
	pump(5);
	assert_int_equal(budget_refusals(), 1);
	assert_int_equal(rejected(), 1);
	assert_server_running();
	raw_peer_close(&p);
	pump(20);
	good_client_roundtrip();
	raw_server_close();
}

/* ------------------------------------------------------------ a hostile process */

/* What the hostile process met, for its parent. */
struct hostile_report {
	uint32_t conns_up, conns_refused;
	uint32_t ready, refused_emfile, refused_enospc;
	uint32_t errors;      /* anything else: no answer, or another one */
};

/* In the hostile process: until fd is readable (the parent's engine answers), 10 s at most. */
static int
child_readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 10000) == 1 ? 0 : -1;
}

/*
 * In the hostile process: the handshake of p, without cmocka (a failed
 * assertion would run the rest of the suite in the child) and without progress
 * (the parent's engine answers). 1: up; 0: refused (REJECT, ECONNREFUSED); -1.
 */
static int
child_connect(struct raw_peer *p)
{
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[4];

	p->fd = raw_connect_try();
	if (p->fd < 0)
		return -1;
	shm_msg_init(&m, SHM_MSG_HELLO);
	strlcpy(m.name, SERVER_NAME, sizeof(m.name));
	m.recv_queue_size = 8;
	(void)shm_msg_send(p->fd, &m, NULL, 0); /* a refusal may have closed it already */
	if (child_readable(p->fd) < 0 || shm_msg_recv(p->fd, &m, fds, 4, &nb_fds) < 0)
		return -1;
	if (m.type == SHM_MSG_REJECT)
		return m.status == ECONNREFUSED ? 0 : -1;
	if (m.type != SHM_MSG_ACCEPT || nb_fds != 2 ||
	    shm_ring_attach(&p->tx, fds[0], fds[1], m.recv_queue_size, m.max_msg_size,
			    false) < 0 ||
	    shm_ring_create(&p->rx, 8, m.max_msg_size, false) < 0)
		return -1;
	shm_msg_init(&m, SHM_MSG_READY);
	m.recv_queue_size = 8;
	fds[0] = p->rx.memfd;
	fds[1] = p->rx.peer_bell;
	return shm_msg_send(p->fd, &m, fds, 2) == 0 ? 1 : -1;
}

/* In the hostile process: announce rc as consumer id on p; count the answer in r. */
static void
child_announce(struct raw_peer *p, const struct raw_consumer *rc, uint32_t id,
	       struct hostile_report *r)
{
	struct comch_ctl_msg c;
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[4];

	if (raw_consumer_announce_try(p->fd, rc, id) < 0 || child_readable(p->fd) < 0 ||
	    shm_msg_recv(p->fd, &m, fds, 4, &nb_fds) < 0 || m.type != SHM_MSG_CTL ||
	    m.ctl_len != sizeof(c)) {
		r->errors++;
		return;
	}
	memcpy(&c, m.ctl.msg, sizeof(c));
	if (c.type == COMCH_CTL_CONSUMER_READY)
		r->ready++;
	else if (c.type == COMCH_CTL_CONSUMER_REFUSED && c.status == EMFILE)
		r->refused_emfile++;
	else if (c.type == COMCH_CTL_CONSUMER_REFUSED && c.status == ENOSPC)
		r->refused_enospc++;
	else
		r->errors++;
}

#define HOSTILE_MAX_CONNS 64

/*
 * The hostile process: nb_conns connections, nb_cons consumers announced on
 * each that is up (all with rc's descriptors), a report to its parent; then
 * it holds everything until its parent closes go_fd.
 */
static void
hostile_child(unsigned int nb_conns, unsigned int nb_cons, const struct raw_consumer *rc,
	      int report_fd, int go_fd)
{
	static struct raw_peer p[HOSTILE_MAX_CONNS];
	struct hostile_report r = { 0 };
	unsigned int i, k;
	char c;

	for (i = 0; i < nb_conns; i++) {
		switch (child_connect(&p[i])) {
		case 1:
			r.conns_up++;
			for (k = 0; k < nb_cons; k++)
				child_announce(&p[i], rc, k + 1, &r);
			break;
		case 0:
			r.conns_refused++;
			break;
		default:
			r.errors++;
		}
	}
	if (write(report_fd, &r, sizeof(r)) != sizeof(r))
		_exit(2);
	(void)!read(go_fd, &c, 1);
	_exit(0);
}

struct hostile {
	pid_t pid;
	int report_fd, go_fd;
	struct hostile_report r;
};

/* Fork the hostile process, and serve it until it reports. */
static void
hostile_run(struct hostile *h, unsigned int nb_conns, unsigned int nb_cons,
	    const struct raw_consumer *rc)
{
	struct pollfd pfd = { .events = POLLIN };
	int rp[2], gp[2];
	unsigned int i;

	assert_true(nb_conns <= HOSTILE_MAX_CONNS);
	assert_int_equal(pipe2(rp, O_CLOEXEC), 0);
	assert_int_equal(pipe2(gp, O_CLOEXEC), 0);
	fflush(NULL);
	h->pid = fork();
	assert_true(h->pid >= 0);
	if (h->pid == 0) {
		close(rp[0]);
		close(gp[1]);
		hostile_child(nb_conns, nb_cons, rc, rp[1], gp[0]);
	}
	close(rp[1]);
	close(gp[0]);
	h->report_fd = rp[0];
	h->go_fd = gp[1];
	pfd.fd = h->report_fd;
	for (i = 0; i < 60000 && poll(&pfd, 1, 0) == 0; i++)
		pump(1);
	assert_int_equal(read(h->report_fd, &h->r, sizeof(h->r)), sizeof(h->r));
}

/* Let the hostile process go, and serve until it is gone. */
static void
hostile_end(struct hostile *h)
{
	int status = -1;
	unsigned int i;

	close(h->go_fd);
	for (i = 0; i < 10000 && waitpid(h->pid, &status, WNOHANG) == 0; i++)
		pump(1);
	close(h->report_fd);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	pump(50);
}

/*
 * Mappings of memfds in this process, as /proc/self/maps lists them: what
 * rings and consumers cost (a sanitizer's own shadow mappings are anonymous).
 */
static unsigned int
count_memfd_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned int n = 0;
	char line[512];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL)
		n += strstr(line, "/memfd:") != NULL;
	fclose(f);
	return n;
}

/*
 * A process with 12 connections of 4 consumers each, against a server that
 * lets one process have 8 connections and 20 consumers' descriptors: 4
 * connections are refused, and 12 consumers, whatever connection they came
 * on; the descriptors and mappings the server holds for it stay within its
 * budgets; the device counts each refusal; other processes (this one) still
 * connect and have their consumers taken.
 */
static void
test_budget_hostile_process(void **state)
{
	struct raw_consumer rc, ours;
	unsigned int fds_before, maps_before, nb_fds, fds_held, maps_held;
	uint64_t refused_before;
	struct comch_ctl_msg c;
	struct hostile h;
	struct raw_peer p;
	int fds[4];

	assert_int_equal(raw_server_open("bhost", "max_proc_conns=8,max_proc_fds=20"), 0);
	raw_consumer_init(&rc, true);
	refused_before = budget_refusals();
	fds_before = count_fds();
	maps_before = count_memfd_maps();
	hostile_run(&h, 12, 4, &rc);
	assert_int_equal(h.r.errors, 0);
	assert_int_equal(h.r.conns_up, 8);
	assert_int_equal(h.r.conns_refused, 4);
	assert_int_equal(h.r.ready, 20);
	assert_int_equal(h.r.refused_emfile, 12);
	assert_int_equal(h.r.refused_enospc, 0);
	pump(20);
	assert_int_equal(budget_refusals(), refused_before + 4 + 12);
	/*
	 * Each connection costs its socket and two doorbells, and its two rings'
	 * mappings; each consumer its doorbell and two mappings (the hostile
	 * process holds the rest: none of it is ours).
	 */
	fds_held = count_fds() - fds_before - 2; /* but our ends of the pipes to it */
	maps_held = count_memfd_maps() - maps_before;
	print_message("  the server holds %u descriptors and %u mappings for the hostile "
		      "process\n", fds_held, maps_held);
	assert_true(fds_held <= 8 * 3 + 20);
	assert_true(maps_held <= 8 * 2 + 20 * 2);
	/* Others are served: a client, and a peer announcing a consumer. */
	good_client_roundtrip();
	raw_consumer_init(&ours, true);
	raw_peer_connect(&p);
	raw_consumer_announce(&p, &ours, 1);
	assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds), COMCH_CTL_CONSUMER_READY);
	raw_peer_close(&p);
	raw_consumer_fini(&ours);
	hostile_end(&h);
	/* Everything held for it went with it. */
	assert_int_equal(count_fds(), fds_before);
	raw_consumer_fini(&rc);
	raw_server_close();
}

/*
 * The device's budget bounds all its peers together: a hostile process takes
 * 3 consumers (its own budget), which leaves this process 2 of the device's 5.
 */
static void
test_budget_device_total(void **state)
{
	struct raw_consumer rc, ours;
	struct comch_ctl_msg c;
	unsigned int i, nb_fds;
	struct hostile h;
	struct raw_peer p;
	int fds[4];

	assert_int_equal(raw_server_open("bdev", "max_proc_fds=3,max_dev_fds=5"), 0);
	raw_consumer_init(&rc, true);
	hostile_run(&h, 2, 2, &rc);
	assert_int_equal(h.r.errors, 0);
	assert_int_equal(h.r.conns_up, 2);
	assert_int_equal(h.r.ready, 3);
	assert_int_equal(h.r.refused_emfile, 1);
	raw_consumer_init(&ours, true);
	raw_peer_connect(&p);
	for (i = 1; i <= 3; i++) {
		raw_consumer_announce(&p, &ours, i);
		assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds),
				 i < 3 ? COMCH_CTL_CONSUMER_READY : COMCH_CTL_CONSUMER_REFUSED);
	}
	assert_int_equal(c.status, EMFILE);
	assert_int_equal(budget_refusals(), 2);
	/* Once the hostile process is gone, its share is free again. */
	hostile_end(&h);
	raw_consumer_announce(&p, &ours, 3);
	assert_int_equal(raw_ctl_reply(p.fd, &c, fds, &nb_fds), COMCH_CTL_CONSUMER_READY);
	raw_peer_close(&p);
	raw_consumer_fini(&ours);
	raw_consumer_fini(&rc);
	pump(20);
	raw_server_close();
}

/* ------------------------------------------------------------ descriptors */

#define SPARE_FDS 5000
#define NB_IMPORTS 200

/*
 * With 5,000 descriptors open, 200 consumers are imported with no more scans
 * of /proc/self/fd (2 ms each at that count) than one per 100 ms, and at
 * least one: the driver counts the descriptors it keeps, and logs each scan
 * at DEBUG level, which this test reads.
 */
static void
test_budget_fd_scans_rare(void **state)
{
	unsigned int i, nb_fds, scans = 0, fds_before;
	struct rlimit saved, rl;
	struct raw_consumer rc;
	struct comch_ctl_msg c;
	uint64_t start, elapsed_ms;
	char *log = NULL, *at;
	size_t log_len = 0;
	struct raw_peer p;
	int *spare, fds[4];
	FILE *f;

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < SPARE_FDS + 2000)
		skip(); /* no room for thousands of descriptors */
	rl = saved;
	rl.rlim_cur = saved.rlim_max == RLIM_INFINITY ? SPARE_FDS + 20000 : saved.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	fds_before = count_fds();
	spare = calloc(SPARE_FDS, sizeof(*spare));
	assert_non_null(spare);
	for (i = 0; i < SPARE_FDS; i++) {
		spare[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		assert_true(spare[i] >= 0);
	}
	assert_int_equal(raw_server_open("bscan", "max_peer_consumers=256,max_peer_fds=256"), 0);
	raw_consumer_init(&rc, true);
	raw_peer_connect(&p);
	f = open_memstream(&log, &log_len);
	assert_non_null(f);
	assert_int_equal(rte_openlog_stream(f), 0);
	assert_int_equal(rte_log_set_level_pattern("pmd.comch.shm", RTE_LOG_DEBUG), 0);
	start = rte_rdtsc();
	for (i = 1; i <= NB_IMPORTS; i++) {
		raw_consumer_announce(&p, &rc, i);
		if (raw_ctl_reply(p.fd, &c, fds, &nb_fds) != COMCH_CTL_CONSUMER_READY)
			break;
	}
	elapsed_ms = (rte_rdtsc() - start) * 1000 / rte_get_tsc_hz();
	rte_log_set_level_pattern("pmd.comch.shm", RTE_LOG_NOTICE);
	rte_openlog_stream(NULL);
	fclose(f);
	for (at = log; (at = strstr(at, "shm_fds_scan()")) != NULL; at++)
		scans++;
	free(log);
	print_message("  %u imports at %u open descriptors in %" PRIu64 " ms: %u scans\n",
		      i - 1, SPARE_FDS + fds_before, elapsed_ms, scans);
	assert_int_equal(i, NB_IMPORTS + 1);
	assert_true(scans >= 1);
	assert_true(scans <= 1 + elapsed_ms / 100);
	raw_peer_close(&p);
	raw_consumer_fini(&rc);
	pump(20);
	raw_server_close();
	for (i = 0; i < SPARE_FDS; i++)
		close(spare[i]);
	free(spare);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	assert_int_equal(count_fds(), fds_before);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_budget_descriptors, before_each),
		cmocka_unit_test_setup(test_budget_mapped_bytes, before_each),
		cmocka_unit_test_setup(test_budget_mapped_bounce, before_each),
		cmocka_unit_test_setup(test_budget_fd_reserve, before_each),
		cmocka_unit_test_setup(test_budget_consumers, before_each),
		cmocka_unit_test_setup(test_budget_proc_descriptors, before_each),
		cmocka_unit_test_setup(test_budget_proc_mapped_bytes, before_each),
		cmocka_unit_test_setup(test_budget_dev_descriptors, before_each),
		cmocka_unit_test_setup(test_budget_dev_mapped_bytes, before_each),
		cmocka_unit_test_setup(test_budget_proc_connections, before_each),
		cmocka_unit_test_setup(test_budget_hostile_process, before_each),
		cmocka_unit_test_setup(test_budget_device_total, before_each),
		cmocka_unit_test_setup(test_budget_fd_scans_rare, before_each),
	};

	if (getenv("COMCH_TEST_FILTER") != NULL)
		cmocka_set_test_filter(getenv("COMCH_TEST_FILTER"));
	return cmocka_run_group_tests_name("shm budgets", tests, ct_group_setup,
					   ct_group_teardown);
}
