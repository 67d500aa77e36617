/*
 * cfg_tree.c - the read-only tree API of cfg.h: walk a loaded libconfig file without including
 * <libconfig.h> (this file and cfg.c are the only ones that do).
 *
 * A struct cfg_node * is a config_setting_t * under another name: the handle costs nothing and
 * never dangles while its cfg lives. The cfg a node belongs to is found through the setting's
 * back pointer to its config_t, the first member of struct cfg (cfg_int.h).
 *
 * Not done here: editing the tree (cfg_override does that), schemas and defaults (cfg_read).
 */
#include "config.h"

#include <inttypes.h>
#include <libconfig.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "cfg_int.h"

static const config_setting_t *setting(const struct cfg_node *n)
{
	return (const config_setting_t *)(const void *)n;
}

static const struct cfg_node *node(const config_setting_t *s)
{
	return (const struct cfg_node *)(const void *)s;
}

const struct cfg_node *cfg_root(struct cfg *c)
{
	return node(config_root_setting(&c->lc));
}

const struct cfg_node *cfg_node_member(const struct cfg_node *n, const char *name)
{
	if (n == NULL || config_setting_type(setting(n)) != CONFIG_TYPE_GROUP)
		return NULL;
	return node(config_setting_get_member(setting(n), name));
}

const struct cfg_node *cfg_node_elem(const struct cfg_node *n, size_t i)
{
	if (n == NULL || i >= cfg_node_length(n))
		return NULL;
	return node(config_setting_get_elem(setting(n), (unsigned)i));
}

size_t cfg_node_length(const struct cfg_node *n)
{
	if (n == NULL || !config_setting_is_aggregate(setting(n)))
		return 0;
	return (size_t)config_setting_length(setting(n));
}

enum cfg_kind cfg_node_kind(const struct cfg_node *n)
{
	if (n == NULL)
		return CFG_KIND_COUNT;
	switch (config_setting_type(setting(n))) {
	case CONFIG_TYPE_GROUP:
		return CFG_KIND_GROUP;
	case CONFIG_TYPE_LIST:
		return CFG_KIND_LIST;
	case CONFIG_TYPE_ARRAY:
		return CFG_KIND_ARRAY;
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		return CFG_KIND_INT;
	case CONFIG_TYPE_FLOAT:
		return CFG_KIND_FLOAT;
	case CONFIG_TYPE_BOOL:
		return CFG_KIND_BOOL;
	case CONFIG_TYPE_STRING:
		return CFG_KIND_STRING;
	default:
		return CFG_KIND_COUNT;
	}
}

const char *cfg_kind_name(enum cfg_kind k)
{
	static const char *const names[CFG_KIND_COUNT + 1] = {
		"a group", "a list", "an array", "an integer", "a number", "a boolean", "a string",
		"nothing",
	};

	return names[k <= CFG_KIND_COUNT ? k : CFG_KIND_COUNT];
}

int cfg_node_int(const struct cfg_node *n, int64_t *out)
{
	const config_setting_t *s = setting(n);
	bool overflow;
	int64_t lit;

	if (cfg_node_kind(n) != CFG_KIND_INT)
		return -1;
	if (config_setting_type(s) == CONFIG_TYPE_INT &&
	    cfg_reread_int(CFG_OF_SETTING(s), s, &lit, &overflow)) {
		if (overflow)
			return -2;
		*out = lit;
		return 0;
	}
	*out = config_setting_get_int64(s);
	return 0;
}

int cfg_node_float(const struct cfg_node *n, double *out)
{
	int64_t i;

	if (cfg_node_kind(n) == CFG_KIND_FLOAT) {
		*out = config_setting_get_float(setting(n));
		return 0;
	}
	if (cfg_node_int(n, &i) != 0)
		return -1;
	*out = (double)i;
	return 0;
}

int cfg_node_bool(const struct cfg_node *n, bool *out)
{
	if (cfg_node_kind(n) != CFG_KIND_BOOL)
		return -1;
	*out = config_setting_get_bool(setting(n));
	return 0;
}

const char *cfg_node_string(const struct cfg_node *n)
{
	if (cfg_node_kind(n) != CFG_KIND_STRING)
		return NULL;
	return config_setting_get_string(setting(n));
}

const char *cfg_node_name(const struct cfg_node *n)
{
	return n != NULL ? config_setting_name(setting(n)) : NULL;
}

void cfg_node_repr(const struct cfg_node *n, char *buf, size_t size)
{
	enum cfg_kind k = cfg_node_kind(n);
	int64_t i = 0;
	double d = 0;
	bool b = false;

	switch (k) {
	case CFG_KIND_INT:
		if (cfg_node_int(n, &i) == 0)
			snprintf(buf, size, "%" PRId64, i);
		else
			snprintf(buf, size, "an integer beyond 64 bits");
		break;
	case CFG_KIND_FLOAT:
		cfg_node_float(n, &d);
		snprintf(buf, size, "%g", d);
		break;
	case CFG_KIND_BOOL:
		cfg_node_bool(n, &b);
		snprintf(buf, size, "%s", b ? "true" : "false");
		break;
	case CFG_KIND_STRING:
		snprintf(buf, size, "\"%s\"", cfg_node_string(n));
		break;
	default:
		snprintf(buf, size, "%s", cfg_kind_name(k));
		break;
	}
}

void cfg_node_where(const struct cfg_node *n, char *file, size_t size, int *line)
{
	const config_setting_t *s = setting(n);
	const char *name;

	if (n == NULL) {
		snprintf(file, size, "%s", "");
		*line = 0;
		return;
	}
	name = config_setting_name(s);
	cfg_setting_where(CFG_OF_SETTING(s), s, name != NULL ? name : "", file, size, line);
}
