/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * A hostile or broken peer against a real shm server: this test speaks the wire
 * protocol by hand (bad versions, wrong sizes, unsealed or wrong-size memory,
 * fake doorbells, lying ring indexes and lengths) and checks that the server
 * refuses or drops it with the documented reason, counts it, keeps running, and
 * still serves a well-behaved client afterwards.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include <bsd/string.h>

#include "shm_raw_peer.h"

/* The library's time limit of a handshake. */
#define HANDSHAKE_TIMEOUT_MS 2000

static void
test_bad_version(void **state)
{
	uint64_t before = rejected();
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[4], fd;

	fd = raw_connect();
	shm_msg_init(&m, SHM_MSG_HELLO);
	m.version = SHM_PROTO_VERSION + 7;
	strlcpy(m.name, SERVER_NAME, sizeof(m.name));
	m.recv_queue_size = 8;
	assert_int_equal(shm_msg_send(fd, &m, NULL, 0), 0);
	assert_int_equal(raw_reply(fd, &m, fds, &nb_fds), 0);
	assert_int_equal(rejected(), before + 1);
	close(fd);
	good_client_roundtrip();
}

static void
test_short_message(void **state)
{
	uint64_t before = rejected();
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[4], fd;

	fd = raw_connect();
	assert_int_equal(send(fd, "CMCH", 4, 0), 4);
	assert_int_equal(raw_reply(fd, &m, fds, &nb_fds), 0);
	assert_int_equal(rejected(), before + 1);
	close(fd);
	good_client_roundtrip();
}

static void
test_name_without_nul(void **state)
{
	uint64_t before = rejected();
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[4], fd;

	fd = raw_connect();
	shm_msg_init(&m, SHM_MSG_HELLO);
	memset(m.name, 'v', sizeof(m.name));
	m.recv_queue_size = 8;
	assert_int_equal(shm_msg_send(fd, &m, NULL, 0), 0);
	assert_int_equal(raw_reply(fd, &m, fds, &nb_fds), SHM_MSG_REJECT);
	assert_int_equal(m.status, ENOENT);
	assert_int_equal(rejected(), before + 1);
	close(fd);
	good_client_roundtrip();
}

static void
test_queue_out_of_range(void **state)
{
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[4], fd;

	fd = raw_connect();
	raw_hello(fd, SHM_MAX_RECV_QUEUE + 1);
	assert_int_equal(raw_reply(fd, &m, fds, &nb_fds), SHM_MSG_REJECT);
	assert_int_equal(m.status, EPROTO);
	close(fd);
	good_client_roundtrip();
}

/* READY carrying the given descriptors instead of a proper ring. */
static void
ready_with(int memfd, int efd)
{
	uint64_t before = rejected();
	struct shm_msg m, accept;
	unsigned int nb_fds;
	int sfds[4], fds[2] = { memfd, efd };
	int fd;

	fd = raw_connect();
	raw_hello_accept(fd, sfds, &accept);
	shm_close_fds(sfds, 2);
	shm_msg_init(&m, SHM_MSG_READY);
	m.recv_queue_size = 8;
	assert_int_equal(shm_msg_send(fd, &m, fds, 2), 0);
	/* A BYE(EPROTO), then the close; or straight the close. */
	if (raw_reply(fd, &m, sfds, &nb_fds) == SHM_MSG_BYE)
		assert_int_equal(m.status, EPROTO);
	assert_int_equal(rejected(), before + 1);
	assert_int_equal(nb_connects, 0);
	close(fd);
	close(memfd);
	close(efd);
	good_client_roundtrip();
	nb_connects = 0;
}

static void
test_ready_pipe_instead_of_memfd(void **state)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	close(p[1]);
	ready_with(p[0], eventfd(0, EFD_CLOEXEC));
}

static void
test_ready_unsealed_memfd(void **state)
{
	struct shm_ring r;
	int memfd;

	/* Right size, but the peer could still shrink it under us. */
	assert_int_equal(shm_ring_create(&r, 8, RTE_COMCH_DEFAULT_MSG_SIZE, false), 0);
	memfd = memfd_create("unsealed", MFD_CLOEXEC);
	assert_int_equal(ftruncate(memfd, r.bytes), 0);
	shm_ring_release(&r);
	ready_with(memfd, eventfd(0, EFD_CLOEXEC));
}

