/*
 * trace_isa.h - what a SASS opcode of an Accel-Sim trace means to the SM model: its memory
 * space and direction, its access width, or its ALU latency on the trace's architecture.
 *
 * Memory, barrier and exit opcodes are classified here, by the base mnemonic (the text before
 * the first '.'):
 *	LDG LDGSTS SULD              global load        STG SUST        global store
 *	ATOMG ATOM                   global atomic      RED             global reduction
 *	LDL                          local load         STL             local store
 *	LDS LDSM                     shared load        STS             shared store
 *	ATOMS                        shared atomic      LDC             constant load
 *	LD                           generic load       ST              generic store
 *	BAR (not BAR.ARV)            barrier            EXIT            exit
 * Everything else is ALU work whose latency comes from a data file (data/isa/latency.cfg):
 * groups per architecture chosen by the trace header's `-binary version`, each listing the base
 * mnemonics it knows with their cycles; a group may start from another (`base`).
 *
 * Access width (isa_width): the first modifier that is a bit count, written as digits (.64,
 * .128) or as U/S and digits (.U8, .S16), divided by 8; 4 bytes when there is none; clamped to
 * 1 .. 16 (the widest lane access).
 */
#ifndef SIM_TRACE_ISA_H
#define SIM_TRACE_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log.h"

/* The default latency table, relative to the current directory (like configs/default.cfg). */
#define ISA_DEFAULT_PATH "data/isa/latency.cfg"

enum isa_class {
	ISA_ALU,          /* latency from the table */
	ISA_LOAD,         /* memory, by space below */
	ISA_STORE,
	ISA_ATOMIC,       /* a load when it has a destination register, else a store */
	ISA_BARRIER,
	ISA_EXIT,
};

enum isa_space { ISA_SPACE_NONE, ISA_SPACE_GLOBAL, ISA_SPACE_LOCAL, ISA_SPACE_SHARED,
		 ISA_SPACE_CONST, ISA_SPACE_GENERIC };

/* Class and space of opcode (the whole SASS mnemonic with modifiers, e.g. "LDG.E.128.SYS").
 * Opcodes not in the list above are ISA_ALU / ISA_SPACE_NONE. */
void isa_classify(const char *opcode, enum isa_class *cls, enum isa_space *space);
/* Bytes per lane of a memory opcode (rule above). */
uint32_t isa_width(const char *opcode);
/* Length of the base mnemonic of opcode (up to the first '.' or the end). */
size_t isa_base_len(const char *opcode);

struct isa_table;

/*
 * Loads the latency table of the architecture serving binary version `version` from the file
 * at path. Returns 0 and a new table in *out (free with isa_free), or -1 with err filled: the
 * file cannot be read or is malformed (file:line: what), or no group lists the version.
 */
int isa_load(const char *path, uint32_t version, struct isa_table **out, struct sim_err *err);
void isa_free(struct isa_table *t);
/* The architecture's name ("volta", ...). */
const char *isa_arch(const struct isa_table *t);
/* Latency of the base mnemonic name[0..len): true and *cycles if the table lists it. */
bool isa_latency(const struct isa_table *t, const char *name, size_t len, uint32_t *cycles);
/* unknown_latency of the file. */
uint32_t isa_unknown_latency(const struct isa_table *t);

/* What the trace reader needs of an opcode: isa_classify's class and space, isa_width, and
 * whether table t lists its base (known; latency: the table's cycles, else its unknown latency;
 * without a table, known and 1). */
struct isa_op {
	enum isa_class cls;
	enum isa_space space;
	uint32_t width;
	uint32_t latency;
	bool known;
};
/* isa_op of opcode (len characters, opcode[len] == '\0': the caller has measured it) for table t
 * (NULL: none). A table remembers the last opcodes it described (64, by a hash of their text),
 * so that the reader's every line does not classify, measure and search again the few
 * mnemonics a kernel uses. */
void isa_describe(struct isa_table *t, const char *opcode, size_t len, struct isa_op *out);

#endif /* SIM_TRACE_ISA_H */
