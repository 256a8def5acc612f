/* lower_einsum.c: np.einsum(subscripts, *operands), its subscripts checked
 * as NumPy checks them (each mistake pointed at its own character), then
 * computed as a sum of products (contract.c). A letter is a label numbered
 * in ASCII order, the order of an implicit output; the axes an ellipsis
 * stands for get the labels after the letters, aligned from the right
 * across the operands, as broadcasting aligns them. */
#include <string.h>
#include "lower.h"

#define NLETTERS 52              /* A-Z, a-z */

typedef struct {
    Program *p;
    const Expr *subscripts;      /* the string */
    const char *text;            /* its characters */
} Subscripts;

typedef struct {
    int label[NPX_MAX_RANK];
    int n;
    int ellipsis;                /* how many labels come before the '...'; -1 without one */
} Letters;

static int letter_label(char ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch - 'A' : ch >= 'a' && ch <= 'z' ? ch - 'a' + 26 : -1;
}

static char label_letter(int l)
{
    return (char)(l < 26 ? 'A' + l : 'a' + l - 26);
}

/* The caret under character i of the subscripts (the quote is before 0). */
static Span char_span(const Subscripts *s, int i)
{
    int at = s->subscripts->span.begin + 1 + i;
    return (Span){ at, at + 1 };
}

/* Letters and at most one '...' in text[from, to); false, reported, for
 * anything else or a letter written twice in the output. */
static bool parse_letters(const Subscripts *s, int from, int to, bool output, Letters *out)
{
    Diag *d = s->p->diag;
    *out = (Letters){ .ellipsis = -1 };
    for (int i = from; i < to; i++) {
        char ch = s->text[i];
        if (ch == ' ')
            continue;
        if (ch == '.') {
            if (out->ellipsis >= 0 || i + 3 > to || strncmp(s->text + i, "...", 3) != 0) {
                diag_error(d, char_span(s, i), out->ellipsis >= 0 ? "einsum: an operand may have one '...' only"
                                                                  : "einsum: '.' is only allowed as part of '...'");
                return false;
            }
            out->ellipsis = out->n;
            i += 2;
            continue;
        }
        int l = letter_label(ch);
        if (l < 0) {
            diag_error(d, char_span(s, i), "einsum: invalid subscript '%c'; subscripts are letters", ch);
            return false;
        }
        for (int k = 0; output && k < out->n; k++)     /* twice in an operand: its diagonal */
            if (out->label[k] == l) {
                diag_error(d, char_span(s, i), "einsum: output subscript '%c' appears twice", ch);
                return false;
            }
        if (out->n == NPX_MAX_RANK) {
            diag_error(d, char_span(s, i), "einsum: more than %d subscripts for one array", NPX_MAX_RANK);
            return false;
        }
        out->label[out->n++] = l;
    }
    return true;
}

/* The letters with the nell labels of an ellipsis in its place, the last
 * `covered` of them (fewer when this operand has fewer axes under it). */
static void place_ellipsis(const Letters *in, int nell, int covered, int *label, int *n)
{
    *n = 0;
    for (int k = 0; k <= in->n; k++) {
        if (k == in->ellipsis)
            for (int x = nell - covered; x < nell; x++)
                label[(*n)++] = NLETTERS + x;
        if (k < in->n)
            label[(*n)++] = in->label[k];
    }
}

/* Sizes of one label must agree (or be 1) across the operands; the ones
 * that only the run knows are checked by the product's broadcasting. */
