/*
 * test_trace.c - the trace line parser (sim/front/trace.h): the three address modes with
 * hand-computed lane addresses (base-delta with the tracer's popcount - 1 deltas, and the
 * parser off-by-one of the reference rejected), line numbers, the opcode kept as a label,
 * opcode classes and widths
 * (trace_isa.h), the latency table, generic accesses by address window, and the register to
 * scoreboard-slot mapping.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_stride),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_base_delta),
		cmocka_unit_test(test_line_fields),
		cmocka_unit_test(test_spaces),
		cmocka_unit_test(test_isa),
		cmocka_unit_test(test_isa_every_name),
		cmocka_unit_test(test_isa_describe),
		cmocka_unit_test(test_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
