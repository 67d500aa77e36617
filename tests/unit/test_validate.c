/*
 * test_validate.c - the model-independent half of gmsim validate (sim/analysis/validate.c).
 *
 * The CSV reader on good rows, quoted commas and doubled quotes, a record whose quoted method
 * spans two lines, blank lines, and bad input with its file:line message (a short row, a bad
 * value, an unterminated quote, a bad header). metric@params with ';' and '_' separators and
 * bad names. Units to GB/s and cycles, the clock a method states. MAPE, NRMSE and Pearson's r on
 * a three-point vector worked by hand (below), n < 3 and constant vectors giving no r, the
 * evenly spaced subset, and the family plans of a few real rows.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "log.h"
#include "validate.h"

#define HEADER "gpu,memory_type,metric,value,unit,method,source\n"

static struct vcsv *parse(const char *text, struct sim_err *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct vcsv *c;

	assert_non_null(f);
	c = validate_csv_read(f, "m.csv", err);
	fclose(f);
	return c;
}

static void test_csv_good(void **state)
{
	struct sim_err err;
	struct vcsv *c = parse(HEADER
			       "V100,HBM2,pchase_latency@footprint_kB=1,29.9,cycles,"
			       "\"<<<1,64>>>, random; 1380 MHz\",src a\n"
			       "\n"
			       "\"RTX 2000 (6 GB, 128 KiB)\",GDDR6,l1_hit_latency,33,cycles,"
			       "\"says \"\"hi\"\"\non two lines\",src b\r\n"
			       "A100,HBM2e,x,1e3,GB/s,m,s", &err);

	(void)state;
	assert_non_null(c);
	assert_int_equal(c->n, 3);
	assert_string_equal(c->rows[0].gpu, "V100");
	assert_string_equal(c->rows[0].metric, "pchase_latency@footprint_kB=1");
	assert_true(c->rows[0].value == 29.9);
	assert_string_equal(c->rows[0].method, "<<<1,64>>>, random; 1380 MHz");
	assert_int_equal(c->rows[0].line, 2);
	assert_string_equal(c->rows[1].gpu, "RTX 2000 (6 GB, 128 KiB)");
	assert_string_equal(c->rows[1].method, "says \"hi\"\non two lines");
	assert_string_equal(c->rows[1].source, "src b");
	assert_int_equal(c->rows[1].line, 4);
	assert_int_equal(c->rows[2].line, 6);
	assert_true(c->rows[2].value == 1000.0);
	validate_csv_free(c);
}

static void expect_bad(const char *text, const char *want)
{
	struct sim_err err;
	char buf[SIM_ERR_MSG_MAX + 300];
	struct vcsv *c = parse(text, &err);

	assert_null(c);
	assert_string_equal(sim_err_format(&err, buf, sizeof buf), want);
}

static void test_csv_bad(void **state)
{
	(void)state;
	expect_bad(HEADER "a,b,c,1,u,m,s\na,b,c,1,u,m\n",
		   "m.csv:3: 6 fields, expected 7 (gpu,...,source)");
	expect_bad(HEADER "a,b,c,1,u,m,s\na,b,c,1x,u,m,s\n",
		   "m.csv:3: value: '1x' is not a number");
	expect_bad(HEADER "a,b,c,1,u,\"open,s\n", "m.csv:2: unterminated quoted field 6");
	expect_bad(HEADER "a,b,c,1,u,\"m\"x,s\n",
		   "m.csv:2: text after the closing quote of field 6");
	expect_bad(HEADER "a,b,c,1,u,m,s,t\n", "m.csv:2: 8 fields, expected 7 (gpu,...,source)");
	expect_bad("gpu,metric,value\n", "m.csv:1: bad header: expected "
		   "gpu,memory_type,metric,value,unit,method,source");
	expect_bad("", "m.csv:1: empty file: expected the header "
		   "gpu,memory_type,metric,value,unit,method,source");
}

static void test_metric_parse(void **state)
{
	struct vmetric m;
	struct sim_err err;
	double v;

	(void)state;
	assert_int_equal(validate_metric_parse("l2_hit_latency", &m, &err), 0);
	assert_string_equal(m.family, "l2_hit_latency");
	assert_int_equal(m.nparams, 0);
	assert_int_equal(validate_metric_parse("stream_triad_bw@blockSize=512;occupancy_pct=50.0",
					       &m, &err), 0);
	assert_string_equal(m.family, "stream_triad_bw");
	assert_int_equal(m.nparams, 2);
	assert_true(validate_metric_param(&m, "blockSize", &v) && v == 512.0);
	assert_true(validate_metric_param(&m, "occupancy_pct", &v) && v == 50.0);
	assert_false(validate_metric_param(&m, "kB", &v));
	assert_int_equal(validate_metric_parse(
		"l1_cycles_per_warp_load@float_block_width=1_pitch=4098", &m, &err), 0);
	assert_int_equal(m.nparams, 2);
	assert_string_equal(m.p[0].name, "float_block_width");
	assert_true(m.p[0].value == 1.0);
	assert_string_equal(m.p[1].name, "pitch");
	assert_true(m.p[1].value == 4098.0);
	assert_int_equal(validate_metric_parse("x@kB=abc", &m, &err), -1);
	assert_string_equal(err.msg, "metric 'x@kB=abc': parameter kB: not a number");
	assert_int_equal(validate_metric_parse("x@kB", &m, &err), -1);
	/* a number and its unit: the unit names the parameter */
	assert_int_equal(validate_metric_parse("bandwidthTest_d2d_bw@32MB", &m, &err), 0);
	assert_string_equal(m.family, "bandwidthTest_d2d_bw");
	assert_true(validate_metric_param(&m, "MB", &v) && v == 32.0);
	assert_int_equal(validate_metric_parse("x@32M-B", &m, &err), -1);
	assert_string_equal(err.msg, "metric 'x@32M-B': unit 'M-B' of a parameter is not a word");
	assert_int_equal(validate_metric_parse("x@32", &m, &err), -1);
	assert_int_equal(validate_metric_parse("x@kB=2;", &m, &err), -1);
	assert_int_equal(validate_metric_parse("@kB=2", &m, &err), -1);
}

