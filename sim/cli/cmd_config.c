/*
 * cmd_config.c - `gmsim config show|check|diff|doc`: the effective config (and where each value
 * came from), what a config implies, what differs between two configs, and the Markdown
 * reference of every key.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "cli.h"
#include "clock.h"
#include "log.h"
#include "params.h"
#include "probe.h"
#include "sim.h"

/*
 * What a config implies, as named figures: capacities and peak bandwidths from the parameters,
 * unloaded latencies measured on a fresh machine (refresh off: a refresh would close the row).
 * `config check` prints them; `config diff` prints those that change.
 */
#define DERIVED_MAX 24

struct derived {
	size_t n;
	const char *name[DERIVED_MAX];
	double v[DERIVED_MAX];
	int digits[DERIVED_MAX];
	char note[SIM_ERR_MSG_MAX]; /* why the latencies are missing, if they are */
};

static void derived_add(struct derived *d, const char *name, double v, int digits)
{
	SIM_ASSERT(d->n < DERIVED_MAX);
	d->name[d->n] = name;
	d->v[d->n] = v;
	d->digits[d->n] = digits;
	d->n++;
}

static double derived_get(const struct derived *d, const char *name, bool *found)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		if (strcmp(d->name[i], name) == 0) {
			*found = true;
			return d->v[i];
		}
	}
	*found = false;
	return 0.0;
}

static void derive(const struct gpu_params *p, struct derived *d)
{
	double core = 1e6 / (double)clock_period_from_mhz(p->clock.core_mhz) / 1e3; /* GHz */
	double tck_ns = (double)clock_period_from_mhz(p->clock.core_mhz) / 1000.0;
	struct probe_unloaded u = { 0 }; /* set by probe_unloaded; zero for the compiler's sake */
	struct dram_spec spec;
	struct sim_err err;
	struct sim *s;

	memset(d, 0, sizeof *d);
	if (p->memory.model == GPU_MEM_FIXED) {
		double per_sm = p->memory.requests_per_cycle * 128.0 * core;

		derived_add(d, "fixed memory latency, core cycles", p->memory.latency_cycles, 0);
		derived_add(d, "fixed memory peak, GB/s", per_sm * p->gpu.sms, 0);
		return;
	}
	if (gpu_dram_spec(p, &spec, &err) != 0) {
		snprintf(d->note, sizeof d->note, "%s", err.msg);
		return;
	}
	{
		double xb = 1e6 / (double)clock_period_from_mhz(p->clock.xbar_mhz) / 1e3;
		double l2c = 1e6 / (double)clock_period_from_mhz(p->clock.l2_mhz) / 1e3;
		uint32_t slices = spec.channels * p->gpu.l2_slices_per_channel;
		uint32_t ports = slices < p->gpu.sms ? slices : p->gpu.sms;
		double l1 = p->l1.lookups_per_cycle * (double)p->l1.cache.line_bytes * core;

		derived_add(d, "L2 slices", slices, 0);
		derived_add(d, "L2 capacity, MB", slices * (double)p->l2.cache.size_kb / 1024.0, 1);
		derived_add(d, "peak L1, GB/s per SM", l1, 1);
		derived_add(d, "peak L1, GB/s in all", l1 * p->gpu.sms, 0);
		derived_add(d, "peak crossbar requests, GB/s", ports * (double)p->xbar.req_port_bytes * xb,
			    0);
		derived_add(d, "peak crossbar replies, GB/s",
			    ports * (double)p->xbar.reply_port_bytes * xb, 0);
		derived_add(d, "peak L2, GB/s",
			    slices * (double)p->l2.lookups_per_cycle * p->l2.cache.line_bytes * l2c, 0);
		derived_add(d, "peak DRAM, GB/s", spec.peak_gbps, 1);
	}
	{
		struct gpu_params q = *p;

		q.mc.refresh = MC_REFRESH_OFF;
		s = sim_create(&q, &err);
	}
	if (s == NULL || probe_unloaded(s, &u, &err) != 0) {
		snprintf(d->note, sizeof d->note, "%s", err.msg);
	} else {
		derived_add(d, "unloaded L1 hit, core cycles", u.l1_hit, 0);
		derived_add(d, "unloaded L2 hit, core cycles", u.l2_hit, 0);
		derived_add(d, "unloaded DRAM row hit, core cycles", u.dram_row_hit, 0);
		derived_add(d, "unloaded DRAM row miss, core cycles", u.dram_row_miss, 0);
		derived_add(d, "unloaded L2 hit, ns", u.l2_hit * tck_ns, 1);
		derived_add(d, "unloaded DRAM row miss, ns", u.dram_row_miss * tck_ns, 1);
	}
	sim_destroy(s);
}

