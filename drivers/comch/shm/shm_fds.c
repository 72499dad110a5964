/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * Free descriptors in the process, for the fd_reserve budget, without reading
 * /proc/self/fd at every import of a peer's consumer: that read costs about
 * 0.4 to 0.8 us per open descriptor (1.9 ms at 5,000, 14.6 ms at 19,000), and
 * a peer announcing consumers on many connections could make an engine do
 * little else.
 *
 * The driver counts the descriptors it keeps open itself (sockets and
 * doorbells of connections, doorbells of consumers, ours and the peer's,
 * memfds of mmaps, servers' sockets and locks) as it takes and closes them:
 * that count is exact at any time, and it is what a peer makes grow. The rest
 * of the process, the application's own, is counted by a scan of
 * /proc/self/fd, kept as a baseline, and scanned again only once the last
 * scan is older than 100 times what it took, and 100 ms: scans take at most
 * 1% of the time of the engines that import. Free is RLIMIT_NOFILE less the
 * baseline and the driver's count; what the application opened since the
 * last scan is what the reserve is for.
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <sys/resource.h>

#include <rte_cycles.h>

#include "shm_internal.h"

/* A scan costs at most 1/SHM_FDS_SCAN_RATIO of the time, and comes at most every 100 ms. */
#define SHM_FDS_SCAN_RATIO 100
#define SHM_FDS_SCAN_MIN_MS 100

static int32_t shm_fds_kept;        /* the driver's descriptors: atomic */
static uint32_t shm_fds_baseline;   /* the rest of the process at the last scan: atomic */
static bool shm_fds_known;          /* a scan succeeded: atomic */
static uint64_t shm_fds_next_scan;  /* TSC; written by the scanner only */
static int shm_fds_scanning;        /* atomic: an engine scans (a try-lock TSan sees) */

void
shm_fds_keep(int n)
{
	comch_fetch_add_relaxed(&shm_fds_kept, n);
}

/* Count the process's descriptors; the baseline is those that are not the driver's. */
static void
shm_fds_scan(uint64_t now)
{
	int32_t kept = comch_load_relaxed(&shm_fds_kept);
	unsigned int open_fds = 0;
	struct dirent *de;
	uint64_t took;
	DIR *d;

	d = opendir("/proc/self/fd");
	if (d == NULL) {
		shm_fds_next_scan = now + rte_get_tsc_hz(); /* no /proc: try again in 1 s */
		return;
	}
	while ((de = readdir(d)) != NULL)
		open_fds += de->d_name[0] != '.';
	closedir(d);
	open_fds--; /* the directory's own */
	kept = RTE_MAX(kept, 0);
	comch_store_relaxed(&shm_fds_baseline,
			    open_fds > (unsigned int)kept ? open_fds - (unsigned int)kept : 0);
	comch_store_relaxed(&shm_fds_known, true);
	took = rte_rdtsc() - now;
	shm_fds_next_scan = now + RTE_MAX(took * SHM_FDS_SCAN_RATIO,
					  rte_get_tsc_hz() / 1000 * SHM_FDS_SCAN_MIN_MS);
	SHM_LOG(DEBUG, "%u descriptors open, %d of them the driver's; counted in %" PRIu64
		" us", open_fds, kept, took * 1000000 / rte_get_tsc_hz());
}

unsigned int
shm_fds_free(void)
{
	uint64_t now = rte_rdtsc(), used;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return UINT32_MAX;
	/* One engine scans; the others take the baseline as it is. */
	if (comch_exchange_acq_rel(&shm_fds_scanning, 1) == 0) {
		if (now >= shm_fds_next_scan)
			shm_fds_scan(now);
		comch_store_release(&shm_fds_scanning, 0);
	}
	if (!comch_load_relaxed(&shm_fds_known))
		return UINT32_MAX;
	used = (uint64_t)comch_load_relaxed(&shm_fds_baseline) +
	       (uint64_t)RTE_MAX(comch_load_relaxed(&shm_fds_kept), 0);
	return rl.rlim_cur > used ? (unsigned int)RTE_MIN(rl.rlim_cur - used, UINT32_MAX) : 0;
}