static void test_units(void **state)
{
	double f;

	(void)state;
	assert_int_equal(validate_unit("GB/s", &f), VQ_BANDWIDTH);
	assert_true(f == 1.0);
	assert_int_equal(validate_unit("GiB/s", &f), VQ_BANDWIDTH);
	assert_true(fabs(100.0 * f - 107.3741824) < 1e-9);   /* 100 GiB/s = 107.37 GB/s */
	assert_int_equal(validate_unit("MB/s", &f), VQ_BANDWIDTH);
	assert_true(fabs(812345.0 * f - 812.345) < 1e-9);    /* BabelStream MB/s */
	assert_int_equal(validate_unit("cycles", &f), VQ_CYCLES);
	assert_int_equal(validate_unit("cycles/warp-instr", &f), VQ_CYCLES);
	assert_int_equal(validate_unit("B/cycle/SM", &f), VQ_BW_PER_SM);
	assert_true(f == 1.0);
	assert_int_equal(validate_unit("B/cycle", &f), VQ_UNKNOWN);
	assert_string_equal(validate_quantity_unit(VQ_BW_PER_SM), "B/cycle/SM");
	assert_string_equal(validate_quantity_unit(VQ_BANDWIDTH), "GB/s");
	assert_string_equal(validate_quantity_unit(VQ_UNKNOWN), "");
	assert_true(validate_method_mhz("gpu-cache: 1 block(256 thr)/SM ...; 1380 MHz") == 1380.0);
	assert_true(validate_method_mhz("a 1000 MHz b; 1410 MHz") == 1410.0);
	assert_true(validate_method_mhz("clocks not locked") == 0.0);
	/* a memory clock after the SM clock is not the SM clock */
	assert_true(validate_method_mhz("T4 at 1590 MHz, GDDR6 5001 MHz") == 1590.0);
	assert_true(validate_method_mhz("HBM2 877 MHz") == 0.0);
}

/*
 * meas = 100 200 300, sim = 110 180 330: errors +10 -20 +30, each 10 % of its point, so
 * MAPE = 10; RMSE = sqrt(1400 / 3) = 21.602, over the mean 200: NRMSE = 10.8012 %;
 * r = 22000 / sqrt(20000 x 25266.67) = 0.978664.
 */