static double fig(const struct derived *d, const char *name)
{
	bool found;
	double v = derived_get(d, name, &found);

	SIM_ASSERT(found);
	return v;
}

/* Peak bandwidths from the parameters and unloaded latencies measured on a fresh machine. */
static void print_hierarchy(const struct gpu_params *p, const struct derived *d)
{
	double tck_ns = (double)clock_period_from_mhz(p->clock.core_mhz) / 1000.0;
	bool probed;

	printf("hierarchy: %u SMs, L1 %u KB per SM (%u-way), %.0f L2 slices x %u KB = %.1f MB "
	       "(%u-way)\n", p->gpu.sms, p->l1.cache.size_kb, p->l1.cache.assoc,
	       fig(d, "L2 slices"), p->l2.cache.size_kb, fig(d, "L2 capacity, MB"),
	       p->l2.cache.assoc);
	printf("  peak GB/s: L1 %.1f per SM, %.0f in all; crossbar requests %.0f, replies %.0f; "
	       "L2 %.0f; DRAM %.1f\n", fig(d, "peak L1, GB/s per SM"), fig(d, "peak L1, GB/s in all"),
	       fig(d, "peak crossbar requests, GB/s"), fig(d, "peak crossbar replies, GB/s"),
	       fig(d, "peak L2, GB/s"), fig(d, "peak DRAM, GB/s"));
	derived_get(d, "unloaded L1 hit, core cycles", &probed);
	if (!probed) {
		printf("  unloaded latency: not measured (%s)\n", d->note);
	} else {
		double l1 = fig(d, "unloaded L1 hit, core cycles");
		double l2 = fig(d, "unloaded L2 hit, core cycles");
		double rh = fig(d, "unloaded DRAM row hit, core cycles");
		double rm = fig(d, "unloaded DRAM row miss, core cycles");

		printf("  unloaded load latency (refresh off), core cycles (ns): L1 hit %.0f (%.1f), "
		       "L2 hit %.0f "
		       "(%.1f), DRAM row hit %.0f (%.1f), row miss %.0f (%.1f)\n",
		       l1, l1 * tck_ns, l2, l2 * tck_ns, rh, rh * tck_ns, rm, rm * tck_ns);
	}
}

/* The fixed-latency memory (memory.model = "fixed"): its latency and peak rate; the cache and
 * DRAM groups are checked but build nothing. Lines are the coalescer's 128 B. */
static void print_fixed_memory(const struct gpu_params *p)
{
	double core = 1e6 / (double)clock_period_from_mhz(p->clock.core_mhz) / 1e3; /* GHz */
	double per_sm = p->memory.requests_per_cycle * 128.0 * core;

	printf("memory: fixed latency, %u core cycles (%.1f ns) from a line request accepted to "
	       "its reply, %u as the SM sees it (one link cycle each way)\n",
	       p->memory.latency_cycles, p->memory.latency_cycles / core,
	       p->memory.latency_cycles + 2);
	printf("  %u line request%s per core cycle per SM: peak %.1f GB/s per SM of 128 B lines, "
	       "%.0f in all; no cache or DRAM is simulated\n", p->memory.requests_per_cycle,
	       p->memory.requests_per_cycle == 1 ? "" : "s", per_sm, per_sm * p->gpu.sms);
}

static const char usage[] =
	"Usage: gmsim config show  [-c FILE] [-o group.key=value ...] [--origin]\n"
	"       gmsim config check [-c FILE] [-o group.key=value ...]\n"
	"       gmsim config diff  FILE_A FILE_B\n"
	"       gmsim config doc\n"
	"\n"
	"  show    print the effective configuration: every key, defaults filled in; with\n"
	"          --origin, one line per key: its value and the file:line (or -o, or default)\n"
	"          that set it\n"
	"  check   validate the configuration and print what it implies: clocks, DRAM, peak\n"
	"          bandwidths, unloaded latencies of each level\n"
	"  diff    print the keys whose effective values differ between two configs (with where\n"
	"          each value came from) and the derived figures that change with them\n"
	"  doc     print the Markdown reference of every group and key\n"
	"\n"
	"A config may name a base config and set only what differs (base = \"a100-80gb.cfg\";):\n"
	"see doc/config-reference.md, \"Layers, includes and origins\".\n"
	"\n"
	"  -c, --config FILE        configuration file (default " CLI_DEFAULT_CONFIG ")\n"
	"  -o, --set group.key=VAL  override one key; repeatable\n"
	"      --origin             (show) where each value came from\n"
	"  -h, --help               this help\n";

