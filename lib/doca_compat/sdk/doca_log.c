/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA logging over stdio and DPDK's rte_log.
 *
 * Backends are slots in two fixed tables (application, SDK) that are only ever
 * appended to: DOCA has no call to destroy a backend, so a logging thread reads
 * the tables without a lock. A slot is filled under dc_cfg_lock and published by
 * a release store of the table's count; levels are plain atomics.
 *
 * SDK messages are what the layer, rte_comch and its drivers log through
 * rte_log. Once the program creates an SDK backend, DPDK's log stream becomes an
 * unbuffered cookie stream whose write function reformats each line the DOCA way
 * and hands it to the SDK backends.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <rte_log.h>

#include "doca_obj_private.h"
#include "doca_log.h"

#define DC_LOG_MAX_APP 16
#define DC_LOG_MAX_SDK 16
#define DC_LOG_MAX_SOURCES 4096
#define DC_LOG_MAX_BUCKETS 4096
/* Lines up to this size are formatted on the stack; longer ones on the heap. */
#define DC_LOG_LINE 1024

enum dc_be_kind {
	DC_BE_FILE,
	DC_BE_FD,
	DC_BE_BUF,
	DC_BE_SYSLOG,
};

struct doca_log_backend {
	struct dc_obj obj;		/* first: DC_KIND_LOG_BACKEND once filled */
	enum dc_be_kind kind;
	bool sdk;
	FILE *file;
	int fd;
	char *buf;
	size_t cap;
	log_flush_callback handler;
	pthread_mutex_t buf_lock;	/* the buffer is one per backend */
	uint32_t lower;			/* application: most verbose level shown */
	uint32_t upper;			/* application: most severe level shown */
	uint32_t sdk_level;		/* SDK: most verbose level shown */
	/*
	 * A strict limit bounds later changes: the range shown may narrow, never
	 * widen past it. So the standard stderr backend (lower limit WARNING,
	 * strict) follows -l 30 down to ERROR but never shows INFO.
	 */
	uint32_t lower_cap;		/* application: lower limit at most this, or 0 */
	uint32_t upper_floor;		/* application: upper limit at least this, or 0 */
};

DC_OBJ_FIRST(struct doca_log_backend, obj);

static struct doca_log_backend dc_app[DC_LOG_MAX_APP];
static struct doca_log_backend dc_sdk[DC_LOG_MAX_SDK];
static uint32_t dc_nb_app;
static uint32_t dc_nb_sdk;

/* Serialises configuration changes; never taken on the logging path. */
static pthread_mutex_t dc_cfg_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t dc_global_lower = DOCA_LOG_LEVEL_INFO;
static uint32_t dc_global_upper = DOCA_LOG_LEVEL_CRIT;
static uint32_t dc_global_sdk = DOCA_LOG_LEVEL_INFO;
static bool dc_standard_made;
static bool dc_syslog_open;
static FILE *dc_sdk_stream;

/* Source names: only their count is read without the lock. */
static pthread_mutex_t dc_src_lock = PTHREAD_MUTEX_INITIALIZER;
static int dc_nb_src;

struct dc_bucket {
	uint64_t window_ms;
	uint32_t count;
};
static struct dc_bucket dc_buckets[DC_LOG_MAX_BUCKETS];
static int dc_nb_buckets;

/* DPDK log type names by id, parsed from rte_log_dump() (DPDK has no getter). */
static pthread_mutex_t dc_lt_lock = PTHREAD_MUTEX_INITIALIZER;
static char **dc_lt_names;
static size_t dc_lt_nb;

/*
 * C11 atomic accesses to plain objects: those read without the lock (levels,
 * counts, buckets) are written under it, or by the lock-free bucket code. The
 * cast is the C11 view of the same object (same size and alignment on every
 * target DPDK supports), so the variables stay plain for the code under the lock.
 */
#define DC_ATOMIC(p) ((_Atomic __typeof__(*(p)) *)(p))
#define DC_LOAD(p) atomic_load_explicit(DC_ATOMIC(p), memory_order_acquire)
#define DC_STORE(p, v) atomic_store_explicit(DC_ATOMIC(p), (v), memory_order_release)
#define DC_LOAD_RELAXED(p) atomic_load_explicit(DC_ATOMIC(p), memory_order_relaxed)
#define DC_STORE_RELAXED(p, v) atomic_store_explicit(DC_ATOMIC(p), (v), memory_order_relaxed)
#define DC_ADD_RELAXED(p, v) atomic_fetch_add_explicit(DC_ATOMIC(p), (v), memory_order_relaxed)

