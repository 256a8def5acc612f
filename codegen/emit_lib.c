/* emit_lib.c: npxc --lib, the program as one C function, declared in a
 * header and defined at the end of the generated file, where a program has
 * main. Its parameters, in order: the sizes the inputs bind, the inputs
 * (arrays as const T *, C order; scalars by value), the outputs (arrays as
 * T **, allocated by the call and the caller's to free(); scalars as T *),
 * then each size known only after the run (bincount's length) as an
 * int64_t *. It returns 0, or the generated program's exit status for what
 * went wrong (a negative size 2, a run-time error 3), reported on stderr. */
#include <stdlib.h>
#include <string.h>
#include "emit_c.h"

/* A parameter's name: the source's, with _ after a name C reserves. */
static const char *param(Program *p, const char *name)
{
    return ir_c_reserved(name) ? arena_printf(p->arena, "%s_", name) : name;
}

/* Output j's parameter: its name, or NAME_out when an input is NAME too
 * (output x of input x: the caller passes both). */
static const char *out_param(Program *p, int j)
{
    for (int i = 0; i < p->ninputs; i++)
        if (strcmp(p->inputs[i].name, p->outputs[j]) == 0)
            return arena_printf(p->arena, "%s_out", p->outputs[j]);
    return param(p, p->outputs[j]);
}

/* A size only the run finds, in the shape of output j, axis k, or NULL. */
static const Sym *data_size(Program *p, int j, int k)
{
    Dim d = V(p, p->output_vals[j])->shape.d[k];
    return DIM_IS_SYM(d) && p->syms[DIM_SYMNO(d)].kind == SYM_DATA ? &p->syms[DIM_SYMNO(d)] : NULL;
}

/* Whether output j's axis k is the first of the outputs' axes with that
 * data size (each gets one parameter). */
static bool first_use(Program *p, int j, int k)
{
    const Sym *s = data_size(p, j, k);
    for (int jj = 0; jj <= j; jj++)
        for (int kk = 0; kk < (jj < j ? V(p, p->output_vals[jj])->shape.ndim : k); kk++)
            if (data_size(p, jj, kk) == s)
                return false;
    return s != NULL;
}

/* The parameter list, one parameter per entry of list (n of them). */
static int parameters(Program *p, const char **list)
{
    int n = 0;
    for (int i = 0; i < p->nsyms; i++)
        if (p->syms[i].kind == SYM_INPUT)
            list[n++] = arena_printf(p->arena, "int64_t %s", param(p, p->syms[i].cvar));
    for (int i = 0; i < p->ninputs; i++) {
        const IrInput *in = &p->inputs[i];
        const char *ct = dtype_ctype(in->dtype);
        list[n++] = in->shape.ndim ? arena_printf(p->arena, "const %s *%s", ct, param(p, in->name))
                                   : arena_printf(p->arena, "%s %s", ct, param(p, in->name));
    }
    for (int j = 0; j < p->noutputs; j++) {
        const Value *v = V(p, p->output_vals[j]);
        list[n++] = arena_printf(p->arena, "%s *%s%s", dtype_ctype(v->dtype), v->shape.ndim ? "*" : "", out_param(p, j));
    }
    for (int j = 0; j < p->noutputs; j++)
        for (int k = 0; k < V(p, p->output_vals[j])->shape.ndim; k++)
            if (first_use(p, j, k))
                list[n++] = arena_printf(p->arena, "int64_t *%s", param(p, data_size(p, j, k)->cvar));
    return n;
}

/* "int NAME(int64_t B, const float *x, float **y)", wrapped before 100
 * columns with continuation lines indented by indent. */
static const char *signature(Program *p, const char *indent)
{
    /* sizes and data sizes are symbols: at most nsyms of each */
    const char **list = arena_alloc(p->arena, sizeof *list * (size_t)(2 * p->nsyms + p->ninputs + p->noutputs + 1));
    int n = parameters(p, list);
    const char *s = arena_printf(p->arena, "int %s(", p->lib);
    size_t line = strlen(s);
    for (int i = 0; i < n; i++) {
        bool wrap = i > 0 && line + strlen(list[i]) + 2 > 100;
        const char *gap = wrap ? arena_printf(p->arena, "\n%s", indent) : i ? " " : "";
        s = arena_printf(p->arena, "%s%s%s%s", s, i ? "," : "", gap, list[i]);
        line = wrap ? strlen(indent) + strlen(list[i]) : line + strlen(list[i]) + 2;
    }
    return arena_printf(p->arena, "%s%s)", s, n ? "" : "void");
}

