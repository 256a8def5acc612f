/* options.c: parses npxc's command line (SPEC section 2). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "../codegen/emit_c.h"
#include "options.h"

static const char usage[] =
    "usage: npxc [options] FILE.npx\n"
    "  -t, --target c|cuda  output language (default c)\n"
    "  -o PATH              output file (default FILE.c beside the input; - for stdout)\n"
    "  --exe                also build the program (PATH without its extension) with $CC\n"
    "  --lib                library mode: PATH plus a header PATH.h\n"
    "  -O0                  one loop per operation: no fusion\n"
    "  --blas               C target: matrix products call CBLAS\n"
    "  --tf32               CUDA target: allow TF32 matrix products\n"
    "  --shapes             print every name with its dtype and shape, then exit\n"
    "  --explain            print, per source line, the loops and GEMM calls it became and\n"
    "                       what was fused into them\n"
    "  --dump-ir            print the IR after every pass\n"
    "  --version, --help\n";

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "npxc: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage);
    return 2;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int parse_options(int argc, char **argv, Options *o)
{
    memset(o, 0, sizeof *o);
    static const struct { const char *name; size_t offset; } flags[] = {
        { "--exe", offsetof(Options, exe) },         { "--lib", offsetof(Options, lib) },
        { "-O0", offsetof(Options, no_opt) },        { "--blas", offsetof(Options, blas) },
        { "--tf32", offsetof(Options, tf32) },       { "--shapes", offsetof(Options, shapes) },
        { "--explain", offsetof(Options, explain) }, { "--dump-ir", offsetof(Options, dump_ir) },
        { "--dump-ast", offsetof(Options, dump_ast) },
    };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool known = false;
        for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++)
            if (strcmp(a, flags[f].name) == 0) {
                *(bool *)((char *)o + flags[f].offset) = true;
                known = true;
            }
        if (known || strcmp(a, "-O2") == 0 || strcmp(a, "-O3") == 0 || strcmp(a, "-O") == 0)
            continue;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if (strcmp(a, "--version") == 0) {
            puts("npxc " NPXC_VERSION);
            return 0;
        }
        if (strcmp(a, "-o") == 0 || strcmp(a, "-t") == 0 || strcmp(a, "--target") == 0) {
            if (i + 1 == argc)
                return bad("%s needs a value", a);
            const char *v = argv[++i];
            if (strcmp(a, "-o") == 0)
                o->output = v;
            else if (strcmp(v, "c") == 0 || strcmp(v, "cuda") == 0)
                o->cuda = strcmp(v, "cuda") == 0;
            else
                return bad("unknown target '%s' (use c or cuda)", v);
            continue;
        }
        if (strncmp(a, "--target=", 9) == 0) {
            o->cuda = strcmp(a + 9, "cuda") == 0;
            if (!o->cuda && strcmp(a + 9, "c") != 0)
                return bad("unknown target '%s' (use c or cuda)", a + 9);
            continue;
        }
        if (a[0] == '-' && a[1])
            return bad("unknown option '%s'", a);
        if (o->input)
            return bad("more than one input file ('%s')", a);
        o->input = a;
    }
    if (!o->input)
        return bad("%s", "no input file");
    o->source_name = base_name(o->input);
    if (o->lib && o->exe)
        return bad("%s", "--lib and --exe cannot be combined (--lib writes a file to build with cc -c)");
    if (o->lib && o->output && strcmp(o->output, "-") == 0)
        return bad("%s", "--lib needs an output file, not -o - (its header goes beside it)");
    if (o->exe && o->output && strcmp(o->output, "-") == 0)
        return bad("%s", "--exe needs an output file, not -o -");
    return -1;
}