static bool
dc_level_valid(uint32_t level)
{
	return level >= DOCA_LOG_LEVEL_DISABLE && level <= DOCA_LOG_LEVEL_TRACE && level % 10 == 0;
}

static const char *
dc_level_tag(uint32_t level)
{
	switch (level) {
	case DOCA_LOG_LEVEL_CRIT:
		return "CRT";
	case DOCA_LOG_LEVEL_ERROR:
		return "ERR";
	case DOCA_LOG_LEVEL_WARNING:
		return "WRN";
	case DOCA_LOG_LEVEL_INFO:
		return "INF";
	case DOCA_LOG_LEVEL_DEBUG:
		return "DBG";
	default:
		return "TRC";
	}
}

static int
dc_level_syslog(uint32_t level)
{
	switch (level) {
	case DOCA_LOG_LEVEL_CRIT:
		return LOG_CRIT;
	case DOCA_LOG_LEVEL_ERROR:
		return LOG_ERR;
	case DOCA_LOG_LEVEL_WARNING:
		return LOG_WARNING;
	case DOCA_LOG_LEVEL_INFO:
		return LOG_INFO;
	default:
		return LOG_DEBUG;
	}
}

/* DOCA level -> DPDK level: TRACE has no DPDK counterpart, DEBUG is the most. */
static uint32_t
dc_level_to_rte(uint32_t level)
{
	switch (level) {
	case DOCA_LOG_LEVEL_DISABLE:
		return 0;	/* every DPDK message level is above 0: nothing passes */
	case DOCA_LOG_LEVEL_CRIT:
		return RTE_LOG_CRIT;
	case DOCA_LOG_LEVEL_ERROR:
		return RTE_LOG_ERR;
	case DOCA_LOG_LEVEL_WARNING:
		return RTE_LOG_WARNING;
	case DOCA_LOG_LEVEL_INFO:
		return RTE_LOG_INFO;	/* NOTICE is DOCA's INFO too */
	default:
		return RTE_LOG_DEBUG;
	}
}

static uint32_t
dc_level_from_rte(int level)
{
	if (level >= 1 && level <= (int)RTE_LOG_CRIT)
		return DOCA_LOG_LEVEL_CRIT;
	switch (level) {
	case RTE_LOG_ERR:
		return DOCA_LOG_LEVEL_ERROR;
	case RTE_LOG_WARNING:
		return DOCA_LOG_LEVEL_WARNING;
	case RTE_LOG_DEBUG:
		return DOCA_LOG_LEVEL_DEBUG;
	default:
		/* NOTICE, INFO, and a write to the stream outside rte_log() (level 0) */
		return DOCA_LOG_LEVEL_INFO;
	}
}

static bool
dc_app_shows(const struct doca_log_backend *be, uint32_t level)
{
	return DC_LOAD_RELAXED(&be->upper) <= level && level <= DC_LOAD_RELAXED(&be->lower);
}

static bool
dc_sdk_shows(const struct doca_log_backend *be, uint32_t level)
{
	return level <= DC_LOAD_RELAXED(&be->sdk_level);
}

/* The lower limit a backend takes when asked for level (strict bound applied). */
static uint32_t
dc_bound_lower(const struct doca_log_backend *be, uint32_t level)
{
	return be->lower_cap != 0 ? RTE_MIN(level, be->lower_cap) : level;
}

static uint32_t
dc_bound_upper(const struct doca_log_backend *be, uint32_t level)
{
	return be->upper_floor != 0 ? RTE_MAX(level, be->upper_floor) : level;
}

static void
dc_write_fd(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return;	/* a logger has nowhere to report its own failure */
		}
		p += n;
		len -= (size_t)n;
	}
}

/*
 * Hand one line (ending with '\n') to a backend; tag_off is where "[DOCA]"
 * starts, for syslog, which stamps time and pid itself.
 */