/* Take what waits in rx, checking it is message seq, seq + 1, ...: how many. */
static int
wrap_take(struct shm_ring *rx, uint64_t *seq)
{
	struct rte_comch_drv_msg msgs[32];
	int i, n = shm_ring_rx_peek(rx, msgs, RTE_DIM(msgs));

	for (i = 0; i < n; i++) {
		assert_int_equal(msgs[i].len, sizeof(*seq));
		assert_memory_equal(msgs[i].data, seq, sizeof(*seq));
		(*seq)++;
	}
	if (n > 0)
		shm_ring_rx_release(rx, n);
	return n;
}

/*
 * The 32-bit message index wraps after 2^32 messages (minutes at full speed):
 * the sequence numbers must keep telling written slots from unwritten ones.
 * Both ends of one ring, white-box, started a few messages before the wrap
 * with the slots as the lap before would have left them.
 */
static void
test_ring_index_wraps(void **state)
{
	const uint32_t start = UINT32_MAX - 11;
	uint64_t sent = 0, expect = 0;
	struct shm_ring rx, tx;
	uint32_t i, lap, n;
	int rc;

	assert_int_equal(shm_ring_create(&rx, 8, 64, false), 0);
	assert_int_equal(shm_ring_attach(&tx, dup(rx.memfd), dup(rx.peer_bell), 8, 64, false), 0);
	lap = rx.mask + 1;
	for (i = start - lap; i != start; i++)
		*(uint32_t *)(rx.base + SHM_RING_SLOTS_OFF + (size_t)(i & rx.mask) * rx.slot_size +
			      SHM_SLOT_SEQ) = i + 1;
	rx.head = start;
	*rx.cons = start;
	tx.head = tx.seen = tx.done = start;
	for (i = 0; i < 64; i++) {
		/* An empty slot first: it must read as "not yet", not as a lie. */
		assert_int_equal(wrap_take(&rx, &expect), 0);
		assert_int_equal(shm_ring_send(&tx, &sent, sizeof(sent)), 0);
		sent++;
		rc = wrap_take(&rx, &expect);
		assert_int_equal(rc, 1);
		assert_int_equal(shm_ring_tx_reap(&tx, &n), 0);
		assert_int_equal(n, 1);
	}
	assert_int_equal(expect, 64);
	assert_true(rx.head < start); /* it did wrap */
	shm_ring_release(&tx);
	shm_ring_release(&rx);
}

/*
 * Messages above 4 KiB through the sender's copy pick, both ends white-box:
 * with nt_auto, the ordinary copy's first turn, then a probe of the other
 * way; every message arrives whole whichever way copied it. Up to 4 KiB, or
 * with nt_min 0, none goes through the pick.
 */
static void
test_ring_copy_pick(void **state)
{
	static uint8_t msg[8192];
	struct rte_comch_drv_msg got[2];
	struct shm_ring rx, tx;
	uint32_t i, j, len, n, large = 0;

	(void)state;
	assert_int_equal(shm_ring_create(&rx, 8, sizeof(msg), false), 0);
	assert_int_equal(shm_ring_attach(&tx, dup(rx.memfd), dup(rx.peer_bell), 8, sizeof(msg),
					 false), 0);
	/* Attached, or nt_min 0: no pick; below the flush's range, it starts above it. */
	assert_true(tx.nt_min == SIZE_MAX);
	shm_ring_set_copy(&tx, 0, true);
	assert_true(tx.nt_min == SIZE_MAX);
	shm_ring_set_copy(&tx, 1, true);
	assert_int_equal(tx.nt_min, SHM_FLUSH_MAX + 1);
	for (i = 0; large < SHM_COPY_EPOCH + SHM_COPY_PROBE + 8; i++) {
		/* Every 8th of 4 KiB: the pick must not count it. */
		len = i % 8 == 0 ? SHM_FLUSH_MAX : 4097 + (i * 131) % (sizeof(msg) - 4097 + 1);
		large += len > SHM_FLUSH_MAX;
		for (j = 0; j < len; j++)
			msg[j] = (uint8_t)(i * 7 + j);
		assert_int_equal(shm_ring_send(&tx, msg, len), 0);
		assert_int_equal(shm_ring_rx_peek(&rx, got, RTE_DIM(got)), 1);
		assert_int_equal(got[0].len, len);
		assert_memory_equal(got[0].data, msg, len);
		shm_ring_rx_release(&rx, 1);
		assert_int_equal(shm_ring_tx_reap(&tx, &n), 0);
		assert_int_equal(n, 1);
	}
	/*
	 * The large sends, and they alone, made a whole turn and probe and 8 sends
	 * of the next turn: the other way won and copies now, or it lost and the
	 * ordinary copy's turn doubled.
	 */
	assert_true((tx.pick.way == SHM_COPY_NT && tx.pick.epoch == SHM_COPY_EPOCH) ||
		    (tx.pick.way == SHM_COPY_ORDINARY && tx.pick.epoch == 2 * SHM_COPY_EPOCH));
	assert_false(tx.pick.probing);
	assert_int_equal(tx.pick.left, tx.pick.epoch - 8);
	shm_ring_release(&tx);
	shm_ring_release(&rx);
}

