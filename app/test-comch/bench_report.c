/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_report.h"

_Static_assert(sizeof(struct bench_result) <= PIPE_BUF, "a result must fit one atomic write");

int
bench_report_write(int fd, const struct bench_result *res)
{
	ssize_t n;

	do {
		n = write(fd, res, sizeof(*res));
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*res))
		return n < 0 ? -errno : -EIO;
	return 0;
}

int
bench_report_read(struct bench_report_reader *r)
{
	ssize_t n;

	n = read(r->fd, (char *)&r->rec + r->have, sizeof(r->rec) - r->have);
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return 0;
		r->eof = true;
		return -errno;
	}
	if (n == 0) {
		r->eof = true;
		return r->have == 0 ? 0 : -EPIPE;
	}
	r->have += n;
	if (r->have < sizeof(r->rec))
		return 0;
	r->have = 0;
	if (r->rec.magic != BENCH_RESULT_MAGIC) {
		/* Out of step with the writer: nothing after this can be trusted. */
		r->eof = true;
		return -EPROTO;
	}
	/* Strings from another process: make sure they end. */
	r->rec.mode[sizeof(r->rec.mode) - 1] = '\0';
	r->rec.transport[sizeof(r->rec.transport) - 1] = '\0';
	r->rec.error[sizeof(r->rec.error) - 1] = '\0';
	return 1;
}

int
bench_results_init(struct bench_results *rs, unsigned int nb_tests)
{
	memset(rs, 0, sizeof(*rs));
	rs->nb_tests = nb_tests;
	rs->client = calloc(nb_tests + 1, sizeof(*rs->client));
	rs->server = calloc(nb_tests + 1, sizeof(*rs->server));
	if (rs->client == NULL || rs->server == NULL) {
		bench_results_free(rs);
		return -ENOMEM;
	}
	return 0;
}

void
bench_results_free(struct bench_results *rs)
{
	free(rs->client);
	free(rs->server);
	rs->client = NULL;
	rs->server = NULL;
}

void
bench_results_add(struct bench_results *rs, const struct bench_result *res)
{
	if (res->test_id < rs->nb_tests) {
		if (res->side == BENCH_SIDE_SERVER)
			rs->server[res->test_id] = *res;
		else
			rs->client[res->test_id] = *res;
		return;
	}
	if (rs->nb_extra < BENCH_MAX_EXTRA)
		rs->extra[rs->nb_extra++] = *res;
}