static void
dc_emit(struct doca_log_backend *be, uint32_t level, const char *line, size_t len, size_t tag_off)
{
	size_t n;

	switch (be->kind) {
	case DC_BE_FILE:
		flockfile(be->file);
		fwrite_unlocked(line, 1, len, be->file);
		fflush_unlocked(be->file);
		funlockfile(be->file);
		break;
	case DC_BE_FD:
		/* One write() while the line is short enough to stay whole in a pipe. */
		dc_write_fd(be->fd, line, len);
		break;
	case DC_BE_BUF:
		pthread_mutex_lock(&be->buf_lock);
		n = RTE_MIN(len, be->cap - 1);
		memcpy(be->buf, line, n);
		be->buf[n] = '\0';
		be->handler(be->buf);
		pthread_mutex_unlock(&be->buf_lock);
		break;
	case DC_BE_SYSLOG:
		syslog(dc_level_syslog(level), "%.*s", (int)(len - tag_off - 1), line + tag_off);
		break;
	}
}

/* "[HH:MM:SS:usec][pid]" into buf; returns its length. */
static size_t
dc_stamp(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	int n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	n = snprintf(buf, size, "[%02d:%02d:%02d:%06ld][%d]", tm.tm_hour, tm.tm_min, tm.tm_sec,
		     ts.tv_nsec / 1000, (int)getpid());
	return n < 0 ? 0 : RTE_MIN((size_t)n, size - 1);
}

/*
 * Format "<stamp>[DOCA][LVL]<where> <message>\n": in stack (of DC_LOG_LINE
 * bytes) when it fits, else in a heap buffer returned through *heap. Returns the
 * line, or NULL if the heap buffer cannot be had.
 */
static char *
dc_format(char *stack, char **heap, size_t *len, size_t *tag_off, uint32_t level,
	  const char *where, const char *fmt, va_list ap)
{
	char head[DC_LOG_LINE / 2];
	size_t hlen;
	va_list aq;
	char *line;
	int n;

	hlen = dc_stamp(head, sizeof(head));
	*tag_off = hlen;
	n = snprintf(head + hlen, sizeof(head) - hlen, "[DOCA][%s]%s ", dc_level_tag(level),
		     where);
	hlen = n < 0 ? hlen : RTE_MIN(hlen + (size_t)n, sizeof(head) - 1);

	*heap = NULL;
	memcpy(stack, head, hlen);
	va_copy(aq, ap);
	n = vsnprintf(stack + hlen, DC_LOG_LINE - hlen, fmt, aq);
	va_end(aq);
	if (n < 0)
		n = 0;
	line = stack;
	if (hlen + (size_t)n + 2 > DC_LOG_LINE) {
		line = malloc(hlen + (size_t)n + 2);
		if (line == NULL)
			return NULL;
		memcpy(line, head, hlen);
		vsnprintf(line + hlen, (size_t)n + 1, fmt, ap);
		*heap = line;
	}
	line[hlen + (size_t)n] = '\n';
	line[hlen + (size_t)n + 1] = '\0';
	*len = hlen + (size_t)n + 1;
	return line;
}

/* The file's name without its directories, as DOCA prints it. */
static const char *
dc_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

static bool
dc_source_valid(int source)
{
	return source >= 0 && source < DC_LOAD(&dc_nb_src);
}

static doca_error_t
dc_vlog(uint32_t level, int source, const char *fname, int line, const char *func,
	const char *format, va_list ap)
{
	char stack[DC_LOG_LINE];
	char where[DC_LOG_LINE / 4];
	size_t len, tag_off;
	char *heap, *text;
	uint32_t i, nb;
	bool wanted = false;

	if (!dc_level_valid(level) || level == DOCA_LOG_LEVEL_DISABLE || format == NULL ||
	    !dc_source_valid(source))
		return DOCA_ERROR_INVALID_VALUE;
	nb = DC_LOAD(&dc_nb_app);
	for (i = 0; i < nb && !wanted; i++)
		wanted = dc_app_shows(&dc_app[i], level);
	if (!wanted)
		return DOCA_SUCCESS;	/* not even formatted */

	snprintf(where, sizeof(where), "[%s:%d][%s]", dc_basename(fname != NULL ? fname : "?"),
		 line, func != NULL ? func : "?");
	text = dc_format(stack, &heap, &len, &tag_off, level, where, format, ap);
	if (text == NULL)
		return DOCA_ERROR_NO_MEMORY;
	for (i = 0; i < nb; i++)
		if (dc_app_shows(&dc_app[i], level))
			dc_emit(&dc_app[i], level, text, len, tag_off);
	free(heap);
	return DOCA_SUCCESS;
}

