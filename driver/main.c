/* main.c: the npxc command line and its pipeline, in one screen:
 * parse -> lower (dtypes, shapes) -> fuse -> schedule -> emit, verifying the
 * IR after each pass and dumping it on request. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../codegen/emit_c.h"
#include "../parser/ast.h"
#include "options.h"

static char *read_file(const char *path, int *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(buf, cap * 2 + 1);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    bool bad = ferror(f) || n > (size_t)1 << 30;
    fclose(f);
    if (!buf || bad) {
        free(buf);
        errno = bad ? EIO : ENOMEM;
        return NULL;
    }
    buf[n] = 0;
    *len = (int)n;
    return buf;
}

static bool pass(Program *p, const Options *o, const char *name)
{
    if (!ir_verify(p, name))
        return false;
    if (o->dump_ir)
        ir_dump(stdout, p, name);
    return true;
}

/* Returns the exit status. */
static int compile(const Options *o, Diag *d, Arena *arena)
{
    diag_hold(d);                                /* syntax errors, in the order of the file */
    AstProgram *ast = parse_program(arena, d);
    diag_release(d);
    if (d->errors)
        return 1;
    if (o->dump_ast) {
        ast_dump(stdout, ast);
        return 0;
    }
    Program p = { .arena = arena, .diag = d, .source = o->source_name, .opt = !o->no_opt, .blas = o->blas, .tf32 = o->tf32,
                  .cuda = o->cuda };
    if (!ir_lower(&p, ast))
        return 1;
    if (!pass(&p, o, "lower"))
        return 2;
    if (o->shapes) {
        ir_print_shapes(stdout, &p);
        return 0;
    }
    ir_fuse(&p);
    if (!pass(&p, o, "fuse"))
        return 2;
    ir_schedule(&p);
    if (!pass(&p, o, "schedule"))
        return 2;
    if (o->explain)
        ir_explain(stdout, &p);
    if (o->dump_ir || o->explain)
        return 0;
    return write_output(o, &p);
}

int main(int argc, char **argv)
{
    Options o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0)
        return status;
    int len = 0;
    char *src = read_file(o.input, &len);
    if (!src) {
        fprintf(stderr, "npxc: error: cannot read '%s': %s\n", o.input, strerror(errno));
        return 2;
    }
    Diag d = { .path = o.input, .src = src, .len = len, .out = stderr };
    Arena *arena = arena_new();
    status = compile(&o, &d, arena);
    if (d.errors)
        fprintf(stderr, "%d error%s generated.\n", d.errors, d.errors == 1 ? "" : "s");
    arena_free(arena);
    free(src);
    return status;
}