/* The function: the runtime runs the program on the caller's arrays. */
void emit_lib_function(Emitter *e)
{
    Program *p = e->p;
    const char *syms = NULL, *ins = NULL;
    for (int i = 0; i < p->nsyms; i++)
        if (p->syms[i].kind == SYM_INPUT)
            syms = syms ? arena_printf(p->arena, "%s, %s", syms, param(p, p->syms[i].cvar)) : param(p, p->syms[i].cvar);
    for (int i = 0; i < p->ninputs; i++) {
        const IrInput *in = &p->inputs[i];
        const char *arg = arena_printf(p->arena, "%s%s", in->shape.ndim ? "" : "&", param(p, in->name));
        ins = ins ? arena_printf(p->arena, "%s, %s", ins, arg) : arg;
    }
    emit_line(e, "/* ---- the library function (npxc --lib; its header says what each parameter is) ---- */");
    emit_open(e, "%s%s", p->cuda ? "extern \"C\" " : "", signature(p, "        "));
    emit_line(e, "const int64_t npx_sym[] = { %s };", syms ? syms : "0");
    emit_line(e, "const void *const npx_in[] = { %s };", ins ? ins : "NULL");
    emit_line(e, "npx_array npx_out[%d];", p->noutputs ? p->noutputs : 1);
    emit_line(e, "const int npx_status = npx_lib_run(&npx_prog, \"%s\", npx_sym, npx_in, npx_out);", p->lib);
    emit_line(e, "if (npx_status != 0)");
    emit_line(e, "    return npx_status;");
    for (int j = 0; j < p->noutputs; j++) {
        const Value *v = V(p, p->output_vals[j]);
        const char *ct = dtype_ctype(v->dtype), *name = out_param(p, j);
        if (v->shape.ndim) {
            emit_line(e, "*%s = (%s *)npx_out[%d].data;", name, ct, j);
            continue;
        }
        emit_line(e, "*%s = *(%s *)npx_out[%d].data;", name, ct, j);
        emit_line(e, "npx_free(npx_out[%d].data);", j);
    }
    for (int j = 0; j < p->noutputs; j++)
        for (int k = 0; k < V(p, p->output_vals[j])->shape.ndim; k++)
            if (first_use(p, j, k))
                emit_line(e, "*%s = npx_out[%d].shape[%d];", param(p, data_size(p, j, k)->cvar), j, k);
    emit_line(e, "return 0;");
    emit_close(e, NULL);
}

/* The header: the function's declaration, and what each parameter is. */
void emit_lib_header(FILE *out, Program *p, const char *file)
{
    char *guard = (char *)arena_printf(p->arena, "NPX_%s_H", p->lib);
    for (char *c = guard; *c; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 'a' + 'A');
    fprintf(out, "/* Generated by npxc " NPXC_VERSION " from %s: edit that file, not this one.\n", p->source);
    fprintf(out, " * %s is defined in %s (npxc --lib); build it with\n", p->lib, file);
    fprintf(out, p->cuda ? " *   nvcc -O3 -arch=sm_90 -c %s   and link with -lcublas\n"
                         : " *   cc " NPX_C_FLAGS " -c %s   and link with -fopenmp -lm\n",
            file);
    fprintf(out, " * Several npxc libraries link into one program. */\n#ifndef %s\n#define %s\n\n", guard, guard);
    fprintf(out, "#include <stdbool.h>\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    fprintf(out, "/* %s as one call. Arrays are contiguous, in C order (row-major).\n", p->source);
    for (int i = 0; i < p->nsyms; i++)
        if (p->syms[i].kind == SYM_INPUT)
            fprintf(out, " *   %-12s a size\n", param(p, p->syms[i].cvar));
    for (int i = 0; i < p->ninputs; i++)
        fprintf(out, " *   %-12s input %s\n", param(p, p->inputs[i].name),
                shape_str(p, &p->inputs[i].shape, p->inputs[i].dtype, false));
    for (int j = 0; j < p->noutputs; j++) {
        const Value *v = V(p, p->output_vals[j]);
        fprintf(out, " *   %-12s output %s%s\n", out_param(p, j), shape_str(p, &v->shape, v->dtype, false),
                v->shape.ndim ? ", allocated by the call: free() it" : "");
    }
    for (int j = 0; j < p->noutputs; j++)
        for (int k = 0; k < V(p, p->output_vals[j])->shape.ndim; k++)
            if (first_use(p, j, k))
                fprintf(out, " *   %-12s set to the size %s of %s, known after the run\n",
                        param(p, data_size(p, j, k)->cvar), data_size(p, j, k)->name, p->outputs[j]);
    fprintf(out, " * Returns 0; or 2 for a negative size, 3 after a run-time error (a negative value\n");
    fprintf(out, " * for bincount, ...), each reported on stderr, with no output set. */\n");
    fprintf(out, "%s;\n\n#ifdef __cplusplus\n}\n#endif\n#endif\n", signature(p, "    "));
}