static bool sizes_agree(const Subscripts *s, const Term *t, int n, Span *at)
{
    Program *p = s->p;
    for (int i = 1; i < n; i++)
        for (int k = 0; k < t[i].ndim; k++)
            for (int j = 0; j < i; j++)
                for (int m = 0; m < t[j].ndim; m++) {
                    Dim a = V(p, t[j].ref)->shape.d[m], b = V(p, t[i].ref)->shape.d[k];
                    if (t[j].label[m] != t[i].label[k] || a == 1 || b == 1 || !dims_differ(p, a, b))
                        continue;
                    int l = t[i].label[k];
                    const Value *vj = V(p, t[j].ref), *vi = V(p, t[i].ref);
                    if (l < NLETTERS)
                        diag_error(p->diag, at[i], "einsum: subscript '%c' is %s long in operand %d (%s) but %s "
                                                   "in operand %d (%s)", label_letter(l), dim_str(p, a), j,
                                   shape_str(p, &vj->shape, vj->dtype, false), dim_str(p, b), i,
                                   shape_str(p, &vi->shape, vi->dtype, false));
                    else
                        diag_error(p->diag, at[i], "einsum: the axes under '...' could not be broadcast "
                                                   "together: %s and %s",
                                   shape_str(p, &vj->shape, vj->dtype, false),
                                   shape_str(p, &vi->shape, vi->dtype, false));
                    return false;
                }
    return true;
}

/* The output's labels: as written after '->', or NumPy's implicit output,
 * the ellipsis's axes and then the letters used once, in ASCII order. */
static bool output_labels(const Subscripts *s, int from, const Term *t, int n, int nell, int *out, int *nout)
{
    int count[NLETTERS] = { 0 };
    for (int i = 0; i < n; i++)
        for (int k = 0; k < t[i].ndim; k++)
            if (t[i].label[k] < NLETTERS)
                count[t[i].label[k]]++;
    *nout = 0;
    if (from < 0) {
        for (int x = 0; x < nell; x++)
            out[(*nout)++] = NLETTERS + x;
        for (int l = 0; l < NLETTERS; l++)
            if (count[l] == 1)
                out[(*nout)++] = l;
        return true;
    }
    Letters written;
    if (!parse_letters(s, from, (int)strlen(s->text), true, &written))
        return false;
    for (int k = 0; k < written.n; k++)
        if (!count[written.label[k]]) {
            const char *at = strchr(s->text + from, label_letter(written.label[k]));
            diag_error(s->p->diag, char_span(s, (int)(at - s->text)),
                       "einsum: output subscript '%c' is not in any operand", label_letter(written.label[k]));
            return false;
        }
    if (nell && written.ellipsis < 0) {
        diag_error(s->p->diag, char_span(s, from), "einsum: the operands have axes under '...'; the output "
                                                   "must say where they go ('...' after '->')");
        return false;
    }
    place_ellipsis(&written, nell, nell, out, nout);
    return true;
}

/* Operand t with a label on two of its axes (einsum('ii->i', a)) viewed as
 * its diagonal there, until each label is on one axis: the two axes moved
 * first, then a take at the same position on both (NumPy: their sizes must
 * agree). False, reported, when they cannot. */
static bool collapse_diagonals(const Subscripts *s, Span at, int i, Term *t)
{
    Program *p = s->p;
    for (int a = 0; a < t->ndim; a++)
        for (int b = a + 1; b < t->ndim; b++) {
            if (t->label[a] != t->label[b])
                continue;
            const Value *v = V(p, t->ref);
            Dim n = v->shape.d[a], m = v->shape.d[b];
            if (dims_differ(p, n, m)) {
                diag_error(p->diag, at, "einsum: dimensions in operand %d for collapsing index '%c' don't match "
                           "(%s != %s)", i, label_letter(t->label[a]), dim_str(p, n), dim_str(p, m));
                return false;
            }
            if (n != m)
                ir_add_check(p, p->nstmts - 1, n, m, at, "einsum: dimensions for collapsing an index differ");
            int perm[NPX_MAX_RANK] = { a, b }, label[NPX_MAX_RANK] = { t->label[a] }, k = 2;
            for (int j = 0; j < t->ndim; j++)
                if (j != a && j != b) {
                    label[k - 1] = t->label[j];
                    perm[k++] = j;
                }
            Ref moved = build_transpose(p, at, t->ref, perm);
            Ref pos = build_arange(p, at, NPX_I64, 0, 1, n);
            t->ref = build_take_within(p, at, at, moved, (Ref[]){ pos, pos }, 2, 0);
            t->ndim--;
            memcpy(t->label, label, sizeof(int) * (size_t)t->ndim);
            return t->ref && collapse_diagonals(s, at, i, t);
        }
    return true;
}

