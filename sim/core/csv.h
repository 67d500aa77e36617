/*
 * csv.h - reads CSV records (RFC 4180): fields separated by commas, a field may be quoted
 * ("a, b", "" for a quote, newlines inside quotes), \r is ignored outside quotes. No type
 * conversion, no header handling: the callers (validate.c, plot.c) check their own columns.
 */
#ifndef SIM_CSV_H
#define SIM_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "log.h"

/*
 * Reads one record (which may span lines inside quotes) from f into fields[0..max), each a
 * malloc'd string the caller owns (free with csv_free_fields). Returns the number of fields, 0
 * at end of file, or -1 with err filled as name:line (the line the record starts on) on a
 * malformed record or one of more than max fields; nothing is left allocated then. *next_line
 * is the line the record starts on (start at 1) and advances past it. A blank line is one empty
 * field.
 */
int csv_read_record(FILE *f, const char *name, int *next_line, char **fields, size_t max,
		    struct sim_err *err);
/* Frees fields[0..n). */
void csv_free_fields(char **fields, size_t n);

#endif /* SIM_CSV_H */
