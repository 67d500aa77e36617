/*
 * test_trace.c - the trace line parser (sim/front/trace.h): the three address modes with
 * hand-computed lane addresses (base-delta with the tracer's popcount - 1 deltas, and the
 * parser off-by-one of the reference rejected), line numbers, the opcode kept as a label,
 * opcode classes and widths
 * (trace_isa.h), the latency table, generic accesses by address window, the register to
 * scoreboard-slot mapping, and the one-pass reading of a line against the general tokenizer
 * on random lines.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <libconfig.h>

#include "unit.h"

#include "trace.h"
#include "trace_isa.h"
#include "workload.h"

static struct trace_kernel kern(uint32_t version, bool lineinfo)
{
	struct trace_kernel k;

	memset(&k, 0, sizeof k);
	k.version = version;
	k.lineinfo = lineinfo;
	k.block[0] = 32;
	k.block[1] = k.block[2] = 1;
	k.shmem_base = 0x7f0000000000ull;
	k.local_base = 0x7e0000000000ull;
	return k;
}

/* Parses text; asserts success; lane addresses into addr (0 for inactive lanes). */
static void parse_ok(const struct trace_kernel *k, const char *text, struct trace_inst *in,
		     struct trace_block *b, addr_t *addr)
{
	char msg[256] = "";

	if (trace_parse_inst(k, NULL, text, in, b, msg, sizeof msg) != 0)
		fail_msg("%s: %s", text, msg);
	memset(addr, 0, TRACE_LANES * sizeof *addr);
	trace_inst_addrs(b, in, addr);
}