doca_error_t
doca_log(uint32_t level, int source, const char *fname, int line, const char *func,
	 const char *format, ...)
{
	doca_error_t ret;
	va_list ap;

	va_start(ap, format);
	ret = dc_vlog(level, source, fname, line, func, format, ap);
	va_end(ap);
	return ret;
}

static uint64_t
dc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

doca_error_t
doca_log_rate_bucket_register(int source, int *bucket)
{
	int id, unset = -1;

	if (bucket == NULL || !dc_source_valid(source))
		return DOCA_ERROR_INVALID_VALUE;
	if (DC_LOAD(bucket) >= 0)
		return DOCA_SUCCESS;
	id = DC_ADD_RELAXED(&dc_nb_buckets, 1);
	if (id >= DC_LOG_MAX_BUCKETS) {
		/* Keep the counter from wrapping under call sites that retry. */
		DC_STORE_RELAXED(&dc_nb_buckets, DC_LOG_MAX_BUCKETS);
		return DOCA_ERROR_NO_MEMORY;
	}
	dc_buckets[id].window_ms = dc_now_ms();
	/* Two threads reaching a call site first: the site keeps one bucket. */
	atomic_compare_exchange_strong_explicit(DC_ATOMIC(bucket), &unset, id, memory_order_release,
						memory_order_relaxed);
	return DOCA_SUCCESS;
}

int
rte_comch_doca_log_rate_bucket(int source, int *bucket)
{
	if (bucket == NULL)
		return -1;
	if (DC_LOAD(bucket) < 0)
		doca_log_rate_bucket_register(source, bucket);
	return DC_LOAD(bucket);
}

doca_error_t
doca_log_rate_limit(uint32_t level, int source, const char *fname, int line, const char *func,
		    int bucket, const char *format, ...)
{
	struct dc_bucket *b;
	doca_error_t ret;
	uint64_t now, start;
	va_list ap;

	if (bucket >= 0 && bucket < DC_LOG_MAX_BUCKETS) {
		b = &dc_buckets[bucket];
		now = dc_now_ms();
		start = DC_LOAD_RELAXED(&b->window_ms);
		/* Races at a window's edge let a few extra lines through: harmless. */
		if (now - start >= DOCA_LOG_RATE_LIMIT_PERIOD_MS &&
		    atomic_compare_exchange_strong_explicit(DC_ATOMIC(&b->window_ms), &start, now,
							    memory_order_relaxed,
							    memory_order_relaxed))
			DC_STORE_RELAXED(&b->count, 0);
		if (DC_ADD_RELAXED(&b->count, 1) >= DOCA_LOG_RATE_LIMIT_BURST)
			return dc_level_valid(level) && dc_source_valid(source) ?
				DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
	}
	va_start(ap, format);
	ret = dc_vlog(level, source, fname, line, func, format, ap);
	va_end(ap);
	return ret;
}

doca_error_t
doca_log_register_source(const char *source_name, int *source)
{
	int id;

	/* Lines carry file, line and function, as DOCA's do: the name is not kept. */
	if (source_name == NULL || source == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&dc_src_lock);
	id = dc_nb_src;
	if (id == DC_LOG_MAX_SOURCES) {
		pthread_mutex_unlock(&dc_src_lock);
		return DOCA_ERROR_NO_MEMORY;
	}
	DC_STORE(&dc_nb_src, id + 1);
	pthread_mutex_unlock(&dc_src_lock);
	*source = id;
	return DOCA_SUCCESS;
}

doca_error_t
doca_log_unregister_source(int source)
{
	return dc_source_valid(source) ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
}

doca_error_t
doca_log_source_register(const char *source_name, int *source)
{
	return doca_log_register_source(source_name, source);
}

doca_error_t
doca_log_source_destroy(int source)
{
	return doca_log_unregister_source(source);
}

uint32_t
doca_log_get_max_num_backends(void)
{
	return DC_LOG_MAX_APP;
}

uint32_t
doca_log_get_max_num_backends_sdk(void)
{
	return DC_LOG_MAX_SDK;
}

/* ---- application backends ---- */