/*
 * A stream's polls leave the consumer index (the peer's line) alone until half
 * the ring is in flight; a poll with nothing sent since reads it, and so does
 * one that must count everything (the peer ended).
 */
static void
test_ring_reap_lazily(void **state)
{
	uint64_t sent = 0, expect = 0;
	struct shm_ring rx, tx;
	uint32_t i, n;

	(void)state;
	assert_int_equal(shm_ring_create(&rx, 8, 64, false), 0);
	assert_int_equal(shm_ring_attach(&tx, dup(rx.memfd), dup(rx.peer_bell), 8, 64, false), 0);
	assert_int_equal(shm_ring_send(&tx, &sent, sizeof(sent)), 0);
	sent++;
	assert_int_equal(wrap_take(&rx, &expect), 1);
	/* sent since the last poll, 1 of 8 in flight: not read yet */
	assert_int_equal(shm_ring_tx_poll(&tx, false, &n), 0);
	assert_int_equal(n, 0);
	/* nothing sent since: read */
	assert_int_equal(shm_ring_tx_poll(&tx, false, &n), 0);
	assert_int_equal(n, 1);
	/* half the ring in flight: read even right after a send */
	for (i = 0; i < 4; i++, sent++)
		assert_int_equal(shm_ring_send(&tx, &sent, sizeof(sent)), 0);
	assert_int_equal(wrap_take(&rx, &expect), 4);
	assert_int_equal(shm_ring_tx_poll(&tx, false, &n), 0);
	assert_int_equal(n, 4);
	/* the peer's end: everything it took counts at once */
	assert_int_equal(shm_ring_send(&tx, &sent, sizeof(sent)), 0);
	assert_int_equal(wrap_take(&rx, &expect), 1);
	assert_int_equal(shm_ring_tx_poll(&tx, true, &n), 0);
	assert_int_equal(n, 1);
	shm_ring_release(&tx);
	shm_ring_release(&rx);
}

/* Whether rx's doorbell was rung (and empty it). */
static bool
bell_rung(const struct shm_ring *rx)
{
	char buf[16];

	return recv(rx->bell.fd, buf, sizeof(buf), MSG_DONTWAIT) > 0;
}

/* A sender wakes an armed receiver at its round's end: fenced or on the receiver's membarrier. */
static void
check_ring_wakes(struct shm_ring *rx, struct shm_ring *tx)
{
	struct shm_ring none = { .ack_kick = SHM_ACK_NONE };
	uint64_t msg = 7;

	assert_int_equal(shm_ring_send(tx, &msg, sizeof(msg)), 0);
	shm_ring_pair_kick(&none, tx);
	assert_false(bell_rung(rx)); /* a polling receiver is not rung */
	comch_store_relaxed(rx->armed, 1);
	assert_int_equal(shm_ring_send(tx, &msg, sizeof(msg)), 0);
	shm_ring_pair_kick(&none, tx);
	assert_true(bell_rung(rx));
	comch_store_relaxed(rx->armed, 0);
}

/*
 * The receiver says in its ring's header whether it issues membarrier before
 * it sleeps; its sender skips its fence only then (and only if its own
 * process is registered). A header without the flag gets the fence, and
 * either way an armed receiver is rung.
 */
