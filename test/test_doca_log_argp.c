/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * The DOCA compatibility layer's logging and argument parser: line format,
 * level filtering (application and SDK, the SDK level reaching DPDK's log
 * types), strict limits, rate limits, lines from many threads; flags short,
 * long, of several letters, boolean, int, double, repeated, mandatory,
 * singular, unknown, malformed; JSON files; DPDK programs; --help, --version.
 */

#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_log.h>

#include <doca_argp.h>
#include <doca_error.h>
#include <doca_log.h>

DOCA_LOG_REGISTER(TEST::DOCA_LOG_ARGP);

/* The backends live as long as the process: one application and one SDK backend
 * for the whole run, each on its own temporary file. */
static FILE *app_file;
static FILE *sdk_file;
static struct doca_log_backend *app_be;
static struct doca_log_backend *sdk_be;
static int test_logtype;	/* "lib.comch.test": an SDK log type */
static int other_logtype;	/* "pmd.comch.test" */

/* What a backend's file holds since the last call; the file is emptied. */
static char *
take(FILE *f)
{
	static char buf[1 << 20];
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	assert_int_equal(ftruncate(fileno(f), 0), 0);
	rewind(f);
	return buf;
}

static unsigned int
count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

static bool
matches(const char *text, const char *pattern)
{
	regex_t re;
	bool ok;

	assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE | REG_NOSUB), 0);
	ok = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	if (!ok)
		print_error("\"%s\" does not match /%s/\n", text, pattern);
	return ok;
}

static int
group_setup(void **state)
{
	(void)state;
	/* SDK log types exist before the SDK level is set, as the library's do. */
	test_logtype = rte_log_register_type_and_pick_level("lib.comch.test", RTE_LOG_NOTICE);
	other_logtype = rte_log_register_type_and_pick_level("pmd.comch.test", RTE_LOG_NOTICE);
	app_file = tmpfile();
	sdk_file = tmpfile();
	if (test_logtype < 0 || other_logtype < 0 || app_file == NULL || sdk_file == NULL)
		return -1;
	if (doca_log_backend_create_with_file(app_file, &app_be) != DOCA_SUCCESS ||
	    doca_log_backend_create_with_file_sdk(sdk_file, &sdk_be) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(sdk_be, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS)
		return -1;
	return 0;
}

/* Every test starts from the default levels and empty files. */
static int
test_setup(void **state)
{
	(void)state;
	/* A failed test may have left its parser behind. */
	doca_argp_destroy();
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO);
	doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_CRIT);
	doca_log_backend_set_sdk_level(sdk_be, DOCA_LOG_LEVEL_WARNING);
	take(app_file);
	take(sdk_file);
	return 0;
}

/* ---- doca_log ---- */

static void
test_log_line_format(void **state)
{
	char pattern[512];
	int line;

	(void)state;
	line = __LINE__ + 1;
	DOCA_LOG_INFO("hello %d from %s", 42, "the test");
	snprintf(pattern, sizeof(pattern),
		 "^\\[[0-2][0-9]:[0-5][0-9]:[0-6][0-9]:[0-9]{6}\\]\\[%d\\]\\[DOCA\\]\\[INF\\]"
		 "\\[test_doca_log_argp\\.c:%d\\]\\[test_log_line_format\\] "
		 "hello 42 from the test\n$", (int)getpid(), line);
	assert_true(matches(take(app_file), pattern));
	/* Application lines never reach SDK backends. */
	assert_string_equal(take(sdk_file), "");
}

static void
test_log_level_tags(void **state)
{
	const char *out;

	(void)state;
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_TRACE);
	DOCA_LOG_CRIT("c");
	DOCA_LOG_ERR("e");
	DOCA_LOG_WARN("w");
	DOCA_LOG_INFO("i");
	DOCA_LOG_DBG("d");
	/* DOCA_LOG_TRC is compiled out without DOCA_LOGGING_ALLOW_TRACE, as with DOCA. */
	DOCA_LOG_TRC("t %d", 1);
	DOCA_LOG(DOCA_LOG_LEVEL_TRACE, "t2");
	out = take(app_file);
	assert_int_equal(count_lines(out), 6);
	assert_true(matches(out, "\\[DOCA\\]\\[CRT\\]\\[[^]]*\\]\\[test_log_level_tags\\] c$"));
	assert_true(matches(out, "\\[DOCA\\]\\[ERR\\].* e$"));
	assert_true(matches(out, "\\[DOCA\\]\\[WRN\\].* w$"));
	assert_true(matches(out, "\\[DOCA\\]\\[INF\\].* i$"));
	assert_true(matches(out, "\\[DOCA\\]\\[DBG\\].* d$"));
	assert_true(matches(out, "\\[DOCA\\]\\[TRC\\].* t2$"));
	assert_null(strstr(out, " t 1"));
}

