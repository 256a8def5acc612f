/* diag.h: the one diagnostic path. Locations are byte offsets into the source;
 * line and column are computed only when a message is printed. */
#ifndef NPX_DIAG_H
#define NPX_DIAG_H
#include <stdbool.h>
#include <stdio.h>

typedef struct {
    int begin, end;              /* byte offsets, end exclusive; begin == end: a point */
} Span;

typedef struct {
    int at;                      /* where the error is: messages print in this order */
    char *text;                  /* the error and its notes, as they will print */
    size_t len;
} HeldDiag;

typedef struct {
    const char *path;            /* as given on the command line */
    const char *src;             /* the whole file, NUL-terminated */
    int len;
    int errors;                  /* errors reported so far */
    FILE *out;                   /* stderr */
    bool holding;                /* diag_hold: messages wait in held */
    HeldDiag *held;
    int nheld, capheld;
} Diag;

/* file:line:col: error: message, the source line, and ^~~~ under the span. */
void diag_error(Diag *d, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same with "note:", attached to the error before it. */
void diag_note(Diag *d, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* 1-based line of an offset, and the text of that line (without newline). */
int diag_line(const Diag *d, int offset);
const char *diag_line_text(const Diag *d, int offset, int *len);
Span span_join(Span a, Span b);
/* Between diag_hold and diag_release, messages wait and then print in the
 * order of their places in the file (one statement's errors, found inside
 * out, print left to right). */
void diag_hold(Diag *d);
void diag_release(Diag *d);

#endif