static void
test_ring_doorbell_barrier(void **state)
{
	struct shm_ring rx, tx, tx_old;
	struct shm_ring_hdr *hdr;

	(void)state;
	assert_int_equal(shm_ring_create(&rx, 8, 64, false), 0);
	hdr = (struct shm_ring_hdr *)(void *)rx.base;
	assert_int_equal(hdr->flags, rx.membarrier ? SHM_RING_F_MEMBARRIER : 0);
	assert_int_equal(shm_ring_attach(&tx, dup(rx.memfd), dup(rx.peer_bell), 8, 64, false), 0);
	assert_int_equal(tx.fence, !rx.membarrier);
	check_ring_wakes(&rx, &tx);
	/* a peer that does not say it (an older one, or one that cannot register) */
	hdr->flags = 0;
	assert_int_equal(shm_ring_attach(&tx_old, dup(rx.memfd), dup(rx.peer_bell), 8, 64,
					 false), 0);
	assert_true(tx_old.fence);
	check_ring_wakes(&rx, &tx_old);
	shm_ring_release(&tx_old);
	shm_ring_release(&tx);
	shm_ring_release(&rx);
}

/*
 * A consumer drops from its cache the message a buffer held when that buffer
 * is posted again, if the message was SHM_FLUSH_MIN to SHM_FLUSH_MAX bytes;
 * not for another buffer, nor a message inline in the slot (filled 0).
 */
static void
test_consumer_flush_len(void **state)
{
	static uint8_t buf[2][SHM_FLUSH_MAX * 2];
	struct shm_posted old = { .addr = buf[0], .len = sizeof(buf[0]) };
	struct rte_comch_fp_post same = { .addr = buf[0], .len = sizeof(buf[0]) };
	struct rte_comch_fp_post other = { .addr = buf[1], .len = sizeof(buf[1]) };

	(void)state;
	old.filled = SHM_FLUSH_MIN;
	assert_int_equal(shm_flush_len(&old, &same), SHM_FLUSH_MIN);
	old.filled = SHM_FLUSH_MAX;
	assert_int_equal(shm_flush_len(&old, &same), SHM_FLUSH_MAX);
	assert_int_equal(shm_flush_len(&old, &other), 0);
	old.filled = SHM_FLUSH_MIN - 1;
	assert_int_equal(shm_flush_len(&old, &same), 0);
	old.filled = SHM_FLUSH_MAX + 1;
	assert_int_equal(shm_flush_len(&old, &same), 0);
	old.filled = 0;
	assert_int_equal(shm_flush_len(&old, &same), 0);
	/* a slot never posted */
	memset(&old, 0, sizeof(old));
	same.addr = NULL;
	assert_int_equal(shm_flush_len(&old, &same), 0);
}

static void
test_ready_wrong_size(void **state)
{
	struct shm_ring r;

	/* A sealed ring made for 4 messages, announced as 8. */
	assert_int_equal(shm_ring_create(&r, 4, RTE_COMCH_DEFAULT_MSG_SIZE, false), 0);
	ready_with(dup(r.memfd), dup(r.peer_bell));
	shm_ring_release(&r);
}

static void
test_ready_eventfd_doorbell(void **state)
{
	struct shm_ring r;

	/*
	 * An eventfd shares its blocking flag with whoever holds it: a peer could
	 * make our writes to it block. Only a datagram socket is accepted.
	 */
	assert_int_equal(shm_ring_create(&r, 8, RTE_COMCH_DEFAULT_MSG_SIZE, false), 0);
	ready_with(dup(r.memfd), eventfd(0, EFD_CLOEXEC));
	shm_ring_release(&r);
}

static void
test_ready_fake_doorbell(void **state)
{
	struct shm_ring r;
	int p[2];

	/* A pipe as doorbell: writing to it once it fills would block the server. */
	assert_int_equal(shm_ring_create(&r, 8, RTE_COMCH_DEFAULT_MSG_SIZE, false), 0);
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	ready_with(dup(r.memfd), p[1]);
	shm_ring_release(&r);
}

static void
test_ring_sequence_out_of_order(void **state)
{
	uint64_t before = peer_errors();
	struct raw_peer p;
	uint8_t *slot;

	raw_peer_connect(&p);
	/* A first slot numbered as if a whole ring had gone before: never delivered. */
	slot = p.tx.base + SHM_RING_SLOTS_OFF;
	*(uint32_t *)slot = 3;
	__atomic_store_n((uint32_t *)(slot + SHM_SLOT_SEQ), p.tx.capacity + 5, __ATOMIC_RELEASE);
	raw_peer_expect_dropped(&p, before);
	assert_int_equal(nb_server_msgs, 1); /* only the good client's */
	nb_server_msgs = 0;
}