static void
test_log_level_filtering(void **state)
{
	const char *out;

	(void)state;
	/* Default: INFO and more severe. */
	DOCA_LOG_DBG("hidden");
	DOCA_LOG_INFO("shown");
	out = take(app_file);
	assert_int_equal(count_lines(out), 1);
	assert_non_null(strstr(out, "shown"));

	assert_int_equal(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_ERROR), DOCA_SUCCESS);
	assert_int_equal(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_ERROR);
	DOCA_LOG_WARN("hidden");
	DOCA_LOG_ERR("shown");
	assert_int_equal(count_lines(take(app_file)), 1);

	/* The upper limit cuts the most severe. */
	assert_int_equal(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_ERROR), DOCA_SUCCESS);
	assert_int_equal(doca_log_level_get_global_upper_limit(), DOCA_LOG_LEVEL_ERROR);
	DOCA_LOG_CRIT("hidden");
	DOCA_LOG_ERR("shown");
	assert_int_equal(count_lines(take(app_file)), 1);

	/* DISABLE as the lower limit: nothing. */
	assert_int_equal(doca_log_backend_set_level_lower_limit(app_be, DOCA_LOG_LEVEL_DISABLE),
			 DOCA_SUCCESS);
	DOCA_LOG_ERR("hidden");
	DOCA_LOG_CRIT("hidden");
	assert_string_equal(take(app_file), "");
	/* Per backend. */
	assert_int_equal(doca_log_backend_set_level_lower_limit(app_be, DOCA_LOG_LEVEL_DEBUG),
			 DOCA_SUCCESS);
	assert_int_equal(doca_log_backend_set_level_upper_limit(app_be, DOCA_LOG_LEVEL_CRIT),
			 DOCA_SUCCESS);
	DOCA_LOG_DBG("shown");
	DOCA_LOG_CRIT("shown");
	assert_int_equal(count_lines(take(app_file)), 2);
}

static void
test_log_bad_arguments(void **state)
{
	struct doca_log_backend *be;
	int src;

	(void)state;
	assert_int_equal(doca_log(55, log_source, "f.c", 1, "f", "x"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log(DOCA_LOG_LEVEL_DISABLE, log_source, "f.c", 1, "f", "x"),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log(DOCA_LOG_LEVEL_ERROR, 1 << 20, "f.c", 1, "f", "x"),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log(DOCA_LOG_LEVEL_ERROR, -1, "f.c", 1, "f", "x"),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_level_set_global_lower_limit(0), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_level_set_global_lower_limit(45), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_level_set_global_upper_limit(80), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_level_set_global_sdk_limit(5), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_backend_set_sdk_level(app_be, DOCA_LOG_LEVEL_INFO),
			 DOCA_ERROR_NOT_PERMITTED);
	assert_int_equal(doca_log_backend_set_level_lower_limit(sdk_be, DOCA_LOG_LEVEL_INFO),
			 DOCA_ERROR_NOT_PERMITTED);
	assert_int_equal(doca_log_backend_set_level_lower_limit(NULL, DOCA_LOG_LEVEL_INFO),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_backend_create_with_file(NULL, &be), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_backend_create_with_file(stderr, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_backend_create_with_fd(-1, &be), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_backend_create_with_buf(NULL, 10, NULL, &be),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_register_source(NULL, &src), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_register_source("X", NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_unregister_source(-5), DOCA_ERROR_INVALID_VALUE);
	assert_true(doca_log_get_max_num_backends() >= 4);
	assert_true(doca_log_get_max_num_backends_sdk() >= 2);
}

static void
test_log_sources(void **state)
{
	int a = -1, b = -1;

	(void)state;
	assert_true(log_source >= 0);	/* DOCA_LOG_REGISTER's constructor ran */
	assert_int_equal(doca_log_register_source("A::B", &a), DOCA_SUCCESS);
	assert_int_equal(doca_log_source_register("C", &b), DOCA_SUCCESS);
	assert_int_not_equal(a, b);
	assert_int_equal(doca_log(DOCA_LOG_LEVEL_INFO, a, "/x/y/z.c", 7, "fn", "from %s", "a"),
			 DOCA_SUCCESS);
	/* An unregistered source still logs: DOCA's unregister does nothing either. */
	assert_int_equal(doca_log_unregister_source(a), DOCA_SUCCESS);
	assert_int_equal(doca_log_source_destroy(b), DOCA_SUCCESS);
	assert_int_equal(doca_log(DOCA_LOG_LEVEL_INFO, b, "w.c", 8, "gn", "from b"), DOCA_SUCCESS);
	assert_true(matches(take(app_file), "\\]\\[INF\\]\\[z\\.c:7\\]\\[fn\\] from a\n"
			    ".*\\[w\\.c:8\\]\\[gn\\] from b\n$"));
}

static char buf_backend[256];
static unsigned int buf_calls;
static char buf_last[256];

static void
buf_handler(char *buf)
{
	assert_ptr_equal(buf, buf_backend);
	buf_calls++;
	snprintf(buf_last, sizeof(buf_last), "%s", buf);
}

static void
test_log_strict_and_buffer(void **state)
{
	static struct doca_log_backend *be;
	char big[400];

	(void)state;
	/* Created once: the test suite may run this test once only anyway. */
	assert_int_equal(doca_log_backend_create_with_buf(buf_backend, sizeof(buf_backend),
							   buf_handler, &be), DOCA_SUCCESS);
	assert_int_equal(doca_log_backend_set_level_lower_limit_strict(be), DOCA_SUCCESS);
	assert_int_equal(doca_log_backend_set_level_lower_limit_strict(sdk_be),
			 DOCA_ERROR_NOT_PERMITTED);
	/* A strict lower limit (INFO) is not made more verbose by a global change... */
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG);
	buf_calls = 0;
	DOCA_LOG_DBG("dbg");
	assert_int_equal(buf_calls, 0);
	assert_int_equal(count_lines(take(app_file)), 1);
	/* ...nor by a direct one, but it may become less verbose. */
	assert_int_equal(doca_log_backend_set_level_lower_limit(be, DOCA_LOG_LEVEL_TRACE),
			 DOCA_SUCCESS);
	DOCA_LOG_DBG("dbg");
	assert_int_equal(buf_calls, 0);
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_ERROR);
	DOCA_LOG_WARN("wrn");
	assert_int_equal(buf_calls, 0);
	DOCA_LOG_ERR("err");
	assert_int_equal(buf_calls, 1);
	assert_true(matches(buf_last, "\\[ERR\\].* err\n$"));
	/* A line longer than the buffer is cut to fit, with its NUL. */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	DOCA_LOG_ERR("%s", big);
	assert_int_equal(buf_calls, 2);
	assert_int_equal(strlen(buf_last), sizeof(buf_backend) - 1);
	take(app_file);

	/* A strict upper limit (CRIT): a global change cannot make it show more severe. */
	assert_int_equal(doca_log_backend_set_level_upper_limit(be, DOCA_LOG_LEVEL_ERROR),
			 DOCA_SUCCESS);
	assert_int_equal(doca_log_backend_set_level_upper_limit_strict(be), DOCA_SUCCESS);
	doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_CRIT);
	DOCA_LOG_CRIT("crt");
	assert_int_equal(buf_calls, 2);
	/* Everything off for the rest of the run. */
	assert_int_equal(doca_log_backend_set_level_lower_limit(be, DOCA_LOG_LEVEL_DISABLE),
			 DOCA_SUCCESS);
	take(app_file);
}

