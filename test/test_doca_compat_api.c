/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA compatibility layer: the exported functions no other suite calls, each
 * against its Doxygen block (result and documented errors):
 * doca_argp_usage(), doca_argp_param_set_cli_only(),
 * doca_log_backend_create_standard(), doca_log_backend_create_with_syslog(),
 * doca_log_backend_create_with_syslog_sdk(), doca_log_backend_create_with_buf_sdk()
 * and doca_log_rate_bucket_register() (which only DOCA_LOG_RATE_LIMIT() called).
 *
 * Log backends live as long as the process and the parser is one per process,
 * so every case runs in a forked child (dt_child_run()) that reports through
 * its exit status; this process never calls DOCA itself. A child ends with
 * exit(), not with dt_child_start()'s _exit(): a coverage build then writes the
 * counts of what the child ran.
 *
 * This file defines openlog() and syslog(): the executable's definitions come
 * first in the dynamic lookup, so the layer's syslog backends hand their lines
 * to this file, which records them, and nothing reaches the system log.
 */

/* syslog() is defined here: no fortified inline of it from <syslog.h>. */
#undef _FORTIFY_SOURCE

#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <rte_log.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "test_doca_compat.h"

DOCA_LOG_REGISTER(TEST::DOCA_COMPAT_API);

#define API_OUT_SIZE 16384

/* ------------------------------------------------------------- children */

typedef void (*api_case_fn_t)(void);

struct api_case {
	api_case_fn_t fn;
};

static int
api_child(void *arg)
{
	const struct api_case *c = arg;

	c->fn();
	fflush(NULL);
	/* exit(), not a return to _exit(): the coverage counts are written at exit. */
	exit(0);
}

/* Run fn in a forked child (a check failing in it fails the test). */
static void
api_run(const char *name, api_case_fn_t fn)
{
	struct api_case c = { .fn = fn };
	struct dt_child ch;
	int st;

	st = dt_child_run(&ch, name, api_child, &c);
	dt_child_done(&ch);
	assert_int_equal(st, 0);
}

/* ------------------------------------------------------- captured output */

/* A file descriptor (stdout, stderr) sent to a temporary file for a while. */
struct api_cap {
	int target;
	int saved;
	int fd;
};

static void
api_cap_begin(struct api_cap *c, int target)
{
	char path[64];

	fflush(NULL);
	snprintf(path, sizeof(path), "/tmp/doca-api-%d-XXXXXX", (int)getpid());
	c->target = target;
	c->fd = mkstemp(path);
	DT_ASSERT(c->fd >= 0);
	unlink(path);
	c->saved = dup(target);
	DT_ASSERT(c->saved >= 0);
	DT_ASSERT(dup2(c->fd, target) == target);
}

/*
 * Give the descriptor back; what was written to it meanwhile, NUL-terminated, in
 * buf (API_OUT_SIZE bytes). Check nothing while stderr is captured: a failure
 * would say why in the capture.
 */