static void
test_ring_length_too_big(void **state)
{
	uint64_t before = peer_errors();
	struct raw_peer p;
	uint8_t *slot;

	raw_peer_connect(&p);
	/* One message, whose length runs past the slot. */
	slot = p.tx.base + SHM_RING_SLOTS_OFF;
	*(uint32_t *)slot = p.tx.max_msg + 1;
	__atomic_store_n((uint32_t *)(slot + SHM_SLOT_SEQ), 1, __ATOMIC_RELEASE);
	raw_peer_expect_dropped(&p, before);
	assert_int_equal(nb_server_msgs, 1); /* only the good client's */
	nb_server_msgs = 0;
}

static void
test_ring_consumer_index_lies(void **state)
{
	uint64_t before = peer_errors();
	struct raw_peer p;
	uint8_t *slot;

	raw_peer_connect(&p);
	/* Make the server echo once, then claim we took a thousand of its messages. */
	slot = p.tx.base + SHM_RING_SLOTS_OFF;
	*(uint32_t *)slot = 3;
	memcpy(slot + SHM_SLOT_HDR, "abc", 3);
	__atomic_store_n((uint32_t *)(slot + SHM_SLOT_SEQ), 1, __ATOMIC_RELEASE);
	pump(5);
	__atomic_store_n(p.rx.cons, 1000, __ATOMIC_RELEASE);
	raw_peer_expect_dropped(&p, before);
	nb_server_msgs = 0;
}

static void
test_handshake_timeout(void **state)
{
	uint64_t before = rejected();
	unsigned int nb_fds;
	struct shm_msg m;
	int fds[4], fd;

	/* Connect and say nothing: the server must not keep the socket forever. */
	fd = raw_connect();
	pump(HANDSHAKE_TIMEOUT_MS + 200);
	assert_int_equal(raw_reply(fd, &m, fds, &nb_fds), 0);
	assert_int_equal(rejected(), before + 1);
	close(fd);
	good_client_roundtrip();
}

/*
 * Descriptors passed with a message of no bytes, in the handshake: the server
 * must close them (it used to see an end of stream and leave them open), count
 * the client as refused, and carry on.
 */
static void
test_handshake_fds_without_payload(void **state)
{
	uint64_t before = rejected();
	unsigned int i, nb_fds, fds_before;
	struct shm_msg m;
	int fds[4], fd;

	pump(5);
	fds_before = count_fds();
	for (i = 0; i < 50; i++) {
		fd = raw_connect();
		raw_send_empty_with_fds(fd, 4);
		assert_int_equal(raw_reply(fd, &m, fds, &nb_fds), 0);
		close(fd);
	}
	pump(5);
	assert_int_equal(count_fds(), fds_before);
	assert_int_equal(rejected(), before + 50);
	good_client_roundtrip();
}

/* The same on an established connection: the peer is dropped as broken, nothing leaks. */
static void
test_conn_fds_without_payload(void **state)
{
	uint64_t before = peer_errors();
	unsigned int fds_before;
	struct raw_peer p;

	pump(5);
	fds_before = count_fds();
	raw_peer_connect(&p);
	raw_send_empty_with_fds(p.fd, 3);
	raw_peer_expect_dropped(&p, before);
	pump(5);
	assert_int_equal(count_fds(), fds_before);
}

/*
 * A new ring's slots are left untouched: its memory becomes resident only as
 * messages are written (a default connection used to hold every slot's page).
 */
static void
test_ring_slots_untouched(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	struct shm_ring rx, tx;
	unsigned char *vec;
	size_t i, nb_pages;
	unsigned int resident = 0;
	uint64_t msg = 42;

	assert_int_equal(shm_ring_create(&rx, 1024, 4080, false), 0);
	nb_pages = (rx.bytes + page - 1) / page;
	vec = calloc(nb_pages, 1);
	assert_non_null(vec);
	assert_int_equal(mincore(rx.base, rx.bytes, vec), 0);
	for (i = 0; i < nb_pages; i++)
		resident += vec[i] & 1;
	assert_true(resident <= 1); /* the header's page */
	assert_int_equal(shm_ring_attach(&tx, dup(rx.memfd), dup(rx.peer_bell), 1024, 4080, false),
			 0);
	assert_int_equal(shm_ring_send(&tx, &msg, sizeof(msg)), 0);
	assert_int_equal(mincore(rx.base, rx.bytes, vec), 0);
	resident = 0;
	for (i = 0; i < nb_pages; i++)
		resident += vec[i] & 1;
	assert_true(resident >= 1 && resident <= 2);
	free(vec);
	shm_ring_release(&tx);
	shm_ring_release(&rx);
}

