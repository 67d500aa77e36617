/*
 * trace.h - Accel-Sim / NVBit traces of real CUDA programs: the command list (kernelslist.g),
 * the per-kernel header, and the thread blocks of a kernel, streamed one at a time.
 * The format is described in doc/trace.md; tracer versions 3, 4 and 5 are read in full, the
 * additions of version 6 are tolerated (v6 register kinds, the GMMA flag, the TMA address
 * modes 3 and 4 and the trailing imm2 / Val fields are parsed and skipped).
 *
 * A list (trace_list_load) reads kernelslist.g: `MemcpyHtoD,0xADDR,BYTES` lines and kernel
 * files (`*.traceg` or `*.traceg.xz`, relative to the list's folder), other lines ignored.
 * Every kernel file is opened at load and its header read (keys by name, not position), so a
 * missing file or a bad header stops the run before it starts, naming the list's line. A path
 * that is itself a .traceg or .traceg.xz is a list of that one kernel.
 *
 * A reader (trace_open) streams one kernel: `.xz` through liblzma, never to disk; the memory it
 * holds is one block (the caller's struct trace_block, reused) and fixed-size buffers.
 *
 * Each instruction line becomes a struct trace_inst: its kind in the SM model's terms (enum
 * workload_op_kind: LOAD, STORE, SHARED_LOAD, SHARED_STORE, ALU, BARRIER; trace_isa.h says which
 * opcode is what), access width, active mask, ALU latency, and its lane addresses (the three
 * address modes decoded with the tracer's semantics: base_delta has popcount - 1 deltas).
 *
 * Registers and the scoreboard. The SM model marks a register pending only for global and
 * local loads (ALU results are modelled by the warp waiting out the latency, shared accesses
 * likewise). So per warp the reader gives each register a load writes one scoreboard slot
 * (0..63) in order of first appearance, the registers of one wide load (LDG.64 R4 writes R4, R5)
 * sharing one, and turns every instruction's destination and source registers into a 64-bit
 * mask of the slots it waits for. A warp whose loads write more than 64 distinct registers
 * reuses slots modulo 64: that can only add dependencies (never lose one); it is counted
 * (trace.alias_warps) and warned about once. R255 (RZ) is never a dependency.
 *
 * Errors: `file:line: what was expected` for a bad line, a truncated file (an `insts = N`
 * with fewer lines, a block without #END_TB, a cut .xz stream), a missing kernel file; an
 * unknown opcode warns once per opcode and runs as ALU work of the table's unknown_latency, or
 * is an error under strict.
 */
#ifndef SIM_TRACE_H
#define SIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "types.h"

struct isa_table;

#define TRACE_LANES 32u
/* Source registers an instruction line may list (the tracer prints at most 5). */
#define TRACE_MAX_SRC 8
/* Register number of RZ: never a dependency. */
#define TRACE_RZ 255
/* Scoreboard slots per warp (the SM model's register mask). */
#define TRACE_SLOTS 64
/* Generic LD/ST: an address within this many bytes above `-shmem base_addr` is shared, above
 * `-local mem base_addr` local (the windows the driver reserves are far larger than any
 * kernel's use of them; a base of 0 means the header gave none). */
#define TRACE_WINDOW_BYTES (1ull << 32)
/* Bytes kept of an instruction's opcode, NUL included: the longest SASS mnemonics with their
 * modifiers (LDGSTS.E.BYPASS.LTC128B.128) are under 30 characters; a longer one is cut. */
#define TRACE_OPCODE_MAX 32

enum trace_addr_mode { TRACE_ADDR_NONE, TRACE_ADDR_STRIDE, TRACE_ADDR_LIST };

/* One decoded instruction. */
struct trace_inst {
	uint8_t kind;        /* enum workload_op_kind */
	uint8_t bytes;       /* memory: bytes per lane */
	uint8_t mode;        /* enum trace_addr_mode */
	uint8_t dst;         /* first destination register, TRACE_RZ when none */
	uint8_t ndst;        /* destination registers (a wide load writes bytes / 4) */
	uint8_t nsrc;
	int8_t slot;         /* scoreboard slot a global or local load writes, or -1 */
	bool unknown;        /* the opcode is in no table (ran with unknown_latency) */
	uint8_t src[TRACE_MAX_SRC];
	uint32_t active;     /* bit i: lane i */
	uint32_t latency;    /* ALU: core cycles */
	uint32_t line;       /* line in the trace file */
	uint32_t pc;
	uint64_t need;       /* scoreboard slots the instruction waits for */
	uint64_t base;       /* STRIDE: address of the first active lane; LIST: index into addrs */
	int64_t stride;      /* STRIDE: bytes between active lanes */
	char opcode[TRACE_OPCODE_MAX]; /* as written, with modifiers: the analysis's label */
};

/* One thread block: the instructions of each of its warps, contiguous per warp. */
struct trace_warp {
	uint32_t first, n;   /* insts[first .. first + n) */
};