static void
test_log_long_line(void **state)
{
	static char big[10000];
	const char *out;

	(void)state;
	memset(big, 'y', sizeof(big) - 1);
	DOCA_LOG_INFO("<%s>", big);
	out = take(app_file);
	assert_int_equal(count_lines(out), 1);
	assert_non_null(strstr(out, big));
	assert_true(matches(out, "y>\n$"));
}

static void
test_log_rate_limit(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 3 * DOCA_LOG_RATE_LIMIT_BURST; i++)
		DOCA_LOG_RATE_LIMIT_ERR("burst %d", i);
	assert_int_equal(count_lines(take(app_file)), DOCA_LOG_RATE_LIMIT_BURST);
	/* Another call site has its own bucket. */
	DOCA_LOG_RATE_LIMIT_WARN("other site");
	assert_int_equal(count_lines(take(app_file)), 1);
	assert_int_equal(doca_log_rate_limit(DOCA_LOG_LEVEL_INFO, log_source, "f.c", 1, "f", -1,
					     "no bucket"), DOCA_SUCCESS);
	assert_int_equal(count_lines(take(app_file)), 1);
}

#define NB_THREADS 4
#define NB_LINES 300

static void *
log_thread(void *arg)
{
	int i, id = (int)(intptr_t)arg;

	for (i = 0; i < NB_LINES; i++)
		DOCA_LOG_INFO("thread %d line %d %s", id, i, "abcdefghijklmnopqrstuvwxyz");
	return NULL;
}

static void
test_log_threads(void **state)
{
	pthread_t th[NB_THREADS];
	char *out, *line, *save = NULL;
	unsigned int n = 0;
	int i;

	(void)state;
	for (i = 0; i < NB_THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, log_thread, (void *)(intptr_t)i), 0);
	for (i = 0; i < NB_THREADS; i++)
		pthread_join(th[i], NULL);
	out = strdup(take(app_file));
	assert_non_null(out);
	/* Every line whole: no two lines mixed. */
	for (line = strtok_r(out, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		assert_true(matches(line, "^\\[[0-9:]+\\]\\[[0-9]+\\]\\[DOCA\\]\\[INF\\]"
				    "\\[test_doca_log_argp\\.c:[0-9]+\\]\\[log_thread\\] "
				    "thread [0-9] line [0-9]+ abcdefghijklmnopqrstuvwxyz$"));
		n++;
	}
	free(out);
	assert_int_equal(n, NB_THREADS * NB_LINES);
}

