/*
 * cfg_int.h - internals of the config loader shared by cfg_load.c (reading files, includes,
 * layers), cfg.c (schema reading) and cfg_tree.c (the read-only tree API). Private: only those
 * three files include it, and they are the only files of gmsim that include <libconfig.h>.
 */
#ifndef SIM_CFG_INT_H
#define SIM_CFG_INT_H

#include <libconfig.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

struct cfg_override_rec {
	char *path; /* "clock.core_mhz" */
	char *text; /* "clock.core_mhz=1400" as typed */
};

/* A source file kept in memory to re-read integer literals (libconfig 1.5 truncates them). */
struct src_file {
	char *name;   /* as libconfig reports it */
	char *buf;
	char **lines; /* lines[i] is line i + 1, NUL-terminated in buf */
	size_t nlines;
	bool failed;  /* could not be read: do without */
};

/*
 * lc is the first member on purpose: every config_setting_t points back at its config_t, so
 * cfg_tree.c finds the struct cfg of a node from the node alone (CFG_OF_SETTING).
 */
struct cfg {
	config_t lc;
	char *name; /* top file, as given */
	char **srcs; /* every file read (as opened: joined to its includer's folder), [0] the
		      * first; settings' source file pointers point at these strings */
	size_t nsrcs;
	struct cfg_override_rec *ovr;
	size_t novr;
	struct src_file *files;
	size_t nfiles;
	char *text; /* cfg_load_string: the text itself */
};

/* path as messages show it (malloc'd): c's top file as given; any other without "." components
 * and with "a/.." folded where a is a real folder (c may be NULL). */
char *cfg_display_path(const struct cfg *c, const char *path);

#define CFG_OF_SETTING(s) ((struct cfg *)(void *)((char *)(s)->config - offsetof(struct cfg, lc)))

/* Fills file (display form, as cfg_read reports it) and line (0 if none) for setting s; path is
 * the dotted path of s, used only to name the override that created it. */
void cfg_setting_where(const struct cfg *c, const config_setting_t *s, const char *path,
		       char *file, size_t size, int *line);
/* Re-reads the literal of a named INT setting from its source line. Returns false if it cannot
 * be found (keep libconfig's value); *overflow is set if it does not fit in 64 bits. */
bool cfg_reread_int(struct cfg *c, const config_setting_t *s, int64_t *out, bool *overflow);

#endif /* SIM_CFG_INT_H */