static void test_base_stride(void **state)
{
	struct trace_kernel k = kern(4, false);
	struct trace_block b;
	struct trace_inst in;
	addr_t a[TRACE_LANES];

	(void)state;
	trace_block_init(&b);
	/* lanes 8..15, base 0x1000, stride 4: lane 8 + j at 0x1000 + 4 j */
	parse_ok(&k, "00f0 0000ff00 1 R4 LDG.E.SYS 1 R2 4 1 0x0000000000001000 4 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_LOAD);
	assert_int_equal(in.bytes, 4);
	assert_int_equal(in.active, 0xff00);
	assert_int_equal(in.pc, 0xf0);
	assert_int_equal(a[7], 0);
	assert_int_equal(a[8], 0x1000);
	assert_int_equal(a[9], 0x1004);
	assert_int_equal(a[15], 0x101c);
	assert_int_equal(a[16], 0);
	/* a negative stride walks down */
	parse_ok(&k, "0000 00000003 0 STG.E.SYS 2 R2 R4 4 1 0x0000000000002000 -8 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_STORE);
	assert_int_equal(a[0], 0x2000);
	assert_int_equal(a[1], 0x1ff8);
	/* every lane active (the loop without branches): lane k at base + k stride */
	parse_ok(&k, "0000 ffffffff 0 STG.E.SYS 2 R2 R4 4 1 0x0000000000003000 -12 0", &in, &b, a);
	assert_int_equal(a[0], 0x3000);
	assert_int_equal(a[1], 0x3000 - 12);
	assert_int_equal(a[31], 0x3000 - 31 * 12);
	trace_block_free(&b);
}

/* trace_inst_addrs_dense: a full warp whose stride is its access size is dense (the base alone
 * is needed; the debug build writes every lane); another stride, a partial warp or a list is
 * not, and gets every active lane as trace_inst_addrs. */
static void test_base_stride_dense(void **state)
{
	static const struct {
		const char *line;
		bool dense;
	} cases[] = {
		{ "0000 ffffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x0000000000001000 4 0", true },
		{ "0000 ffffffff 0 STG.E.128.SYS 2 R2 R4 16 1 0x0000000000001000 16 0", true },
		{ "0000 ffffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x0000000000001000 8 0", false },
		{ "0000 ffffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x0000000000001000 -4 0", false },
		{ "0000 7fffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x0000000000001000 4 0", false },
		{ "0000 00000003 1 R4 LDG.E.SYS 1 R2 4 0 0x0000000000001000 0x0000000000001004 0",
		  false },
	};
	struct trace_kernel k = kern(4, false);
	struct trace_block b;
	struct trace_inst in;
	addr_t a[TRACE_LANES], d[TRACE_LANES];
	size_t i;
	uint32_t lane;

	(void)state;
	trace_block_init(&b);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		parse_ok(&k, cases[i].line, &in, &b, a);
		memset(d, 0, sizeof d);
		assert_int_equal(trace_inst_addrs_dense(&b, &in, in.bytes, d), cases[i].dense);
		assert_int_equal(d[0], a[0]);
		for (lane = 1; lane < TRACE_LANES; lane++) {
			if (cases[i].dense)
				assert_int_equal(a[lane], a[0] + lane * in.bytes);
			else
				assert_int_equal(d[lane], a[lane]);
		}
	}
	trace_block_free(&b);
}

static void test_list(void **state)
{
	struct trace_kernel k = kern(3, false);
	struct trace_block b;
	struct trace_inst in;
	addr_t a[TRACE_LANES];

	(void)state;
	trace_block_init(&b);
	/* one address per active lane, in lane order: lanes 0 and 2 */
	parse_ok(&k, "0000 00000005 1 R4 LDG.E.64.SYS 1 R2 8 0 0x0000000000000100 "
		 "0x0000000000000200 0", &in, &b, a);
	assert_int_equal(in.bytes, 8);
	assert_int_equal(in.ndst, 2); /* a 64-bit load writes R4 and R5 */
	assert_int_equal(a[0], 0x100);
	assert_int_equal(a[1], 0);
	assert_int_equal(a[2], 0x200);
	/* a second list instruction appends to the block's pool */
	parse_ok(&k, "0010 80000000 1 R6 LDG.E.SYS 1 R2 4 0 0x0000000000000300 0", &in, &b, a);
	assert_int_equal(a[31], 0x300);
	assert_int_equal(b.naddrs, 3);
	trace_block_free(&b);
}

static void test_base_delta(void **state)
{
	struct trace_kernel k = kern(5, false);
	struct trace_block b;
	struct trace_inst in;
	addr_t a[TRACE_LANES];
	char msg[256];

	(void)state;
	trace_block_init(&b);
	/* the reference's example: lanes 0 and 2, one delta (popcount - 1) of 8 */
	parse_ok(&k, "0100 00000005 0 STG.E.SYS 2 R2 R5 4 2 0x00007f1234560000 8 0", &in, &b, a);
	assert_int_equal(a[0], 0x7f1234560000ull);
	assert_int_equal(a[2], 0x7f1234560008ull);
	assert_int_equal(in.kind, WORKLOAD_OP_STORE);
	/* deltas are from the previous active lane, and may be negative: lanes 1, 3, 4 */
	parse_ok(&k, "0100 0000001a 0 STG.E.SYS 2 R2 R5 4 2 0x0000000000001000 -16 100 0", &in, &b,
		 a);
	assert_int_equal(a[1], 0x1000);
	assert_int_equal(a[3], 0xff0);
	assert_int_equal(a[4], 0x1054);
	/* one active lane: the base alone, no delta */
	parse_ok(&k, "0100 00000010 1 R2 LDG.E.64.SYS 1 R2 8 2 0x0000000000004000 0", &in, &b, a);
	assert_int_equal(a[4], 0x4000);
	/* the parser off-by-one (one delta per active lane) leaves a token after the immediate */
	assert_int_equal(trace_parse_inst(&k, NULL, "0100 00000005 0 STG.E.SYS 2 R2 R5 4 2 "
					  "0x0000000000001000 8 8 0", &in, &b, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "popcount(mask) - 1"));
	/* too few deltas: the immediate is taken as a delta and then missing */
	assert_int_equal(trace_parse_inst(&k, NULL, "0100 00000007 0 STG.E.SYS 2 R2 R5 4 2 "
					  "0x0000000000001000 8 0", &in, &b, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "expected the immediate"));
	trace_block_free(&b);
}

static void test_line_fields(void **state)
{
	struct trace_kernel k = kern(4, true);
	struct trace_block b;
	struct trace_inst in;
	addr_t a[TRACE_LANES];
	char msg[256];

	(void)state;
	trace_block_init(&b);
	/* lineinfo: a source line number first */
	parse_ok(&k, "42 0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_ALU);
	assert_int_equal(in.latency, 1); /* no table: every ALU opcode 1 cycle */
	assert_int_equal(in.nsrc, 0);    /* RZ is never a dependency */
	assert_int_equal(in.dst, 1);
	assert_string_equal(in.opcode, "IMAD.MOV.U32"); /* the label gmsim analyze --trace shows */
	/* an opcode longer than TRACE_OPCODE_MAX - 1 characters is kept cut, not refused */
	parse_ok(&k, "42 0000 ffffffff 0 STG.E.SYS.ABCDEFGHIJKLMNOPQRSTUVWXYZ 2 R2 R4 4 1 "
		 "0x1000 4 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_STORE);
	assert_int_equal(strlen(in.opcode), TRACE_OPCODE_MAX - 1);
	assert_true(strncmp(in.opcode, "STG.E.SYS.ABCDEFGHIJKLMNOPQRSTU", TRACE_OPCODE_MAX - 1) == 0);
	assert_int_equal(trace_parse_inst(&k, NULL, "0000 ffffffff 1 R1 IMAD 0 0", &in, &b, msg,
					  sizeof msg), -1);
	/* without the line number the PC is taken as one, the mask as the PC ... */
	k.lineinfo = false;
	assert_int_equal(trace_parse_inst(&k, NULL, "0000 fffzffff 0 EXIT 0 0 0", &in, &b, msg,
					  sizeof msg), -1);
	assert_string_equal(msg, "expected the active mask (8 hexadecimal digits) after the PC");
	assert_int_equal(trace_parse_inst(&k, NULL, "0000 ffffffff 0 EXIT 1 X3 0 0", &in, &b, msg,
					  sizeof msg), -1);
	assert_string_equal(msg, "expected source register 1 of 1 (R<n>)");
	/* BAR.SYNC is a barrier, BAR.ARV is not; EXIT is one cycle of ALU */
	parse_ok(&k, "0000 ffffffff 0 BAR.SYNC 0 0 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_BARRIER);
	parse_ok(&k, "0000 ffffffff 0 BAR.ARV 0 0 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_ALU);
	/* version 6: trailing fields tolerated; before it they are an error */
	k.version = 6;
	parse_ok(&k, "0000 ffffffff 0 EXIT 0 0 0 0 NoVal", &in, &b, a);
	k.version = 5;
	assert_int_equal(trace_parse_inst(&k, NULL, "0000 ffffffff 0 EXIT 0 0 0 0 NoVal", &in, &b,
					  msg, sizeof msg), -1);
	trace_block_free(&b);
}

static void test_spaces(void **state)
{
	struct trace_kernel k = kern(4, false);
	struct trace_block b;
	struct trace_inst in;
	addr_t a[TRACE_LANES];

	(void)state;
	trace_block_init(&b);
	/* generic LD in the shared window: a shared load at the offset from the window's base */
	parse_ok(&k, "0000 00000001 1 R4 LD.E 1 R2 4 0 0x00007f0000000080 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_SHARED_LOAD);
	assert_int_equal(a[0], 0x80);
	/* ... in the local window: the global path (local memory lives in DRAM) */
	parse_ok(&k, "0000 00000001 1 R4 LD.E 1 R2 4 0 0x00007e0000000080 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_LOAD);
	/* ... elsewhere: global */
	parse_ok(&k, "0000 00000001 0 ST.E 2 R2 R4 4 0 0x0000000010000000 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_STORE);
	/* STS with a window address becomes an offset; LDC is ALU work; RED a store; ATOMG with a
	 * destination a load */
	parse_ok(&k, "0000 00000001 0 STS.64 2 R2 R4 8 1 0x00007f0000000100 8 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_SHARED_STORE);
	assert_int_equal(in.bytes, 8);
	assert_int_equal(a[0], 0x100);
	parse_ok(&k, "0000 ffffffff 1 R4 LDC 1 R2 4 1 0x0000000000000000 0 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_ALU);
	parse_ok(&k, "0000 00000001 0 RED.E.ADD 2 R2 R4 4 0 0x0000000010000000 0", &in, &b, a);
	assert_int_equal(in.kind, WORKLOAD_OP_STORE);
	parse_ok(&k, "0000 00000001 1 R5 ATOMG.E.ADD 2 R2 R4 4 0 0x0000000010000000 0", &in, &b,
		 a);
	assert_int_equal(in.kind, WORKLOAD_OP_LOAD);
	trace_block_free(&b);
}

static void test_isa(void **state)
{
	struct isa_table *t;
	struct sim_err err;
	uint32_t c = 0;

	(void)state;
	assert_int_equal(isa_width("LDG.E.128.SYS"), 16);
	assert_int_equal(isa_width("LDG.E.64"), 8);
	assert_int_equal(isa_width("LDG.E.U8"), 1);
	assert_int_equal(isa_width("LDS.S16"), 2);
	assert_int_equal(isa_width("LDG.E.SYS"), 4);
	assert_int_equal(isa_width("STG.E.EF.SYS"), 4);
	assert_int_equal(isa_load(unit_src_path("data/isa/latency.cfg"), 80, &t, &err), 0);
	assert_string_equal(isa_arch(t), "ampere");
	assert_true(isa_latency(t, "IMAD.WIDE", 4, &c));
	assert_int_equal(c, 4);
	assert_true(isa_latency(t, "DFMA", 4, &c));
	assert_int_equal(c, 8);  /* from the pascal base, through volta and turing */
	assert_true(isa_latency(t, "HMMA", 4, &c));
	assert_int_equal(c, 16); /* ampere's own entry overrides turing's */
	assert_false(isa_latency(t, "FROBNICATE", 10, &c));
	assert_false(isa_latency(t, "IMA", 3, &c));
	isa_free(t);
	assert_int_equal(isa_load(unit_src_path("data/isa/latency.cfg"), 53, &t, &err), -1);
	assert_non_null(strstr(err.msg, "no architecture lists binary version 53"));
}

/* isa_latency's search against the table's own names, read with libconfig: pascal's entries
 * (binary version 60: no base) have many names that prefix others (IADD, IADD3, IADD32I; MOV,
 * MOV32I): every name is found with its cycles, whole or as the base of a longer opcode; a
 * prefix or an extension that is no entry is not. */
static void test_isa_every_name(void **state)
{
	const char *path = unit_src_path("data/isa/latency.cfg");
	const config_setting_t *lat;
	struct isa_table *t;
	struct sim_err err;
	config_t cf;
	int i, n, names = 0, misses = 0;

	(void)state;
	config_init(&cf);
	assert_int_equal(config_read_file(&cf, path), CONFIG_TRUE);
	lat = config_setting_get_member(config_setting_get_elem(config_lookup(&cf, "archs"), 0),
					"latency");
	assert_non_null(lat);
	assert_int_equal(isa_load(path, 60, &t, &err), 0);
	assert_string_equal(isa_arch(t), "pascal");
	n = config_setting_length(lat);
	for (i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(lat, (unsigned)i);
		const char *name = config_setting_name(e);
		size_t len = strlen(name), k;
		char buf[64];
		uint32_t c = 0;

		assert_true(len + 6 < sizeof buf);
		assert_true(isa_latency(t, name, len, &c));
		assert_int_equal(c, config_setting_get_int(e));
		snprintf(buf, sizeof buf, "%s.WIDE", name); /* the base of a longer opcode */
		assert_true(isa_latency(t, buf, len, &c));
		assert_int_equal(c, config_setting_get_int(e));
		names++;
		for (k = 1; k <= len + 1; k++) {
			/* name's prefixes of k characters, and name with one more ('Z'): found
			 * exactly when some entry is spelled so */
			bool entry = false;
			int j;

			snprintf(buf, sizeof buf, "%.*s%s", (int)(k <= len ? k : len), name,
				 k <= len ? "" : "Z");
			if (k == len)
				continue;
			for (j = 0; j < n; j++)
				entry |= strcmp(config_setting_name(config_setting_get_elem(lat,
						(unsigned)j)), buf) == 0;
			assert_int_equal(isa_latency(t, buf, strlen(buf), &c), entry);
			misses += !entry;
		}
	}
	assert_true(names > 80);    /* the file's pascal entries: 96 */
	assert_true(misses > 300);  /* prefixes and extensions no entry spells: 378 */
	isa_free(t);
	config_destroy(&cf);
}

/* isa_describe against isa_classify, isa_width and isa_latency themselves, for every pascal
 * name bare and with width modifiers, unknown mnemonics and one too long to remember: three
 * rounds, so that the second and third read what the first remembered or what collisions in
 * its 64 slots replaced (392 opcodes), and without a table; then a listed name after each of 300
 * longer opcodes that begin with it (fails when a slot matches a prefix). */
static void test_isa_describe(void **state)
{
	const char *path = unit_src_path("data/isa/latency.cfg");
	static const char *const suffix[] = { "", ".E.64", ".U8.SYS", ".128" };
	const config_setting_t *lat;
	struct isa_table *t;
	struct sim_err err;
	config_t cf;
	int round, i, k, n;

	(void)state;
	config_init(&cf);
	assert_int_equal(config_read_file(&cf, path), CONFIG_TRUE);
	lat = config_setting_get_member(config_setting_get_elem(config_lookup(&cf, "archs"), 0),
					"latency");
	assert_int_equal(isa_load(path, 60, &t, &err), 0);
	n = config_setting_length(lat);
	for (round = 0; round < 3; round++)
		for (i = -2; i < n; i++)
			for (k = 0; k < 4; k++) {
				char op[96];
				struct isa_op d, none;
				enum isa_class cls;
				enum isa_space space;
				uint32_t c = 0;
				bool known;

				snprintf(op, sizeof op, "%s%s", i == -2 ? "FROBNICATE"
					 : i == -1 ? "LDG.E.EF.NA.LTC128B.STRONG.GPU.PRIVATE"
					 : config_setting_name(config_setting_get_elem(lat,
											(unsigned)i)),
					 suffix[k]);
				isa_describe(t, op, strlen(op), &d);
				isa_classify(op, &cls, &space);
				known = isa_latency(t, op, isa_base_len(op), &c);
				assert_int_equal(d.cls, cls);
				assert_int_equal(d.space, space);
				assert_int_equal(d.width, isa_width(op));
				assert_int_equal(d.known, known);
				assert_int_equal(d.latency, known ? c : isa_unknown_latency(t));
				isa_describe(NULL, op, strlen(op), &none);
				assert_int_equal(none.cls, cls);
				assert_int_equal(none.width, isa_width(op));
				assert_true(none.known);
				assert_int_equal(none.latency, 1);
			}
	/* A listed name after longer opcodes it begins (unlisted: "<name>Q<k>") that share its
	 * memo slot: a slot must remember the whole text, not a prefix of it (300 of them: a few
	 * land in the name's slot whatever the hash). */
	{
		const char *name = config_setting_name(config_setting_get_elem(lat, 0));
		uint32_t c = 0;

		assert_true(isa_latency(t, name, strlen(name), &c));
		for (k = 0; k < 300; k++) {
			char op[96];
			struct isa_op d;
			uint32_t c2 = 0;

			snprintf(op, sizeof op, "%sQ%d", name, k);
			isa_describe(t, op, strlen(op), &d);
			assert_int_equal(d.known, isa_latency(t, op, isa_base_len(op), &c2));
			isa_describe(t, name, strlen(name), &d);
			assert_true(d.known);
			assert_int_equal(d.latency, c);
		}
	}
	isa_free(t);
	config_destroy(&cf);
}

static void test_slots(void **state)
{
	struct trace_kernel k = kern(4, false);
	struct trace_block b;
	struct trace_inst *in;
	char msg[256];
	static const char *const lines[] = {
		"0000 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x0000000000001000 16 0", /* R4..R7 */
		"0010 ffffffff 1 R8 IMAD 2 R7 R0 0 0",                            /* uses R7 */
		"0020 ffffffff 1 R9 LDG.E 1 R2 4 1 0x0000000000002000 4 0",
		"0030 ffffffff 1 R10 IADD3 2 R9 R3 0 0",
		"0040 ffffffff 1 R11 FADD 2 R0 R1 0 0",                            /* no load reg */
	};
	size_t i;

	(void)state;
	trace_block_init(&b);
	b.nwarps = 1;
	b.warps = calloc(1, sizeof *b.warps);
	b.insts = calloc(5, sizeof *b.insts);
	for (i = 0; i < 5; i++)
		assert_int_equal(trace_parse_inst(&k, NULL, lines[i], &b.insts[i], &b, msg,
						  sizeof msg), 0);
	b.warps[0].n = 5;
	assert_false(trace_map_regs(&b, 0));
	in = b.insts;
	assert_int_equal(in[0].ndst, 4);
	assert_int_equal(in[0].slot, 0);
	assert_int_equal(in[0].need, 1);   /* its own destination (write after write) */
	assert_int_equal(in[1].need, 1);   /* R7 is part of the wide load's slot */
	assert_int_equal(in[2].slot, 1);
	assert_int_equal(in[3].need, 2);
	assert_int_equal(in[4].need, 0);
	assert_int_equal(in[4].slot, -1);
	trace_block_free(&b);
}

/* ---------------------------------------------------------------------------------------------
 * The fast reading of a line against the general one
 */

/* Appends " " (or more blanks) and the printf-formatted token to line. */
static void put(char *line, size_t n, gsl_rng *g, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *line, size_t n, gsl_rng *g, const char *fmt, ...)
{
	size_t len = strlen(line);
	va_list ap;

	snprintf(line + len, n - len, "%s", gsl_rng_uniform_int(g, 8) == 0 ? "   " : " ");
	len = strlen(line);
	va_start(ap, fmt);
	vsnprintf(line + len, n - len, fmt, ap);
	va_end(ap);
}

/* A number v in hexadecimal as a tracer writes it, or now and then in a form only the general
 * reading takes (leading zeros past 16 digits, 0x0x) or neither does (a sign, a bad digit, 17
 * digits past 2^64). */
static void put_hex(char *line, size_t n, gsl_rng *g, uint64_t v)
{
	static const char *const pre[] = { "", "0x", "0X", "0x", "0x0x", "-", "+", "" };
	unsigned r = (unsigned)gsl_rng_uniform_int(g, 400);

	if (r == 8) /* 17 digits, past 2^64 */
		put(line, n, g, "1%016" PRIx64, v);
	else
		put(line, n, g, gsl_rng_uniform_int(g, 2) ? "%s%0*" PRIx64 "%s" : "%s%0*" PRIX64 "%s",
		    pre[r >= 4 && r < 8 ? r : gsl_rng_uniform_int(g, 4)], r < 2 ? 17 : r < 4 ? 16 : 1,
		    v, r == 7 ? "g" : "");
}

/* An unsigned decimal: mostly plain, now and then with leading zeros (20 digits: only the
 * general reading), a sign, a letter after it or 20 digits past 2^64. */
static void put_dec(char *line, size_t n, gsl_rng *g, uint64_t v)
{
	unsigned r = (unsigned)gsl_rng_uniform_int(g, 400);

	if (r == 5) /* 20 digits, past 2^64 */
		put(line, n, g, "9%019" PRIu64, v);
	else
		put(line, n, g, "%s%0*" PRIu64 "%s", r == 0 ? "+" : r == 1 ? "-" : "",
		    r == 2 ? 20 : r == 3 ? 19 : 1, v, r == 4 ? "x" : "");
}

/* A signed decimal (a stride or a delta). */
static void put_i64(char *line, size_t n, gsl_rng *g)
{
	static const int64_t some[] = { 0, 4, -4, 128, -128, 4096, 1 << 20, INT64_MIN, INT64_MAX };
	unsigned r = (unsigned)gsl_rng_uniform_int(g, 200);
	int64_t v = some[gsl_rng_uniform_int(g, 9)];

	if (r < 190)
		put(line, n, g, "%" PRId64, gsl_rng_uniform_int(g, 2) ? v : (int64_t)gsl_rng_get(g));
	else if (r < 194)
		put(line, n, g, "+%" PRId64, (int64_t)gsl_rng_uniform_int(g, 1000));
	else if (r < 197)
		put(line, n, g, "%s%019" PRIu64, r == 194 ? "-" : "", gsl_rng_uniform_int(g, 1000));
	else
		put(line, n, g, "%s", (const char *[]){ "-", "4-", "0x10" }[r - 197]);
}

/* A register: R<n>, RZ, the uniform and predicate ones, and now and then one that is none. */
static void put_reg(char *line, size_t n, gsl_rng *g)
{
	static const char *const other[] = { "RZ", "URZ", "PT", "UPT", "X3", "R", "U", "P", "Rz",
					     "R-1", "R+1", "UR", "PTX", "URZ0", "R1a" };
	unsigned r = (unsigned)gsl_rng_uniform_int(g, 200), v = (unsigned)gsl_rng_uniform_int(g, 300);

	if (r < 160)
		put(line, n, g, "R%u", v % 256);
	else if (r < 170)
		put(line, n, g, "R%04u", v);
	else if (r < 185)
		put(line, n, g, "%s%u", (const char *[]){ "UR", "UP", "P" }[r % 3], v);
	else if (r < 193)
		put(line, n, g, "%s", other[r % 4]);
	else if (r == 193)
		put(line, n, g, "R%u", v);
	else
		put(line, n, g, "%s", other[4 + gsl_rng_uniform_int(g, 11)]);
}

/* One random instruction line of kernel k: mostly what tracers write, with now and then a
 * field in a form only the general reading takes, or a wrong or missing one. */
static void random_line(gsl_rng *g, const struct trace_kernel *k, char *line, size_t n)
{
	static const char *const ops[] = {
		"LDG.E.SYS", "STG.E.SYS", "LDG.E.128.SYS", "IMAD", "EXIT", "BAR.SYNC", "LDS.U.32",
		"STS", "ATOMG.E.ADD.STRONG.GPU", "RED.E.ADD", "LD.E", "ST.E", "LDC", "S2R",
		"HGMMA.64x8x16.F32", "UTMALDG.2D", "UBLKCP", "ldg", "LDG.E.64.SYS.ABCDEFGHIJKLMNOPQRS",
	};
	uint64_t mask, width, mode, i, cnt;
	unsigned r = (unsigned)gsl_rng_uniform_int(g, 40); /* 20 .. 39: no field made wrong */
	const char *op = ops[gsl_rng_uniform_int(g, sizeof ops / sizeof ops[0])];
	bool memory = strchr("LSAR", op[0]) != NULL && op[1] != '2';

	line[0] = '\0';
	if (k->lineinfo)
		put_dec(line, n, g, gsl_rng_uniform_int(g, 100000));
	put_hex(line, n, g, r == 0 ? (uint64_t)1 << 32 : gsl_rng_uniform_int(g, 1 << 16) * 16);
	mask = r < 8 || r >= 30 ? 0xffffffffu : r < 16 || r >= 20 ? gsl_rng_get(g)
		: r < 19 ? 0 : (uint64_t)1 << 33;
	put_hex(line, n, g, mask);
	cnt = (uint64_t)__builtin_popcountll(mask & 0xffffffffu);
	i = r == 1 ? 5 : gsl_rng_uniform_int(g, 3);
	put_dec(line, n, g, i);
	for (i = r == 2 ? i + 1 : i; i > 0; i--)
		put_reg(line, n, g);
	if (r == 3)
		put(line, n, g, "%s", "A");
	put(line, n, g, "%s", r == 4 ? "4" : op);
	i = r == 5 ? 9 : r == 6 ? 8 : gsl_rng_uniform_int(g, 4);
	put_dec(line, n, g, i);
	for (; i > 0; i--)
		put_reg(line, n, g);
	if (k->version >= 6 && strstr(op, "GMMA") != NULL && r != 7)
		put_dec(line, n, g, 1);
	width = !memory ? (r == 8 ? 4 : 0) : r == 9 ? 1025 : r == 10 ? 1024 : 4;
	put_dec(line, n, g, width);
	if (width > 0) {
		mode = r == 11 ? 3 : gsl_rng_uniform_int(g, 3);
		put_dec(line, n, g, mode);
		if (mode == 1) {
			put_hex(line, n, g, gsl_rng_get(g) << 12);
			put_i64(line, n, g);
		} else {
			uint64_t base = (uint64_t)gsl_rng_get(g) << 8;

			if (r == 12)
				base = k->shmem_base + 0x40;
			else if (r == 13)
				base = k->local_base + 0x80;
			put_hex(line, n, g, base);
			for (i = 1; i < cnt + (r == 14) - (r == 15); i++)
				if (mode == 0)
					put_hex(line, n, g, base + 4 * i);
				else
					put_i64(line, n, g);
		}
	}
	if (r != 16)
		put_dec(line, n, g, 0);
	if (r == 17 || (k->version >= 6 && r >= 18 && r < 20))
		put(line, n, g, "%s", r == 17 ? "0 NoVal" : "0 Val 3 Val 4");
	if (gsl_rng_uniform_int(g, 10) == 0)
		put(line, n, g, "%s", "");
}

/* The reader's fast reading of a line (tokens separated by spaces only, in the forms tracers
 * write) must give what the general one gives: 20,000 random lines, read as written and with
 * every space a tab (which only the general reading takes), must give the same instruction, the
 * same lane addresses at the same place, or the same error. */
static void test_fast_line_like_general(void **state)
{
	enum { N = 20000 };
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct trace_block ba, bb;
	struct trace_inst ia, ib;
	char line[2048], tabs[2048], ma[256], mb[256];
	unsigned ok = 0, i;
	size_t j;

	(void)state;
	gsl_rng_set(g, 7);
	trace_block_init(&ba);
	trace_block_init(&bb);
	for (i = 0; i < N; i++) {
		struct trace_kernel k = kern(gsl_rng_uniform_int(g, 3) == 0 ? 6 : 4,
					     gsl_rng_uniform_int(g, 2) == 0);
		int ra, rb;

		random_line(g, &k, line, sizeof line);
		for (j = 0; line[j] != '\0'; j++)
			tabs[j] = line[j] == ' ' ? '\t' : line[j];
		tabs[j] = '\0';
		ba.naddrs = bb.naddrs = 0;
		ma[0] = mb[0] = '\0';
		ra = trace_parse_inst(&k, NULL, line, &ia, &ba, ma, sizeof ma);
		rb = trace_parse_inst(&k, NULL, tabs, &ib, &bb, mb, sizeof mb);
		if (ra != rb || strcmp(ma, mb) != 0)
			fail_msg("line %u \"%s\": %d \"%s\", the general reading %d \"%s\"", i + 1,
				 line, ra, ma, rb, mb);
		if (ra != 0)
			continue;
		ok++;
		if (memcmp(&ia, &ib, sizeof ia) != 0 || ba.naddrs != bb.naddrs ||
		    (ia.mode == TRACE_ADDR_LIST &&
		     memcmp(ba.addrs, bb.addrs, ba.naddrs * sizeof *ba.addrs) != 0))
			fail_msg("line %u \"%s\": kind %u mode %u base %#" PRIx64 " stride %" PRId64
				 " dst %u nsrc %u, the general reading kind %u mode %u base %#"
				 PRIx64 " stride %" PRId64 " dst %u nsrc %u", i + 1, line, ia.kind,
				 ia.mode, ia.base, ia.stride, ia.dst, ia.nsrc, ib.kind, ib.mode,
				 ib.base, ib.stride, ib.dst, ib.nsrc);
	}
	/* both kinds of line are many: the comparison is not of errors alone */
	assert_in_range(ok, N / 5, N - N / 10);
	trace_block_free(&ba);
	trace_block_free(&bb);
	gsl_rng_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_stride),
		cmocka_unit_test(test_base_stride_dense),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_base_delta),
		cmocka_unit_test(test_line_fields),
		cmocka_unit_test(test_spaces),
		cmocka_unit_test(test_fast_line_like_general),
		cmocka_unit_test(test_isa),
		cmocka_unit_test(test_isa_every_name),
		cmocka_unit_test(test_isa_describe),
		cmocka_unit_test(test_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