static void
test_log_sdk(void **state)
{
	struct doca_log_backend *fd_be;
	const char *out;
	FILE *fd_file;

	(void)state;
	/* The SDK backend's level reached the SDK log types (lib.comch.*, pmd.comch.*). */
	assert_int_equal(rte_log_get_level(test_logtype), RTE_LOG_WARNING);
	assert_int_equal(rte_log_get_level(other_logtype), RTE_LOG_WARNING);
	rte_log(RTE_LOG_ERR, test_logtype, "COMCH_TEST: something %s\n", "broke");
	rte_log(RTE_LOG_INFO, test_logtype, "COMCH_TEST: not shown\n");
	rte_log(RTE_LOG_WARNING, other_logtype, "two\nlines\n");
	out = take(sdk_file);
	assert_int_equal(count_lines(out), 3);
	assert_true(matches(out, "^\\[[0-9:]{15}\\]\\[[0-9]+\\]\\[DOCA\\]\\[ERR\\]"
			    "\\[lib\\.comch\\.test\\] COMCH_TEST: something broke$"));
	assert_true(matches(out, "\\[DOCA\\]\\[WRN\\]\\[pmd\\.comch\\.test\\] two$"));
	assert_true(matches(out, "\\[DOCA\\]\\[WRN\\]\\[pmd\\.comch\\.test\\] lines$"));
	/* SDK lines never reach application backends. */
	assert_string_equal(take(app_file), "");

	/* A second SDK backend, more verbose: DPDK's level follows the most verbose. */
	fd_file = tmpfile();
	assert_non_null(fd_file);
	assert_int_equal(doca_log_backend_create_with_fd_sdk(fileno(fd_file), &fd_be),
			 DOCA_SUCCESS);
	assert_int_equal(doca_log_backend_set_sdk_level(fd_be, DOCA_LOG_LEVEL_DEBUG), DOCA_SUCCESS);
	assert_int_equal(rte_log_get_level(test_logtype), RTE_LOG_DEBUG);
	rte_log(RTE_LOG_DEBUG, test_logtype, "debug line\n");
	assert_true(matches(take(fd_file),
			    "^\\[.*\\]\\[DOCA\\]\\[DBG\\]\\[lib\\.comch\\.test\\] debug line\n$"));
	assert_string_equal(take(sdk_file), "");	/* the WARNING backend shows no DEBUG */

	/* The global SDK level sets every SDK backend. */
	assert_int_equal(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE), DOCA_SUCCESS);
	assert_int_equal(doca_log_level_get_global_sdk_limit(), DOCA_LOG_LEVEL_DISABLE);
	assert_int_equal(rte_log_get_level(test_logtype), 0);
	rte_log(RTE_LOG_CRIT, test_logtype, "nothing\n");
	assert_string_equal(take(sdk_file), "");
	assert_int_equal(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_INFO), DOCA_SUCCESS);
	assert_int_equal(rte_log_get_level(test_logtype), RTE_LOG_INFO);
	rte_log(RTE_LOG_NOTICE, test_logtype, "notice is info\n");
	assert_true(matches(take(sdk_file),
			    "\\[DOCA\\]\\[INF\\]\\[lib\\.comch\\.test\\] notice is info\n$"));
	assert_int_equal(count_lines(take(fd_file)), 1);
	/* The file stays open: the backend lives as long as the process. */
	assert_int_equal(doca_log_backend_set_sdk_level(fd_be, DOCA_LOG_LEVEL_DISABLE),
			 DOCA_SUCCESS);
}

/* ---- doca_argp ---- */

struct cfg {
	char str[64];
	int num;
	bool flag;
	int nb_multi;
	int multi[16];
	double dbl;
	int nb_calls;
	bool validated;
};