/* Take the next application slot (dc_cfg_lock held); NULL when none is left. */
static struct doca_log_backend *
dc_app_slot(void)
{
	struct doca_log_backend *be;

	if (dc_nb_app == DC_LOG_MAX_APP)
		return NULL;
	be = &dc_app[dc_nb_app];
	memset(be, 0, sizeof(*be));
	be->lower = dc_global_lower;
	be->upper = dc_global_upper;
	return be;
}

static struct doca_log_backend *
dc_sdk_slot(void)
{
	struct doca_log_backend *be;

	if (dc_nb_sdk == DC_LOG_MAX_SDK)
		return NULL;
	be = &dc_sdk[dc_nb_sdk];
	memset(be, 0, sizeof(*be));
	be->sdk = true;
	be->sdk_level = dc_global_sdk;
	return be;
}

struct dc_be_args {
	enum dc_be_kind kind;
	FILE *file;
	int fd;
	char *buf;
	size_t cap;
	log_flush_callback handler;
	const char *name;
	uint32_t strict_upper;	/* application: a strict upper limit, or 0 */
	uint32_t strict_lower;	/* application: a strict lower limit, or 0 */
};

static doca_error_t dc_sdk_redirect(void);
static void dc_sdk_apply(void);

/* Fill and publish a backend (dc_cfg_lock held). */
static doca_error_t
dc_create_locked(bool sdk, const struct dc_be_args *a, struct doca_log_backend **backend)
{
	struct doca_log_backend *be;
	doca_error_t ret;

	if (sdk) {
		ret = dc_sdk_redirect();
		if (ret != DOCA_SUCCESS)
			return ret;
	}
	be = sdk ? dc_sdk_slot() : dc_app_slot();
	if (be == NULL)
		return DOCA_ERROR_NO_MEMORY;
	be->kind = a->kind;
	be->file = a->file;
	be->fd = a->fd;
	be->buf = a->buf;
	be->cap = a->cap;
	be->handler = a->handler;
	be->upper_floor = a->strict_upper;
	be->lower_cap = a->strict_lower;
	be->upper = dc_bound_upper(be, be->upper);
	be->lower = dc_bound_lower(be, be->lower);
	pthread_mutex_init(&be->buf_lock, NULL);
	if (a->kind == DC_BE_SYSLOG && !dc_syslog_open) {
		openlog(a->name, LOG_PID, LOG_USER);
		dc_syslog_open = true;
	}
	/* In the registry, as the layer's other objects: a handle of another kind is refused. */
	dc_obj_publish(&be->obj, be, DC_KIND_LOG_BACKEND);
	/* Publish the filled slot to logging threads. */
	if (sdk) {
		DC_STORE(&dc_nb_sdk, dc_nb_sdk + 1);
		dc_sdk_apply();
	} else {
		DC_STORE(&dc_nb_app, dc_nb_app + 1);
	}
	*backend = be;
	return DOCA_SUCCESS;
}

static doca_error_t
dc_create(bool sdk, const struct dc_be_args *a, struct doca_log_backend **backend)
{
	doca_error_t ret;

	if (backend == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&dc_cfg_lock);
	ret = dc_create_locked(sdk, a, backend);
	pthread_mutex_unlock(&dc_cfg_lock);
	/* Said after unlocking: the line may come back through an SDK backend. */
	if (ret == DOCA_ERROR_NO_MEMORY)
		DC_LOG(ERR, "cannot create a%s log backend (at most %d)",
		       sdk ? "n SDK" : "n application", sdk ? DC_LOG_MAX_SDK : DC_LOG_MAX_APP);
	return ret;
}