static void test_stats(void **state)
{
	const double meas[] = { 100, 200, 300 }, sim[] = { 110, 180, 330 };
	const double flat[] = { 5, 5, 5 };
	struct vstats st;

	(void)state;
	validate_stats(meas, sim, 3, &st);
	assert_int_equal(st.n, 3);
	assert_true(fabs(st.mape - 10.0) < 1e-9);
	assert_true(fabs(st.nrmse - 10.801234497) < 1e-6);
	assert_true(fabs(st.pearson - 0.978664213) < 1e-6);
	assert_true(fabs(st.max_ape - 10.0) < 1e-9);
	validate_stats(meas, sim, 2, &st);         /* two points: no r */
	assert_true(isnan(st.pearson));
	assert_true(fabs(st.mape - 10.0) < 1e-9);
	validate_stats(meas, flat, 3, &st);        /* a constant vector: no r */
	assert_true(isnan(st.pearson));
	assert_true(fabs(validate_error_pct(200, 150) + 25.0) < 1e-12);
}

static void test_subset(void **state)
{
	size_t idx[8];

	(void)state;
	assert_int_equal(validate_subset(10, 3, idx), 3);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 5);   /* round(4.5) */
	assert_int_equal(idx[2], 9);
	assert_int_equal(validate_subset(4, 8, idx), 4);
	assert_int_equal(idx[3], 3);
	assert_int_equal(validate_subset(7, 1, idx), 1);
	assert_int_equal(idx[0], 0);
	assert_int_equal(validate_subset(100, 4, idx), 4);
	assert_int_equal(idx[1], 33);
	assert_int_equal(idx[2], 66);
	assert_int_equal(idx[3], 99);
}