static doca_error_t
str_cb(void *param, void *config)
{
	struct cfg *c = config;

	snprintf(c->str, sizeof(c->str), "%s", (char *)param);
	c->nb_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t
num_cb(void *param, void *config)
{
	struct cfg *c = config;

	c->num = *(int *)param;
	c->nb_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t
flag_cb(void *param, void *config)
{
	struct cfg *c = config;

	c->flag = *(bool *)param;
	c->nb_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t
multi_cb(void *param, void *config)
{
	struct cfg *c = config;

	if (c->nb_multi < 16)
		c->multi[c->nb_multi++] = *(int *)param;
	c->nb_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t
dbl_cb(void *param, void *config)
{
	struct cfg *c = config;

	c->dbl = *(double *)param;
	c->nb_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t
failing_cb(void *param, void *config)
{
	(void)param;
	(void)config;
	return DOCA_ERROR_NOT_FOUND;
}

static struct doca_argp_param *
make_param(const char *s, const char *l, enum doca_argp_type type, doca_argp_param_cb_t cb)
{
	struct doca_argp_param *p;

	assert_int_equal(doca_argp_param_create(&p), DOCA_SUCCESS);
	if (s != NULL)
		doca_argp_param_set_short_name(p, s);
	if (l != NULL)
		doca_argp_param_set_long_name(p, l);
	doca_argp_param_set_description(p, "a test flag");
	doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, type);
	return p;
}

/* doca_argp_init() and the usual flags: -s/--str, -n/--num, -b/--flag, -mm/--multi
 * (repeatable), --dbl. */
static void
argp_setup(struct cfg *c)
{
	struct doca_argp_param *p;

	memset(c, 0, sizeof(*c));
	assert_int_equal(doca_argp_init("test_prog", c), DOCA_SUCCESS);
	p = make_param("s", "str", DOCA_ARGP_TYPE_STRING, str_cb);
	doca_argp_param_set_arguments(p, "<text>");
	assert_int_equal(doca_argp_register_param(p), DOCA_SUCCESS);
	assert_int_equal(doca_argp_register_param(make_param("n", "num", DOCA_ARGP_TYPE_INT,
							     num_cb)), DOCA_SUCCESS);
	assert_int_equal(doca_argp_register_param(make_param("b", "flag", DOCA_ARGP_TYPE_BOOLEAN,
							     flag_cb)), DOCA_SUCCESS);
	p = make_param("mm", "multi", DOCA_ARGP_TYPE_INT, multi_cb);
	doca_argp_param_set_multiplicity(p);
	assert_int_equal(doca_argp_register_param(p), DOCA_SUCCESS);
	assert_int_equal(doca_argp_register_param(make_param(NULL, "dbl", DOCA_ARGP_TYPE_DOUBLE,
							     dbl_cb)), DOCA_SUCCESS);
}

#define ARGV(...) ((char *[]){ "test_prog", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "test_prog", __VA_ARGS__ }) / sizeof(char *)))
#define START(...) doca_argp_start(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

/* Parse with the usual flags; returns doca_argp_start()'s result, parser destroyed. */
#define PARSE(c, ...) \
	({ \
		doca_error_t r_; \
		argp_setup(c); \
		r_ = START(__VA_ARGS__); \
		assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS); \
		r_; \
	})

static void
test_argp_short_and_long(void **state)
{
	struct cfg c;

	(void)state;
	assert_int_equal(PARSE(&c, "-s", "abc", "-n", "-5", "-b"), DOCA_SUCCESS);
	assert_string_equal(c.str, "abc");
	assert_int_equal(c.num, -5);
	assert_true(c.flag);
	assert_int_equal(c.nb_calls, 3);

	assert_int_equal(PARSE(&c, "--str=x y", "--num", "123", "--flag", "--dbl", "2.5"),
			 DOCA_SUCCESS);
	assert_string_equal(c.str, "x y");
	assert_int_equal(c.num, 123);
	assert_true(c.flag);
	assert_true(c.dbl == 2.5);

	/* Attached short values, a cluster, an abbreviated long name. */
	assert_int_equal(PARSE(&c, "-sval", "-bn7", "--nu", "8"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE(&c, "-sval", "-bn7"), DOCA_SUCCESS);
	assert_string_equal(c.str, "val");
	assert_int_equal(c.num, 7);
	assert_true(c.flag);
	assert_int_equal(PARSE(&c, "--nu", "8"), DOCA_SUCCESS);
	assert_int_equal(c.num, 8);

	/* Nothing given: no callback. */
	assert_int_equal(doca_argp_init(NULL, &c), DOCA_SUCCESS);
	assert_int_equal(doca_argp_start(1, ARGV(NULL)), DOCA_SUCCESS);
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);
}

static void
test_argp_value_looks_like_flag(void **state)
{
	struct cfg c;

	(void)state;
	/* A value starting with a dash, even one that names a flag, stays a value. */
	assert_int_equal(PARSE(&c, "-s", "-mm", "-mm", "4"), DOCA_SUCCESS);
	assert_string_equal(c.str, "-mm");
	assert_int_equal(c.nb_multi, 1);
	assert_int_equal(c.multi[0], 4);
	assert_int_equal(PARSE(&c, "--str", "--flag"), DOCA_SUCCESS);
	assert_string_equal(c.str, "--flag");
	assert_false(c.flag);
}

static void
test_argp_multiplicity(void **state)
{
	struct cfg c;

	(void)state;
	assert_int_equal(PARSE(&c, "-mm", "1", "--multi", "2", "-mm", "3"), DOCA_SUCCESS);
	assert_int_equal(c.nb_multi, 3);
	assert_int_equal(c.multi[0], 1);
	assert_int_equal(c.multi[1], 2);
	assert_int_equal(c.multi[2], 3);
	/* Without multiplicity a second occurrence is an error, and no callback ran. */
	assert_int_equal(PARSE(&c, "-n", "1", "--num", "2"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(c.nb_calls, 0);
	assert_int_equal(PARSE(&c, "-b", "-b"), DOCA_ERROR_INVALID_VALUE);
}

static void
test_argp_bad_input(void **state)
{
	struct cfg c;

	(void)state;
	assert_int_equal(PARSE(&c, "-x"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), "unknown flag '-x'"));
	assert_int_equal(PARSE(&c, "--nope", "1"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), "'--nope'"));
	assert_int_equal(PARSE(&c, "-n", "12x"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), "expects an integer, not \"12x\""));
	assert_int_equal(PARSE(&c, "-n", "99999999999"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE(&c, "-n", ""), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE(&c, "-n", " 1"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE(&c, "--dbl", "1.5e"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE(&c, "-s", "ok", "-n"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), "flag '-n' needs a value"));
	assert_int_equal(PARSE(&c, "--flag=yes"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), "takes no value"));
	assert_int_equal(PARSE(&c, "stray"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), "unexpected argument 'stray'"));
	assert_int_equal(PARSE(&c, "-b", "--", "-n", "1"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), "takes no DPDK flags"));
	/* A bad value anywhere: no callback ran at all. */
	assert_int_equal(PARSE(&c, "-s", "a", "-n", "x"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(c.nb_calls, 0);
}

static void
test_argp_mandatory_singular(void **state)
{
	struct doca_argp_param *p;
	struct cfg c;

	(void)state;
	argp_setup(&c);
	p = make_param("m", "must", DOCA_ARGP_TYPE_STRING, str_cb);
	doca_argp_param_set_mandatory(p);
	assert_int_equal(doca_argp_register_param(p), DOCA_SUCCESS);
	assert_int_equal(START("-n", "1"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), "flag -m/--must is mandatory"));
	assert_int_equal(c.nb_calls, 0);
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);

	argp_setup(&c);
	p = make_param("m", "must", DOCA_ARGP_TYPE_STRING, str_cb);
	doca_argp_param_set_mandatory(p);
	assert_int_equal(doca_argp_register_param(p), DOCA_SUCCESS);
	assert_int_equal(START("--must", "here"), DOCA_SUCCESS);
	assert_string_equal(c.str, "here");
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);

	argp_setup(&c);
	p = make_param(NULL, "alone", DOCA_ARGP_TYPE_BOOLEAN, flag_cb);
	doca_argp_param_set_singular(p);
	assert_int_equal(doca_argp_register_param(p), DOCA_SUCCESS);
	assert_int_equal(START("--alone", "-n", "1"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);
	argp_setup(&c);
	p = make_param(NULL, "alone", DOCA_ARGP_TYPE_BOOLEAN, flag_cb);
	doca_argp_param_set_singular(p);
	assert_int_equal(doca_argp_register_param(p), DOCA_SUCCESS);
	/* DOCA flags do not count against a singular flag. */
	assert_int_equal(START("--alone", "-l", "50"), DOCA_SUCCESS);
	assert_true(c.flag);
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);
}

static doca_error_t
validate_cb(void *config)
{
	struct cfg *c = config;

	c->validated = true;
	return c->num == 13 ? DOCA_ERROR_INVALID_VALUE : DOCA_SUCCESS;
}