static doca_error_t
dc_create_file(bool sdk, FILE *fptr, struct doca_log_backend **backend)
{
	struct dc_be_args a = { .kind = DC_BE_FILE, .file = fptr };

	if (fptr == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return dc_create(sdk, &a, backend);
}

static doca_error_t
dc_create_fd(bool sdk, int fd, struct doca_log_backend **backend)
{
	struct dc_be_args a = { .kind = DC_BE_FD, .fd = fd };

	if (fd < 0 || fcntl(fd, F_GETFD) < 0)
		return DOCA_ERROR_INVALID_VALUE;
	return dc_create(sdk, &a, backend);
}

static doca_error_t
dc_create_buf(bool sdk, char *buf, size_t capacity, log_flush_callback handler,
	      struct doca_log_backend **backend)
{
	struct dc_be_args a = { .kind = DC_BE_BUF, .buf = buf, .cap = capacity,
				.handler = handler };

	if (buf == NULL || capacity == 0 || handler == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return dc_create(sdk, &a, backend);
}

static doca_error_t
dc_create_syslog(bool sdk, const char *name, struct doca_log_backend **backend)
{
	struct dc_be_args a = { .kind = DC_BE_SYSLOG, .name = name };

	if (name == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return dc_create(sdk, &a, backend);
}

doca_error_t
doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend)
{
	return dc_create_file(false, fptr, backend);
}

doca_error_t
doca_log_backend_create_with_fd(int fd, struct doca_log_backend **backend)
{
	return dc_create_fd(false, fd, backend);
}

doca_error_t
doca_log_backend_create_with_buf(char *buf, size_t capacity, log_flush_callback handler,
				 struct doca_log_backend **backend)
{
	return dc_create_buf(false, buf, capacity, handler, backend);
}

doca_error_t
doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend)
{
	return dc_create_syslog(false, name, backend);
}

doca_error_t
doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend)
{
	return dc_create_file(true, fptr, backend);
}

doca_error_t
doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend)
{
	return dc_create_fd(true, fd, backend);
}

doca_error_t
doca_log_backend_create_with_buf_sdk(char *buf, size_t capacity, log_flush_callback handler,
				     struct doca_log_backend **backend)
{
	return dc_create_buf(true, buf, capacity, handler, backend);
}

doca_error_t
doca_log_backend_create_with_syslog_sdk(const char *name, struct doca_log_backend **backend)
{
	return dc_create_syslog(true, name, backend);
}

doca_error_t
doca_log_backend_create_standard(void)
{
	/* stdout: INFO and more verbose; the INFO end does not follow global changes. */
	struct dc_be_args out_args = { .kind = DC_BE_FILE, .file = stdout,
				       .strict_upper = DOCA_LOG_LEVEL_INFO };
	/* stderr: WARNING and more severe. */
	struct dc_be_args err_args = { .kind = DC_BE_FILE, .file = stderr,
				       .strict_lower = DOCA_LOG_LEVEL_WARNING };
	struct doca_log_backend *out, *err;
	doca_error_t ret = DOCA_SUCCESS;

	pthread_mutex_lock(&dc_cfg_lock);
	/* Once: a second pair would print every line twice. */
	if (dc_standard_made)
		goto out;
	if (dc_nb_app + 2 > DC_LOG_MAX_APP) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	dc_create_locked(false, &out_args, &out);
	dc_create_locked(false, &err_args, &err);
	dc_standard_made = true;
out:
	pthread_mutex_unlock(&dc_cfg_lock);
	return ret;
}

/* Checks shared by the per-backend setters of application limits, on a live backend. */
static doca_error_t
dc_app_check(const struct doca_log_backend *backend)
{
	if (backend->sdk)
		return DOCA_ERROR_NOT_PERMITTED;
	return DOCA_SUCCESS;
}

doca_error_t
doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level)
{
	doca_error_t ret;

	DC_OBJ_ARG(backend, DC_KIND_LOG_BACKEND);
	ret = dc_app_check(backend);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (!dc_level_valid(level))
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&dc_cfg_lock);
	DC_STORE_RELAXED(&backend->lower, dc_bound_lower(backend, level));
	pthread_mutex_unlock(&dc_cfg_lock);
	return ret;
}

doca_error_t
doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend, uint32_t upper_limit)
{
	doca_error_t ret;

	DC_OBJ_ARG(backend, DC_KIND_LOG_BACKEND);
	ret = dc_app_check(backend);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (!dc_level_valid(upper_limit))
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&dc_cfg_lock);
	DC_STORE_RELAXED(&backend->upper, dc_bound_upper(backend, upper_limit));
	pthread_mutex_unlock(&dc_cfg_lock);
	return ret;
}

doca_error_t
doca_log_backend_set_level_lower_limit_strict(struct doca_log_backend *backend)
{
	doca_error_t ret;

	DC_OBJ_ARG(backend, DC_KIND_LOG_BACKEND);
	ret = dc_app_check(backend);
	if (ret != DOCA_SUCCESS)
		return ret;
	pthread_mutex_lock(&dc_cfg_lock);
	backend->lower_cap = backend->lower;
	pthread_mutex_unlock(&dc_cfg_lock);
	return DOCA_SUCCESS;
}