static void test_plans(void **state)
{
	struct vmachine m = { .sms = 80, .blocks_1024 = 2, .threads_per_sm = 2048,
			      .l1_bytes = 128 * 1024, .l2_bytes = 6 * 1024 * 1024,
			      .core_mhz = 1380.0 };
	struct vrow r = { 0 };
	struct vplan pl;
	char why[256];

	(void)state;
	r.metric = "pchase_latency@footprint_kB=2";
	r.unit = "cycles";
	r.method = "gpu-latency pointer chase: <<<1,64>>>, ...; 1380 MHz";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.workload, "pchase.wl");
	assert_int_equal(pl.kind, VV_HOST_CYCLES_PER_OP);
	assert_true(pl.method_mhz == 1380.0);
	assert_string_equal(pl.meas[0], "footprint_bytes=2048");
	assert_string_equal(pl.warm[3], "loads=32");     /* 2048 / 64 nodes */
	/* the timed chase goes on where the warm-up stopped: a whole cycle later here */
	assert_string_equal(pl.meas[4], "start=32");
	/* 4096 loads in 4096 x 30 cycles at 1380 MHz: 30 cycles a load */
	assert_true(fabs(validate_value(&pl, 4096 * 30, 1e6 / 1380.0) - 30.0) < 1e-9);

	r.method = "<<<1,1>>> clock64() around 2^25 dependent int loads over 128-B lines";
	r.metric = "pchase_latency@footprint_bytes=256";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_int_equal(pl.kind, VV_CYCLES_PER_OP);
	assert_string_equal(pl.meas[1], "stride_bytes=128");

	r.metric = "stream_triad_bw@blockSize=512;occupancy_pct=50.0";
	r.unit = "GB/s";
	m.shared_bytes = 96 * 1024;
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.workload, "gpu_stream.wl");
	assert_int_equal(pl.nwarm, 6);
	assert_int_equal(pl.nmeas, 6);
	assert_string_equal(pl.meas[0], "threads=512");
	assert_string_equal(pl.meas[1], "spoiler=49152");  /* 96 KiB / 2 blocks per SM */
	assert_string_equal(pl.meas[2], "loads=2");       /* B, C (the measured version) */
	assert_string_equal(pl.meas[3], "stores=1");
	/* the warm-up: the same kernel over one L2 (6 MiB / (512 x 8 B) = 1536 blocks) */
	assert_string_equal(pl.warm[4], "first=0");
	assert_string_equal(pl.warm[5], "blocks=1536");
	/* then 32 waves of 2 blocks on each of 80 SMs, after those */
	assert_string_equal(pl.meas[4], "first=1536");
	assert_string_equal(pl.meas[5], "blocks=5120");
	/* 5120 blocks x 512 threads x 8 B x 3 arrays */
	assert_true(pl.ops == 5120.0 * 512 * 8 * 3);
	/* that many bytes in 1000 ns at 1 ns a cycle */
	assert_true(fabs(validate_value(&pl, 1000, 1000.0) - pl.ops / 1000.0) < 1e-9);
	/* a block of 1024 with 2 per SM does not fit 1536 threads: skipped, as the source does */
	m.threads_per_sm = 1536;
	r.metric = "stream_read_bw@blockSize=1024;occupancy_pct=100.0";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 0);
	assert_non_null(strstr(why, "do not fit"));
	m.threads_per_sm = 2048;

	assert_false(validate_from_first_issue(&pl));   /* gpu-stream: many short blocks */

	/* gpu-l2-cache: r = 1536 / 512 = 3 chunk classes, 4 waves of 2 x 80 blocks of 512 KiB,
	 * after a warm-up wave of 160 (the set fits 1.25 x L2), timed from the first instruction */
	r.metric = "l2_read_bw@total_working_set_kB=1536";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.workload, "l2_bw.wl");
	assert_string_equal(pl.meas[0], "r=3");
	assert_string_equal(pl.meas[1], "blocks=640");
	assert_int_equal(pl.nwarm, 2);
	assert_string_equal(pl.warm[1], "blocks=160");
	assert_true(pl.ops == 640.0 * 512 * 1024);
	assert_true(validate_from_first_issue(&pl));
	r.metric = "l2_read_bw@total_working_set_kB=1000";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 0);
	assert_non_null(strstr(why, "512 KiB"));
	r.unit = "GB/s";

	/* lane strides: 32 warps x 8 reads x 8 passes = 2048 warp loads of 128 B requested */
	r.metric = "l1_cycles_per_warp_load@float_stride=4";
	r.unit = "cycles/warp-instr";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.workload, "l1_lane_strides.wl");
	assert_true(validate_from_first_issue(&pl));    /* one long-lived block */
	assert_string_equal(pl.meas[0], "stride=4");
	assert_string_equal(pl.warm[3], "reps=1");
	assert_true(pl.ops == 2048.0);
	r.metric = "l1_load_bytes_per_cycle_per_SM@double_stride=2";
	r.unit = "B/cycle/SM";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_int_equal(pl.kind, VV_BYTES_PER_CYCLE_PER_SM);
	assert_string_equal(pl.meas[1], "elem=8");
	assert_true(fabs(validate_value(&pl, 8192, 1.0) - 64.0) < 1e-9); /* 2048 x 256 B */
	r.metric = "l1_load_bytes_per_cycle_per_SM@float_block_width=4_pitch=8";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 0);
	assert_non_null(strstr(why, "lane-stride"));
	r.metric = "l2_size";
	r.unit = "KiB";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 0);
	assert_string_equal(why, "no microbenchmark mirrors family l2_size");
	r.metric = "stream_triad_bw";
	r.unit = "GB/s";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 0);
	r.metric = "stream_triad_bw@blockSize=512";
	r.unit = "B/cycle";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 0);
	assert_string_equal(why, "unit 'B/cycle' is not the family's quantity");
}