static void
prod_cb(struct rte_comch_producer_task_send *t, union rte_comch_data task_ud,
	union rte_comch_data ctx_ud)
{
	(void)t;
	(void)task_ud;
	(void)ctx_ud;
}

/*
 * How a connection ended, as rte_comch_connection_update_info() says it for as
 * long as the connection is allocated (here an IDLE producer of the server's
 * keeps it past its end): -ECONNRESET for a peer that died, and for one that
 * broke the protocol (its disconnection status says -EPROTO); an orderly close
 * is -ECONNABORTED (the conformance suite's test_comch_conn).
 */
static void
test_update_info_after_reset(void **state)
{
	struct rte_comch_connection *conn;
	struct rte_comch_producer *prod;
	struct raw_peer p;
	uint64_t before;
	unsigned int i;
	int dies;

	(void)state;
	for (dies = 1; dies >= 0; dies--) {
		before = peer_errors();
		raw_peer_connect(&p);
		conn = last_conn; /* (a good client's later connection takes last_conn) */
		prod = rte_comch_producer_create(conn);
		assert_non_null(prod);
		assert_int_equal(rte_comch_producer_task_send_set_conf(prod, prod_cb, prod_cb, 4), 0);
		assert_int_equal(rte_comch_pe_connect_ctx(pe, rte_comch_producer_as_ctx(prod)), 0);
		assert_int_equal(rte_comch_connection_update_info(conn), 0);
		last_disconnect = 1;
		if (dies) {
			/* its socket and rings go without a word, as when it is killed */
			close(p.fd);
			shm_ring_release(&p.rx);
			shm_ring_release(&p.tx);
			for (i = 0; i < 2000 && last_disconnect == 1; i++)
				pump(1);
			assert_int_equal(last_disconnect, -ECONNRESET);
		} else {
			/* a withdrawal of a consumer it never announced */
			raw_ctl_send(p.fd, COMCH_CTL_CONSUMER_EXPIRED, 7, NULL, NULL, 0);
			raw_peer_expect_dropped(&p, before);
		}
		assert_int_equal(rte_comch_connection_update_info(conn), -ECONNRESET);
		/* its start is refused: the connection has ended */
		assert_int_equal(rte_comch_ctx_start(rte_comch_producer_as_ctx(prod)), -ENOTCONN);
		/* the last holder of the ended connection frees it */
		assert_int_equal(rte_comch_producer_destroy(prod), 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_bad_version, before_each),
		cmocka_unit_test_setup(test_short_message, before_each),
		cmocka_unit_test_setup(test_name_without_nul, before_each),
		cmocka_unit_test_setup(test_queue_out_of_range, before_each),
		cmocka_unit_test_setup(test_ready_pipe_instead_of_memfd, before_each),
		cmocka_unit_test_setup(test_ready_unsealed_memfd, before_each),
		cmocka_unit_test_setup(test_ready_wrong_size, before_each),
		cmocka_unit_test_setup(test_ready_fake_doorbell, before_each),
		cmocka_unit_test_setup(test_ready_eventfd_doorbell, before_each),
		cmocka_unit_test_setup(test_ring_sequence_out_of_order, before_each),
		cmocka_unit_test(test_ring_index_wraps),
		cmocka_unit_test(test_ring_reap_lazily),
		cmocka_unit_test(test_ring_copy_pick),
		cmocka_unit_test(test_ring_doorbell_barrier),
		cmocka_unit_test(test_consumer_flush_len),
		cmocka_unit_test_setup(test_ring_length_too_big, before_each),
		cmocka_unit_test_setup(test_ring_consumer_index_lies, before_each),
		cmocka_unit_test_setup(test_handshake_timeout, before_each),
		cmocka_unit_test_setup(test_handshake_fds_without_payload, before_each),
		cmocka_unit_test_setup(test_conn_fds_without_payload, before_each),
		cmocka_unit_test_setup(test_update_info_after_reset, before_each),
		cmocka_unit_test(test_ring_slots_untouched),
	};

	return cmocka_run_group_tests_name("shm hostile peer", tests, setup, teardown);
}