doca_error_t
doca_log_backend_set_level_upper_limit_strict(struct doca_log_backend *backend)
{
	doca_error_t ret;

	DC_OBJ_ARG(backend, DC_KIND_LOG_BACKEND);
	ret = dc_app_check(backend);
	if (ret != DOCA_SUCCESS)
		return ret;
	pthread_mutex_lock(&dc_cfg_lock);
	backend->upper_floor = backend->upper;
	pthread_mutex_unlock(&dc_cfg_lock);
	return DOCA_SUCCESS;
}

doca_error_t
doca_log_level_set_global_lower_limit(uint32_t level)
{
	uint32_t i;

	if (!dc_level_valid(level))
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&dc_cfg_lock);
	DC_STORE_RELAXED(&dc_global_lower, level);
	for (i = 0; i < dc_nb_app; i++)
		DC_STORE_RELAXED(&dc_app[i].lower, dc_bound_lower(&dc_app[i], level));
	pthread_mutex_unlock(&dc_cfg_lock);
	return DOCA_SUCCESS;
}

doca_error_t
doca_log_level_set_global_upper_limit(uint32_t upper_limit)
{
	uint32_t i;

	if (!dc_level_valid(upper_limit))
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&dc_cfg_lock);
	DC_STORE_RELAXED(&dc_global_upper, upper_limit);
	for (i = 0; i < dc_nb_app; i++)
		DC_STORE_RELAXED(&dc_app[i].upper, dc_bound_upper(&dc_app[i], upper_limit));
	pthread_mutex_unlock(&dc_cfg_lock);
	return DOCA_SUCCESS;
}

uint32_t
doca_log_level_get_global_lower_limit(void)
{
	return DC_LOAD_RELAXED(&dc_global_lower);
}

uint32_t
doca_log_level_get_global_upper_limit(void)
{
	return DC_LOAD_RELAXED(&dc_global_upper);
}

/* ---- SDK backends ---- */

/*
 * Set the DPDK level of the SDK's log types (dc_cfg_lock held): the most verbose
 * level an SDK backend shows, or the global SDK level while there is none (then
 * the messages go wherever DPDK prints them).
 */
static void
dc_sdk_apply(void)
{
	uint32_t i, level = 0, rte;

	for (i = 0; i < dc_nb_sdk; i++)
		level = RTE_MAX(level, DC_LOAD_RELAXED(&dc_sdk[i].sdk_level));
	if (dc_nb_sdk == 0)
		level = dc_global_sdk;
	rte = dc_level_to_rte(level);
	rte_log_set_level_pattern("lib.comch", rte);
	rte_log_set_level_pattern("lib.comch.*", rte);
	rte_log_set_level_pattern("pmd.comch.*", rte);
	/* The layer's own type, whatever name the build gave it. */
	rte_log_set_level(doca_compat_logtype, rte);
}

/* Refill the log type name table from rte_log_dump() (dc_lt_lock held). */
static void
dc_lt_refresh(void)
{
	char *text = NULL, *line, *save = NULL, name[128];
	size_t size = 0, id, i;
	char **names;
	FILE *f;

	f = open_memstream(&text, &size);
	if (f == NULL)
		return;
	rte_log_dump(f);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		/* "id <n>: <name>, level is <level>" */
		if (sscanf(line, "id %zu: %127[^,],", &id, name) != 2 || id > 4096)
			continue;
		if (id >= dc_lt_nb) {
			names = realloc(dc_lt_names, (id + 1) * sizeof(*names));
			if (names == NULL)
				break;
			for (i = dc_lt_nb; i <= id; i++)
				names[i] = NULL;
			dc_lt_names = names;
			dc_lt_nb = id + 1;
		}
		if (dc_lt_names[id] == NULL)
			dc_lt_names[id] = strdup(name);
	}
	free(text);
}