static const char *
api_cap_end(struct api_cap *c, char *buf)
{
	size_t len = 0;
	ssize_t n;

	fflush(NULL);
	DT_ASSERT(dup2(c->saved, c->target) == c->target);
	close(c->saved);
	DT_ASSERT(lseek(c->fd, 0, SEEK_SET) == 0);
	while (len < API_OUT_SIZE - 1 &&
	       (n = read(c->fd, buf + len, API_OUT_SIZE - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(c->fd);
	return buf;
}

/* The lines of text that contain s. */
static unsigned int
api_count(const char *text, const char *s)
{
	unsigned int n = 0;
	const char *line = text, *nl;
	char one[4096];
	size_t len;

	while (*line != '\0') {
		nl = strchr(line, '\n');
		len = nl != NULL ? (size_t)(nl - line) : strlen(line);
		snprintf(one, sizeof(one), "%.*s", (int)len, line);
		n += strstr(one, s) != NULL;
		line += len + (nl != NULL);
	}
	return n;
}

/* The lines of text. */
static unsigned int
api_lines(const char *text)
{
	unsigned int n = 0;

	for (; *text != '\0'; text++)
		n += *text == '\n';
	return n;
}

/* Whether text matches the extended regular expression re (^ and $ at lines). */
static bool
api_match(const char *text, const char *re)
{
	regex_t r;
	bool ok;

	DT_ASSERT(regcomp(&r, re, REG_EXTENDED | REG_NEWLINE | REG_NOSUB) == 0);
	ok = regexec(&r, text, 0, NULL, 0) == 0;
	regfree(&r);
	if (!ok)
		fprintf(stderr, "\"%s\" does not match /%s/\n", text, re);
	return ok;
}

/* What a tmpfile() holds since the last call; the file is emptied. */
static const char *
api_take(FILE *f, char *buf)
{
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, API_OUT_SIZE - 1, f);
	buf[n] = '\0';
	DT_ASSERT(ftruncate(fileno(f), 0) == 0);
	rewind(f);
	return buf;
}

/* An SDK log type (lib.comch.*): the SDK level reaches it. */
static int
api_sdk_logtype(void)
{
	int lt = rte_log_register_type_and_pick_level("lib.comch.apitest", RTE_LOG_NOTICE);

	DT_ASSERT(lt >= 0);
	return lt;
}

/* ------------------------------------------------- openlog() and syslog() */

#define API_SYSLOG_MAX 32

static struct {
	unsigned int nb_open;
	char ident[64];
	int option;
	int facility;
	unsigned int nb_lines;
	int prio[API_SYSLOG_MAX];
	char line[API_SYSLOG_MAX][512];
} api_syslog;

static void
api_syslog_record(int priority, const char *format, va_list ap)
{
	unsigned int i = api_syslog.nb_lines++;

	if (i >= API_SYSLOG_MAX)
		return;
	api_syslog.prio[i] = priority;
	vsnprintf(api_syslog.line[i], sizeof(api_syslog.line[i]), format, ap);
}

void
openlog(const char *ident, int option, int facility)
{
	api_syslog.nb_open++;
	snprintf(api_syslog.ident, sizeof(api_syslog.ident), "%s", ident != NULL ? ident : "");
	api_syslog.option = option;
	api_syslog.facility = facility;
}

void
syslog(int priority, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	api_syslog_record(priority, format, ap);
	va_end(ap);
}

/* What a library built with _FORTIFY_SOURCE calls instead of syslog(). */
void __syslog_chk(int priority, int flag, const char *format, ...)
	__attribute__((format(printf, 3, 4)));

void
__syslog_chk(int priority, int flag, const char *format, ...)
{
	va_list ap;

	(void)flag;
	va_start(ap, format);
	api_syslog_record(priority, format, ap);
	va_end(ap);
}

/* --------------------------------------------------------- doca_argp */

struct api_cfg {
	char name[64];
	int num;
	bool flag;
	int nb_calls;
};

static doca_error_t
api_name_cb(void *param, void *config)
{
	struct api_cfg *c = config;

	snprintf(c->name, sizeof(c->name), "%s", (const char *)param);
	c->nb_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t
api_num_cb(void *param, void *config)
{
	struct api_cfg *c = config;

	c->num = *(int *)param;
	c->nb_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t
api_flag_cb(void *param, void *config)
{
	struct api_cfg *c = config;

	c->flag = *(bool *)param;
	c->nb_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t
api_dpdk_cb(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return DOCA_SUCCESS;
}

static struct doca_argp_param *
api_param(const char *s, const char *l, const char *descr, enum doca_argp_type type,
	  doca_argp_param_cb_t cb)
{
	struct doca_argp_param *p = NULL;

	DT_OK(doca_argp_param_create(&p));
	if (s != NULL)
		doca_argp_param_set_short_name(p, s);
	if (l != NULL)
		doca_argp_param_set_long_name(p, l);
	doca_argp_param_set_description(p, descr);
	doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, type);
	return p;
}

#define API_ARGV(...) ((char *[]){ "api_prog", __VA_ARGS__, NULL })
#define API_ARGC(...) ((int)(sizeof((char *[]){ "api_prog", __VA_ARGS__ }) / sizeof(char *)))
#define API_START(...) doca_argp_start(API_ARGC(__VA_ARGS__), API_ARGV(__VA_ARGS__))

/* A JSON file holding text, its path in path (64 bytes); unlink() it. */
static void
api_json(char *path, const char *text)
{
	FILE *f;
	int fd;

	snprintf(path, 64, "/tmp/doca-api-json-XXXXXX");
	fd = mkstemp(path);
	DT_ASSERT(fd >= 0);
	f = fdopen(fd, "w");
	DT_ASSERT(f != NULL);
	fputs(text, f);
	fclose(f);
}

/* doca_argp_usage(): the usage, on stdout. */
static void
child_argp_usage(void)
{
	static char out[API_OUT_SIZE], err[API_OUT_SIZE];
	struct doca_argp_param *p;
	struct api_cap co, ce;
	struct api_cfg cfg;

	memset(&cfg, 0, sizeof(cfg));
	/* No parser yet: no usage to print (the layer logs why). */
	api_cap_begin(&co, STDOUT_FILENO);
	doca_argp_usage();
	api_cap_end(&co, out);
	DT_STREQ(out, "");

	DT_OK(doca_argp_init("api_prog", &cfg));
	p = api_param("s", "str", "a string flag", DOCA_ARGP_TYPE_STRING, api_name_cb);
	doca_argp_param_set_arguments(p, "<text>");
	DT_OK(doca_argp_register_param(p));
	DT_OK(doca_argp_register_param(api_param("b", "flag", "a boolean flag",
						 DOCA_ARGP_TYPE_BOOLEAN, api_flag_cb)));
	p = api_param(NULL, "hid", "a hidden flag", DOCA_ARGP_TYPE_INT, api_num_cb);
	doca_argp_param_set_hidden(p);
	DT_OK(doca_argp_register_param(p));

	api_cap_begin(&co, STDOUT_FILENO);
	api_cap_begin(&ce, STDERR_FILENO);
	doca_argp_usage();
	api_cap_end(&ce, err);
	api_cap_end(&co, out);
	/* Program name, DOCA flags, program flags; on stdout only. */
	DT_ASSERT(api_match(out, "^Usage: api_prog \\[DOCA Flags\\] \\[Program Flags\\]$"));
	DT_ASSERT(api_match(out, "^DOCA Flags:$"));
	DT_ASSERT(api_match(out, "^  -h, --help +Print this help and exit$"));
	DT_ASSERT(api_match(out, "^  -v, --version +Print the version and exit$"));
	DT_ASSERT(api_match(out, "^  -l, --log-level +Program log level"));
	DT_ASSERT(api_match(out, "^  --sdk-log-level +SDK log level"));
	DT_ASSERT(api_match(out, "^  -j, --json <path> +Read the flags from a JSON file$"));
	DT_ASSERT(api_match(out, "^Program Flags:$"));
	DT_ASSERT(api_match(out, "^  -s, --str <text> +a string flag$"));
	DT_ASSERT(api_match(out, "^  -b, --flag +a boolean flag$"));
	/* The DOCA flags come first, the program's after their heading. */
	DT_ASSERT(strstr(out, "DOCA Flags:") < strstr(out, "--help"));
	DT_ASSERT(strstr(out, "--help") < strstr(out, "Program Flags:"));
	DT_ASSERT(strstr(out, "Program Flags:") < strstr(out, "--str"));
	/* A hidden flag is left out. */
	DT_ASSERT(strstr(out, "hid") == NULL);
	DT_EQ(api_count(err, "Usage"), 0);
	/* Printing the usage neither parses nor calls a callback, and may be repeated. */
	DT_EQ(cfg.nb_calls, 0);
	api_cap_begin(&co, STDOUT_FILENO);
	doca_argp_usage();
	doca_argp_usage();
	api_cap_end(&co, out);
	DT_EQ(api_count(out, "Usage: api_prog "), 2);

	/* A DPDK program: its DPDK flags come before "--". */
	doca_argp_set_dpdk_program(api_dpdk_cb);
	api_cap_begin(&co, STDOUT_FILENO);
	doca_argp_usage();
	api_cap_end(&co, out);
	DT_ASSERT(api_match(out, "^Usage: api_prog \\[DPDK Flags\\] -- \\[DOCA Flags\\] "
			    "\\[Program Flags\\]$"));
	DT_OK(doca_argp_destroy());

	/* No program name: the base name of the argv[0] doca_argp_start() got. */
	DT_OK(doca_argp_init(NULL, &cfg));
	DT_OK(doca_argp_start(1, (char *[]){ "/some/dir/api_base", NULL }));
	api_cap_begin(&co, STDOUT_FILENO);
	doca_argp_usage();
	api_cap_end(&co, out);
	DT_ASSERT(api_match(out, "^Usage: api_base \\[DOCA Flags\\] \\[Program Flags\\]$"));
	DT_OK(doca_argp_destroy());

	/* Destroyed: no usage again. */
	api_cap_begin(&co, STDOUT_FILENO);
	doca_argp_usage();
	api_cap_end(&co, out);
	DT_STREQ(out, "");
}

static void
test_argp_usage(void **state)
{
	(void)state;
	api_run("argp_usage", child_argp_usage);
}

/* The parser with --name (CLI only if cli_only) and -n/--num. */
static void
api_cli_setup(struct api_cfg *cfg, bool cli_only)
{
	struct doca_argp_param *p;

	memset(cfg, 0, sizeof(*cfg));
	DT_OK(doca_argp_init("api_prog", cfg));
	p = api_param(NULL, "name", "a name", DOCA_ARGP_TYPE_STRING, api_name_cb);
	if (cli_only)
		doca_argp_param_set_cli_only(p);
	DT_OK(doca_argp_register_param(p));
	DT_OK(doca_argp_register_param(api_param("n", "num", "a number", DOCA_ARGP_TYPE_INT,
						 api_num_cb)));
}

/* Parse "-j <file holding json>" then more arguments; the parser is destroyed. */
static doca_error_t
api_cli_parse(struct api_cfg *cfg, bool cli_only, const char *json, int argc, char **argv)
{
	char path[64], *v[8];
	doca_error_t r;
	int i, n = 0;

	api_cli_setup(cfg, cli_only);
	v[n++] = (char *)"api_prog";
	if (json != NULL) {
		api_json(path, json);
		v[n++] = (char *)"-j";
		v[n++] = path;
	}
	for (i = 0; i < argc && n < 7; i++)
		v[n++] = argv[i];
	v[n] = NULL;
	r = doca_argp_start(n, v);
	if (json != NULL)
		unlink(path);
	DT_OK(doca_argp_destroy());
	return r;
}

/* doca_argp_param_set_cli_only(): the flag is refused in a JSON file. */
static void
child_argp_cli_only(void)
{
	static char err[API_OUT_SIZE];
	struct api_cfg cfg;
	struct api_cap ce;
	doca_error_t r;

	/* Without the mark, the flag may come from a JSON file (the control). */
	DT_OK(api_cli_parse(&cfg, false, "{\"name\": \"from-json\"}", 0, NULL));
	DT_STREQ(cfg.name, "from-json");

	/* With it: refused in either JSON layout, as bad input; no callback runs. */
	api_cap_begin(&ce, STDERR_FILENO);
	r = api_cli_parse(&cfg, true, "{\"name\": \"from-json\", \"num\": 4}", 0, NULL);
	api_cap_end(&ce, err);
	DT_ERR(r, DOCA_ERROR_INVALID_VALUE);
	DT_EQ(cfg.nb_calls, 0);
	DT_STREQ(cfg.name, "");
	/* bad input: logged, the usage printed on stderr */
	DT_ASSERT(strstr(err, "Usage: api_prog") != NULL);
	DT_ERR(api_cli_parse(&cfg, true,
			     "{\"doca_program_flags\": {\"name\": \"from-json\"}}", 0, NULL),
	       DOCA_ERROR_INVALID_VALUE);
	DT_EQ(cfg.nb_calls, 0);

	/* On the command line it is accepted. */
	DT_OK(api_cli_parse(&cfg, true, NULL, 2, (char *[]){ "--name", "from-cli" }));
	DT_STREQ(cfg.name, "from-cli");
	DT_EQ(cfg.nb_calls, 1);
	/* The mark is the flag's own: the other flags still come from JSON. */
	DT_OK(api_cli_parse(&cfg, true, "{\"num\": 7}", 2, (char *[]){ "--name", "cli" }));
	DT_STREQ(cfg.name, "cli");
	DT_EQ(cfg.num, 7);
	DT_EQ(cfg.nb_calls, 2);
	DT_OK(api_cli_parse(&cfg, true, "{\"doca_program_flags\": {\"num\": 8}}", 0, NULL));
	DT_EQ(cfg.num, 8);
	DT_STREQ(cfg.name, "");
}

static void
test_argp_cli_only(void **state)
{
	(void)state;
	api_run("argp_cli_only", child_argp_cli_only);
}

/* ----------------------------------------------------------- doca_log */

static char *api_buf;
static size_t api_buf_cap;
static unsigned int api_buf_calls;
static char api_buf_last[API_OUT_SIZE];
static bool api_buf_wrong;	/* a handler got another buffer than its backend's */

static void
api_buf_handler(char *buf)
{
	if (buf != api_buf)
		api_buf_wrong = true;
	api_buf_calls++;
	snprintf(api_buf_last, sizeof(api_buf_last), "%s", buf);
}

/* The spare buffers of backends made to fill the tables (live until exit). */
static char *api_spare;

static void
api_spare_handler(char *buf)
{
	(void)buf;
}

/* doca_log_backend_create_with_buf_sdk(): SDK lines into a buffer, a handler per line. */
static void
child_log_buf_sdk(void)
{
	struct doca_log_backend *be = NULL, *other = NULL;
	char big[600], re[256];
	uint32_t i, max;
	int lt;

	api_buf_cap = 256;
	api_buf = calloc(1, api_buf_cap);
	DT_ASSERT(api_buf != NULL);
	/* Documented errors. */
	DT_ERR(doca_log_backend_create_with_buf_sdk(NULL, api_buf_cap, api_buf_handler, &be),
	       DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_log_backend_create_with_buf_sdk(api_buf, 0, api_buf_handler, &be),
	       DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_log_backend_create_with_buf_sdk(api_buf, api_buf_cap, NULL, &be),
	       DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_log_backend_create_with_buf_sdk(api_buf, api_buf_cap, api_buf_handler, NULL),
	       DOCA_ERROR_INVALID_VALUE);
	DT_ASSERT(be == NULL);

	/* Its level starts at the global SDK level, which reaches the SDK log types. */
	lt = api_sdk_logtype();
	DT_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_WARNING));
	DT_OK(doca_log_backend_create_with_buf_sdk(api_buf, api_buf_cap, api_buf_handler, &be));
	DT_ASSERT(be != NULL);
	DT_EQ(rte_log_get_level(lt), RTE_LOG_WARNING);
	rte_log(RTE_LOG_ERR, lt, "sdk line %d\n", 1);
	DT_EQ(api_buf_calls, 1);
	DT_ASSERT(!api_buf_wrong);
	snprintf(re, sizeof(re), "^\\[[0-9]{2}:[0-9]{2}:[0-9]{2}:[0-9]{6}\\]\\[%d\\]\\[DOCA\\]"
		 "\\[ERR\\]\\[lib\\.comch\\.apitest\\] sdk line 1\n$", (int)getpid());
	DT_ASSERT(api_match(api_buf_last, re));
	rte_log(RTE_LOG_INFO, lt, "below the level\n");
	DT_EQ(api_buf_calls, 1);
	/* One handler call per line. */
	rte_log(RTE_LOG_WARNING, lt, "one\ntwo\n");
	DT_EQ(api_buf_calls, 3);
	DT_ASSERT(api_match(api_buf_last, "\\[DOCA\\]\\[WRN\\]\\[lib\\.comch\\.apitest\\] two\n$"));
	/* Application lines are not SDK lines. */
	DOCA_LOG_CRIT("an application line");
	DT_EQ(api_buf_calls, 3);
	/* It is an SDK backend: its level is the SDK level, not application limits. */
	DT_ERR(doca_log_backend_set_level_lower_limit(be, DOCA_LOG_LEVEL_DEBUG),
	       DOCA_ERROR_NOT_PERMITTED);
	DT_OK(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG));
	DT_EQ(rte_log_get_level(lt), RTE_LOG_DEBUG);
	rte_log(RTE_LOG_DEBUG, lt, "debug\n");
	DT_EQ(api_buf_calls, 4);
	DT_ASSERT(api_match(api_buf_last, "\\[DBG\\]\\[lib\\.comch\\.apitest\\] debug\n$"));
	/* A line longer than capacity - 1 is cut to fit, with its NUL. */
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	rte_log(RTE_LOG_ERR, lt, "%s\n", big);
	DT_EQ(api_buf_calls, 5);
	DT_EQ(strlen(api_buf_last), api_buf_cap - 1);
	DT_ASSERT(api_buf[api_buf_cap - 1] == '\0');

	/* NO_MEMORY once the process has doca_log_get_max_num_backends_sdk(). */
	max = doca_log_get_max_num_backends_sdk();
	DT_ASSERT(max >= 2);
	api_spare = calloc(max, 64);
	DT_ASSERT(api_spare != NULL);
	for (i = 1; i < max; i++)
		DT_OK(doca_log_backend_create_with_buf_sdk(api_spare + 64 * i, 64,
							   api_spare_handler, &other));
	other = NULL;
	DT_ERR(doca_log_backend_create_with_buf_sdk(api_spare, 64, api_spare_handler, &other),
	       DOCA_ERROR_NO_MEMORY);
	DT_ASSERT(other == NULL);
	/* The backends made still work. */
	rte_log(RTE_LOG_ERR, lt, "still here\n");
	DT_ASSERT(api_match(api_buf_last, "\\] still here\n$"));
}

static void
test_log_buf_sdk(void **state)
{
	(void)state;
	api_run("log_buf_sdk", child_log_buf_sdk);
}

/* doca_log_backend_create_with_syslog(): application lines to syslog. */
static void
child_log_syslog(void)
{
	static const char ident[] = "api-ident";
	struct doca_log_backend *be = NULL, *be2 = NULL;
	uint32_t i, max;
	char re[256];
	int line;

	/* Documented errors, and no syslog identity taken by them. */
	DT_ERR(doca_log_backend_create_with_syslog(NULL, &be), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_log_backend_create_with_syslog(ident, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ASSERT(be == NULL);
	DT_EQ(api_syslog.nb_open, 0);

	DT_OK(doca_log_backend_create_with_syslog(ident, &be));
	DT_ASSERT(be != NULL);
	/* The first syslog backend's name is the process's syslog identity. */
	DT_EQ(api_syslog.nb_open, 1);
	DT_STREQ(api_syslog.ident, ident);

	/* A line: DOCA's, syslog stamping time and pid itself, at the matching priority. */
	line = __LINE__ + 1;
	DOCA_LOG_ERR("hello %d", 7);
	DT_EQ(api_syslog.nb_lines, 1);
	DT_EQ(api_syslog.prio[0], LOG_ERR);
	snprintf(re, sizeof(re), "^\\[DOCA\\]\\[ERR\\]\\[test_doca_compat_api\\.c:%d\\]"
		 "\\[child_log_syslog\\] hello 7$", line);
	DT_ASSERT(api_match(api_syslog.line[0], re));
	DOCA_LOG_CRIT("c");
	DOCA_LOG_WARN("w");
	DOCA_LOG_INFO("i");
	/* Its limits start at the global ones (INFO): no DEBUG. */
	DOCA_LOG_DBG("d");
	DT_EQ(api_syslog.nb_lines, 4);
	DT_EQ(api_syslog.prio[1], LOG_CRIT);
	DT_ASSERT(api_match(api_syslog.line[1], "^\\[DOCA\\]\\[CRT\\].* c$"));
	DT_EQ(api_syslog.prio[2], LOG_WARNING);
	DT_ASSERT(api_match(api_syslog.line[2], "^\\[DOCA\\]\\[WRN\\].* w$"));
	DT_EQ(api_syslog.prio[3], LOG_INFO);
	DT_ASSERT(api_match(api_syslog.line[3], "^\\[DOCA\\]\\[INF\\].* i$"));
	/* An application backend like the others. */
	DT_OK(doca_log_backend_set_level_lower_limit(be, DOCA_LOG_LEVEL_DEBUG));
	DOCA_LOG_DBG("d");
	DT_EQ(api_syslog.nb_lines, 5);
	DT_EQ(api_syslog.prio[4], LOG_DEBUG);
	DT_ASSERT(api_match(api_syslog.line[4], "^\\[DOCA\\]\\[DBG\\].* d$"));
	DT_ERR(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG), DOCA_ERROR_NOT_PERMITTED);
	/* SDK lines are not application lines (and stay on stderr: no SDK backend). */
	rte_log(RTE_LOG_ERR, api_sdk_logtype(), "an SDK line\n");
	DT_EQ(api_syslog.nb_lines, 5);

	/* A second syslog backend: the identity stays the first one's. */
	DT_OK(doca_log_backend_create_with_syslog("api-other", &be2));
	DT_ASSERT(be2 != NULL && be2 != be);
	DT_EQ(api_syslog.nb_open, 1);
	DT_STREQ(api_syslog.ident, ident);
	DOCA_LOG_ERR("twice");
	DT_EQ(api_syslog.nb_lines, 7);
	DT_ASSERT(api_match(api_syslog.line[5], "\\] twice$"));
	DT_ASSERT(api_match(api_syslog.line[6], "\\] twice$"));

	/* NO_MEMORY once the process has doca_log_get_max_num_backends(). */
	DT_OK(doca_log_backend_set_level_lower_limit(be, DOCA_LOG_LEVEL_DISABLE));
	DT_OK(doca_log_backend_set_level_lower_limit(be2, DOCA_LOG_LEVEL_DISABLE));
	DT_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DISABLE));
	max = doca_log_get_max_num_backends();
	for (i = 2; i < max; i++)
		DT_OK(doca_log_backend_create_with_syslog("api-more", &be2));
	be2 = NULL;
	DT_ERR(doca_log_backend_create_with_syslog(ident, &be2), DOCA_ERROR_NO_MEMORY);
	DT_ASSERT(be2 == NULL);
	DT_EQ(api_syslog.nb_open, 1);
}

