/* diag.c: prints diagnostics as clang does: location, message, the source
 * line, and a caret with tildes under the span. */
#include "diag.h"
#include <stdarg.h>

Span span_join(Span a, Span b)
{
    Span s = { a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end };
    return s;
}

static int clamp(const Diag *d, int off)
{
    return off < 0 ? 0 : off > d->len ? d->len : off;
}

int diag_line(const Diag *d, int offset)
{
    offset = clamp(d, offset);
    int line = 1;
    for (int i = 0; i < offset; i++)
        line += d->src[i] == '\n';
    return line;
}

const char *diag_line_text(const Diag *d, int offset, int *len)
{
    offset = clamp(d, offset);
    int b = offset, e = offset;
    while (b > 0 && d->src[b - 1] != '\n')
        b--;
    while (e < d->len && d->src[e] != '\n')
        e++;
    if (e > b && d->src[e - 1] == '\r')
        e--;
    *len = e - b;
    return d->src + b;
}

static void report(Diag *d, const char *kind, Span at, const char *fmt, va_list ap)
{
    int len;
    const char *line = diag_line_text(d, at.begin, &len);
    int col = (int)(d->src + clamp(d, at.begin) - line);
    fprintf(d->out, "%s:%d:%d: %s: ", d->path, diag_line(d, at.begin), col + 1, kind);
    vfprintf(d->out, fmt, ap);
    fprintf(d->out, "\n%.*s\n", len, line);
    for (int i = 0; i < col; i++)
        fputc(line[i] == '\t' ? '\t' : ' ', d->out);
    fputc('^', d->out);
    int end = at.end < d->len ? at.end : d->len;
    for (int i = col + 1; i < len && line + i < d->src + end; i++)
        fputc('~', d->out);
    fputc('\n', d->out);
}

void diag_error(Diag *d, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, "error", at, fmt, ap);
    va_end(ap);
    d->errors++;
}

void diag_note(Diag *d, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, "note", at, fmt, ap);
    va_end(ap);
}
