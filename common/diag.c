/* diag.c: prints diagnostics as clang does: location, message, the source
 * line, and a caret with tildes under the span. */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include "diag.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

/* At most this much of a long source line is shown, around the caret (as
 * clang does), so that each message stays readable and quick to print. */
#define DIAG_WINDOW 160

static void print(Diag *d, FILE *out, const char *kind, Span at, const char *fmt, va_list ap)
{
    int len;
    const char *line = diag_line_text(d, at.begin, &len);
    int col = (int)(d->src + clamp(d, at.begin) - line);
    int from = len > DIAG_WINDOW && col > DIAG_WINDOW / 3 ? col - DIAG_WINDOW / 3 : 0;
    int to = from + DIAG_WINDOW < len ? from + DIAG_WINDOW : len;
    const char *dots = from > 0 ? "..." : "";
    fprintf(out, "%s:%d:%d: %s: ", d->path, diag_line(d, at.begin), col + 1, kind);
    vfprintf(out, fmt, ap);
    fprintf(out, "\n%s%.*s%s\n", dots, to - from, line + from, to < len ? "..." : "");
    char caret[DIAG_WINDOW + 8];
    int n = (int)strlen(dots), end = at.end < d->len ? (int)(at.end - (line - d->src)) : len;
    memset(caret, ' ', (size_t)n);
    for (int i = from; i < col; i++)
        caret[n++] = line[i] == '\t' ? '\t' : ' ';
    caret[n++] = '^';
    for (int i = col + 1; i < to && i < end; i++)
        caret[n++] = '~';
    caret[n++] = '\n';
    fwrite(caret, 1, (size_t)n, out);
}

/* Prints now, or holds the message (a note joins the error before it). */
static void report(Diag *d, const char *kind, Span at, const char *fmt, va_list ap)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = d->holding ? open_memstream(&text, &len) : NULL;
    if (!out) {
        print(d, d->out, kind, at, fmt, ap);
        return;
    }
    print(d, out, kind, at, fmt, ap);
    fclose(out);
    bool note = strcmp(kind, "note") == 0 && d->nheld > 0;
    if (note) {
        HeldDiag *h = &d->held[d->nheld - 1];
        char *both = realloc(h->text, h->len + len + 1);
        if (both) {
            memcpy(both + h->len, text, len + 1);
            h->text = both;
            h->len += len;
        }
        free(text);
        return;
    }
    if (d->nheld == d->capheld) {
        int cap = d->capheld ? 2 * d->capheld : 8;
        HeldDiag *grown = realloc(d->held, sizeof *grown * (size_t)cap);
        if (!grown) {
            fwrite(text, 1, len, d->out);      /* no room to wait: print it now */
            free(text);
            return;
        }
        d->held = grown;
        d->capheld = cap;
    }
    d->held[d->nheld++] = (HeldDiag){ at.begin, text, len };
}

void diag_hold(Diag *d)
{
    d->holding = true;
}

void diag_release(Diag *d)
{
    for (int i = 1; i < d->nheld; i++)           /* stable: insertion sort, few messages */
        for (int j = i; j > 0 && d->held[j - 1].at > d->held[j].at; j--) {
            HeldDiag t = d->held[j];
            d->held[j] = d->held[j - 1];
            d->held[j - 1] = t;
        }
    for (int i = 0; i < d->nheld; i++) {
        fwrite(d->held[i].text, 1, d->held[i].len, d->out);
        free(d->held[i].text);
    }
    free(d->held);
    d->held = NULL;
    d->nheld = d->capheld = 0;
    d->holding = false;
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