static void
test_log_syslog(void **state)
{
	(void)state;
	api_run("log_syslog", child_log_syslog);
}

/* doca_log_backend_create_with_syslog_sdk(): SDK lines to syslog. */
static void
child_log_syslog_sdk(void)
{
	static const char ident[] = "api-sdk-ident";
	struct doca_log_backend *be = NULL, *app = NULL;
	uint32_t i, max;
	int lt;

	DT_ERR(doca_log_backend_create_with_syslog_sdk(NULL, &be), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_log_backend_create_with_syslog_sdk(ident, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ASSERT(be == NULL);
	DT_EQ(api_syslog.nb_open, 0);

	lt = api_sdk_logtype();
	DT_OK(doca_log_backend_create_with_syslog_sdk(ident, &be));
	DT_ASSERT(be != NULL);
	DT_EQ(api_syslog.nb_open, 1);
	DT_STREQ(api_syslog.ident, ident);
	/* Its level starts at the global SDK level (INFO), which reaches DPDK's. */
	DT_EQ(doca_log_level_get_global_sdk_limit(), DOCA_LOG_LEVEL_INFO);
	DT_EQ(rte_log_get_level(lt), RTE_LOG_INFO);
	rte_log(RTE_LOG_ERR, lt, "sdk %s\n", "error");
	DT_EQ(api_syslog.nb_lines, 1);
	DT_EQ(api_syslog.prio[0], LOG_ERR);
	DT_ASSERT(api_match(api_syslog.line[0],
			    "^\\[DOCA\\]\\[ERR\\]\\[lib\\.comch\\.apitest\\] sdk error$"));
	rte_log(RTE_LOG_NOTICE, lt, "notice\n");
	rte_log(RTE_LOG_CRIT, lt, "crit\n");
	rte_log(RTE_LOG_DEBUG, lt, "hidden\n");
	DT_EQ(api_syslog.nb_lines, 3);
	DT_EQ(api_syslog.prio[1], LOG_INFO);
	DT_ASSERT(api_match(api_syslog.line[1], "^\\[DOCA\\]\\[INF\\]\\[[^]]*\\] notice$"));
	DT_EQ(api_syslog.prio[2], LOG_CRIT);
	DT_ASSERT(api_match(api_syslog.line[2], "^\\[DOCA\\]\\[CRT\\]\\[[^]]*\\] crit$"));
	/* Application lines are not SDK lines. */
	DOCA_LOG_CRIT("an application line");
	DT_EQ(api_syslog.nb_lines, 3);
	/* An SDK backend. */
	DT_ERR(doca_log_backend_set_level_upper_limit(be, DOCA_LOG_LEVEL_CRIT),
	       DOCA_ERROR_NOT_PERMITTED);
	DT_OK(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG));
	DT_EQ(rte_log_get_level(lt), RTE_LOG_DEBUG);
	rte_log(RTE_LOG_DEBUG, lt, "debug\n");
	DT_EQ(api_syslog.nb_lines, 4);
	DT_EQ(api_syslog.prio[3], LOG_DEBUG);

	/* One syslog identity per process: an application syslog backend keeps it. */
	DT_OK(doca_log_backend_create_with_syslog("api-app-ident", &app));
	DT_EQ(api_syslog.nb_open, 1);
	DT_STREQ(api_syslog.ident, ident);

	/* NO_MEMORY once the process has doca_log_get_max_num_backends_sdk(). */
	DT_OK(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DISABLE));
	DT_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE));
	max = doca_log_get_max_num_backends_sdk();
	for (i = 1; i < max; i++)
		DT_OK(doca_log_backend_create_with_syslog_sdk("api-more", &app));
	app = NULL;
	DT_ERR(doca_log_backend_create_with_syslog_sdk(ident, &app), DOCA_ERROR_NO_MEMORY);
	DT_ASSERT(app == NULL);
}