/* The name of a DPDK log type, copied into buf ("rte_log" if unknown). */
static void
dc_lt_name(int logtype, char *buf, size_t size)
{
	pthread_mutex_lock(&dc_lt_lock);
	if (logtype >= 0 && ((size_t)logtype >= dc_lt_nb || dc_lt_names[logtype] == NULL))
		dc_lt_refresh();	/* a type registered since the last look */
	if (logtype >= 0 && (size_t)logtype < dc_lt_nb && dc_lt_names[logtype] != NULL)
		snprintf(buf, size, "%s", dc_lt_names[logtype]);
	else
		snprintf(buf, size, "rte_log");
	pthread_mutex_unlock(&dc_lt_lock);
}

static void
dc_sdk_line(uint32_t level, const char *where, const char *fmt, ...)
{
	char stack[DC_LOG_LINE];
	size_t len, tag_off;
	char *heap, *text;
	uint32_t i, nb = DC_LOAD(&dc_nb_sdk);
	va_list ap;

	va_start(ap, fmt);
	text = dc_format(stack, &heap, &len, &tag_off, level, where, fmt, ap);
	va_end(ap);
	if (text == NULL)
		return;
	for (i = 0; i < nb; i++)
		if (dc_sdk_shows(&dc_sdk[i], level))
			dc_emit(&dc_sdk[i], level, text, len, tag_off);
	free(heap);
}

/*
 * Write function of DPDK's log stream. rte_log() sets the level and type of the
 * message for the calling thread before writing, and the stream is unbuffered,
 * so one call carries one whole message (glibc formats an unbuffered stream's
 * output in a local buffer first); a message without its newline still makes one
 * line.
 */
static ssize_t
dc_sdk_write(void *cookie, const char *buf, size_t size)
{
	uint32_t level = dc_level_from_rte(rte_log_cur_msg_loglevel());
	char where[160], type[128];
	const char *p = buf, *end = buf + size, *nl;
	uint32_t i, nb = DC_LOAD(&dc_nb_sdk);
	bool wanted = false;

	RTE_SET_USED(cookie);
	for (i = 0; i < nb && !wanted; i++)
		wanted = dc_sdk_shows(&dc_sdk[i], level);
	if (!wanted)
		return (ssize_t)size;
	dc_lt_name(rte_log_cur_msg_logtype(), type, sizeof(type));
	snprintf(where, sizeof(where), "[%s]", type);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		dc_sdk_line(level, where, "%.*s", (int)(nl - p), p);
		p = nl + 1;
	}
	return (ssize_t)size;
}

/* Point DPDK's log stream at the SDK backends, once (dc_cfg_lock held). */
static doca_error_t
dc_sdk_redirect(void)
{
	cookie_io_functions_t io = { .write = dc_sdk_write };
	FILE *f;

	if (dc_sdk_stream != NULL)
		return DOCA_SUCCESS;
	f = fopencookie(NULL, "w", io);
	if (f == NULL)
		return DOCA_ERROR_NO_MEMORY;
	setvbuf(f, NULL, _IONBF, 0);
	if (rte_openlog_stream(f) != 0) {
		fclose(f);
		return DOCA_ERROR_NO_MEMORY;
	}
	dc_sdk_stream = f;
	return DOCA_SUCCESS;
}

doca_error_t
doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level)
{
	DC_OBJ_ARG(backend, DC_KIND_LOG_BACKEND);
	if (!dc_level_valid(level))
		return DOCA_ERROR_INVALID_VALUE;
	if (!backend->sdk)
		return DOCA_ERROR_NOT_PERMITTED;
	pthread_mutex_lock(&dc_cfg_lock);
	DC_STORE_RELAXED(&backend->sdk_level, level);
	dc_sdk_apply();
	pthread_mutex_unlock(&dc_cfg_lock);
	return DOCA_SUCCESS;
}

doca_error_t
doca_log_level_set_global_sdk_limit(uint32_t level)
{
	uint32_t i;

	if (!dc_level_valid(level))
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&dc_cfg_lock);
	DC_STORE_RELAXED(&dc_global_sdk, level);
	for (i = 0; i < dc_nb_sdk; i++)
		DC_STORE_RELAXED(&dc_sdk[i].sdk_level, level);
	dc_sdk_apply();
	pthread_mutex_unlock(&dc_cfg_lock);
	return DOCA_SUCCESS;
}

uint32_t
doca_log_level_get_global_sdk_limit(void)
{
	return DC_LOAD_RELAXED(&dc_global_sdk);
}
