/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * A raw client connects to a real server and sends the input as a sequence of
 * messages with descriptors (fuzz_common.h): the handshake (HELLO, READY), and
 * once up the library's control messages. The server must survive it, keep
 * serving, and close every descriptor it was given once the client is gone.
 */

#include <stdint.h>
#include <stddef.h>

#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned int iter;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fz_init("fzsrv");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_record recs[FZ_MAX_RECORDS];
	unsigned int n = fz_split(data, size, recs, FZ_MAX_RECORDS), i;
	unsigned int before = count_fds();
	struct fz_session s;

	fz_session_init(&s, raw_connect());
	for (i = 0; i < n; i++)
		if (!fz_send_record(&s, &recs[i], fz_fix_common, NULL))
			break;
	fz_session_fini(&s);
	fz_check_fds(before, "server");
	fz_check_server(&iter);
	return 0;
}