static void
test_log_syslog_sdk(void **state)
{
	(void)state;
	api_run("log_syslog_sdk", child_log_syslog_sdk);
}

/* Log one line per level given (CRIT to DEBUG: "c", "e", "w", "i", "d") tagged tag. */
static void
api_log_levels(const char *levels, const char *tag)
{
	for (; *levels != '\0'; levels++) {
		switch (*levels) {
		case 'c':
			DOCA_LOG_CRIT("crit-%s", tag);
			break;
		case 'e':
			DOCA_LOG_ERR("err-%s", tag);
			break;
		case 'w':
			DOCA_LOG_WARN("warn-%s", tag);
			break;
		case 'i':
			DOCA_LOG_INFO("info-%s", tag);
			break;
		default:
			DOCA_LOG_DBG("dbg-%s", tag);
			break;
		}
	}
}

/* Log levels (see api_log_levels()) with stdout and stderr captured into out and err. */
static void
api_log_std(const char *levels, const char *tag, char *out, char *err)
{
	struct api_cap co, ce;

	api_cap_begin(&co, STDOUT_FILENO);
	api_cap_begin(&ce, STDERR_FILENO);
	api_log_levels(levels, tag);
	api_cap_end(&ce, err);
	api_cap_end(&co, out);
}

/* doca_log_backend_create_standard(): INFO and more verbose on stdout, WARNING up on stderr. */
static void
child_log_standard(void)
{
	static char out[API_OUT_SIZE], err[API_OUT_SIZE];

	/* No application backend yet: nothing printed. */
	api_log_std("cewid", "none", out, err);
	DT_STREQ(out, "");
	DT_STREQ(err, "");

	DT_OK(doca_log_backend_create_standard());
	/* Default limits (INFO, CRIT). */
	api_log_std("cewid", "a", out, err);
	DT_EQ(api_lines(out), 1);
	DT_ASSERT(api_match(out, "^\\[[0-9:]+\\]\\[[0-9]+\\]\\[DOCA\\]\\[INF\\]"
			    "\\[test_doca_compat_api\\.c:[0-9]+\\]\\[api_log_levels\\] info-a$"));
	DT_EQ(api_lines(err), 3);
	DT_EQ(api_count(err, "[DOCA][CRT]"), 1);
	DT_EQ(api_count(err, "] crit-a"), 1);
	DT_EQ(api_count(err, "] err-a"), 1);
	DT_EQ(api_count(err, "] warn-a"), 1);

	/* -l 30 silences warnings (and INFO on stdout). */
	DT_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_ERROR));
	api_log_std("cewid", "b", out, err);
	DT_STREQ(out, "");
	DT_EQ(api_lines(err), 2);
	DT_EQ(api_count(err, "] crit-b"), 1);
	DT_EQ(api_count(err, "] err-b"), 1);

	/* -l 60 adds debug lines, to stdout only. */
	DT_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	api_log_std("cewid", "c", out, err);
	DT_EQ(api_lines(out), 2);
	DT_EQ(api_count(out, "] info-c"), 1);
	DT_EQ(api_count(out, "[DOCA][DBG]"), 1);
	DT_EQ(api_count(out, "] dbg-c"), 1);
	DT_EQ(api_lines(err), 3);
	DT_EQ(api_count(err, "dbg-c"), 0);
	DT_EQ(api_count(err, "info-c"), 0);

	/* stderr shows up to the global upper limit. */
	DT_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_ERROR));
	api_log_std("cewid", "d", out, err);
	DT_EQ(api_lines(out), 2);
	DT_EQ(api_lines(err), 2);
	DT_EQ(api_count(err, "crit-d"), 0);
	DT_EQ(api_count(out, "crit-d"), 0);
	DT_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_CRIT));
	DT_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));

	/* Calling it again does nothing: no second pair, every line once. */
	DT_OK(doca_log_backend_create_standard());
	api_log_std("ei", "e", out, err);
	DT_EQ(api_lines(out), 1);
	DT_EQ(api_count(out, "] info-e"), 1);
	DT_EQ(api_lines(err), 1);
	DT_EQ(api_count(err, "] err-e"), 1);
}