struct trace_block {
	uint32_t id[3];                /* thread block = x,y,z */
	uint32_t nwarps;               /* warps of the kernel's block dim */
	struct trace_warp *warps;
	struct trace_inst *insts;
	size_t ninsts, cap_insts;
	addr_t *addrs;                 /* lane addresses of LIST instructions, active lanes only */
	size_t naddrs, cap_addrs;
	uint32_t cap_warps;
};

void trace_block_init(struct trace_block *b);
void trace_block_free(struct trace_block *b);
/* Lane addresses of in (a memory instruction of b) into addr[lane] for its active lanes;
 * nothing for an instruction without addresses. */
void trace_inst_addrs(const struct trace_block *b, const struct trace_inst *in, addr_t *addr);
/* trace_inst_addrs for a coalescer (struct coal_inst.dense): when every lane is active and the
 * line is a base and a stride of bytes (lane i at the base + i x bytes: a unit-stride warp's),
 * writes addr[0] alone (every lane in the debug build, whose coalescer checks the word) and
 * returns true; else as trace_inst_addrs, false. */
bool trace_inst_addrs_dense(const struct trace_block *b, const struct trace_inst *in,
			    uint32_t bytes, addr_t *addr);

/* The header of one kernel file. */
struct trace_kernel {
	char *path;                    /* the file, as opened */
	char *name;                    /* -kernel name */
	uint32_t id;                   /* -kernel id */
	uint32_t grid[3], block[3];
	uint32_t shmem;                /* bytes per block */
	uint32_t nregs;                /* registers per thread */
	uint32_t binary_version;       /* 0: not given */
	uint32_t version;              /* -accelsim tracer version (3 when not given) */
	bool lineinfo;                 /* -enable lineinfo = 1: lines start with a line number */
	addr_t shmem_base, local_base;
	int body_line;                 /* line after the header (the first #BEGIN_TB follows) */
};

enum trace_cmd_kind { TRACE_CMD_KERNEL, TRACE_CMD_MEMCPY };

struct trace_cmd {
	enum trace_cmd_kind kind;
	int line;                      /* in the list */
	size_t kernel;                 /* KERNEL: index into kernels */
	addr_t addr;                   /* MEMCPY: device address and bytes */
	uint64_t bytes;
};

struct trace_list {
	char *path;
	struct trace_cmd *cmds;
	size_t ncmds;
	struct trace_kernel *kernels;  /* in list order */
	size_t nkernels;
	/* options and what the readers share */
	char *isa_path;
	bool strict;
	char **warned;                 /* unknown opcodes warned about */
	size_t nwarned;
	uint64_t unknown_insts;        /* instructions with an unknown opcode */
	uint64_t alias_warps;          /* warps whose loads wrote more than TRACE_SLOTS registers */
	/* The ceiling on what one buffered thread block may hold (instructions and lane
	 * addresses), bytes; 0: none. trace_list_load sets TRACE_DEFAULT_MAX_BLOCK_MB; a block
	 * that would exceed it is an error naming the file, line and block. The front buffers
	 * one block per resident block slot and one read ahead, so this bounds the whole. */
	uint64_t max_block_bytes;
};
/* 1 GiB: 13 million decoded instructions in one block, 100x the largest block of the
 * Accel-Sim traces we have seen, and still far below the host memory of a run. */
#define TRACE_DEFAULT_MAX_BLOCK_MB 1024

/*
 * Loads the list at path (or one kernel file), reading every kernel's header; isa_path is the
 * latency table (NULL: ISA_DEFAULT_PATH); strict makes unknown opcodes errors. Returns 0 and
 * *out (free with trace_list_free), or -1 with err filled.
 */
int trace_list_load(const char *path, const char *isa_path, bool strict, struct trace_list **out,
		    struct sim_err *err);
void trace_list_free(struct trace_list *l);

struct trace_reader;

/* Opens kernel k of l at its first block. Returns 0 and *out, or -1 with err filled. l must
 * outlive the reader. */
int trace_open(struct trace_list *l, size_t k, struct trace_reader **out, struct sim_err *err);
/* Reads the next thread block into b (its buffers are reused). Returns 1 with a block, 0 at the
 * end of the kernel, -1 with err filled. */
int trace_next_block(struct trace_reader *r, struct trace_block *b, struct sim_err *err);
const struct trace_kernel *trace_reader_kernel(const struct trace_reader *r);
void trace_close(struct trace_reader *r);

/*
 * The line parser on its own (the reader calls it for every instruction line): parses text (one
 * line, no newline) of a kernel with header k and latency table isa (NULL: every ALU opcode is
 * known, latency 1; isa_describe remembers its opcodes there) into in, appending LIST
 * addresses to b->addrs. Registers are not yet mapped to slots (in->slot -1, in->need 0).
 * Returns 0, or -1 with msg (size n) saying what was expected where.
 */
int trace_parse_inst(const struct trace_kernel *k, struct isa_table *isa, const char *text,
		     struct trace_inst *in, struct trace_block *b, char *msg, size_t n);
/* Maps the registers of warp w of b to slots and fills slot and need (the rule above). Returns
 * true if the warp needed more than TRACE_SLOTS slots. */
bool trace_map_regs(struct trace_block *b, uint32_t w);

#endif /* SIM_TRACE_H */