/* Every key of the schema, in the order `config show` writes groups and keys. */
static void print_origins(const struct gpu_params *p, const struct cfg *c)
{
	size_t i, j;

	for (i = 0; i < gpu_schema.ngroups; i++) {
		const struct cfg_group *g = &gpu_schema.groups[i];

		for (j = 0; j < g->nfields; j++) {
			const struct cfg_field *f = &g->fields[j];
			char path[256], val[CFG_STR_MAX * 2 + 8], from[1024];

			snprintf(path, sizeof path, "%s.%s", g->name, f->key);
			cfg_format_value(val, sizeof val, f, (const char *)p + g->offset);
			cfg_origin(c, path, from, sizeof from);
			printf("%s = %s  # %s\n", path, val, from);
		}
	}
}

/* `gmsim config diff A B`: keys, then derived figures. */
static int config_diff(const char *a, const char *b)
{
	struct cli_config_opts oa = { .path = a }, ob = { .path = b };
	struct gpu_params pa, pb;
	struct cfg *ca = NULL, *cb = NULL;
	struct derived da, db;
	struct sim_err err;
	size_t i, j, nkeys = 0, nfig = 0;
	uint64_t ha, hb;

	if (cli_load_params_cfg(&oa, &pa, &ca, &err) != 0)
		return cli_user_error(&err);
	if (cli_load_params_cfg(&ob, &pb, &cb, &err) != 0) {
		cfg_destroy(ca);
		return cli_user_error(&err);
	}
	ha = cfg_hash(&gpu_schema, &pa);
	hb = cfg_hash(&gpu_schema, &pb);
	printf("A: %s (config hash 0x%016" PRIx64 ")\n", a, ha);
	printf("B: %s (config hash 0x%016" PRIx64 ")\n", b, hb);
	for (i = 0; i < gpu_schema.ngroups; i++) {
		const struct cfg_group *g = &gpu_schema.groups[i];

		for (j = 0; j < g->nfields; j++) {
			const struct cfg_field *f = &g->fields[j];
			char path[256], va[CFG_STR_MAX * 2 + 8], vb[CFG_STR_MAX * 2 + 8];
			char fa[1024], fb[1024];

			cfg_format_value(va, sizeof va, f, (const char *)&pa + g->offset);
			cfg_format_value(vb, sizeof vb, f, (const char *)&pb + g->offset);
			if (strcmp(va, vb) == 0)
				continue;
			if (nkeys++ == 0)
				printf("keys that differ (value in A -> value in B; where each was set):\n");
			snprintf(path, sizeof path, "%s.%s", g->name, f->key);
			cfg_origin(ca, path, fa, sizeof fa);
			cfg_origin(cb, path, fb, sizeof fb);
			printf("  %s: %s -> %s  (A: %s; B: %s)\n", path, va, vb, fa, fb);
		}
	}
	cfg_destroy(ca);
	cfg_destroy(cb);
	if (nkeys == 0) {
		printf("no keys differ: the effective configs are the same%s\n",
		       ha == hb ? " (equal hashes)" : "");
		return SIM_EXIT_OK;
	}
	derive(&pa, &da);
	derive(&pb, &db);
	/* A's figures in A's order, then any only B has (the fixed model has other figures). */
	for (i = 0; i < da.n + db.n; i++) {
		const struct derived *d = i < da.n ? &da : &db;
		size_t k = i < da.n ? i : i - da.n;
		const char *name = d->name[k];
		bool fa, fb;
		double va = derived_get(&da, name, &fa), vb = derived_get(&db, name, &fb);
		char sa[64], sb[64];

		if (i >= da.n && fa)
			continue; /* listed with A's */
		snprintf(sa, sizeof sa, "%.*f", d->digits[k], va);
		snprintf(sb, sizeof sb, "%.*f", d->digits[k], vb);
		if (!fa)
			snprintf(sa, sizeof sa, "-");
		if (!fb)
			snprintf(sb, sizeof sb, "-");
		if (strcmp(sa, sb) == 0)
			continue;
		if (nfig++ == 0)
			printf("derived figures that change:\n");
		printf("  %s: %s -> %s\n", name, sa, sb);
	}
	if (nfig == 0)
		printf("no derived figure changes\n");
	if (da.note[0] != '\0')
		printf("A: latencies not measured: %s\n", da.note);
	if (db.note[0] != '\0')
		printf("B: latencies not measured: %s\n", db.note);
	return SIM_EXIT_OK;
}