static void
test_log_standard(void **state)
{
	(void)state;
	api_run("log_standard", child_log_standard);
}

/* doca_log_backend_create_standard(): NO_MEMORY when the pair does not fit. */
static void
child_log_standard_no_memory(void)
{
	static char out[API_OUT_SIZE], err[API_OUT_SIZE];
	struct doca_log_backend *be;
	uint32_t i, max = doca_log_get_max_num_backends();
	int fd = open("/dev/null", O_WRONLY);

	DT_ASSERT(fd >= 0);
	DT_ASSERT(max >= 3);
	/* One application backend left: not two. */
	for (i = 0; i + 1 < max; i++)
		DT_OK(doca_log_backend_create_with_fd(fd, &be));
	DT_ERR(doca_log_backend_create_standard(), DOCA_ERROR_NO_MEMORY);
	/* Nothing made: no line on stdout or stderr... */
	api_log_std("cewid", "x", out, err);
	DT_STREQ(out, "");
	DT_STREQ(err, "");
	/* ...and the last backend is still there to be had. */
	DT_OK(doca_log_backend_create_with_fd(fd, &be));
	DT_ERR(doca_log_backend_create_standard(), DOCA_ERROR_NO_MEMORY);
}

static void
test_log_standard_no_memory(void **state)
{
	(void)state;
	api_run("log_standard_nomem", child_log_standard_no_memory);
}