static void
test_argp_callbacks(void **state)
{
	struct cfg c;

	(void)state;
	argp_setup(&c);
	assert_int_equal(doca_argp_register_param(make_param("f", "fail", DOCA_ARGP_TYPE_BOOLEAN,
							     failing_cb)), DOCA_SUCCESS);
	assert_int_equal(START("-f"), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);

	argp_setup(&c);
	assert_int_equal(doca_argp_register_validation_callback(validate_cb), DOCA_SUCCESS);
	assert_int_equal(START("-n", "12"), DOCA_SUCCESS);
	assert_true(c.validated);
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);
	argp_setup(&c);
	assert_int_equal(doca_argp_register_validation_callback(validate_cb), DOCA_SUCCESS);
	assert_int_equal(START("-n", "13"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);
}

static void
test_argp_register_errors(void **state)
{
	struct doca_argp_param *p;
	struct cfg c;

	(void)state;
	assert_int_equal(doca_argp_param_create(&p), DOCA_SUCCESS);
	assert_int_equal(doca_argp_register_param(p), DOCA_ERROR_BAD_STATE);	/* no init */
	assert_int_equal(doca_argp_destroy(), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_argp_param_create(NULL), DOCA_ERROR_INVALID_VALUE);

	argp_setup(&c);
	assert_int_equal(doca_argp_init("again", &c), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_argp_param_create(&p), DOCA_SUCCESS);
	doca_argp_param_set_description(p, "no name");
	doca_argp_param_set_callback(p, str_cb);
	doca_argp_param_set_type(p, DOCA_ARGP_TYPE_STRING);
	assert_int_equal(doca_argp_register_param(p), DOCA_ERROR_INITIALIZATION);
	assert_int_equal(doca_argp_param_create(&p), DOCA_SUCCESS);
	doca_argp_param_set_long_name(p, "no-callback");
	doca_argp_param_set_description(p, "x");
	doca_argp_param_set_type(p, DOCA_ARGP_TYPE_STRING);
	assert_int_equal(doca_argp_register_param(p), DOCA_ERROR_INITIALIZATION);
	assert_int_equal(doca_argp_register_param(make_param("q", NULL, DOCA_ARGP_TYPE_UNKNOWN,
							     str_cb)), DOCA_ERROR_INITIALIZATION);
	/* DOCA's reserved names and the names already taken. */
	assert_int_equal(doca_argp_register_param(make_param("h", "hh", DOCA_ARGP_TYPE_STRING,
							     str_cb)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_argp_register_param(make_param(NULL, "json", DOCA_ARGP_TYPE_STRING,
							     str_cb)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_argp_register_param(make_param("s", NULL, DOCA_ARGP_TYPE_STRING,
							     str_cb)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_argp_register_param(make_param(NULL, "mm", DOCA_ARGP_TYPE_STRING,
							     str_cb)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_argp_register_param(make_param("-z", NULL, DOCA_ARGP_TYPE_STRING,
							     str_cb)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_argp_register_param(make_param(NULL, "a=b", DOCA_ARGP_TYPE_STRING,
							     str_cb)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_argp_register_param(make_param("d", "dev", DOCA_ARGP_TYPE_DEVICE,
							     str_cb)), DOCA_ERROR_NOT_SUPPORTED);
	assert_int_equal(doca_argp_register_param(make_param("o", "obj", DOCA_ARGP_TYPE_JSON_OBJ,
							     str_cb)), DOCA_ERROR_NOT_SUPPORTED);
	/* An unregistered flag is the program's to destroy. */
	p = make_param("u", "unused", DOCA_ARGP_TYPE_STRING, str_cb);
	assert_int_equal(doca_argp_param_destroy(p), DOCA_SUCCESS);
	assert_int_equal(START("-s", "fine"), DOCA_SUCCESS);
	assert_int_equal(START("-s", "twice"), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_argp_register_param(make_param("w", NULL, DOCA_ARGP_TYPE_STRING,
							     str_cb)), DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);
	assert_int_equal(doca_argp_register_validation_callback(validate_cb), DOCA_ERROR_BAD_STATE);
}

static void
test_argp_log_levels(void **state)
{
	int level;
	struct cfg c;

	(void)state;
	assert_int_equal(PARSE(&c, "-l", "60", "--sdk-log-level", "30"), DOCA_SUCCESS);
	assert_int_equal(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_DEBUG);
	assert_int_equal(doca_log_level_get_global_sdk_limit(), DOCA_LOG_LEVEL_ERROR);
	assert_int_equal(rte_log_get_level(test_logtype), RTE_LOG_ERR);
	argp_setup(&c);
	assert_int_equal(START("--log-level=40"), DOCA_SUCCESS);
	assert_int_equal(doca_argp_get_log_level(&level), DOCA_SUCCESS);
	assert_int_equal(level, 40);
	assert_int_equal(doca_argp_get_sdk_log_level(&level), DOCA_SUCCESS);
	assert_int_equal(level, DOCA_LOG_LEVEL_ERROR);	/* not given: the global one */
	assert_int_equal(doca_argp_get_log_level(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_WARNING);
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO);
	/* Not a level. */
	assert_int_equal(PARSE(&c, "-l", "55"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), "55 is not a log level"));
	assert_int_equal(PARSE(&c, "--sdk-log-level", "80"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE(&c, "-l", "info"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_INFO);
}

static char *
write_json(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_doca_argp_XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Parse with the usual flags and a JSON file holding text, then more arguments. */
#define PARSE_JSON(c, text, ...) \
	({ \
		char *path_ = write_json(text); \
		doca_error_t r_ = PARSE(c, "-j", path_, ##__VA_ARGS__); \
		unlink(path_); \
		r_; \
	})

static void
test_argp_json(void **state)
{
	struct cfg c;

	(void)state;
	/* DOCA's layout. */
	assert_int_equal(PARSE_JSON(&c, "{\n"
				    "  \"doca_general_flags\": { \"log-level\": 60 },\n"
				    "  \"doca_program_flags\": {\n"
				    "    \"str\": \"caf\\u00e9 \\\"q\\\" \\ud83d\\ude00\",\n"
				    "    \"num\": -42, \"flag\": true, \"multi\": [1, 2, 3],\n"
				    "    \"dbl\": 1.25e2\n"
				    "  }\n"
				    "}\n"), DOCA_SUCCESS);
	assert_string_equal(c.str, "caf\xc3\xa9 \"q\" \xf0\x9f\x98\x80");
	assert_int_equal(c.num, -42);
	assert_true(c.flag);
	assert_int_equal(c.nb_multi, 3);
	assert_int_equal(c.multi[2], 3);
	assert_true(c.dbl == 125.0);
	assert_int_equal(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_DEBUG);
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO);

	/* The flat layout; a boolean may be false; numbers in strings for INT. */
	assert_int_equal(PARSE_JSON(&c, "{\"str\": \"flat\", \"flag\": false, \"num\": \"9\", "
				    "\"multi\": 5}"), DOCA_SUCCESS);
	assert_string_equal(c.str, "flat");
	assert_false(c.flag);
	assert_int_equal(c.num, 9);
	assert_int_equal(c.nb_multi, 1);
	assert_int_equal(c.multi[0], 5);

	/* The command line overrides the file, repeated flags included. */
	assert_int_equal(PARSE_JSON(&c, "{\"str\": \"file\", \"num\": 1, \"multi\": [1, 2]}",
				    "-s", "cli", "-mm", "7"), DOCA_SUCCESS);
	assert_string_equal(c.str, "cli");
	assert_int_equal(c.num, 1);
	assert_int_equal(c.nb_multi, 1);
	assert_int_equal(c.multi[0], 7);
}

static void
test_argp_json_errors(void **state)
{
	char *path;
	struct cfg c;

	(void)state;
	assert_int_equal(PARSE_JSON(&c, "{\"nope\": 1}"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), "unknown flag \"nope\""));
	assert_int_equal(PARSE_JSON(&c, "{\"num\": 1.5}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"num\": [1, 2]}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"str\": 3}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"flag\": \"yes\"}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"str\": {\"a\": 1}}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"str\": null}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"json\": \"x\"}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"doca_general_flags\": {\"str\": \"x\"}}"),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"doca_program_flags\": [1]}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"doca_dpdk_flags\": {}}"), DOCA_ERROR_NOT_SUPPORTED);
	/* Malformed documents, with the line of the fault. */
	assert_int_equal(PARSE_JSON(&c, "{\n\"str\": \"x\",\n}"), DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(take(sdk_file), ":3: expected a key"));
	assert_int_equal(PARSE_JSON(&c, "[1]"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"str\": \"x\"} extra"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"str\": \"unterminated}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"str\": \"bad \\x escape\"}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"num\": 01}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"num\": tru}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, ""), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "{\"str\": \"\\ud800\"}"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE_JSON(&c, "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]"),
			 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(PARSE(&c, "-j", "/nonexistent/file.json"), DOCA_ERROR_NOT_FOUND);
	assert_int_equal(PARSE(&c, "-j", "/tmp"), DOCA_ERROR_IO_FAILED);
	assert_int_equal(c.nb_calls, 0);

	/* Not pedantic: unknown keys are warnings. */
	path = write_json("{\"nope\": 1, \"num\": 3}");
	argp_setup(&c);
	assert_int_equal(doca_argp_disable_pedantic_config_parsing(), DOCA_SUCCESS);
	assert_int_equal(START("--json", path), DOCA_SUCCESS);
	assert_int_equal(c.num, 3);
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);
	unlink(path);
	assert_non_null(strstr(take(sdk_file), "unknown key \"nope\" ignored"));
}

static int dpdk_argc;
static char dpdk_args[8][32];

static doca_error_t
dpdk_cb(int argc, char **argv)
{
	int i;

	dpdk_argc = argc;
	for (i = 0; i < argc && i < 8; i++)
		snprintf(dpdk_args[i], sizeof(dpdk_args[i]), "%s", argv[i]);
	assert_null(argv[argc]);
	return DOCA_SUCCESS;
}

static void
test_argp_dpdk_program(void **state)
{
	char **argv = ARGV("-l0", "--no-huge", "--", "-s", "x", "-l", "50");
	char *copy[8];
	struct cfg c;

	(void)state;
	memcpy(copy, argv, sizeof(copy));
	argp_setup(&c);
	doca_argp_set_dpdk_program(dpdk_cb);
	assert_int_equal(doca_argp_start(8, argv), DOCA_SUCCESS);
	assert_int_equal(dpdk_argc, 3);
	assert_string_equal(dpdk_args[0], "test_prog");
	assert_string_equal(dpdk_args[1], "-l0");
	assert_string_equal(dpdk_args[2], "--no-huge");
	assert_string_equal(c.str, "x");
	/* The program's argv is left as it was. */
	assert_memory_equal(copy, argv, sizeof(copy));
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);

	/* Without "--", every argument is the program's. */
	argp_setup(&c);
	doca_argp_set_dpdk_program(dpdk_cb);
	assert_int_equal(START("-s", "y"), DOCA_SUCCESS);
	assert_int_equal(dpdk_argc, 1);
	assert_string_equal(c.str, "y");
	assert_int_equal(doca_argp_destroy(), DOCA_SUCCESS);
}

/* A flag the usage leaves out. */
static void
register_hidden(void)
{
	struct doca_argp_param *p = make_param(NULL, "secret", DOCA_ARGP_TYPE_STRING, str_cb);

	doca_argp_param_set_hidden(p);
	assert_int_equal(doca_argp_register_param(p), DOCA_SUCCESS);
}

/* Run doca_argp_start() in a child; its stdout in out, its exit status returned. */
static int
run_child(char *out, size_t size, int argc, char **argv, doca_argp_param_cb_t version_cb)
{
	int fds[2], status;
	struct cfg c;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		argp_setup(&c);
		if (version_cb != NULL)
			doca_argp_register_version_callback(version_cb);
		register_hidden();
		doca_argp_start(argc, argv);
		_exit(99);	/* --help and --version do not come back */
	}
	close(fds[1]);
	while (len < size - 1 && (n = read(fds[0], out + len, size - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void
test_argp_help(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(run_child(out, sizeof(out), 3, ARGV("-b", "--help"), NULL), 0);
	assert_true(matches(out, "^Usage: test_prog \\[DOCA Flags\\] \\[Program Flags\\]$"));
	assert_true(matches(out, "^DOCA Flags:$"));
	assert_true(matches(out, "^  -h, --help {24}Print this help and exit$"));
	assert_true(matches(out, "^  -j, --json <path> {17}Read the flags"));
	assert_true(matches(out, "^  --sdk-log-level {19}SDK log level <10=DISABLE"));
	assert_true(matches(out, "^Program Flags:$"));
	assert_true(matches(out, "^  -s, --str <text> {18}a test flag$"));
	assert_true(matches(out, "^  -mm, --multi {22}a test flag$"));
	assert_true(matches(out, "^  --dbl {29}a test flag$"));
	assert_null(strstr(out, "secret"));
	/* -h wins over the other flags, the parser does not come back. */
	assert_int_equal(run_child(out, sizeof(out), 2, ARGV("-h"), NULL), 0);
	assert_non_null(strstr(out, "Usage: test_prog"));
}

static doca_error_t
version_cb(void *param, void *config)
{
	(void)param;
	(void)config;
	printf("my version\n");
	fflush(stdout);
	doca_argp_destroy();
	exit(3);
}

static void
test_argp_version(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(run_child(out, sizeof(out), 2, ARGV("-v"), NULL), 0);
	assert_true(matches(out, "^test_prog \\(rte_comch [0-9.]+, DOCA compatibility layer\\)$"));
	assert_int_equal(run_child(out, sizeof(out), 2, ARGV("--version"), version_cb), 3);
	assert_string_equal(out, "my version\n");
}

static void
test_argp_usage_on_error(void **state)
{
	char out[4096];
	int fds[2], saved;
	struct cfg c;
	ssize_t n;

	(void)state;
	/* The usage follows an input error, on stderr. */
	assert_int_equal(pipe(fds), 0);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fds[1], STDERR_FILENO);
	assert_int_equal(PARSE(&c, "--bogus"), DOCA_ERROR_INVALID_VALUE);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fds[1]);
	n = read(fds[0], out, sizeof(out) - 1);
	close(fds[0]);
	assert_true(n > 0);
	out[n] = '\0';
	assert_non_null(strstr(out, "Usage: test_prog"));
	assert_non_null(strstr(out, "--str <text>"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_log_line_format, test_setup),
		cmocka_unit_test_setup(test_log_level_tags, test_setup),
		cmocka_unit_test_setup(test_log_level_filtering, test_setup),
		cmocka_unit_test_setup(test_log_bad_arguments, test_setup),
		cmocka_unit_test_setup(test_log_sources, test_setup),
		cmocka_unit_test_setup(test_log_strict_and_buffer, test_setup),
		cmocka_unit_test_setup(test_log_long_line, test_setup),
		cmocka_unit_test_setup(test_log_rate_limit, test_setup),
		cmocka_unit_test_setup(test_log_threads, test_setup),
		cmocka_unit_test_setup(test_log_sdk, test_setup),
		cmocka_unit_test_setup(test_argp_short_and_long, test_setup),
		cmocka_unit_test_setup(test_argp_value_looks_like_flag, test_setup),
		cmocka_unit_test_setup(test_argp_multiplicity, test_setup),
		cmocka_unit_test_setup(test_argp_bad_input, test_setup),
		cmocka_unit_test_setup(test_argp_mandatory_singular, test_setup),
		cmocka_unit_test_setup(test_argp_callbacks, test_setup),
		cmocka_unit_test_setup(test_argp_register_errors, test_setup),
		cmocka_unit_test_setup(test_argp_log_levels, test_setup),
		cmocka_unit_test_setup(test_argp_json, test_setup),
		cmocka_unit_test_setup(test_argp_json_errors, test_setup),
		cmocka_unit_test_setup(test_argp_dpdk_program, test_setup),
		cmocka_unit_test_setup(test_argp_help, test_setup),
		cmocka_unit_test_setup(test_argp_version, test_setup),
		cmocka_unit_test_setup(test_argp_usage_on_error, test_setup),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
