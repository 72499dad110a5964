/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

/*
 * DOCA's argument parser over getopt_long().
 *
 * doca_argp_start() runs no callback before the whole input is known to be well
 * formed: it collects every occurrence of a flag (command line, then JSON file),
 * checks counts, mandatory and singular flags and converts every value, and only
 * then calls the callbacks, the DOCA flags' first, so that -l applies to the
 * program's own callbacks' log lines.
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/queue.h>
#include <sys/stat.h>

#include <rte_common.h>
#include <rte_comch_version.h>

#include "doca_obj_private.h"
#include "doca_argp.h"
#include "doca_log.h"

/* The parser's messages: SDK lines, as every message of the layer. */
#define ARGP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, doca_compat_logtype, "doca_argp: " fmt "\n", ##__VA_ARGS__)

/* getopt_long() values of flags found through the long option table. */
#define DC_OPT_BASE 256
/* Width of the flag column in the usage. */
#define DC_USAGE_COL 36
#define DC_JSON_MAX_SIZE (4 << 20)
#define DC_JSON_MAX_DEPTH 16

/* What a DOCA flag does when given; program flags are DC_BI_NONE. */
enum dc_builtin {
	DC_BI_NONE,
	DC_BI_HELP,
	DC_BI_VERSION,
	DC_BI_LOG_LEVEL,
	DC_BI_SDK_LOG_LEVEL,
	DC_BI_JSON,
};

struct doca_argp_param {
	struct dc_obj obj;	/* first: DC_KIND_ARGP_PARAM */
	TAILQ_ENTRY(doca_argp_param) next;
	char *short_name;
	char *long_name;
	char *arguments;
	char *description;
	doca_argp_param_cb_t cb;
	enum doca_argp_type type;
	enum dc_builtin builtin;
	bool mandatory;
	bool cli_only;
	bool multiple;
	bool singular;
	bool hidden;
	bool registered;
	bool no_memory;		/* a setter could not copy its string */
	unsigned int nb_cli;	/* occurrences on the command line */
	unsigned int nb_json;	/* occurrences in the JSON file */
};

DC_OBJ_FIRST(struct doca_argp_param, obj);

TAILQ_HEAD(dc_param_list, doca_argp_param);

enum dc_jtype {
	DC_J_STR,
	DC_J_NUM,
	DC_J_TRUE,
	DC_J_FALSE,
	DC_J_NULL,
	DC_J_ARR,
	DC_J_OBJ,
};

/* A JSON value; an object's members and an array's elements are children. */
struct dc_jval {
	enum dc_jtype type;
	char *text;		/* string (decoded) or number (as written) */
	char *key;		/* as a member of an object */
	int line;
	struct dc_jval *child;
	struct dc_jval *next;
};

/* One occurrence of a flag: a command-line value, or a JSON value. */
struct dc_occ {
	struct doca_argp_param *param;
	const char *text;	/* command line: the value (NULL for a BOOLEAN) */
	const struct dc_jval *jval;	/* JSON: the value */
};

struct dc_occ_list {
	struct dc_occ *v;
	size_t n;
	size_t cap;
};

static struct {
	bool initialized;
	bool started;
	char *program_name;
	void *config;
	struct dc_param_list params;
	doca_argp_validation_cb_t validate;
	doca_argp_param_cb_t version_cb;
	doca_argp_dpdk_cb_t dpdk_cb;
	char **dpdk_argv;
	bool lax_json;
	int log_level;		/* -1: not given */
	int sdk_log_level;
} dc_argp = {
	.log_level = -1,
	.sdk_log_level = -1,
};

static const char dc_levels_help[] =
	"<10=DISABLE, 20=CRITICAL, 30=ERROR, 40=WARNING, 50=INFO, 60=DEBUG, 70=TRACE>";

static const char *
dc_prog(void)
{
	return dc_argp.program_name != NULL ? dc_argp.program_name : program_invocation_short_name;
}

/* "-p/--pci-addr" for messages, in buf. */
static const char *
dc_pname(const struct doca_argp_param *p, char *buf, size_t size)
{
	if (p->short_name != NULL && p->long_name != NULL)
		snprintf(buf, size, "-%s/--%s", p->short_name, p->long_name);
	else if (p->long_name != NULL)
		snprintf(buf, size, "--%s", p->long_name);
	else
		snprintf(buf, size, "-%s", p->short_name);
	return buf;
}

static bool
dc_takes_value(const struct doca_argp_param *p)
{
	return p->type != DOCA_ARGP_TYPE_BOOLEAN;
}

/* ---- usage ---- */

static void
dc_usage_line(FILE *f, const struct doca_argp_param *p)
{
	char left[256];
	int n = snprintf(left, sizeof(left), "  %s%s%s%s%s%s%s",
			 p->short_name != NULL ? "-" : "",
			 p->short_name != NULL ? p->short_name : "",
			 p->short_name != NULL && p->long_name != NULL ? ", " : "",
			 p->long_name != NULL ? "--" : "",
			 p->long_name != NULL ? p->long_name : "",
			 p->arguments != NULL ? " " : "",
			 p->arguments != NULL ? p->arguments : "");

	/* A long left column still leaves a blank before the description. */
	fprintf(f, "%-*s%s%s\n", DC_USAGE_COL, left, n >= DC_USAGE_COL ? " " : "",
		p->description != NULL ? p->description : "");
}

static void
dc_usage(FILE *f)
{
	const struct doca_argp_param *p;

	fprintf(f, "Usage: %s %s[DOCA Flags] [Program Flags]\n\nDOCA Flags:\n", dc_prog(),
		dc_argp.dpdk_cb != NULL ? "[DPDK Flags] -- " : "");
	TAILQ_FOREACH(p, &dc_argp.params, next)
		if (p->builtin != DC_BI_NONE)
			dc_usage_line(f, p);
	fprintf(f, "\nProgram Flags:\n");
	TAILQ_FOREACH(p, &dc_argp.params, next)
		if (p->builtin == DC_BI_NONE && !p->hidden)
			dc_usage_line(f, p);
	fflush(f);
}

void
doca_argp_usage(void)
{
	if (!dc_argp.initialized) {
		ARGP_LOG(ERR, "usage asked before doca_argp_init()");
		return;
	}
	dc_usage(stdout);
}

/* ---- flags ---- */