/* Call doca_log_rate_limit() n times with bucket; the lines app shows. */
static unsigned int
api_rate_burst(FILE *app, int bucket, const char *tag, unsigned int n)
{
	static char out[API_OUT_SIZE];
	unsigned int i;

	for (i = 0; i < n; i++)
		DT_OK(doca_log_rate_limit(DOCA_LOG_LEVEL_ERROR, log_source, __FILE__, __LINE__,
					  __func__, bucket, "%s %u", tag, i));
	return api_count(api_take(app, out), tag);
}

/* doca_log_rate_bucket_register(): a bucket per call site, and its errors. */
static void
child_log_rate_bucket(void)
{
	struct doca_log_backend *be;
	int b1 = -1, b2 = -1, b3 = -1, b4, i;
	unsigned int n;
	doca_error_t r = DOCA_SUCCESS;
	uint64_t t0;
	FILE *app = tmpfile();

	DT_ASSERT(app != NULL);
	DT_OK(doca_log_backend_create_with_file(app, &be));

	/* Documented errors: a bad source, a NULL bucket. */
	DT_ERR(doca_log_rate_bucket_register(log_source, NULL), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_log_rate_bucket_register(-1, &b1), DOCA_ERROR_INVALID_VALUE);
	DT_ERR(doca_log_rate_bucket_register(1 << 20, &b1), DOCA_ERROR_INVALID_VALUE);
	DT_EQ(b1, -1);

	/* A bucket's first window opens when it is registered. */
	t0 = dt_now_ms();
	DT_OK(doca_log_rate_bucket_register(log_source, &b1));
	DT_ASSERT(b1 >= 0);
	DT_OK(doca_log_rate_bucket_register(log_source, &b2));
	DT_ASSERT(b2 >= 0 && b2 != b1);
	/* A call site that has its bucket keeps it (DOCA_LOG_RATE_LIMIT() may race to it). */
	i = b1;
	DT_OK(doca_log_rate_bucket_register(log_source, &b1));
	DT_EQ(b1, i);
	/* What DOCA_LOG_RATE_LIMIT() asks: the site's bucket, registered once. */
	DT_EQ(rte_comch_doca_log_rate_bucket(log_source, &b1), b1);
	DT_EQ(rte_comch_doca_log_rate_bucket(log_source, NULL), -1);
	b4 = -1;
	DT_EQ(rte_comch_doca_log_rate_bucket(-1, &b4), -1);
	DT_EQ(b4, -1);
	i = rte_comch_doca_log_rate_bucket(log_source, &b4);
	DT_ASSERT(i >= 0 && i != b1 && i != b2);
	DT_EQ(b4, i);
	DT_EQ(rte_comch_doca_log_rate_bucket(log_source, &b4), i);

	/* A bucket lets DOCA_LOG_RATE_LIMIT_BURST lines through per window... */
	n = api_rate_burst(app, b1, "bucket-one", 3 * DOCA_LOG_RATE_LIMIT_BURST);
	if (dt_now_ms() - t0 < DOCA_LOG_RATE_LIMIT_PERIOD_MS)
		DT_EQ(n, DOCA_LOG_RATE_LIMIT_BURST);	/* all in its first window */
	else
		DT_ASSERT(n >= DOCA_LOG_RATE_LIMIT_BURST);	/* a stalled run: more windows */
	/* ...and another call site's bucket is its own. */
	n = api_rate_burst(app, b2, "bucket-two", 1);
	DT_EQ(n, 1);

	/* Every bucket taken: NO_MEMORY, the bucket left unset... */
	for (i = 0; i < (1 << 20); i++) {
		b3 = -1;
		r = doca_log_rate_bucket_register(log_source, &b3);
		if (r != DOCA_SUCCESS)
			break;
	}
	DT_ERR(r, DOCA_ERROR_NO_MEMORY);
	DT_EQ(b3, -1);
	DT_ERR(doca_log_rate_bucket_register(log_source, &b3), DOCA_ERROR_NO_MEMORY);
	DT_EQ(b3, -1);
	DT_EQ(rte_comch_doca_log_rate_bucket(log_source, &b3), -1);
	DT_EQ(b3, -1);
	/* ...so that the call site logs without a limit. */
	n = api_rate_burst(app, b3, "no-bucket", 3 * DOCA_LOG_RATE_LIMIT_BURST);
	DT_EQ(n, 3 * DOCA_LOG_RATE_LIMIT_BURST);
}

static void
test_log_rate_bucket(void **state)
{
	(void)state;
	api_run("log_rate_bucket", child_log_rate_bucket);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_argp_usage),
		cmocka_unit_test(test_argp_cli_only),
		cmocka_unit_test(test_log_buf_sdk),
		cmocka_unit_test(test_log_syslog),
		cmocka_unit_test(test_log_syslog_sdk),
		cmocka_unit_test(test_log_standard),
		cmocka_unit_test(test_log_standard_no_memory),
		cmocka_unit_test(test_log_rate_bucket),
	};

	return cmocka_run_group_tests_name("doca_compat_api", tests, NULL, NULL);
}