static void print_clocks(const struct gpu_params *p)
{
	int d;

	printf("clock domains (each frequency rounded once to an integer period):\n");
	printf("  %-6s %14s %10s %12s %9s\n", "domain", "requested MHz", "period ps", "actual MHz",
	       "error");
	for (d = 0; d < GPU_CLK_COUNT; d++) {
		double mhz = gpu_clock_mhz(p, (enum gpu_clock_domain)d);
		tick_t period = clock_period_from_mhz(mhz);
		double actual = 1e6 / (double)period;

		if (d == GPU_CLK_DRAM) { /* derived from the data rate, already a whole period */
			printf("  %-6s %14s %10" PRIu64 " %12.3f %9s\n",
			       gpu_clock_name((enum gpu_clock_domain)d), "(data rate)", period, actual,
			       "-");
			continue;
		}
		printf("  %-6s %14.3f %10" PRIu64 " %12.3f %+8.3f%%\n",
		       gpu_clock_name((enum gpu_clock_domain)d), mhz, period, actual,
		       100.0 * (actual - mhz) / mhz);
	}
}

int cmd_config(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "set", required_argument, NULL, 'o' },
		{ "origin", no_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_config_opts o = { 0 };
	struct gpu_params p;
	struct sim_err err;
	struct cfg *c = NULL;
	const char *action;
	bool origin = false;
	int ch, rc = SIM_EXIT_OK;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? SIM_EXIT_USAGE : SIM_EXIT_OK;
	}
	action = argv[1];
	if (strcmp(action, "show") != 0 && strcmp(action, "check") != 0 &&
	    strcmp(action, "doc") != 0 && strcmp(action, "diff") != 0)
		return cli_usage_error("config", "unknown action '%s' (expected show, check, diff or "
				       "doc)", action);
	argc--;
	argv++;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+c:o:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			o.path = optarg;
			break;
		case 'o':
			cli_config_opts_add_override(&o, optarg);
			break;
		case 'O':
			origin = true;
			break;
		case 'h':
			fputs(usage, stdout);
			cli_config_opts_free(&o);
			return SIM_EXIT_OK;
		default:
			cli_config_opts_free(&o);
			return cli_usage_error("config", "bad option");
		}
	}
	if (origin && strcmp(action, "show") != 0) {
		cli_config_opts_free(&o);
		return cli_usage_error("config", "--origin goes with show");
	}
	if (strcmp(action, "diff") == 0) {
		bool opts = o.path != NULL || o.noverrides > 0;

		cli_config_opts_free(&o);
		if (opts)
			return cli_usage_error("config", "diff takes two config files, no -c or -o");
		if (argc - optind != 2)
			return cli_usage_error("config", "diff takes two config files (gmsim config "
					       "diff A B), got %d", argc - optind);
		return config_diff(argv[optind], argv[optind + 1]);
	}
	if (optind < argc) {
		cli_config_opts_free(&o);
		return cli_usage_error("config", "unexpected argument '%s'", argv[optind]);
	}
	if (strcmp(action, "doc") == 0) {
		if (o.path != NULL || o.noverrides > 0) {
			cli_config_opts_free(&o);
			return cli_usage_error("config", "doc takes no -c or -o");
		}
		cfg_write_doc(stdout, &gpu_schema);
		return SIM_EXIT_OK;
	}
	if (cli_load_params_cfg(&o, &p, origin ? &c : NULL, &err) != 0) {
		rc = cli_user_error(&err);
	} else if (strcmp(action, "show") == 0 && origin) {
		print_origins(&p, c);
	} else if (strcmp(action, "show") == 0) {
		cfg_write_effective(stdout, &gpu_schema, &p);
	} else {
		printf("%s: ok\n", o.path != NULL ? o.path : CLI_DEFAULT_CONFIG);
		printf("gpu: %s\n", p.gpu.name);
		printf("config hash: 0x%016" PRIx64 "\n", cfg_hash(&gpu_schema, &p));
		print_clocks(&p);
		if (p.memory.model == GPU_MEM_FIXED) {
			print_fixed_memory(&p);
		} else {
			struct dram_spec spec;

			if (gpu_dram_spec(&p, &spec, &err) == 0) {
				struct derived d;

				dram_spec_print(&spec, stdout);
				derive(&p, &d);
				print_hierarchy(&p, &d);
			}
		}
	}
	cfg_destroy(c);
	cli_config_opts_free(&o);
	return rc;
}
