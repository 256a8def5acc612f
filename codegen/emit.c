/* emit.c: the indenting line writer. */
#include <stdarg.h>
#include "emit.h"

static void vline(Emitter *e, const char *fmt, va_list ap)
{
    fprintf(e->out, "%*s", e->indent * 4, "");
    vfprintf(e->out, fmt, ap);
}

void emit_line(Emitter *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(e, fmt, ap);
    va_end(ap);
    fputc('\n', e->out);
}

void emit_open(Emitter *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(e, fmt, ap);
    va_end(ap);
    fputs(" {\n", e->out);
    e->indent++;
}

void emit_close(Emitter *e, const char *comment)
{
    e->indent--;
    if (comment)
        fprintf(e->out, "%*s} /* %s */\n", e->indent * 4, "", comment);
    else
        fprintf(e->out, "%*s}\n", e->indent * 4, "");
}

void emit_blank(Emitter *e) { fputc('\n', e->out); }

void emit_block(Emitter *e)
{
    fprintf(e->out, "%*s{\n", e->indent * 4, "");
    e->indent++;
}

void emit_uses_reset(Emitter *e)
{
    e->nused_vals = 0;
    e->nused_syms = 0;
}

void emit_use_value(Emitter *e, Ref r)
{
    for (int i = 0; i < e->nused_vals; i++)
        if (e->used_vals[i] == r)
            return;
    if (e->nused_vals < (int)(sizeof e->used_vals / sizeof e->used_vals[0]))
        e->used_vals[e->nused_vals++] = r;
}

void emit_use_sym(Emitter *e, int sym)
{
    for (int i = 0; i < e->nused_syms; i++)
        if (e->used_syms[i] == sym)
            return;
    if (e->nused_syms < (int)(sizeof e->used_syms / sizeof e->used_syms[0]))
        e->used_syms[e->nused_syms++] = sym;
}