doca_error_t
doca_argp_param_create(struct doca_argp_param **param)
{
	struct doca_argp_param *p;

	if (param == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	dc_obj_publish(&p->obj, p, DC_KIND_ARGP_PARAM);
	*param = p;
	return DOCA_SUCCESS;
}

/* A flag's end: its handle is refused from now on (a program may still hold it). */
static void
dc_param_free(struct doca_argp_param *p)
{
	free(p->short_name);
	free(p->long_name);
	free(p->arguments);
	free(p->description);
	dc_obj_retire(&p->obj, p);
}

/* True, with a log line, unless p is a live flag. */
#define DC_BAD_PARAM(p) DC_BAD_OBJ(p, DC_KIND_ARGP_PARAM)

doca_error_t
doca_argp_param_destroy(struct doca_argp_param *param)
{
	if (DC_BAD_PARAM(param))
		return DOCA_ERROR_INVALID_VALUE;
	if (param->registered)
		return DOCA_ERROR_BAD_STATE;
	dc_param_free(param);
	return DOCA_SUCCESS;
}

/* A setter may only change a (live) flag before it is registered (names are checked then). */
static bool
dc_settable(struct doca_argp_param *p, const char *what)
{
	if (p->registered) {
		ARGP_LOG(ERR, "cannot set the %s of a registered flag", what);
		return false;
	}
	return true;
}

static void
dc_set_string(struct doca_argp_param *p, char **field, const char *value, const char *what)
{
	char *copy = NULL;

	if (!dc_settable(p, what))
		return;
	if (value != NULL) {
		copy = strdup(value);
		if (copy == NULL)
			p->no_memory = true;	/* reported by doca_argp_register_param() */
	}
	free(*field);
	*field = copy;
}

void
doca_argp_param_set_short_name(struct doca_argp_param *param, const char *name)
{
	if (!DC_BAD_PARAM(param))
		dc_set_string(param, &param->short_name, name, "short name");
}

void
doca_argp_param_set_long_name(struct doca_argp_param *param, const char *name)
{
	if (!DC_BAD_PARAM(param))
		dc_set_string(param, &param->long_name, name, "long name");
}

void
doca_argp_param_set_arguments(struct doca_argp_param *param, const char *arguments)
{
	if (!DC_BAD_PARAM(param))
		dc_set_string(param, &param->arguments, arguments, "arguments");
}

void
doca_argp_param_set_description(struct doca_argp_param *param, const char *description)
{
	if (!DC_BAD_PARAM(param))
		dc_set_string(param, &param->description, description, "description");
}

void
doca_argp_param_set_callback(struct doca_argp_param *param, doca_argp_param_cb_t callback)
{
	if (!DC_BAD_PARAM(param) && dc_settable(param, "callback"))
		param->cb = callback;
}

void
doca_argp_param_set_type(struct doca_argp_param *param, enum doca_argp_type type)
{
	if (!DC_BAD_PARAM(param) && dc_settable(param, "type"))
		param->type = type;
}

void
doca_argp_param_set_mandatory(struct doca_argp_param *param)
{
	if (!DC_BAD_PARAM(param) && dc_settable(param, "mandatory mark"))
		param->mandatory = true;
}

void
doca_argp_param_set_cli_only(struct doca_argp_param *param)
{
	if (!DC_BAD_PARAM(param) && dc_settable(param, "CLI-only mark"))
		param->cli_only = true;
}

void
doca_argp_param_set_multiplicity(struct doca_argp_param *param)
{
	if (!DC_BAD_PARAM(param) && dc_settable(param, "multiplicity"))
		param->multiple = true;
}

void
doca_argp_param_set_singular(struct doca_argp_param *param)
{
	if (!DC_BAD_PARAM(param) && dc_settable(param, "singular mark"))
		param->singular = true;
}

void
doca_argp_param_set_hidden(struct doca_argp_param *param)
{
	if (!DC_BAD_PARAM(param) && dc_settable(param, "hidden mark"))
		param->hidden = true;
}

/* A name: not empty, no leading dash, no '=' and nothing getopt reads specially. */
static bool
dc_name_ok(const char *name, bool is_short)
{
	const char *c;

	if (name == NULL)
		return true;
	if (name[0] == '\0' || name[0] == '-')
		return false;
	for (c = name; *c != '\0'; c++)
		if (!isgraph((unsigned char)*c) || *c == '=')
			return false;
	/* Letters getopt's option string gives a meaning to. */
	return !(is_short && name[1] == '\0' && (name[0] == ':' || name[0] == '?' ||
						 name[0] == '+' || name[0] == ';'));
}

/*
 * Two flags may not answer to one name. A short name of several letters is
 * matched as a long option (see dc_build_argv()), so it competes with long names.
 */
static const struct doca_argp_param *
dc_name_taken(const struct doca_argp_param *np)
{
	const struct doca_argp_param *p;
	bool multi = np->short_name != NULL && np->short_name[1] != '\0';

	TAILQ_FOREACH(p, &dc_argp.params, next) {
		bool pmulti = p->short_name != NULL && p->short_name[1] != '\0';

		if (np->short_name != NULL && p->short_name != NULL &&
		    strcmp(np->short_name, p->short_name) == 0)
			return p;
		if (np->long_name != NULL && p->long_name != NULL &&
		    strcmp(np->long_name, p->long_name) == 0)
			return p;
		if (multi && p->long_name != NULL && strcmp(np->short_name, p->long_name) == 0)
			return p;
		if (pmulti && np->long_name != NULL && strcmp(p->short_name, np->long_name) == 0)
			return p;
	}
	return NULL;
}

/* Checks of doca_argp_register_param(); logs why a flag is refused. */
static doca_error_t
dc_param_check(const struct doca_argp_param *p)
{
	const struct doca_argp_param *other;
	char name[160], oname[160];

	if (p->no_memory)
		return DOCA_ERROR_NO_MEMORY;
	if (p->short_name == NULL && p->long_name == NULL) {
		ARGP_LOG(ERR, "a flag needs a short or a long name");
		return DOCA_ERROR_INITIALIZATION;
	}
	dc_pname(p, name, sizeof(name));
	if (p->description == NULL || p->cb == NULL || p->type == DOCA_ARGP_TYPE_UNKNOWN) {
		ARGP_LOG(ERR, "flag %s lacks its %s", name, p->description == NULL ?
			 "description" : p->cb == NULL ? "callback" : "type");
		return DOCA_ERROR_INITIALIZATION;
	}
	switch (p->type) {
	case DOCA_ARGP_TYPE_STRING:
	case DOCA_ARGP_TYPE_INT:
	case DOCA_ARGP_TYPE_BOOLEAN:
	case DOCA_ARGP_TYPE_DOUBLE:
		break;
	case DOCA_ARGP_TYPE_DEVICE:
	case DOCA_ARGP_TYPE_DEVICE_REP:
	case DOCA_ARGP_TYPE_JSON_OBJ:
		ARGP_LOG(ERR, "flag %s: the device, representor and JSON-object types are not "
			 "supported by the compatibility layer; use a STRING flag", name);
		return DOCA_ERROR_NOT_SUPPORTED;
	default:
		ARGP_LOG(ERR, "flag %s: unknown type %d", name, (int)p->type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dc_name_ok(p->short_name, true) || !dc_name_ok(p->long_name, false)) {
		ARGP_LOG(ERR, "flag %s: a name must be non-empty, printable, without '=' and "
			 "without its leading dashes", name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	other = dc_name_taken(p);
	if (other != NULL) {
		ARGP_LOG(ERR, "flag %s: a name is already taken by %s%s", name,
			 dc_pname(other, oname, sizeof(oname)),
			 other->builtin != DC_BI_NONE ? " (a DOCA flag)" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t
doca_argp_register_param(struct doca_argp_param *input_param)
{
	doca_error_t ret;

	if (DC_BAD_PARAM(input_param))
		return DOCA_ERROR_INVALID_VALUE;
	if (input_param->registered)
		return DOCA_ERROR_BAD_STATE;	/* it is in the list: not ours to free */
	if (!dc_argp.initialized || dc_argp.started) {
		ARGP_LOG(ERR, "flags are registered between doca_argp_init() and "
			 "doca_argp_start()");
		ret = DOCA_ERROR_BAD_STATE;
		goto refuse;
	}
	ret = dc_param_check(input_param);
	if (ret != DOCA_SUCCESS)
		goto refuse;
	input_param->registered = true;
	TAILQ_INSERT_TAIL(&dc_argp.params, input_param, next);
	return DOCA_SUCCESS;
refuse:
	/* The parser owns the flag whatever happens, as with DOCA. */
	dc_param_free(input_param);
	return ret;
}

/*
 * Callback of the DOCA flags, which doca_argp_start() handles itself: never
 * called, there so that every registered flag has one.
 */
static doca_error_t
dc_builtin_cb(void *param, void *config)
{
	RTE_SET_USED(param);
	RTE_SET_USED(config);
	return DOCA_SUCCESS;
}

static doca_error_t
dc_builtin_add(enum dc_builtin bi, const char *s, const char *l, const char *args,
	       const char *descr, enum doca_argp_type type)
{
	struct doca_argp_param *p;

	if (doca_argp_param_create(&p) != DOCA_SUCCESS)
		return DOCA_ERROR_NO_MEMORY;
	doca_argp_param_set_short_name(p, s);
	doca_argp_param_set_long_name(p, l);
	doca_argp_param_set_arguments(p, args);
	doca_argp_param_set_description(p, descr);
	doca_argp_param_set_type(p, type);
	p->cb = dc_builtin_cb;
	p->builtin = bi;
	p->cli_only = bi != DC_BI_LOG_LEVEL && bi != DC_BI_SDK_LOG_LEVEL;
	if (p->no_memory) {
		dc_param_free(p);
		return DOCA_ERROR_NO_MEMORY;
	}
	p->registered = true;
	TAILQ_INSERT_TAIL(&dc_argp.params, p, next);
	return DOCA_SUCCESS;
}

static void
dc_free_all(void)
{
	struct doca_argp_param *p;

	while ((p = TAILQ_FIRST(&dc_argp.params)) != NULL) {
		TAILQ_REMOVE(&dc_argp.params, p, next);
		dc_param_free(p);
	}
	free(dc_argp.program_name);
	free(dc_argp.dpdk_argv);
	memset(&dc_argp, 0, sizeof(dc_argp));
	dc_argp.log_level = -1;
	dc_argp.sdk_log_level = -1;
}

doca_error_t
doca_argp_init(const char *program_name, void *program_config)
{
	char descr[160];
	doca_error_t ret;

	if (dc_argp.initialized)
		return DOCA_ERROR_BAD_STATE;
	TAILQ_INIT(&dc_argp.params);
	dc_argp.initialized = true;
	dc_argp.config = program_config;
	if (program_name != NULL) {
		dc_argp.program_name = strdup(program_name);
		if (dc_argp.program_name == NULL)
			goto nomem;
	}
	ret = dc_builtin_add(DC_BI_HELP, "h", "help", NULL, "Print this help and exit",
			     DOCA_ARGP_TYPE_BOOLEAN);
	if (ret == DOCA_SUCCESS)
		ret = dc_builtin_add(DC_BI_VERSION, "v", "version", NULL,
				     "Print the version and exit", DOCA_ARGP_TYPE_BOOLEAN);
	snprintf(descr, sizeof(descr), "Program log level %s", dc_levels_help);
	if (ret == DOCA_SUCCESS)
		ret = dc_builtin_add(DC_BI_LOG_LEVEL, "l", "log-level", NULL, descr,
				     DOCA_ARGP_TYPE_INT);
	snprintf(descr, sizeof(descr), "SDK log level %s", dc_levels_help);
	if (ret == DOCA_SUCCESS)
		ret = dc_builtin_add(DC_BI_SDK_LOG_LEVEL, NULL, "sdk-log-level", NULL, descr,
				     DOCA_ARGP_TYPE_INT);
	if (ret == DOCA_SUCCESS)
		ret = dc_builtin_add(DC_BI_JSON, "j", "json", "<path>",
				     "Read the flags from a JSON file", DOCA_ARGP_TYPE_STRING);
	if (ret == DOCA_SUCCESS)
		return DOCA_SUCCESS;
nomem:
	dc_free_all();
	return DOCA_ERROR_NO_MEMORY;
}

doca_error_t
doca_argp_destroy(void)
{
	if (!dc_argp.initialized)
		return DOCA_ERROR_BAD_STATE;
	dc_free_all();
	return DOCA_SUCCESS;
}

doca_error_t
doca_argp_register_version_callback(doca_argp_param_cb_t callback)
{
	if (!dc_argp.initialized)
		return DOCA_ERROR_BAD_STATE;
	if (callback == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	dc_argp.version_cb = callback;
	return DOCA_SUCCESS;
}

doca_error_t
doca_argp_register_validation_callback(doca_argp_validation_cb_t callback)
{
	if (!dc_argp.initialized)
		return DOCA_ERROR_BAD_STATE;
	if (callback == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	dc_argp.validate = callback;
	return DOCA_SUCCESS;
}

void
doca_argp_set_dpdk_program(doca_argp_dpdk_cb_t callback)
{
	if (!dc_argp.initialized) {
		ARGP_LOG(ERR, "doca_argp_set_dpdk_program() before doca_argp_init(): ignored");
		return;
	}
	dc_argp.dpdk_cb = callback;
}

doca_error_t
doca_argp_get_log_level(int *log_level)
{
	if (log_level == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*log_level = dc_argp.log_level >= 0 ? dc_argp.log_level :
		(int)doca_log_level_get_global_lower_limit();
	return DOCA_SUCCESS;
}

doca_error_t
doca_argp_get_sdk_log_level(int *log_level)
{
	if (log_level == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*log_level = dc_argp.sdk_log_level >= 0 ? dc_argp.sdk_log_level :
		(int)doca_log_level_get_global_sdk_limit();
	return DOCA_SUCCESS;
}

doca_error_t
doca_argp_disable_pedantic_config_parsing(void)
{
	if (!dc_argp.initialized)
		return DOCA_ERROR_BAD_STATE;
	dc_argp.lax_json = true;
	return DOCA_SUCCESS;
}

/* ---- JSON ---- */

struct dc_jparser {
	const char *p;
	const char *end;
	int line;
	int depth;
	const char *path;
};

static void
dc_jfree(struct dc_jval *v)
{
	struct dc_jval *next;

	while (v != NULL) {
		next = v->next;
		dc_jfree(v->child);
		free(v->text);
		free(v->key);
		free(v);
		v = next;
	}
}

static void
dc_jskip(struct dc_jparser *jp)
{
	while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' ||
				   *jp->p == '\r')) {
		if (*jp->p == '\n')
			jp->line++;
		jp->p++;
	}
}

static doca_error_t
dc_jerror(struct dc_jparser *jp, const char *what)
{
	ARGP_LOG(ERR, "%s:%d: %s", jp->path, jp->line, what);
	return DOCA_ERROR_INVALID_VALUE;
}

static int
dc_hex4(const char *s)
{
	int v = 0, i;

	for (i = 0; i < 4; i++) {
		v <<= 4;
		if (s[i] >= '0' && s[i] <= '9')
			v |= s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			v |= s[i] - 'a' + 10;
		else if (s[i] >= 'A' && s[i] <= 'F')
			v |= s[i] - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static size_t
dc_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string, the opening quote being at jp->p; its decoded text in *out. */
static doca_error_t
dc_jstring(struct dc_jparser *jp, char **out)
{
	const char *s = jp->p + 1;
	char *buf, *o;
	int hi, lo;

	/* Decoding never makes a string longer than its source. */
	buf = malloc((size_t)(jp->end - s) + 1);
	if (buf == NULL)
		return DOCA_ERROR_NO_MEMORY;
	o = buf;
	while (s < jp->end && *s != '"') {
		if ((unsigned char)*s < 0x20)
			goto bad;
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		if (++s == jp->end)
			goto bad;
		switch (*s++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (jp->end - s < 4 || (hi = dc_hex4(s)) < 0)
				goto bad;
			s += 4;
			if (hi >= 0xd800 && hi < 0xdc00) {
				/* A UTF-16 surrogate pair: "\ud83d\ude00". */
				if (jp->end - s < 6 || s[0] != '\\' || s[1] != 'u' ||
				    (lo = dc_hex4(s + 2)) < 0xdc00 || lo > 0xdfff)
					goto bad;
				s += 6;
				o += dc_utf8(o, 0x10000 + (((uint32_t)hi - 0xd800) << 10) +
					     ((uint32_t)lo - 0xdc00));
			} else if (hi >= 0xdc00 && hi <= 0xdfff) {
				goto bad;
			} else if (hi == 0) {
				goto bad;	/* a NUL would cut the C string */
			} else {
				o += dc_utf8(o, (uint32_t)hi);
			}
			break;
		default:
			goto bad;
		}
	}
	if (s == jp->end)
		goto bad;
	*o = '\0';
	jp->p = s + 1;
	/* Sized for the rest of the file above: keep only what the string needs. */
	o = realloc(buf, (size_t)(o - buf) + 1);
	*out = o != NULL ? o : buf;
	return DOCA_SUCCESS;
bad:
	free(buf);
	return dc_jerror(jp, "malformed string");
}

/* A number as JSON writes it; kept as text, converted for the flag's type. */
static doca_error_t
dc_jnumber(struct dc_jparser *jp, char **out)
{
	const char *s = jp->p, *start = jp->p;

	if (s < jp->end && *s == '-')
		s++;
	if (s < jp->end && *s == '0') {
		s++;
	} else if (s < jp->end && isdigit((unsigned char)*s)) {
		while (s < jp->end && isdigit((unsigned char)*s))
			s++;
	} else {
		return dc_jerror(jp, "malformed number");
	}
	if (s < jp->end && *s == '.') {
		if (++s == jp->end || !isdigit((unsigned char)*s))
			return dc_jerror(jp, "malformed number");
		while (s < jp->end && isdigit((unsigned char)*s))
			s++;
	}
	if (s < jp->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < jp->end && (*s == '+' || *s == '-'))
			s++;
		if (s == jp->end || !isdigit((unsigned char)*s))
			return dc_jerror(jp, "malformed number");
		while (s < jp->end && isdigit((unsigned char)*s))
			s++;
	}
	*out = strndup(start, (size_t)(s - start));
	if (*out == NULL)
		return DOCA_ERROR_NO_MEMORY;
	jp->p = s;
	return DOCA_SUCCESS;
}

static doca_error_t dc_jvalue(struct dc_jparser *jp, struct dc_jval **out);

/* The members of an object or the elements of an array, after its opening sign. */
static doca_error_t
dc_jcontainer(struct dc_jparser *jp, struct dc_jval *v)
{
	bool obj = v->type == DC_J_OBJ;
	char close = obj ? '}' : ']';
	struct dc_jval **tail = &v->child, *elem;
	doca_error_t ret;
	char *key = NULL;

	if (++jp->depth > DC_JSON_MAX_DEPTH)
		return dc_jerror(jp, "nested too deeply");
	dc_jskip(jp);
	if (jp->p < jp->end && *jp->p == close) {
		jp->p++;
		jp->depth--;
		return DOCA_SUCCESS;
	}
	for (;;) {
		dc_jskip(jp);
		if (obj) {
			if (jp->p == jp->end || *jp->p != '"')
				return dc_jerror(jp, "expected a key in quotes");
			ret = dc_jstring(jp, &key);
			if (ret != DOCA_SUCCESS)
				return ret;
			dc_jskip(jp);
			if (jp->p == jp->end || *jp->p != ':') {
				free(key);
				return dc_jerror(jp, "expected ':' after a key");
			}
			jp->p++;
		}
		ret = dc_jvalue(jp, &elem);
		if (ret != DOCA_SUCCESS) {
			free(key);
			return ret;
		}
		elem->key = key;
		key = NULL;
		*tail = elem;
		tail = &elem->next;
		dc_jskip(jp);
		if (jp->p < jp->end && *jp->p == ',') {
			jp->p++;
			continue;
		}
		if (jp->p < jp->end && *jp->p == close) {
			jp->p++;
			jp->depth--;
			return DOCA_SUCCESS;
		}
		return dc_jerror(jp, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static doca_error_t
dc_jvalue(struct dc_jparser *jp, struct dc_jval **out)
{
	static const struct {
		const char *word;
		enum dc_jtype type;
	} words[] = {
		{ "true", DC_J_TRUE }, { "false", DC_J_FALSE }, { "null", DC_J_NULL },
	};
	struct dc_jval *v;
	doca_error_t ret = DOCA_SUCCESS;
	size_t i, len;

	dc_jskip(jp);
	if (jp->p == jp->end)
		return dc_jerror(jp, "unexpected end of file");
	v = calloc(1, sizeof(*v));
	if (v == NULL)
		return DOCA_ERROR_NO_MEMORY;
	v->line = jp->line;
	switch (*jp->p) {
	case '{':
	case '[':
		v->type = *jp->p == '{' ? DC_J_OBJ : DC_J_ARR;
		jp->p++;
		ret = dc_jcontainer(jp, v);
		break;
	case '"':
		v->type = DC_J_STR;
		ret = dc_jstring(jp, &v->text);
		break;
	default:
		if (*jp->p == '-' || isdigit((unsigned char)*jp->p)) {
			v->type = DC_J_NUM;
			ret = dc_jnumber(jp, &v->text);
			break;
		}
		for (i = 0; i < RTE_DIM(words); i++) {
			len = strlen(words[i].word);
			if ((size_t)(jp->end - jp->p) >= len &&
			    memcmp(jp->p, words[i].word, len) == 0) {
				v->type = words[i].type;
				jp->p += len;
				break;
			}
		}
		if (i == RTE_DIM(words))
			ret = dc_jerror(jp, "unexpected character");
	}
	if (ret != DOCA_SUCCESS) {
		dc_jfree(v);
		return ret;
	}
	*out = v;
	return DOCA_SUCCESS;
}

/* Read and parse a JSON file into *root. */
static doca_error_t
dc_jload(const char *path, struct dc_jval **root)
{
	struct dc_jparser jp = { .line = 1, .path = path };
	struct stat st;
	doca_error_t ret;
	char *text;
	size_t len;
	FILE *f;

	f = fopen(path, "r");
	if (f == NULL) {
		int err = errno;	/* logging may change errno */

		ARGP_LOG(ERR, "cannot open the JSON file %s: %s", path, strerror(err));
		return err == ENOENT ? DOCA_ERROR_NOT_FOUND : DOCA_ERROR_IO_FAILED;
	}
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > DC_JSON_MAX_SIZE) {
		ARGP_LOG(ERR, "%s is not a regular file of at most %d bytes", path,
			 DC_JSON_MAX_SIZE);
		fclose(f);
		return DOCA_ERROR_IO_FAILED;
	}
	text = malloc((size_t)st.st_size + 1);
	if (text == NULL) {
		fclose(f);
		return DOCA_ERROR_NO_MEMORY;
	}
	len = fread(text, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		ARGP_LOG(ERR, "cannot read %s", path);
		fclose(f);
		free(text);
		return DOCA_ERROR_IO_FAILED;
	}
	fclose(f);
	jp.p = text;
	jp.end = text + len;
	*root = NULL;
	ret = dc_jvalue(&jp, root);
	if (ret == DOCA_SUCCESS) {
		dc_jskip(&jp);
		if (jp.p != jp.end)
			ret = dc_jerror(&jp, "text after the top-level value");
		else if ((*root)->type != DC_J_OBJ)
			ret = dc_jerror(&jp, "the top-level value must be an object");
		if (ret != DOCA_SUCCESS) {
			dc_jfree(*root);
			*root = NULL;
		}
	}
	free(text);
	return ret;
}

/* ---- occurrences ---- */

static doca_error_t
dc_occ_add(struct dc_occ_list *l, const struct dc_occ *o)
{
	struct dc_occ *v;

	if (l->n == l->cap) {
		v = realloc(l->v, (l->cap == 0 ? 16 : l->cap * 2) * sizeof(*v));
		if (v == NULL)
			return DOCA_ERROR_NO_MEMORY;
		l->v = v;
		l->cap = l->cap == 0 ? 16 : l->cap * 2;
	}
	l->v[l->n++] = *o;
	return DOCA_SUCCESS;
}

static struct doca_argp_param *
dc_find_long(const char *name, bool builtin)
{
	struct doca_argp_param *p;

	TAILQ_FOREACH(p, &dc_argp.params, next)
		if ((p->builtin != DC_BI_NONE) == builtin && p->long_name != NULL &&
		    strcmp(p->long_name, name) == 0)
			return p;
	return NULL;
}

/* The JSON occurrences of one member (key: value) of a flags object. */
static doca_error_t
dc_json_member(struct dc_occ_list *l, const struct dc_jval *m, bool general_only)
{
	struct doca_argp_param *p = NULL;
	const struct dc_jval *e;
	struct dc_occ o = { 0 };
	char name[160];
	doca_error_t ret;

	if (!general_only)
		p = dc_find_long(m->key, false);
	if (p == NULL)
		p = dc_find_long(m->key, true);
	if (p == NULL) {
		if (dc_argp.lax_json) {
			ARGP_LOG(WARNING, "JSON line %d: unknown key \"%s\" ignored", m->line,
				 m->key);
			return DOCA_SUCCESS;
		}
		ARGP_LOG(ERR, "JSON line %d: unknown flag \"%s\"", m->line, m->key);
		return DOCA_ERROR_INVALID_VALUE;
	}
	dc_pname(p, name, sizeof(name));
	if (p->cli_only) {
		ARGP_LOG(ERR, "JSON line %d: flag %s is accepted on the command line only", m->line,
			 name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	o.param = p;
	if (m->type != DC_J_ARR) {
		o.jval = m;
		return dc_occ_add(l, &o);
	}
	if (!p->multiple) {
		ARGP_LOG(ERR, "JSON line %d: flag %s takes one value, not an array", m->line, name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (e = m->child; e != NULL; e = e->next) {
		o.jval = e;
		ret = dc_occ_add(l, &o);
		if (ret != DOCA_SUCCESS)
			return ret;
	}
	return DOCA_SUCCESS;
}

/* The occurrences a JSON document gives (see the layouts in doca_argp.h). */
static doca_error_t
dc_json_collect(struct dc_occ_list *l, const struct dc_jval *root)
{
	const struct dc_jval *m, *f;
	bool general, section;
	doca_error_t ret;

	for (m = root->child; m != NULL; m = m->next) {
		if (strcmp(m->key, "doca_dpdk_flags") == 0) {
			ARGP_LOG(ERR, "JSON line %d: DPDK flags are not read from JSON by the "
				 "compatibility layer; give them on the command line before \"--\"",
				 m->line);
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		general = strcmp(m->key, "doca_general_flags") == 0;
		section = general || strcmp(m->key, "doca_program_flags") == 0;
		if (!section) {
			ret = dc_json_member(l, m, false);	/* the flat layout */
			if (ret != DOCA_SUCCESS)
				return ret;
			continue;
		}
		if (m->type != DC_J_OBJ) {
			ARGP_LOG(ERR, "JSON line %d: \"%s\" must be an object", m->line, m->key);
			return DOCA_ERROR_INVALID_VALUE;
		}
		for (f = m->child; f != NULL; f = f->next) {
			ret = dc_json_member(l, f, general);
			if (ret != DOCA_SUCCESS)
				return ret;
		}
	}
	return DOCA_SUCCESS;
}

/*
 * The flag a "--name" token stands for, matching as getopt_long() does: the
 * exact name, else the only name it abbreviates. Short names of several letters
 * count as long names (see dc_build_argv()).
 */
static const struct doca_argp_param *
dc_find_option(const char *name, size_t len)
{
	const struct doca_argp_param *p, *found = NULL;
	unsigned int nb = 0;

	TAILQ_FOREACH(p, &dc_argp.params, next) {
		const char *names[2] = { p->long_name,
			p->short_name != NULL && p->short_name[1] != '\0' ? p->short_name : NULL };
		int k;

		for (k = 0; k < 2; k++) {
			if (names[k] == NULL || strncmp(names[k], name, len) != 0)
				continue;
			if (names[k][len] == '\0')
				return p;
			if (found != p) {
				found = p;
				nb++;
			}
		}
	}
	return nb == 1 ? found : NULL;
}

/* Whether an option token leaves its flag's value to the next token. */
static bool
dc_value_follows(const char *a)
{
	const struct doca_argp_param *p;
	const char *c;

	if (a[1] == '-') {
		if (strchr(a, '=') != NULL)
			return false;
		p = dc_find_option(a + 2, strlen(a + 2));
		return p != NULL && dc_takes_value(p);
	}
	/* A cluster of one-letter flags, "-abx": only its last may take the next token. */
	for (c = a + 1; *c != '\0'; c++) {
		TAILQ_FOREACH(p, &dc_argp.params, next)
			if (p->short_name != NULL && p->short_name[0] == *c &&
			    p->short_name[1] == '\0')
				break;
		if (p == NULL)
			return false;
		if (dc_takes_value(p))
			return c[1] == '\0';
	}
	return false;
}

/*
 * Argument vector for getopt_long(): argv[0] and the program's arguments, with
 * each short name of several letters ("-pf") turned into a long option ("--pf"),
 * which getopt cannot read otherwise. A token that is the value of the flag
 * before it is left alone. orig[i] keeps what the user typed, for messages;
 * owned (NULL terminated) the strings made here.
 */
static doca_error_t
dc_build_argv(char **args, int nargs, char *argv0, char ***out, const char ***orig, char ***owned)
{
	const struct doca_argp_param *p;
	bool value_next = false;
	char **v, **own;
	const char **o;
	int i, n = 0;

	v = calloc((size_t)nargs + 2, sizeof(*v));
	o = calloc((size_t)nargs + 2, sizeof(*o));
	own = calloc((size_t)nargs + 1, sizeof(*own));
	if (v == NULL || o == NULL || own == NULL)
		goto nomem;
	v[0] = argv0;
	o[0] = argv0;
	for (i = 0; i < nargs; i++) {
		const char *a = args[i];

		v[i + 1] = args[i];
		o[i + 1] = args[i];
		if (value_next) {
			value_next = false;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			/* getopt stops there: what follows is not an option, kept as is. */
			for (i++; i < nargs; i++) {
				v[i + 1] = args[i];
				o[i + 1] = args[i];
			}
			break;
		}
		if (a[0] != '-' || a[1] == '\0')
			continue;
		p = NULL;
		if (a[1] != '-')
			TAILQ_FOREACH(p, &dc_argp.params, next)
				if (p->short_name != NULL && p->short_name[1] != '\0' &&
				    strcmp(a + 1, p->short_name) == 0)
					break;
		if (p == NULL) {
			value_next = dc_value_follows(a);
			continue;
		}
		own[n] = malloc(strlen(a) + 2);
		if (own[n] == NULL)
			goto nomem;
		sprintf(own[n], "-%s", a);
		v[i + 1] = own[n++];
		value_next = dc_takes_value(p);
	}
	*out = v;
	*orig = o;
	*owned = own;
	return DOCA_SUCCESS;
nomem:
	if (own != NULL)
		for (i = 0; i < n; i++)
			free(own[i]);
	free(v);
	free(o);
	free(own);
	return DOCA_ERROR_NO_MEMORY;
}

/* Collect the command line's occurrences with getopt_long(). */
static doca_error_t
dc_cli_collect(struct dc_occ_list *l, int n, char **v, const char **orig)
{
	struct doca_argp_param *p, **by_index = NULL, *by_char[256] = { NULL };
	struct option *longopts = NULL;
	char *optstring = NULL;
	size_t nb = 0, i, nl = 0, ns = 0;
	doca_error_t ret = DOCA_ERROR_INVALID_VALUE;
	struct dc_occ o = { 0 };
	int c;

	TAILQ_FOREACH(p, &dc_argp.params, next)
		nb++;
	by_index = calloc(nb, sizeof(*by_index));
	longopts = calloc(2 * nb + 1, sizeof(*longopts));
	optstring = calloc(2 * nb + 3, 1);
	if (by_index == NULL || longopts == NULL || optstring == NULL) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	/* '+': stop at the first non-option; ':': tell a missing value from an unknown flag. */
	optstring[ns++] = '+';
	optstring[ns++] = ':';
	i = 0;
	TAILQ_FOREACH(p, &dc_argp.params, next) {
		int has_arg = dc_takes_value(p) ? required_argument : no_argument;

		by_index[i] = p;
		if (p->long_name != NULL)
			longopts[nl++] = (struct option){ p->long_name, has_arg, NULL,
							  DC_OPT_BASE + (int)i };
		if (p->short_name != NULL && p->short_name[1] != '\0')
			longopts[nl++] = (struct option){ p->short_name, has_arg, NULL,
							  DC_OPT_BASE + (int)i };
		if (p->short_name != NULL && p->short_name[1] == '\0') {
			by_char[(unsigned char)p->short_name[0]] = p;
			optstring[ns++] = p->short_name[0];
			if (has_arg == required_argument)
				optstring[ns++] = ':';
		}
		i++;
	}

	opterr = 0;	/* our own messages */
	optind = 0;	/* glibc: start afresh, whatever parsed before */
	while ((c = getopt_long(n, v, optstring, longopts, NULL)) != -1) {
		const char *tok = optind - 1 >= 1 && optind - 1 < n ? orig[optind - 1] : "?";

		if (c == '?') {
			if (optopt >= DC_OPT_BASE)
				ARGP_LOG(ERR, "flag '%s' takes no value", tok);
			else if (optopt != 0)
				ARGP_LOG(ERR, "unknown flag '-%c'", optopt);
			else
				ARGP_LOG(ERR, "unknown or ambiguous flag '%s'", tok);
			goto out;
		}
		if (c == ':') {
			ARGP_LOG(ERR, "flag '%s' needs a value", tok);
			goto out;
		}
		p = c >= DC_OPT_BASE ? by_index[c - DC_OPT_BASE] : by_char[(unsigned char)c];
		o.param = p;
		o.text = dc_takes_value(p) ? optarg : NULL;
		if (dc_occ_add(l, &o) != DOCA_SUCCESS) {
			ret = DOCA_ERROR_NO_MEMORY;
			goto out;
		}
	}
	if (optind < n) {
		bool after_dashes = optind >= 2 && strcmp(v[optind - 1], "--") == 0;

		ARGP_LOG(ERR, "unexpected argument '%s'%s", orig[optind],
			 dc_argp.dpdk_cb == NULL && after_dashes ?
			 " (after \"--\"; this program takes no DPDK flags)" : "");
		goto out;
	}
	ret = DOCA_SUCCESS;
out:
	optind = 0;	/* leave no pointer into our vector in getopt's state */
	free(by_index);
	free(longopts);
	free(optstring);
	return ret;
}

/* ---- values ---- */

union dc_value {
	char *s;
	int i;
	bool b;
	double d;
};

static bool
dc_parse_int(const char *s, int *out)
{
	char *end;
	long v;

	if (s == NULL || s[0] == '\0' || isspace((unsigned char)s[0]))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end != '\0' || errno == ERANGE || v < INT_MIN || v > INT_MAX)
		return false;
	*out = (int)v;
	return true;
}

static bool
dc_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (s == NULL || s[0] == '\0' || isspace((unsigned char)s[0]))
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || errno == ERANGE)
		return false;
	*out = v;
	return true;
}

/* The value of an occurrence, converted to its flag's type; logs why not. */
static doca_error_t
dc_value_of(const struct dc_occ *o, union dc_value *v)
{
	const struct doca_argp_param *p = o->param;
	const struct dc_jval *j = o->jval;
	const char *text = j != NULL ? j->text : o->text;
	char name[160], where[32] = "";
	bool ok = false;

	if (j != NULL)
		snprintf(where, sizeof(where), "JSON line %d: ", j->line);
	switch (p->type) {
	case DOCA_ARGP_TYPE_STRING:
		ok = j == NULL || j->type == DC_J_STR;
		v->s = (char *)(uintptr_t)text;
		break;
	case DOCA_ARGP_TYPE_INT:
		ok = (j == NULL || j->type == DC_J_NUM || j->type == DC_J_STR) &&
			dc_parse_int(text, &v->i);
		break;
	case DOCA_ARGP_TYPE_BOOLEAN:
		ok = j == NULL || j->type == DC_J_TRUE || j->type == DC_J_FALSE;
		v->b = j == NULL || j->type == DC_J_TRUE;
		break;
	case DOCA_ARGP_TYPE_DOUBLE:
		ok = (j == NULL || j->type == DC_J_NUM || j->type == DC_J_STR) &&
			dc_parse_double(text, &v->d);
		break;
	default:
		break;
	}
	if (ok)
		return DOCA_SUCCESS;
	dc_pname(p, name, sizeof(name));
	if (text != NULL)
		ARGP_LOG(ERR, "%sflag %s expects %s, not \"%s\"", where, name,
			 p->type == DOCA_ARGP_TYPE_INT ? "an integer" :
			 p->type == DOCA_ARGP_TYPE_DOUBLE ? "a number" :
			 p->type == DOCA_ARGP_TYPE_BOOLEAN ? "true or false" : "a string", text);
	else
		ARGP_LOG(ERR, "%sflag %s expects %s", where, name,
			 p->type == DOCA_ARGP_TYPE_BOOLEAN ? "true or false" :
			 p->type == DOCA_ARGP_TYPE_STRING ? "a string" : "a number");
	return DOCA_ERROR_INVALID_VALUE;
}

/* A flag given on the command line replaces its JSON values. */
static bool
dc_occ_live(const struct dc_occ *o)
{
	return o->jval == NULL || o->param->nb_cli == 0;
}

/* Counts, mandatory and singular flags, over every occurrence. */
static doca_error_t
dc_check_occurrences(const struct dc_occ_list *l)
{
	struct doca_argp_param *p, *singular = NULL;
	bool others = false;
	char name[160];
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (l->v[i].jval == NULL)
			l->v[i].param->nb_cli++;
		else
			l->v[i].param->nb_json++;
	}
	TAILQ_FOREACH(p, &dc_argp.params, next) {
		dc_pname(p, name, sizeof(name));
		if (!p->multiple && (p->nb_cli > 1 || (p->nb_cli == 0 && p->nb_json > 1))) {
			ARGP_LOG(ERR, "flag %s is given more than once", name);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (p->mandatory && p->nb_cli + p->nb_json == 0) {
			ARGP_LOG(ERR, "flag %s is mandatory", name);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (p->builtin != DC_BI_NONE || p->nb_cli + p->nb_json == 0)
			continue;
		if (p->singular && singular == NULL)
			singular = p;
		else
			others = true;
	}
	if (singular != NULL && others) {
		ARGP_LOG(ERR, "flag %s must be given alone",
			 dc_pname(singular, name, sizeof(name)));
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Every value converts, and the levels are levels, before any callback runs. */
	for (i = 0; i < l->n; i++) {
		const struct dc_occ *o = &l->v[i];
		union dc_value v;

		if (!dc_occ_live(o) || o->param->builtin == DC_BI_HELP ||
		    o->param->builtin == DC_BI_VERSION || o->param->builtin == DC_BI_JSON)
			continue;
		if (dc_value_of(o, &v) != DOCA_SUCCESS)
			return DOCA_ERROR_INVALID_VALUE;
		if ((o->param->builtin == DC_BI_LOG_LEVEL ||
		     o->param->builtin == DC_BI_SDK_LOG_LEVEL) &&
		    (v.i < DOCA_LOG_LEVEL_DISABLE || v.i > DOCA_LOG_LEVEL_TRACE || v.i % 10 != 0)) {
			ARGP_LOG(ERR, "flag %s: %d is not a log level %s",
				 dc_pname(o->param, name, sizeof(name)), v.i, dc_levels_help);
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	return DOCA_SUCCESS;
}

static doca_error_t
dc_apply_level(const struct dc_occ *o)
{
	bool sdk = o->param->builtin == DC_BI_SDK_LOG_LEVEL;
	union dc_value v;
	doca_error_t ret;
	char name[160];

	ret = dc_value_of(o, &v);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = sdk ? doca_log_level_set_global_sdk_limit((uint32_t)v.i) :
		doca_log_level_set_global_lower_limit((uint32_t)v.i);
	if (v.i < 0 || ret != DOCA_SUCCESS) {
		ARGP_LOG(ERR, "flag %s: %d is not a log level %s",
			 dc_pname(o->param, name, sizeof(name)), v.i, dc_levels_help);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (sdk)
		dc_argp.sdk_log_level = v.i;
	else
		dc_argp.log_level = v.i;
	return DOCA_SUCCESS;
}

static doca_error_t
dc_call(const struct dc_occ *o)
{
	union dc_value v;
	doca_error_t ret;
	char name[160];

	ret = dc_value_of(o, &v);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = o->param->cb(o->param->type == DOCA_ARGP_TYPE_STRING ? (void *)v.s : (void *)&v,
			   dc_argp.config);
	if (ret != DOCA_SUCCESS)
		ARGP_LOG(ERR, "flag %s: its callback failed: %s",
			 dc_pname(o->param, name, sizeof(name)), doca_error_get_descr(ret));
	return ret;
}

static void
dc_version(void)
{
	printf("%s (rte_comch %s, DOCA compatibility layer)\n", dc_prog(), RTE_COMCH_VERSION);
	fflush(stdout);
}

/* ---- start ---- */

/* Split argv around "--" for a DPDK program; *first is where the program's part starts. */
static doca_error_t
dc_split_dpdk(int argc, char **argv, int *first)
{
	int i, k = -1;

	*first = 1;
	if (dc_argp.dpdk_cb == NULL)
		return DOCA_SUCCESS;
	for (i = 1; i < argc && k < 0; i++)
		if (strcmp(argv[i], "--") == 0)
			k = i;
	/* Without "--", every argument is the program's; DPDK gets argv[0] alone. */
	dc_argp.dpdk_argv = calloc((size_t)(k < 0 ? 1 : k) + 1, sizeof(char *));
	if (dc_argp.dpdk_argv == NULL)
		return DOCA_ERROR_NO_MEMORY;
	dc_argp.dpdk_argv[0] = argv[0];
	for (i = 1; i < k; i++)
		dc_argp.dpdk_argv[i] = argv[i];
	if (k >= 0)
		*first = k + 1;
	return DOCA_SUCCESS;
}

static doca_error_t
dc_run(const struct dc_occ_list *l)
{
	const struct dc_occ *o;
	doca_error_t ret;
	int pass, dpdk_argc = 0;
	size_t i;

	/*
	 * Pass 0: the log levels, so that the program's callbacks log at the level
	 * asked; pass 1: JSON program flags; pass 2: command-line program flags.
	 */
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < l->n; i++) {
			o = &l->v[i];
			if (!dc_occ_live(o))
				continue;
			if (pass == 0 && (o->param->builtin == DC_BI_LOG_LEVEL ||
					  o->param->builtin == DC_BI_SDK_LOG_LEVEL))
				ret = dc_apply_level(o);
			else if (o->param->builtin == DC_BI_NONE &&
				 ((pass == 1 && o->jval != NULL) || (pass == 2 && o->jval == NULL)))
				ret = dc_call(o);
			else
				continue;
			if (ret != DOCA_SUCCESS)
				return ret;
		}
	}
	if (dc_argp.dpdk_cb != NULL) {
		while (dc_argp.dpdk_argv[dpdk_argc] != NULL)
			dpdk_argc++;
		ret = dc_argp.dpdk_cb(dpdk_argc, dc_argp.dpdk_argv);
		if (ret != DOCA_SUCCESS) {
			ARGP_LOG(ERR, "the DPDK callback failed: %s", doca_error_get_descr(ret));
			return ret;
		}
	}
	if (dc_argp.validate != NULL) {
		ret = dc_argp.validate(dc_argp.config);
		if (ret != DOCA_SUCCESS) {
			ARGP_LOG(ERR, "the program's validation failed: %s",
				 doca_error_get_descr(ret));
			return ret;
		}
	}
	return DOCA_SUCCESS;
}

/* The occurrence of a DOCA flag on the command line, or NULL. */
static const struct dc_occ *
dc_cli_builtin(const struct dc_occ_list *l, enum dc_builtin bi)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].param->builtin == bi)
			return &l->v[i];
	return NULL;
}

/* What doca_argp_start() allocated for one parse. */
struct dc_parse {
	struct dc_occ_list occ;
	struct dc_jval *root;
	char **v;
	const char **orig;
	char **owned;
};

static void
dc_parse_free(struct dc_parse *ps)
{
	int i;

	dc_jfree(ps->root);
	free(ps->occ.v);
	if (ps->owned != NULL)
		for (i = 0; ps->owned[i] != NULL; i++)
			free(ps->owned[i]);
	free(ps->owned);
	free(ps->v);
	free(ps->orig);
}

/* --help and the default --version end the program, as with DOCA. */
static void __attribute__((noreturn))
dc_exit_success(struct dc_parse *ps)
{
	dc_parse_free(ps);
	doca_argp_destroy();
	exit(EXIT_SUCCESS);
}

doca_error_t
doca_argp_start(int argc, char **argv)
{
	struct dc_parse ps = { 0 };
	const struct dc_occ *json, *version;
	doca_error_t ret;
	bool usage = true;
	int first;

	if (!dc_argp.initialized || dc_argp.started) {
		ARGP_LOG(ERR, "doca_argp_start() needs doca_argp_init(), and runs once");
		return DOCA_ERROR_BAD_STATE;
	}
	if (argc < 1 || argv == NULL || argv[0] == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	dc_argp.started = true;
	if (dc_argp.program_name == NULL) {
		const char *slash = strrchr(argv[0], '/');

		dc_argp.program_name = strdup(slash != NULL ? slash + 1 : argv[0]);
		if (dc_argp.program_name == NULL)
			return DOCA_ERROR_NO_MEMORY;
	}
	ret = dc_split_dpdk(argc, argv, &first);
	if (ret == DOCA_SUCCESS)
		ret = dc_build_argv(argv + first, argc - first, argv[0], &ps.v, &ps.orig,
				    &ps.owned);
	if (ret == DOCA_SUCCESS)
		ret = dc_cli_collect(&ps.occ, argc - first + 1, ps.v, ps.orig);
	if (ret != DOCA_SUCCESS)
		goto out;

	if (dc_cli_builtin(&ps.occ, DC_BI_HELP) != NULL) {
		dc_usage(stdout);
		dc_exit_success(&ps);
	}
	version = dc_cli_builtin(&ps.occ, DC_BI_VERSION);
	if (version != NULL) {
		if (dc_argp.version_cb == NULL) {
			dc_version();
			dc_exit_success(&ps);
		}
		/* The program's version callback usually exits; if not, parsing goes on. */
		ret = dc_argp.version_cb(NULL, dc_argp.config);
		if (ret != DOCA_SUCCESS) {
			usage = false;
			goto out;
		}
	}
	json = dc_cli_builtin(&ps.occ, DC_BI_JSON);
	if (json != NULL) {
		ret = dc_jload(json->text, &ps.root);
		if (ret == DOCA_SUCCESS)
			ret = dc_json_collect(&ps.occ, ps.root);
		if (ret != DOCA_SUCCESS) {
			usage = ret == DOCA_ERROR_INVALID_VALUE;
			goto out;
		}
	}
	ret = dc_check_occurrences(&ps.occ);
	if (ret != DOCA_SUCCESS)
		goto out;
	/* Errors from here on are the program's callbacks': no usage. */
	usage = false;
	ret = dc_run(&ps.occ);
out:
	if (ret == DOCA_ERROR_INVALID_VALUE && usage) {
		fputc('\n', stderr);
		dc_usage(stderr);
	}
	dc_parse_free(&ps);
	return ret;
}
