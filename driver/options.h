/* options.h: npxc's command line (options.c) and writing its output (output.c). */
#ifndef NPX_OPTIONS_H
#define NPX_OPTIONS_H
#include <stdbool.h>
#include "../ir/ir.h"

typedef struct {
    const char *input;           /* FILE.npx */
    const char *source_name;     /* its base name, for messages in generated code */
    const char *output;          /* -o PATH, or NULL for the default beside the input */
    bool cuda, exe, lib, no_opt, blas, tf32, shapes, explain, dump_ir, dump_ast;
} Options;

/* Returns -1 to go on, or the exit status (after --help, --version, errors). */
int parse_options(int argc, char **argv, Options *o);
/* Emits the program to its file (atomically) and builds it with --exe. */
int write_output(const Options *o, Program *p);

#endif
