/*
 * trace.c - the Accel-Sim trace reader (contract in trace.h, format in doc/trace.md).
 *
 * Layers: a line source (plain file or an xz stream decoded through liblzma into a fixed
 * buffer), the header parser (key = value lines up to the first '#'), the block reader
 * (#BEGIN_TB ... #END_TB with `warp =` / `insts =` sections), and the instruction-line parser,
 * which reads a line in the form tracers write in one pass (fast_tokens) and any other through
 * the general tokenizer (inst_tokens), whose messages name what was expected where.
 * Memory: the line source holds two fixed buffers and one line buffer that grows to the longest
 * line; the block's arrays grow to the largest block and are reused. Nothing is allocated per
 * instruction.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "text.h"
#include "trace.h"
#include "trace_isa.h"
#include "workload.h"

/* Bytes read from the file, and decoded, per refill. */
#define SRC_IN_BYTES (64 * 1024)
#define SRC_OUT_BYTES (256 * 1024)

/* ---------------------------------------------------------------------------------------------
 * Line source
 */

struct src {
	const char *path;
	FILE *f;
	bool xz, eof, xz_end;
	lzma_stream z;
	uint8_t *in;
	char *buf;                 /* decoded or read bytes */
	size_t pos, len;
	char *line;                /* the current line, NUL-terminated, no newline */
	size_t line_len;           /* its bytes (a NUL in it is binary data) */
	size_t cap;
	int lineno;
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int src_open(struct src *s, const char *path, struct sim_err *err)
{
	memset(s, 0, sizeof *s);
	s->path = path;
	s->f = fopen(path, "rb");
	if (s->f == NULL)
		return sim_err_set(err, path, 0, "cannot open: %s", strerror(errno));
	s->xz = ends_with(path, ".xz");
	s->buf = xmalloc(SRC_OUT_BYTES);
	if (s->xz) {
		lzma_stream init = LZMA_STREAM_INIT;

		s->z = init;
		s->in = xmalloc(SRC_IN_BYTES);
		if (lzma_stream_decoder(&s->z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
			fclose(s->f);
			s->f = NULL;
			return sim_err_set(err, path, 0, "cannot start the xz decoder");
		}
	}
	return 0;
}

static void src_close(struct src *s)
{
	if (s->f != NULL)
		fclose(s->f);
	if (s->xz)
		lzma_end(&s->z);
	free(s->in);
	free(s->buf);
	free(s->line);
	memset(s, 0, sizeof *s);
}

/* Refills buf. Returns 1 with bytes, 0 at the end, -1 with err (a read error, a bad or cut
 * xz stream). */
static int src_fill(struct src *s, struct sim_err *err)
{
	s->pos = s->len = 0;
	if (!s->xz) {
		s->len = fread(s->buf, 1, SRC_OUT_BYTES, s->f);
		if (s->len == 0 && ferror(s->f))
			return sim_err_set(err, s->path, s->lineno, "read error: %s", strerror(errno));
		return s->len > 0;
	}
	if (s->xz_end)
		return 0;
	s->z.next_out = (uint8_t *)s->buf;
	s->z.avail_out = SRC_OUT_BYTES;
	while (s->z.avail_out > 0) {
		lzma_ret rc;

		if (s->z.avail_in == 0 && !s->eof) {
			s->z.next_in = s->in;
			s->z.avail_in = fread(s->in, 1, SRC_IN_BYTES, s->f);
			if (s->z.avail_in == 0) {
				if (ferror(s->f))
					return sim_err_set(err, s->path, s->lineno, "read error: %s",
							   strerror(errno));
				s->eof = true;
			}
		}
		rc = lzma_code(&s->z, s->eof ? LZMA_FINISH : LZMA_RUN);
		if (rc == LZMA_STREAM_END) {
			s->xz_end = true;
			break;
		}
		if (rc == LZMA_BUF_ERROR && s->eof)
			return sim_err_set(err, s->path, s->lineno + 1, "truncated xz stream: the "
					   "file ends inside compressed data");
		if (rc != LZMA_OK)
			return sim_err_set(err, s->path, s->lineno + 1, "corrupt xz stream (liblzma "
					   "error %d)", (int)rc);
	}
	s->len = SRC_OUT_BYTES - s->z.avail_out;
	return s->len > 0;
}

/* Reads the next line into s->line without looking at its bytes (src_line does). Returns 1, 0
 * at the end of the file, -1 with err. */
static int src_read_line(struct src *s, struct sim_err *err)
{
	size_t n = 0, k;
	bool any = false;

	for (;;) {
		char *nl;

		if (s->pos == s->len) {
			int rc = src_fill(s, err);

			if (rc < 0)
				return -1;
			if (rc == 0)
				break;
		}
		any = true;
		nl = memchr(s->buf + s->pos, '\n', s->len - s->pos);
		k = nl != NULL ? (size_t)(nl - (s->buf + s->pos)) : s->len - s->pos;
		if (n + k + 1 > s->cap) {
			s->cap = (n + k + 1) * 2;
			s->line = xrealloc(s->line, s->cap);
		}
		memcpy(s->line + n, s->buf + s->pos, k);
		n += k;
		s->pos += k;
		if (nl != NULL) {
			s->pos++;
			break;
		}
	}
	if (!any)
		return 0;
	if (n > 0 && s->line[n - 1] == '\r')
		n--;
	if (s->cap == 0) {
		s->cap = 64;
		s->line = xmalloc(s->cap);
	}
	s->line[n] = '\0';
	s->line_len = n;
	s->lineno++;
	return 1;
}

/* The error for a line read (src_read_line) with a byte of binary data in it, or 0. */
static int line_binary(const struct src *s, struct sim_err *err)
{
	size_t k = text_find_binary(s->line, s->line_len);

	if (k < s->line_len)
		return sim_err_set(err, s->path, s->lineno, "binary data (byte 0x%02x at column "
				   "%zu): not a text trace", (unsigned)(unsigned char)s->line[k], k + 1);
	return 0;
}

/* Reads the next line into s->line. Returns 1, 0 at the end of the file, -1 with err (binary
 * data among them). */
static int src_line(struct src *s, struct sim_err *err)
{
	int rc = src_read_line(s, err);

	return rc == 1 && line_binary(s, err) != 0 ? -1 : rc;
}

static bool blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

/* ---------------------------------------------------------------------------------------------
 * Header
 */

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

static bool parse_u64(const char *s, int base, uint64_t *v)
{
	char *end;

	if (*s == '-' || *s == '\0')
		return false;
	errno = 0;
	*v = strtoull(s, &end, base);
	return errno == 0 && end != s && *trim(end) == '\0';
}

static bool parse_u32(const char *s, uint32_t *v)
{
	uint64_t x;

	if (!parse_u64(s, 10, &x) || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

/* "(x,y,z)" */
static bool parse_dim3(char *s, uint32_t d[3])
{
	char *p = s, *tok[3];
	int i;

	if (*p == '(')
		p++;
	if (*p != '\0' && p[strlen(p) - 1] == ')')
		p[strlen(p) - 1] = '\0';
	for (i = 0; i < 3; i++) {
		tok[i] = p;
		p = strchr(p, ',');
		if ((p == NULL) != (i == 2))
			return false;
		if (p != NULL)
			*p++ = '\0';
		if (!parse_u32(trim(tok[i]), &d[i]) || d[i] == 0)
			return false;
	}
	return true;
}

/* Reads the header of the kernel at s into k (lines up to and including the first '#'). */
static int read_header(struct src *s, struct trace_kernel *k, struct sim_err *err)
{
	bool have_grid = false, have_block = false;
	int rc;

	k->version = 3;
	while ((rc = src_line(s, err)) == 1) {
		char *line = s->line, *eq, *key, *val;

		if (line[0] == '#')
			break;
		if (blank(line))
			continue;
		if (line[0] != '-' || (eq = strchr(line, '=')) == NULL)
			return sim_err_set(err, s->path, s->lineno, "expected a header line "
					   "`-key = value` or the `#traces format` line, got \"%.60s\"",
					   line);
		*eq = '\0';
		key = trim(line + 1);
		val = trim(eq + 1);
#define BAD(what) sim_err_set(err, s->path, s->lineno, "-%s: expected %s, got \"%.40s\"", key, \
			      what, val)
		if (strcmp(key, "kernel name") == 0) {
			free(k->name);
			k->name = xstrdup(val);
		} else if (strcmp(key, "kernel id") == 0) {
			if (!parse_u32(val, &k->id))
				return BAD("a kernel number");
		} else if (strcmp(key, "grid dim") == 0) {
			if (!parse_dim3(val, k->grid))
				return BAD("(x,y,z) with positive integers");
			have_grid = true;
		} else if (strcmp(key, "block dim") == 0) {
			if (!parse_dim3(val, k->block))
				return BAD("(x,y,z) with positive integers");
			have_block = true;
		} else if (strcmp(key, "shmem") == 0) {
			if (!parse_u32(val, &k->shmem))
				return BAD("bytes of shared memory");
		} else if (strcmp(key, "nregs") == 0) {
			if (!parse_u32(val, &k->nregs) || k->nregs > 255)
				return BAD("registers per thread, 0 .. 255");
		} else if (strcmp(key, "binary version") == 0) {
			if (!parse_u32(val, &k->binary_version))
				return BAD("an SM version such as 70 or 80");
		} else if (strcmp(key, "accelsim tracer version") == 0) {
			if (!parse_u32(val, &k->version) || k->version < 3 || k->version > 6)
				return BAD("3, 4, 5 or 6");
		} else if (strcmp(key, "enable lineinfo") == 0) {
			uint32_t b;

			if (!parse_u32(val, &b) || b > 1)
				return BAD("0 or 1");
			k->lineinfo = b == 1;
		} else if (strcmp(key, "shmem base_addr") == 0) {
			if (!parse_u64(val, 16, &k->shmem_base))
				return BAD("a hexadecimal address");
		} else if (strcmp(key, "local mem base_addr") == 0) {
			if (!parse_u64(val, 16, &k->local_base))
				return BAD("a hexadecimal address");
		}
#undef BAD
		/* other keys (cuda stream id, nvbit version, ...) carry nothing the model uses */
	}
	if (rc < 0)
		return -1;
	if (rc == 0)
		return sim_err_set(err, s->path, s->lineno, "truncated header: the file ends "
				   "before the `#traces format` line");
	if (!have_grid || !have_block)
		return sim_err_set(err, s->path, s->lineno, "the header has no -%s",
				   have_grid ? "block dim" : "grid dim");
	k->body_line = s->lineno + 1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The list
 */

static void kernel_free(struct trace_kernel *k)
{
	free(k->path);
	free(k->name);
}

void trace_list_free(struct trace_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->nkernels; i++)
		kernel_free(&l->kernels[i]);
	free(l->kernels);
	for (i = 0; i < l->nwarned; i++)
		free(l->warned[i]);
	free(l->warned);
	free(l->cmds);
	free(l->isa_path);
	free(l->path);
	free(l);
}

static bool is_kernel_file(const char *s)
{
	return ends_with(s, ".traceg") || ends_with(s, ".traceg.xz");
}

/* Adds the kernel at file (resolved) as a command of list line `line`. */
static int add_kernel(struct trace_list *l, const char *file, int line, struct sim_err *err)
{
	struct trace_kernel *k;
	struct trace_cmd *c;
	struct src s;

	l->kernels = xreallocarray(l->kernels, l->nkernels + 1, sizeof *l->kernels);
	k = &l->kernels[l->nkernels];
	memset(k, 0, sizeof *k);
	k->path = xstrdup(file);
	if (src_open(&s, k->path, err) != 0 || read_header(&s, k, err) != 0) {
		if (line > 0 && err->line == 0 && strstr(err->msg, "cannot open") != NULL) {
			char why[SIM_ERR_MSG_MAX];

			snprintf(why, sizeof why, "%.200s: %.700s", file, err->msg);
			sim_err_set(err, l->path, line, "%s", why);
		}
		src_close(&s);
		kernel_free(k);
		return -1;
	}
	src_close(&s);
	l->cmds = xreallocarray(l->cmds, l->ncmds + 1, sizeof *l->cmds);
	c = &l->cmds[l->ncmds++];
	memset(c, 0, sizeof *c);
	c->kind = TRACE_CMD_KERNEL;
	c->line = line;
	c->kernel = l->nkernels++;
	return 0;
}

static int parse_memcpy(struct trace_list *l, char *line, int lineno, struct sim_err *err)
{
	char *a = strchr(line, ','), *b;
	struct trace_cmd c;

	memset(&c, 0, sizeof c);
	b = a != NULL ? strchr(a + 1, ',') : NULL;
	if (b == NULL)
		return sim_err_set(err, l->path, lineno, "expected MemcpyHtoD,0xADDRESS,BYTES, got "
				   "\"%.60s\"", line);
	*a++ = '\0';
	*b++ = '\0';
	a = trim(a);
	if (strncmp(a, "0x", 2) != 0 || !parse_u64(a + 2, 16, &c.addr))
		return sim_err_set(err, l->path, lineno, "MemcpyHtoD: expected a hexadecimal "
				   "device address 0x..., got \"%.40s\"", a);
	if (!parse_u64(trim(b), 10, &c.bytes))
		return sim_err_set(err, l->path, lineno, "MemcpyHtoD: expected a byte count, got "
				   "\"%.40s\"", trim(b));
	c.kind = TRACE_CMD_MEMCPY;
	c.line = lineno;
	l->cmds = xreallocarray(l->cmds, l->ncmds + 1, sizeof *l->cmds);
	l->cmds[l->ncmds++] = c;
	return 0;
}

int trace_list_load(const char *path, const char *isa_path, bool strict, struct trace_list **out,
		    struct sim_err *err)
{
	struct trace_list *l = xcalloc(1, sizeof *l);
	struct src s;
	int rc;

	*out = NULL;
	l->path = xstrdup(path);
	l->isa_path = xstrdup(isa_path != NULL ? isa_path : ISA_DEFAULT_PATH);
	l->strict = strict;
	l->max_block_bytes = (uint64_t)TRACE_DEFAULT_MAX_BLOCK_MB << 20;
	if (is_kernel_file(path)) {
		if (add_kernel(l, path, 0, err) != 0) {
			trace_list_free(l);
			return -1;
		}
		*out = l;
		return 0;
	}
	if (src_open(&s, path, err) != 0) {
		src_close(&s);
		trace_list_free(l);
		return -1;
	}
	while ((rc = src_line(&s, err)) == 1) {
		char *line = trim(s.line);

		if (strncmp(line, "MemcpyHtoD", 10) == 0) {
			rc = parse_memcpy(l, line, s.lineno, err);
		} else if (is_kernel_file(line)) {
			const char *slash = strrchr(path, '/');
			char *file = line[0] == '/' || slash == NULL ? xstrdup(line)
				: xasprintf("%.*s/%s", (int)(slash - path), path, line);

			rc = add_kernel(l, file, s.lineno, err);
			free(file);
		}
		else if (line[0] != '\0' && strncmp(line, "Memcpy", 6) != 0)
			rc = sim_err_set(err, path, s.lineno, "expected a kernel file (kernel-N.traceg "
					 "or kernel-N.traceg.xz) or MemcpyHtoD,0xADDRESS,BYTES, got "
					 "\"%.60s\"", line);
		else
			rc = 0; /* blank lines and other copies carry nothing to simulate */
		if (rc != 0)
			break;
	}
	src_close(&s);
	if (rc == 0 && l->nkernels == 0)
		rc = sim_err_set(err, path, 0, "no kernel: expected lines naming kernel-N.traceg "
				 "or kernel-N.traceg.xz files");
	if (rc != 0) {
		trace_list_free(l);
		return -1;
	}
	*out = l;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Blocks
 */

void trace_block_init(struct trace_block *b)
{
	memset(b, 0, sizeof *b);
}

void trace_block_free(struct trace_block *b)
{
	free(b->warps);
	free(b->insts);
	free(b->addrs);
	memset(b, 0, sizeof *b);
}

void trace_inst_addrs(const struct trace_block *b, const struct trace_inst *in, addr_t *addr)
{
	uint32_t lane, k = 0;

	if (in->mode == TRACE_ADDR_NONE)
		return;
	if (in->mode == TRACE_ADDR_STRIDE && in->active == UINT32_MAX) {
		/* every lane active: lane k is the k-th (a loop without branches) */
		for (lane = 0; lane < TRACE_LANES; lane++)
			addr[lane] = in->base + (addr_t)((int64_t)lane * in->stride);
		return;
	}
	for (lane = 0; lane < TRACE_LANES; lane++) {
		if (!(in->active & (1u << lane)))
			continue;
		if (in->mode == TRACE_ADDR_STRIDE)
			addr[lane] = in->base + (addr_t)((int64_t)k * in->stride);
		else
			addr[lane] = b->addrs[in->base + k];
		k++;
	}
}

bool trace_inst_addrs_dense(const struct trace_block *b, const struct trace_inst *in,
			    uint32_t bytes, addr_t *addr)
{
	if (in->mode != TRACE_ADDR_STRIDE || in->active != UINT32_MAX ||
	    in->stride != (int64_t)bytes) {
		trace_inst_addrs(b, in, addr);
		return false;
	}
#ifdef SIM_DEBUG
	trace_inst_addrs(b, in, addr);
#else
	addr[0] = in->base;
#endif
	return true;
}

static addr_t *addrs_reserve(struct trace_block *b, size_t n)
{
	if (b->naddrs + n > b->cap_addrs) {
		b->cap_addrs = (b->naddrs + n) * 2;
		b->addrs = xreallocarray(b->addrs, b->cap_addrs, sizeof *b->addrs);
	}
	return b->addrs + b->naddrs;
}

/* ---------------------------------------------------------------------------------------------
 * Instruction lines
 */

/* Token cursor over one line. */
struct tok {
	const char *p;
	char t[128];
	size_t n;   /* strlen(t) */
	bool cut;
};

/* What ends a token: a blank or the end of the line. */
static const bool tok_end[256] = { ['\0'] = true, [' '] = true, ['\t'] = true };

/* The next space-separated token into t->t (at most sizeof t->t - 1 characters of it, t->cut
 * if it had more); false at the end of the line. Found first and copied whole: copied a
 * character at a time it was a sixth of a trace line's parse. */
static bool next_tok(struct tok *t)
{
	const char *p = t->p, *e;
	size_t len;

	while (*p == ' ' || *p == '\t')
		p++;
	t->p = p;
	if (*p == '\0')
		return false;
	for (e = p + 1; !tok_end[(unsigned char)*e]; e++)
		;
	len = (size_t)(e - p);
	t->cut = len >= sizeof t->t;
	t->n = t->cut ? sizeof t->t - 1 : len;
	memcpy(t->t, p, t->n);
	t->t[t->n] = '\0';
	t->p = e;
	return true;
}

/* Token s of n characters (s[n] is its end) as an unsigned number in base (10 or 16), as
 * strtoull took it whole, without its locale and errno handling (a trace line is a dozen
 * tokens, and the conversions were 5% of a V100 transpose trace run). */
static bool tok_u64(const char *s, size_t n, int base, uint64_t *v)
{
	if (n == 0 || *s == '-' || *s == '+')
		return false;
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (text_hex_digit(*s) < 0)
		return false;
	/* strtoull(s, .., 16) took one more "0x" before a hex digit */
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    text_hex_digit(s[2]) >= 0) {
		s += 2;
		n -= 2;
	}
	return text_digits(s, n, (unsigned)base, v) == TEXT_NUM_OK;
}

/* A decimal with an optional sign, in int64_t (what strtoll accepted whole: it skipped leading
 * white space, of which a token can only hold \n \v \f \r). */
static bool tok_i64(const char *s, size_t n, int64_t *v)
{
	bool neg;
	uint64_t m;

	while (n > 0 && text_is_blank(*s)) {
		s++;
		n--;
	}
	neg = n > 0 && *s == '-';
	if (n > 0 && (*s == '-' || *s == '+')) {
		s++;
		n--;
	}
	if (text_digits(s, n, 10, &m) != TEXT_NUM_OK ||
	    m > (neg ? UINT64_C(1) << 63 : (uint64_t)INT64_MAX))
		return false;
	*v = neg ? (int64_t)(0 - m) : (int64_t)m;
	return true;
}

/* A register token of n characters: R<n> is a general register (true, *r = n); UR<n>, P<n>,
 * UP<n> (tracer version 6) are valid but carry no dependency the model tracks (true, *r = -1). */
static bool tok_reg(const char *s, size_t n, int *r)
{
	uint64_t v;

	*r = -1;
	if (s[0] == 'R' && tok_u64(s + 1, n - 1, 10, &v) && v <= 255) {
		*r = (int)v;
		return true;
	}
	if (strcmp(s, "RZ") == 0) {
		*r = TRACE_RZ;
		return true;
	}
	if ((s[0] == 'U' && (s[1] == 'R' || s[1] == 'P')) || s[0] == 'P')
		return tok_u64(s + (s[0] == 'U' ? 2 : 1), n - (s[0] == 'U' ? 2 : 1), 10, &v) ||
		       strcmp(s, "URZ") == 0 || strcmp(s, "PT") == 0 || strcmp(s, "UPT") == 0;
	return false;
}

/* The next token as tok_u64, tok_i64 or tok_reg reads it; false at the end of the line too. */
static bool next_u64(struct tok *t, int base, uint64_t *v)
{
	return next_tok(t) && tok_u64(t->t, t->n, base, v);
}

static bool next_i64(struct tok *t, int64_t *v)
{
	return next_tok(t) && tok_i64(t->t, t->n, v);
}

static bool next_reg(struct tok *t, int *r)
{
	return next_tok(t) && tok_reg(t->t, t->n, r);
}

#define EXPECT(cond, ...)                                   \
	do {                                                \
		if (!(cond)) {                              \
			snprintf(msg, n, __VA_ARGS__);      \
			return -1;                          \
		}                                           \
	} while (0)

static bool is_tma(const char *op)
{
	return strncmp(op, "UTMA", 4) == 0 || strncmp(op, "UBLK", 4) == 0;
}

/* Parses the address payload of mode `mode` for in (mask in->active) into in / b->addrs. */
static int parse_addrs(struct tok *t, uint64_t mode, struct trace_inst *in, struct trace_block *b,
		       char *msg, size_t n)
{
	uint32_t cnt = bits_pop32(in->active), i;
	uint64_t a;
	int64_t d;
	addr_t *out;

	switch (mode) {
	case 0: /* list_all: one address per active lane */
		out = addrs_reserve(b, cnt);
		for (i = 0; i < cnt; i++) {
			EXPECT(next_u64(t, 16, &a), "address %u of %u (list mode, one "
			       "per active lane): expected a hexadecimal address%s%s%s", i + 1, cnt,
			       *t->t ? ", got \"" : "", *t->t ? t->t : "", *t->t ? "\"" : "");
			out[i] = a;
		}
		in->mode = TRACE_ADDR_LIST;
		in->base = b->naddrs;
		b->naddrs += cnt;
		return 0;
	case 1: /* base_stride */
		EXPECT(next_u64(t, 16, &a), "base-stride mode: expected the "
		       "hexadecimal base address");
		EXPECT(next_i64(t, &d), "base-stride mode: expected the stride "
		       "(signed decimal) after the base");
		in->mode = TRACE_ADDR_STRIDE;
		in->base = a;
		in->stride = d;
		return 0;
	case 2: /* base_delta: base, then popcount - 1 deltas from the previous active lane */
		EXPECT(next_u64(t, 16, &a), "base-delta mode: expected the "
		       "hexadecimal base address");
		out = addrs_reserve(b, cnt > 0 ? cnt : 1);
		out[0] = a;
		for (i = 1; i < cnt; i++) {
			EXPECT(next_i64(t, &d), "base-delta mode: expected delta %u "
			       "of %u (one per active lane after the first)", i, cnt - 1);
			out[i] = out[i - 1] + (addr_t)d;
		}
		in->mode = TRACE_ADDR_LIST;
		in->base = b->naddrs;
		b->naddrs += cnt;
		return 0;
	default:
		EXPECT(0, "expected address mode 0 (list), 1 (base-stride) or 2 (base-delta), got "
		       "%llu", (unsigned long long)mode);
	}
	return -1;
}

/* Skips a TMA instruction's operands after mem_width (tracer version 6): mbarrier address,
 * multicast flag [and mask], byte count, out-of-bounds count, mode 3 (count, addresses) or
 * 4 (base, count, count - 1 deltas). */
static int skip_tma(struct tok *t, char *msg, size_t n)
{
	uint64_t v, mode, cnt, i;

	EXPECT(next_u64(t, 16, &v), "TMA: expected the mbarrier address");
	EXPECT(next_u64(t, 10, &v), "TMA: expected the multicast flag");
	if (v != 0)
		EXPECT(next_u64(t, 16, &v), "TMA: expected the multicast mask");
	EXPECT(next_u64(t, 10, &v), "TMA: expected the byte count");
	EXPECT(next_u64(t, 10, &v), "TMA: expected the out-of-bounds count");
	EXPECT(next_u64(t, 10, &mode) && (mode == 3 || mode == 4),
	       "TMA: expected address mode 3 or 4");
	if (mode == 4)
		EXPECT(next_u64(t, 16, &v), "TMA: expected the base address");
	EXPECT(next_u64(t, 10, &cnt) && cnt <= 1u << 20, "TMA: expected the "
	       "address count");
	for (i = mode == 4 ? 1 : 0; i < cnt; i++)
		EXPECT(next_tok(t), "TMA: expected %llu addresses", (unsigned long long)cnt);
	return 0;
}

/* What the tokens of an instruction line give its classification (inst_classify). */
struct inst_text {
	char opcode[128]; /* the mnemonic as written, NUL-terminated */
	size_t opcode_n;
	uint64_t width;   /* memory width in bytes; 0: none, or a TMA copy (not modelled) */
};

static void inst_clear(struct trace_inst *in)
{
	memset(in, 0, sizeof *in);
	in->dst = TRACE_RZ;
	in->slot = -1;
}

/* The general reading of an instruction line's tokens into in (registers, mask, PC, addresses:
 * LIST ones appended to b) and x. Returns 0, or -1 with msg saying what was expected where. */
static int inst_tokens(const struct trace_kernel *k, const char *text, struct trace_inst *in,
		       struct trace_block *b, struct inst_text *x, char *msg, size_t n)
{
	struct tok t = { text, "", 0, false };
	char *opcode = x->opcode;
	size_t opcode_n;
	uint64_t v, width, ndst, nsrc, mode = 0;
	uint32_t i;
	int r;

	inst_clear(in);
	if (k->lineinfo)
		EXPECT(next_u64(&t, 10, &v), "expected the source line number "
		       "(the header says -enable lineinfo = 1)");
	EXPECT(next_u64(&t, 16, &v) && v <= UINT32_MAX, "expected the PC "
	       "(hexadecimal)");
	in->pc = (uint32_t)v;
	EXPECT(next_u64(&t, 16, &v) && v <= UINT32_MAX, "expected the active "
	       "mask (8 hexadecimal digits) after the PC");
	in->active = (uint32_t)v;
	EXPECT(next_u64(&t, 10, &ndst) && ndst <= 4, "expected the number of "
	       "destination registers (0 .. 4) after the mask");
	for (i = 0; i < ndst; i++) {
		EXPECT(next_reg(&t, &r), "expected destination register %u of "
		       "%llu (R<n>)", i + 1, (unsigned long long)ndst);
		if (r >= 0 && in->dst == TRACE_RZ)
			in->dst = (uint8_t)r;
	}
	EXPECT(next_tok(&t) && !t.cut && (t.t[0] >= 'A' && t.t[0] <= 'Z'), "expected the "
	       "opcode (an upper-case SASS mnemonic such as LDG.E.SYS)");
	/* the whole token (next_tok keeps at most sizeof t.t - 1 characters): a copy, not
	 * snprintf's "%s", which was a sixth of the trace reader's instructions */
	_Static_assert(sizeof x->opcode == sizeof t.t, "the opcode holds a token");
	memcpy(opcode, t.t, t.n + 1);
	opcode_n = t.n;
	EXPECT(next_u64(&t, 10, &nsrc), "expected the number of source "
	       "registers after the opcode %s", opcode);
	EXPECT(nsrc <= TRACE_MAX_SRC, "%llu source registers: at most %d are possible",
	       (unsigned long long)nsrc, TRACE_MAX_SRC);
	for (i = 0; i < nsrc; i++) {
		EXPECT(next_reg(&t, &r), "expected source register %u of %llu "
		       "(R<n>)", i + 1, (unsigned long long)nsrc);
		if (r >= 0 && r != TRACE_RZ)
			in->src[in->nsrc++] = (uint8_t)r;
	}
	if (k->version >= 6 && strstr(opcode, "GMMA") != NULL)
		EXPECT(next_u64(&t, 10, &v), "expected the GMMA commit-group flag");
	EXPECT(next_u64(&t, 10, &width) && width <= 1024, "expected the memory "
	       "width in bytes (0 for a non-memory instruction)");
	if (width > 0 && k->version >= 6 && is_tma(opcode)) {
		if (skip_tma(&t, msg, n) != 0)
			return -1;
		width = 0; /* bulk copies are not modelled: ALU work */
	} else if (width > 0) {
		EXPECT(next_u64(&t, 10, &mode), "expected the address mode (0, 1 "
		       "or 2) after the memory width");
		if (parse_addrs(&t, mode, in, b, msg, n) != 0)
			return -1;
	}
	EXPECT(next_u64(&t, 10, &v), "expected the immediate (unsigned "
	       "decimal) at the end of the line%s", width > 0 && mode == 2 ?
	       " (base-delta mode has one delta per active lane after the first)" : "");
	if (k->version < 6)
		EXPECT(!next_tok(&t), "unexpected \"%s\" after the immediate at the end of the line"
		       "%s", t.t, width > 0 && mode == 2 ? " (base-delta mode has one delta per "
		       "active lane after the first, popcount(mask) - 1)" : "");
	/* version 6: imm2 and the Val / NoVal register values follow; nothing the model uses */
	x->opcode_n = opcode_n;
	x->width = width;
	return 0;
}

/* What a line's tokens make of the instruction: its kind, width, latency and address space. */
static void inst_classify(const struct trace_kernel *k, struct isa_table *isa,
			  const struct inst_text *x, struct trace_inst *in, struct trace_block *b)
{
	struct isa_op op;
	enum isa_class cls;
	enum isa_space space;
	uint32_t i;

	i = (uint32_t)x->opcode_n;
	if (i > TRACE_OPCODE_MAX - 1)
		i = TRACE_OPCODE_MAX - 1; /* a longer mnemonic is cut: it only labels reports */
	memcpy(in->opcode, x->opcode, i);
	in->opcode[i] = '\0';
	isa_describe(isa, x->opcode, x->opcode_n, &op);
	cls = op.cls;
	space = op.space;
	in->bytes = (uint8_t)op.width;
	in->ndst = in->dst != TRACE_RZ ? 1 : 0;
	if (x->width == 0 && cls != ISA_BARRIER && cls != ISA_EXIT)
		cls = ISA_ALU; /* a memory opcode without addresses: nothing to send */
	/* A generic access's space from its first active lane's address (trace_inst_addrs's
	 * first: a stride's base, a list's first entry). Without addresses (an ALU instruction
	 * or a barrier now) the space is not read again. */
	if (space == ISA_SPACE_GENERIC && in->active != 0 && in->mode != TRACE_ADDR_NONE) {
		addr_t a0 = in->mode == TRACE_ADDR_STRIDE ? in->base : b->addrs[in->base];

		if (k->shmem_base != 0 && a0 >= k->shmem_base &&
		    a0 - k->shmem_base < TRACE_WINDOW_BYTES)
			space = ISA_SPACE_SHARED;
		else if (k->local_base != 0 && a0 >= k->local_base &&
			 a0 - k->local_base < TRACE_WINDOW_BYTES)
			space = ISA_SPACE_LOCAL;
		else
			space = ISA_SPACE_GLOBAL;
	}
	if (cls == ISA_ATOMIC)
		cls = in->ndst > 0 ? ISA_LOAD : ISA_STORE;
	if ((cls == ISA_LOAD || cls == ISA_STORE) && space == ISA_SPACE_CONST) {
		cls = ISA_ALU; /* LDC: the constant cache is not modelled, its latency is */
		in->mode = TRACE_ADDR_NONE;
	}
	switch (cls) {
	case ISA_LOAD:
		in->kind = space == ISA_SPACE_SHARED ? WORKLOAD_OP_SHARED_LOAD : WORKLOAD_OP_LOAD;
		if (in->kind == WORKLOAD_OP_LOAD && in->ndst > 0 && in->bytes > 4)
			in->ndst = (uint8_t)(in->bytes / 4);
		break;
	case ISA_STORE:
		in->kind = space == ISA_SPACE_SHARED ? WORKLOAD_OP_SHARED_STORE : WORKLOAD_OP_STORE;
		break;
	case ISA_BARRIER:
		in->kind = WORKLOAD_OP_BARRIER;
		in->mode = TRACE_ADDR_NONE;
		break;
	case ISA_EXIT:
		in->kind = WORKLOAD_OP_ALU;
		in->latency = 1;
		in->mode = TRACE_ADDR_NONE;
		break;
	default:
		in->kind = WORKLOAD_OP_ALU;
		in->mode = TRACE_ADDR_NONE;
		in->latency = op.latency;
		in->unknown = !op.known;
		break;
	}
	if (in->kind == WORKLOAD_OP_SHARED_LOAD || in->kind == WORKLOAD_OP_SHARED_STORE) {
		/* shared addresses as offsets in the block's shared memory (banks from offset 0) */
		if (in->mode == TRACE_ADDR_STRIDE && k->shmem_base != 0 && in->base >= k->shmem_base)
			in->base -= k->shmem_base;
		else if (in->mode == TRACE_ADDR_LIST && k->shmem_base != 0)
			for (i = 0; i < bits_pop32(in->active); i++)
				if (b->addrs[in->base + i] >= k->shmem_base)
					b->addrs[in->base + i] -= k->shmem_base;
	}
}
#undef EXPECT

/* The fast reading's place in a line (fast_tokens), and the line's end. */
struct fast {
	const char *p, *end;
};

/* Spaces before the next token. */
static inline void fast_skip(struct fast *f)
{
	while (*f->p == ' ')
		f->p++;
}

/* Whether c ends a token in the fast reading: a space or the line's end (a tab is neither). */
static inline bool fast_end(char c)
{
	return c == ' ' || c == '\0';
}

/* The digits of base at f->p, 1 to max of them up to a token's end, into *v, advancing f.
 * Always inlined, so that each caller's base is a constant (as a call it was a multiply a digit
 * and 1% more instructions on a copy trace). */
__attribute__((always_inline)) static inline bool fast_digits(struct fast *f, unsigned base,
							      long max, uint64_t *v)
{
	const char *e = text_scan_digits(f->p, f->end, base, v);

	if (e == f->p || e - f->p > max || !fast_end(*e))
		return false;
	f->p = e;
	return true;
}

/* The next token as an unsigned decimal of 1 to 19 digits (so below 2^64). */
static inline bool fast_dec(struct fast *f, uint64_t *v)
{
	fast_skip(f);
	return fast_digits(f, 10, 19, v);
}

/* The next token as 1 to 16 hexadecimal digits after at most one 0x (either case). */
static inline bool fast_hex(struct fast *f, uint64_t *v)
{
	fast_skip(f);
	if (f->p[0] == '0' && (f->p[1] == 'x' || f->p[1] == 'X'))
		f->p += 2;
	return fast_digits(f, 16, 16, v);
}

/* The next token as a decimal of 1 to 18 digits (so in int64_t) after at most a '-'. */
static inline bool fast_i64(struct fast *f, int64_t *v)
{
	bool neg;
	uint64_t x;

	fast_skip(f);
	neg = *f->p == '-';
	f->p += neg;
	if (!fast_digits(f, 10, 18, &x))
		return false;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return true;
}

/* Whether the token at p is exactly word. */
static inline bool fast_word(const char *p, const char *word, size_t n)
{
	return strncmp(p, word, n) == 0 && fast_end(p[n]);
}

/* The next token as a register, as tok_reg reads it: R<n> with 1 to 3 digits and n <= 255, RZ;
 * UR<n>, UP<n>, P<n> (1 to 19 digits), URZ, PT and UPT as -1. */
static inline bool fast_reg(struct fast *f, int *r)
{
	const char *p;
	uint64_t x;
	size_t skip;

	fast_skip(f);
	p = f->p;
	if (p[0] == 'R') {
		if (p[1] == 'Z' && fast_end(p[2])) {
			*r = TRACE_RZ;
			f->p = p + 2;
			return true;
		}
		f->p = p + 1;
		if (!fast_digits(f, 10, 3, &x) || x > 255)
			return false;
		*r = (int)x;
		return true;
	}
	skip = p[0] == 'U' && (p[1] == 'R' || p[1] == 'P') ? 2 : p[0] == 'P' ? 1 : 0;
	if (skip == 0)
		return false;
	*r = -1;
	f->p = p + skip;
	if (fast_digits(f, 10, 19, &x))
		return true;
	if (fast_word(p, "URZ", 3) || fast_word(p, "UPT", 3)) {
		f->p = p + 3;
		return true;
	}
	if (fast_word(p, "PT", 2)) {
		f->p = p + 2;
		return true;
	}
	return false;
}

/*
 * The fast reading of an instruction line: the same fields as inst_tokens, each character read
 * once, straight from the line, for the lines tracers write: tokens separated by spaces only,
 * numbers of at most 19 decimal or 16 hexadecimal digits (these after at most one 0x), signed
 * ones without a '+', the registers above, address modes 0 to 2, no TMA copy. Anything else,
 * well formed or not, gives false, leaving b's count of addresses as it was; inst_tokens then
 * reads the line from its start, with its messages. So it must take only lines that inst_tokens
 * reads alike: test_fast_line_like_general checks that on random lines, read as written and
 * with every space a tab (which only inst_tokens reads). It also finds no binary byte in a
 * line it takes (the opcode's bytes are looked at, a version 6 line's unread end searched), so
 * that the reader checks only the lines it refuses for binary data (read_inst). A V100 copy
 * trace's instruction line took the reader about 1,740 host instructions, now about 1,000.
 */
static bool fast_tokens(const struct trace_kernel *k, const char *line, const char *end,
			struct trace_inst *in, struct trace_block *b, struct inst_text *x)
{
	struct fast f = { line, end };
	uint64_t v, ndst, nsrc, mode, cnt = 0;
	const char *s;
	uint32_t i;
	int r;

	inst_clear(in);
	if (k->lineinfo && !fast_dec(&f, &v))
		return false;
	if (!fast_hex(&f, &v) || v > UINT32_MAX)
		return false;
	in->pc = (uint32_t)v;
	if (!fast_hex(&f, &v) || v > UINT32_MAX)
		return false;
	in->active = (uint32_t)v;
	if (!fast_dec(&f, &ndst) || ndst > 4)
		return false;
	for (i = 0; i < ndst; i++) {
		if (!fast_reg(&f, &r))
			return false;
		if (r >= 0 && in->dst == TRACE_RZ)
			in->dst = (uint8_t)r;
	}
	fast_skip(&f);
	if (!(*f.p >= 'A' && *f.p <= 'Z'))
		return false;
	for (s = f.p; !fast_end(*f.p); f.p++)
		if (*f.p == '\t' || (text_char_class[(unsigned char)*f.p] & TEXT_BINARY) != 0)
			return false;
	x->opcode_n = (size_t)(f.p - s);
	if (x->opcode_n >= sizeof x->opcode)
		return false;
	memcpy(x->opcode, s, x->opcode_n);
	x->opcode[x->opcode_n] = '\0';
	if (!fast_dec(&f, &nsrc) || nsrc > TRACE_MAX_SRC)
		return false;
	for (i = 0; i < nsrc; i++) {
		if (!fast_reg(&f, &r))
			return false;
		if (r >= 0 && r != TRACE_RZ)
			in->src[in->nsrc++] = (uint8_t)r;
	}
	if (k->version >= 6 && strstr(x->opcode, "GMMA") != NULL && !fast_dec(&f, &v))
		return false;
	if (!fast_dec(&f, &x->width) || x->width > 1024)
		return false;
	if (x->width > 0) {
		addr_t *out;
		int64_t d;

		if ((k->version >= 6 && is_tma(x->opcode)) || !fast_dec(&f, &mode) || mode > 2)
			return false;
		if (mode == 1) {
			if (!fast_hex(&f, &v) || !fast_i64(&f, &d))
				return false;
			in->mode = TRACE_ADDR_STRIDE;
			in->base = v;
			in->stride = d;
		} else {
			/* list: an address a lane; base-delta: the base (also with no lane active),
			 * then a delta a lane after the first */
			cnt = bits_pop32(in->active);
			out = addrs_reserve(b, cnt > 0 ? cnt : 1);
			i = 0;
			if (mode == 2) {
				if (!fast_hex(&f, &v))
					return false;
				out[i++] = v;
			}
			for (; i < cnt; i++) {
				if (mode == 0 ? !fast_hex(&f, &v) : !fast_i64(&f, &d))
					return false;
				out[i] = mode == 0 ? v : out[i - 1] + (addr_t)d;
			}
			in->mode = TRACE_ADDR_LIST;
			in->base = b->naddrs;
		}
	}
	if (!fast_dec(&f, &v))
		return false;
	/* before version 6 nothing follows; from it, nothing the model reads, but no binary data */
	fast_skip(&f);
	if (k->version < 6 ? f.p != end
			   : text_find_binary(f.p, (size_t)(end - f.p)) < (size_t)(end - f.p))
		return false;
	b->naddrs += cnt;
	return true;
}

int trace_parse_inst(const struct trace_kernel *k, struct isa_table *isa, const char *text,
		     struct trace_inst *in, struct trace_block *b, char *msg, size_t n)
{
	struct inst_text x;

	if (!fast_tokens(k, text, text + strlen(text), in, b, &x) &&
	    inst_tokens(k, text, in, b, &x, msg, n) != 0)
		return -1;
	inst_classify(k, isa, &x, in, b);
	return 0;
}

bool trace_map_regs(struct trace_block *b, uint32_t w)
{
	const struct trace_warp *tw = &b->warps[w];
	int8_t map[256];
	uint32_t i, j, used = 0;
	bool alias = false;

	memset(map, -1, sizeof map);
	for (i = tw->first; i < tw->first + tw->n; i++) {
		struct trace_inst *in = &b->insts[i];
		int s;

		if (in->kind != WORKLOAD_OP_LOAD || in->ndst == 0)
			continue;
		s = map[in->dst];
		if (s < 0) {
			if (used >= TRACE_SLOTS)
				alias = true;
			s = (int)(used++ % TRACE_SLOTS);
		}
		for (j = in->dst; j < (uint32_t)in->dst + in->ndst && j < TRACE_RZ; j++) {
			int old = map[j];
			uint32_t r;

			if (old == s)
				continue;
			if (old >= 0) /* a wide load spans registers with slots: merge them */
				for (r = 0; r < 256; r++)
					if (map[r] == old)
						map[r] = (int8_t)s;
			map[j] = (int8_t)s;
		}
	}
	for (i = tw->first; i < tw->first + tw->n; i++) {
		struct trace_inst *in = &b->insts[i];
		uint64_t need = 0;

		for (j = 0; j < in->nsrc; j++)
			if (map[in->src[j]] >= 0)
				need |= 1ull << map[in->src[j]];
		for (j = in->dst; in->ndst > 0 && j < (uint32_t)in->dst + in->ndst && j < TRACE_RZ; j++)
			if (map[j] >= 0)
				need |= 1ull << map[j];
		in->need = need;
		in->slot = in->kind == WORKLOAD_OP_LOAD && in->ndst > 0 ? map[in->dst] : -1;
	}
	return alias;
}

/* ---------------------------------------------------------------------------------------------
 * The reader
 */

struct trace_reader {
	struct trace_list *l;
	const struct trace_kernel *k;
	struct isa_table *isa;
	struct src s;
	uint32_t wpb;
	bool done;
};

int trace_open(struct trace_list *l, size_t k, struct trace_reader **out, struct sim_err *err)
{
	struct trace_reader *r = xcalloc(1, sizeof *r);
	struct trace_kernel tmp;
	uint64_t threads;

	SIM_ASSERT(k < l->nkernels);
	*out = NULL;
	r->l = l;
	r->k = &l->kernels[k];
	threads = (uint64_t)r->k->block[0] * r->k->block[1] * r->k->block[2];
	r->wpb = (uint32_t)((threads + TRACE_LANES - 1) / TRACE_LANES);
	if (isa_load(l->isa_path, r->k->binary_version, &r->isa, err) != 0) {
		char why[SIM_ERR_MSG_MAX + 300];

		if (r->k->binary_version == 0 && err->line == 0 && strstr(err->msg, "cannot") == NULL)
			sim_err_set(err, r->k->path, 0, "the header has no -binary version to choose "
				    "a latency table by");
		else if (strstr(err->msg, "cannot open") != NULL && err->line == 0) {
			sim_err_format(err, why, sizeof why);
			sim_err_set(err, NULL, 0, "%.900s (the opcode latency table; give --isa FILE)",
				    why);
		}
		free(r);
		return -1;
	}
	memset(&tmp, 0, sizeof tmp);
	if (src_open(&r->s, r->k->path, err) != 0 || read_header(&r->s, &tmp, err) != 0) {
		kernel_free(&tmp);
		trace_close(r);
		return -1;
	}
	kernel_free(&tmp);
	*out = r;
	return 0;
}

void trace_close(struct trace_reader *r)
{
	if (r == NULL)
		return;
	src_close(&r->s);
	isa_free(r->isa);
	free(r);
}

const struct trace_kernel *trace_reader_kernel(const struct trace_reader *r)
{
	return r->k;
}

/* Next non-blank line; 0 at the end of the file. */
static int next_line(struct src *s, struct sim_err *err)
{
	int rc;

	while ((rc = src_line(s, err)) == 1 && blank(s->line))
		;
	return rc;
}

/* "key = value" with key as given: the value as an unsigned number. */
static bool keyed(const char *line, const char *key, uint32_t *v)
{
	size_t n = strlen(key);
	const char *p = line;

	if (strncmp(p, key, n) != 0)
		return false;
	p += n;
	while (*p == ' ')
		p++;
	if (*p++ != '=')
		return false;
	while (*p == ' ')
		p++;
	return parse_u32(p, v);
}

/* The base mnemonic of instruction line text into buf (n bytes). */
static void line_opcode(const char *text, const struct trace_kernel *k, char *buf, size_t n)
{
	struct tok t = { text, "", 0, false };
	uint64_t nd, i;

	/* [line] PC mask ndst regs... opcode */
	if (k->lineinfo)
		next_tok(&t);
	next_tok(&t);
	next_tok(&t);
	next_tok(&t);
	nd = strtoull(t.t, NULL, 10);
	for (i = 0; i < nd && i < 4; i++)
		next_tok(&t);
	next_tok(&t);
	t.t[isa_base_len(t.t)] = '\0';
	snprintf(buf, n, "%s", t.t);
}

static void warn_unknown(struct trace_list *l, const char *path, int line, const char *op,
			 const struct isa_table *isa)
{
	size_t j;

	l->unknown_insts++;
	for (j = 0; j < l->nwarned; j++)
		if (strcmp(l->warned[j], op) == 0)
			return;
	l->warned = xreallocarray(l->warned, l->nwarned + 1, sizeof *l->warned);
	l->warned[l->nwarned++] = xstrdup(op);
	sim_warn("%s:%d: unknown opcode %s (not in the %s table of %s): run as ALU work of %u "
		 "cycles; --strict makes this an error", path, line, op, isa_arch(isa),
		 l->isa_path, isa_unknown_latency(isa));
}

/* Bytes a block of ninsts instructions and naddrs lane addresses buffers. */
static double block_mb(const struct trace_block *b, uint64_t ninsts, uint64_t naddrs)
{
	return ((double)ninsts * (double)sizeof *b->insts +
		(double)naddrs * (double)sizeof *b->addrs) / (1024.0 * 1024.0);
}

static bool block_too_big(const struct trace_reader *r, const struct trace_block *b,
			  uint64_t ninsts, uint64_t naddrs)
{
	uint64_t max = r->l->max_block_bytes;

	return max != 0 && block_mb(b, ninsts, naddrs) * 1024.0 * 1024.0 > (double)max;
}

/* The error for a file that ends (rc 0) inside a block, or -1 for a read error (rc -1, err
 * already filled). */
static int block_truncated(const struct src *s, int rc, struct sim_err *err)
{
	if (rc < 0)
		return -1;
	return sim_err_set(err, s->path, s->lineno + 1, "truncated: the file ends inside a thread "
			   "block (expected #END_TB)");
}

/* Reads `#BEGIN_TB` and `thread block = x,y,z` into b->id and empties b for r's warps. Returns
 * 1, 0 at the end of the file (r is then done), or -1 with err filled. */
static int block_header(struct trace_reader *r, struct trace_block *b, struct sim_err *err)
{
	struct src *s = &r->s;
	const struct trace_kernel *k = r->k;
	char *p, *eq;
	uint32_t *id = b->id;
	int rc;

	rc = next_line(s, err);
	if (rc <= 0) {
		r->done = rc == 0;
		return rc;
	}
	if (strcmp(trim(s->line), "#BEGIN_TB") != 0)
		return sim_err_set(err, s->path, s->lineno, "expected #BEGIN_TB, got \"%.60s\"",
				   s->line);
	b->ninsts = b->naddrs = 0;
	if (b->cap_warps < r->wpb) {
		b->cap_warps = r->wpb;
		b->warps = xreallocarray(b->warps, r->wpb, sizeof *b->warps);
	}
	b->nwarps = r->wpb;
	memset(b->warps, 0, r->wpb * sizeof *b->warps);
	rc = next_line(s, err);
	if (rc <= 0)
		return block_truncated(s, rc, err);
	p = trim(s->line);
	eq = strchr(p, '=');
	if (strncmp(p, "thread block", 12) != 0 || eq == NULL ||
	    sscanf(eq + 1, " %u , %u , %u", &id[0], &id[1], &id[2]) != 3)
		return sim_err_set(err, s->path, s->lineno, "expected `thread block = x,y,z`, "
				   "got \"%.60s\"", s->line);
	if (id[0] >= k->grid[0] || id[1] >= k->grid[1] || id[2] >= k->grid[2])
		return sim_err_set(err, s->path, s->lineno, "thread block %u,%u,%u is outside the "
				   "grid (%u,%u,%u)", id[0], id[1], id[2], k->grid[0], k->grid[1],
				   k->grid[2]);
	return 1;
}

/* Reads instruction i of the ninst that warp w announced into the next slot of b (whose
 * capacity the caller made room in). Returns 0, or -1 with err filled. */
static int read_inst(struct trace_reader *r, struct trace_block *b, uint32_t w, uint32_t ninst,
		     uint32_t i, struct sim_err *err)
{
	struct src *s = &r->s;
	const struct trace_kernel *k = r->k;
	struct trace_inst *in = &b->insts[b->ninsts];
	struct inst_text x;
	const char *line;
	char msg[256];
	int rc;

	rc = src_read_line(s, err);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return sim_err_set(err, s->path, s->lineno + 1, "truncated: warp %u announces %u "
				   "instructions (insts = %u), the file ends after %u", w, ninst,
				   ninst, i);
	/* A line the fast reading takes has no binary byte and is an instruction; any other is
	 * checked for binary data (as src_line does), then for a blank line or the start of the
	 * next warp or block, as before, and read the general way. */
	if (!fast_tokens(k, s->line, s->line + s->line_len, in, b, &x)) {
		if (line_binary(s, err) != 0)
			return -1;
		line = trim(s->line); /* (once: it measures the line) */
		if (line[0] == '\0' || strcmp(line, "#END_TB") == 0 ||
		    strncmp(line, "warp", 4) == 0)
			return sim_err_set(err, s->path, s->lineno, "warp %u announces %u "
					   "instructions (insts = %u), found %u before %s", w, ninst,
					   ninst, i, line[0] == '\0' ? "a blank line" : line);
		if (inst_tokens(k, s->line, in, b, &x, msg, sizeof msg) != 0)
			return sim_err_set(err, s->path, s->lineno, "%s", msg);
	}
	inst_classify(k, r->isa, &x, in, b);
	in->line = (uint32_t)s->lineno;
	if (block_too_big(r, b, (uint64_t)b->ninsts + ninst, b->naddrs))
		return sim_err_set(err, s->path, s->lineno, "thread block (%u,%u,%u): warp %u: its "
				   "lane addresses take the block to %.0f MB, above the trace "
				   "buffering ceiling of %" PRIu64 " MB (--max-trace-mb)", b->id[0],
				   b->id[1], b->id[2], w,
				   block_mb(b, (uint64_t)b->ninsts + ninst, b->naddrs),
				   r->l->max_block_bytes >> 20);
	if (in->unknown) {
		char op[128];

		line_opcode(s->line, k, op, sizeof op);
		if (r->l->strict)
			return sim_err_set(err, s->path, s->lineno, "unknown opcode %s: not in the "
					   "%s table of %s (binary version %u)", op,
					   isa_arch(r->isa), r->l->isa_path, k->binary_version);
		warn_unknown(r->l, s->path, s->lineno, op, r->isa);
	}
	b->ninsts++;
	return 0;
}

/* Reads one warp of a block: the current line is its `warp = N`; then `insts = N` and the N
 * instruction lines. Returns 0, or -1 with err filled. */
static int read_warp(struct trace_reader *r, struct trace_block *b, struct sim_err *err)
{
	struct src *s = &r->s;
	const struct trace_kernel *k = r->k;
	uint32_t w, ninst, i;
	int rc;

	if (!keyed(trim(s->line), "warp", &w))
		return sim_err_set(err, s->path, s->lineno, "expected `warp = N` or #END_TB, got "
				   "\"%.60s\"", s->line);
	if (w >= r->wpb)
		return sim_err_set(err, s->path, s->lineno, "warp %u: a block of (%u,%u,%u) "
				   "threads has warps 0 .. %u", w, k->block[0], k->block[1],
				   k->block[2], r->wpb - 1);
	if (b->warps[w].n != 0)
		return sim_err_set(err, s->path, s->lineno, "warp %u appears twice in the block",
				   w);
	rc = next_line(s, err);
	if (rc <= 0)
		return block_truncated(s, rc, err);
	if (!keyed(trim(s->line), "insts", &ninst))
		return sim_err_set(err, s->path, s->lineno, "expected `insts = N` after `warp = "
				   "%u`, got \"%.60s\"", w, s->line);
	if (block_too_big(r, b, (uint64_t)b->ninsts + ninst, b->naddrs))
		return sim_err_set(err, s->path, s->lineno, "thread block (%u,%u,%u): warp %u "
				   "announces %u instructions: the block would buffer %.0f MB, "
				   "above the trace buffering ceiling of %" PRIu64 " MB "
				   "(--max-trace-mb)", b->id[0], b->id[1], b->id[2], w, ninst,
				   block_mb(b, (uint64_t)b->ninsts + ninst, b->naddrs),
				   r->l->max_block_bytes >> 20);
	if (b->ninsts + ninst > b->cap_insts) {
		b->cap_insts = (b->ninsts + ninst) * 2;
		b->insts = xreallocarray(b->insts, b->cap_insts, sizeof *b->insts);
	}
	b->warps[w].first = (uint32_t)b->ninsts;
	for (i = 0; i < ninst; i++)
		if (read_inst(r, b, w, ninst, i, err) != 0)
			return -1;
	b->warps[w].n = ninst;
	return 0;
}

/* A block is its header, then warps (and, from version 6, cluster lines) up to #END_TB. */
int trace_next_block(struct trace_reader *r, struct trace_block *b, struct sim_err *err)
{
	struct src *s = &r->s;
	const struct trace_kernel *k = r->k;
	uint32_t w;
	int rc;

	if (r->done)
		return 0;
	rc = block_header(r, b, err);
	if (rc <= 0)
		return rc;
	for (;;) {
		rc = next_line(s, err);
		if (rc <= 0)
			return block_truncated(s, rc, err);
		if (strcmp(trim(s->line), "#END_TB") == 0)
			break;
		if (k->version >= 6 && strncmp(trim(s->line), "cluster", 7) == 0)
			continue; /* cluster id / cta / rank: no clusters in the model */
		if (read_warp(r, b, err) != 0)
			return -1;
	}
	for (w = 0; w < b->nwarps; w++)
		if (trace_map_regs(b, w) && r->l->alias_warps++ == 0)
			sim_warn("%s: a warp's loads write more than %d registers: scoreboard slots "
				 "are shared (extra dependencies possible; counted in "
				 "trace.alias_warps)", s->path, TRACE_SLOTS);
	return 1;
}