/* Scalar rows: one figure each, matched by the whole metric name. */
static void test_scalar_plans(void **state)
{
	struct vmachine m = { .sms = 80, .blocks_1024 = 2, .threads_per_sm = 2048,
			      .l1_bytes = 128 * 1024, .l2_bytes = 6 * 1024 * 1024,
			      .core_mhz = 1380.0 };
	struct vrow r = { 0 };
	struct vplan pl;
	struct vfamily_info fi;
	char why[256];

	(void)state;
	/* L1 hit: a one-thread chase over 4 KiB (32 nodes of 128 B), clock-timed even when the
	 * method names a memory clock */
	r.metric = "l1_hit_latency";
	r.unit = "cycles";
	r.method = "pointer chase, %clock timing; T4 at 1590 MHz, GDDR6 5001 MHz";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.workload, "pchase.wl");
	assert_int_equal(pl.kind, VV_CYCLES_PER_OP);
	assert_string_equal(pl.meas[0], "footprint_bytes=4096");
	assert_string_equal(pl.meas[2], "threads=1");
	assert_string_equal(pl.warm[3], "loads=32");
	/* L2 hit: half the L2 (3 MiB, more than 16 L1s); DRAM: 32 L2 capacities */
	r.metric = "l2_hit_latency";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.meas[0], "footprint_bytes=3145728");
	r.metric = "dram_latency";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.meas[0], "footprint_bytes=201326592");
	/* the warm-up walks 1.25 L2 of the cycle (7.5 MiB / 128 B); the timed loads go on from
	 * there, not from the start the warm-up left in the L2 */
	assert_string_equal(pl.warm[3], "loads=61440");
	assert_string_equal(pl.meas[4], "start=61440");
	/* warm-up: 1.25 L2 of 128 B nodes = 61440 loads */
	assert_string_equal(pl.warm[3], "loads=61440");
	r.unit = "GB/s";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 0);
	assert_string_equal(why, "unit 'GB/s' is not the row's quantity");

	/* a copy kernel at full occupancy: 2048 / 256 = 8 blocks per SM */
	r.metric = "dram_bw_measured";
	r.unit = "GiB/s";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.workload, "stream.wl");
	assert_string_equal(pl.meas[3], "blocks_per_sm=8");
	assert_string_equal(pl.meas[6], "loads=1");
	assert_string_equal(pl.meas[7], "stores=1");
	/* bandwidthTest: 32 MB per array, 640 blocks x 256 threads x 8 B = 1310720 B an
	 * iteration: 25 iterations; loads + stores counted */
	r.metric = "bandwidthTest_d2d_bw@32MB";
	r.unit = "GB/s";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.meas[5], "iters=25");
	assert_true(pl.ops == 25.0 * 1310720.0 * 2.0);
	/* saxpy: blocks of 768, 2 per SM, floats, two arrays read and one written */
	r.metric = "saxpy_bw_noncompressible";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.meas[1], "threads=768");
	assert_string_equal(pl.meas[3], "blocks_per_sm=2");
	assert_string_equal(pl.meas[4], "elem=4");
	/* OpenCL-Benchmark write: 16 floats a work-item; 4 L2 capacities = 393216 items of 64 B
	 * after a warm-up of one L2 (98304 items) */
	r.metric = "misaligned_write_bw";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.workload, "ocl_rw.wl");
	assert_string_equal(pl.warm[0], "items=98304");
	assert_string_equal(pl.meas[0], "items=393216");
	assert_string_equal(pl.meas[1], "off=1572864");
	assert_string_equal(pl.meas[5], "store=1");
	assert_string_equal(pl.meas[6], "misaligned=1");
	assert_true(pl.ops == 393216.0 * 64.0);

	/* L1 bandwidth per SM: bytes a block reads / cycles; 16 KiB x 8 repetitions */
	r.metric = "l1_load_bw";
	r.unit = "B/cycle/SM";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_string_equal(pl.workload, "cache_bw.wl");
	assert_int_equal(pl.kind, VV_BYTES_PER_CYCLE_PER_SM);
	assert_true(pl.ops == 8.0 * 16384.0);
	assert_true(fabs(validate_value(&pl, 2048, 1000.0) - 64.0) < 1e-9);
	/* the same kernel at a locked clock: all SMs' bytes per cycle x 1500 MHz */
	r.metric = "l1_hit_bw_global_aggregate";
	r.unit = "GB/s";
	r.method = "460 blocks x 512 threads re-reading L1-resident global data, SM clock locked "
		   "at 1500 MHz";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 1);
	assert_int_equal(pl.kind, VV_GBPS_AT_MHZ);
	assert_true(pl.method_mhz == 1500.0);
	/* 80 x 131072 B in 163840 cycles = 64 B/cycle = 96 GB/s at 1500 MHz */
	assert_true(fabs(validate_value(&pl, 163840, 1.0) - 96.0) < 1e-9);

	/* not mirrored: float8 (32 B a lane) */
	r.metric = "opencl_global_read_bw_float8";
	assert_int_equal(validate_plan(&r, &m, &pl, why, sizeof why), 0);
	assert_true(validate_scalar_count() >= 19);
	validate_scalar_info(0, &fi);
	assert_string_equal(fi.family, "l1_hit_latency");
	assert_string_equal(fi.workload, "pchase.wl");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_good),
		cmocka_unit_test(test_csv_bad),
		cmocka_unit_test(test_metric_parse),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_subset),
		cmocka_unit_test(test_plans),
		cmocka_unit_test(test_scalar_plans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