Ref call_einsum(Lower *L, Call *c, int unused)
{
    (void)unused;
    Program *p = L->p;
    const Expr *call = c->call;
    for (int k = 0; k < call->kwargs.n; k++)       /* optimize= changes only the order of the work */
        if (strcmp(call->kwargs.v[k].name, "optimize") != 0) {
            diag_error(p->diag, call->kwargs.v[k].name_span, "einsum(): '%s=' is not supported",
                       call->kwargs.v[k].name);
            return 0;
        }
    if (c->npos && c->pos[0]->kind != EXPR_STRING) {
        diag_error(p->diag, call->at, "einsum's form with lists of axis numbers is not supported yet; write the "
                                      "subscripts as a string ('ij,jk->ik')");
        return 0;
    }
    if (c->npos < 2 || c->npos - 1 > NPX_MAX_RANK) {
        diag_error(p->diag, call->at, c->npos < 2 ? "einsum takes the subscripts, then %d operands at most"
                                                  : "einsum: more than %d operands", NPX_MAX_RANK);
        return 0;
    }
    Subscripts s = { p, c->pos[0], c->pos[0]->name };
    int n = c->npos - 1;
    Term t[NPX_MAX_RANK];
    Span at[NPX_MAX_RANK];
    bool ok = true;
    for (int i = 0; i < n; i++) {
        at[i] = c->pos[1 + i]->span;
        t[i].ref = lower_expr(L, c->pos[1 + i]);
        ok &= t[i].ref != 0;
        if (t[i].ref && V(p, t[i].ref)->weak)  /* NumPy makes an array of a Python number */
            t[i].ref = build_cast(p, at[i], t[i].ref, dtype_default(V(p, t[i].ref)->dtype));
    }
    const char *arrow = strstr(s.text, "->");
    int end = arrow ? (int)(arrow - s.text) : (int)strlen(s.text), nterms = 1;
    for (int i = 0; i < end; i++)
        nterms += s.text[i] == ',';
    if (!ok)
        return 0;
    if (nterms != n) {
        diag_error(p->diag, s.subscripts->span, "einsum: the subscripts are for %d operand%s, but %d %s given",
                   nterms, nterms == 1 ? "" : "s", n, n == 1 ? "is" : "are");
        return 0;
    }
    Letters letters[NPX_MAX_RANK];
    int covered[NPX_MAX_RANK], nell = 0;
    for (int i = 0, from = 0; i < n; i++) {
        const char *comma = memchr(s.text + from, ',', (size_t)(end - from));
        int to = comma ? (int)(comma - s.text) : end;
        if (!parse_letters(&s, from, to, false, &letters[i]))
            return 0;
        const Value *v = V(p, t[i].ref);
        covered[i] = v->shape.ndim - letters[i].n;
        if (covered[i] < 0 || (letters[i].ellipsis < 0 && covered[i] != 0)) {
            diag_error(p->diag, at[i], "einsum: operand %d is %s, but its subscripts '%.*s' are for %d axes", i,
                       shape_str(p, &v->shape, v->dtype, false), to - from, s.text + from, letters[i].n);
            return 0;
        }
        nell = covered[i] > nell ? covered[i] : nell;
        from = to + 1;
    }
    uint64_t used = 0;
    for (int i = 0; i < n; i++) {
        place_ellipsis(&letters[i], nell, covered[i], t[i].label, &t[i].ndim);
        for (int k = 0; k < t[i].ndim; k++)
            used |= (uint64_t)1 << t[i].label[k];
    }
    if (__builtin_popcountll(used) > NPX_MAX_RANK) {
        diag_error(p->diag, s.subscripts->span, "einsum: more than %d different subscripts", NPX_MAX_RANK);
        return 0;
    }
    int out[NPX_MAX_RANK], nout;
    if (!sizes_agree(&s, t, n, at) || !output_labels(&s, arrow ? end + 2 : -1, t, n, nell, out, &nout))
        return 0;
    for (int i = 0; i < n; i++)
        if (!collapse_diagonals(&s, at[i], i, &t[i]))
            return 0;
    return build_contraction(p, call->at, call->span, t, n, out, nout);
}
