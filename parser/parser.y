/* parser.y: the grammar of .npx, a pure bison parser. It owns the scanner's
 * and parser's shared context (ParseCtx), the syntax error messages (worded
 * for NumPy users), error recovery at the next statement, indentation (the
 * lines indented under a 'for' are its body, as in Python), and parse_program.
 * The tree it builds is parser/ast.h's; nothing is checked here beyond syntax. */
%define api.pure full
%define api.location.type {Span}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {ParseCtx *ctx}

%code requires {
#include "parser/ast.h"
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

typedef struct {                 /* an open bracket the scanner has seen */
    char ch;                     /* ( [ { */
    Span span;
} LexBracket;

typedef struct {                 /* a token as the scanner returned it */
    int kind;                    /* token code (0 before the first token) */
    Span span;
    int stmt;                    /* index of its logical line */
    bool first_on_line;          /* first token of a physical line */
} LexTok;

/* A logical line as parsed, before the lines under a 'for' are nested in
 * it: its statement (NULL for a line that makes none: an import, or a line
 * with a syntax error) and the offset of its first token, after its indent. */
typedef struct {
    Stmt *stmt;
    int first;
    bool failed;                 /* a syntax error: the lines under it go with it */
} ParsedLine;

/* Shared by the scanner (as yyextra) and the parser. */
typedef struct ParseCtx {
    Arena *arena;
    Diag *diag;
    AstProgram *prog;            /* statements, pushed as they parse */
    const char *np_alias;        /* import numpy as NAME (besides np, numpy) */
    /* scanner state */
    int offset;                  /* byte offset of the next character */
    LexBracket *brackets;        /* the open brackets, innermost last */
    int nbrackets, cap_brackets;
    bool line_has_tok;           /* a token since the last NEWLINE */
    bool newline_seen;           /* a newline skipped since the last token */
    bool eof;                    /* the NEWLINE at the end of the file was sent */
    int stmt;                    /* logical lines ended so far */
    int first_kind;              /* the first token of the current logical line */
    int err_stmt;                /* the logical line of the last syntax error */
    LexTok prev, cur;            /* the last two tokens */
    int *line_first;             /* the offset of each logical line's first token */
    int cap_line_first;
    ParsedLine *lines;           /* every logical line, in order (parser) */
    int nlines, cap_lines;
} ParseCtx;
}

%code {
#include <stdarg.h>
#include <string.h>
#include "lexer.h"

/* Spans: a rule covers its first to its last symbol; an empty one is a point. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                   \
    do {                                                              \
        if (N) {                                                      \
            (Cur).begin = YYRHSLOC(Rhs, 1).begin;                     \
            (Cur).end = YYRHSLOC(Rhs, N).end;                         \
        } else {                                                      \
            (Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end;           \
        }                                                             \
    } while (0)

static void yyerror(Span *at, yyscan_t scanner, ParseCtx *ctx, const char *msg);
static void perr(ParseCtx *ctx, Span at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static Expr *bin(ParseCtx *ctx, AstOp op, Expr *l, Expr *r, Span at);
static Expr *logical(ParseCtx *ctx, const char *word, AstOp op, Expr *l, Expr *r, Span at);
static Expr *compare(ParseCtx *ctx, AstOp op, Expr *l, Expr *r, Span at);
static Expr *unary(ParseCtx *ctx, AstOp op, Expr *x, Span at);
static Expr *attr(ParseCtx *ctx, Expr *obj, const char *name, Span name_at);
static Expr *postfix(ParseCtx *ctx, ExprKind kind, Expr *obj, Expr *node, Span span);
static Expr *paren(ParseCtx *ctx, ExprList items, bool tuple, Span span);
static Expr *bare_tuple(ParseCtx *ctx, ExprList items, Span span);
static void add_arg(ParseCtx *ctx, Expr *call, Expr *arg);
static void add_kwarg(ParseCtx *ctx, Expr *call, const char *name, Span at, Expr *value);
static Expr *slice(ParseCtx *ctx, Expr *lo, Expr *hi, Expr *step, Span span);
static Stmt *stmt_new(ParseCtx *ctx, StmtKind kind, Span span);
static Stmt *assign(ParseCtx *ctx, Expr *target, AstOp op, Expr *value, Span op_at, Span span);
static Stmt *assign_eq(ParseCtx *ctx, ExprList targets, ExprList values, Span op_at, Span span);
static Stmt *expr_stmt(ParseCtx *ctx, Expr *e, Span span);
static Stmt *input(ParseCtx *ctx, const char *name, Span name_at, Expr *dtype, ExprList dims, Span span);
static Expr *dtype_name(ParseCtx *ctx, const char *prefix, Span prefix_at, const char *name, Span span);
static Stmt *output(ParseCtx *ctx, ExprList names, Span span);
static Stmt *loop(ParseCtx *ctx, const char *name, Span name_at, Expr *range, Span span);
static void add_line(ParseCtx *ctx, Stmt *s, bool failed);
static void import(ParseCtx *ctx, const char *module, Span at, const char *alias);
static Expr *name_expr(ParseCtx *ctx, const char *name, Span at);
}

%union {
    Expr *expr;
    const char *name;
    AstOp op;
    ExprList list;
    Stmt *stmt;
}

%token <name> NAME "name"
%token <expr> NUMBER "number"
%token <expr> STRING "string"
%token NEWLINE "end of line"
%token INPUT "'input'" CONST "'const'" OUTPUT "'output'" IMPORT "'import'" AS "'as'"
%token TRUE "'True'" FALSE "'False'" NONE "'None'"
%token AND "'and'" OR "'or'" NOT "'not'" FOR "'for'" IN "'in'"
%token POW "'**'" FLOORDIV "'//'" LSHIFT "'<<'" RSHIFT "'>>'"
%token LE "'<='" GE "'>='" EQ "'=='" NE "'!='" ELLIPSIS "'...'"
%token <op> AUGASSIGN "augmented assignment"

/* Python's precedence, lowest first. */
%left OR
%left AND
%precedence NOT
%left '<' LE '>' GE EQ NE
%left '|'
%left '^'
%left '&'
%left LSHIFT RSHIFT
%left '+' '-'
%left '*' '/' FLOORDIV '%' '@'
%precedence UNARY
%right POW

%type <expr> expr primary atom call_args arglist subscripts subscript expr_opt dtype dim
%type <list> exprs dims names
%type <stmt> stmt

%%

program:
    %empty
  | program line
  ;

line:
    stmt NEWLINE       { add_line(ctx, $1, false); }
  | error NEWLINE      { yyerrok; add_line(ctx, NULL, true); }
  ;

stmt:
    INPUT NAME ':' dtype                 { $$ = input(ctx, $2, @2, $4, (ExprList){0}, @$); }
  | INPUT NAME ':' dtype '[' dims ']'    { $$ = input(ctx, $2, @2, $4, $6, @$); }
  | INPUT NAME ':' dtype '[' dims ',' ']' { $$ = input(ctx, $2, @2, $4, $6, @$); }
  | CONST NAME '=' expr                  { $$ = stmt_new(ctx, STMT_CONST, @$);
                                           $$->name = $2; $$->name_span = @2; $$->value = $4; }
  | OUTPUT names                         { $$ = output(ctx, $2, @$); }
  | exprs '=' exprs                      { $$ = assign_eq(ctx, $1, $3, @2, @$); }
  | expr AUGASSIGN expr                  { $$ = assign(ctx, $1, $2, $3, @2, @$); }
  | expr                                 { $$ = expr_stmt(ctx, $1, @$); }
  | FOR NAME IN expr ':'                 { $$ = loop(ctx, $2, @2, $4, @$); }
  | FOR NAME IN expr ':' stmt            { $$ = NULL;
                                           perr(ctx, @6, "write the loop's body on the lines after "
                                                "'for', indented"); }
  | IMPORT NAME                          { $$ = NULL; import(ctx, $2, @2, NULL); }
  | IMPORT NAME AS NAME                  { $$ = NULL; import(ctx, $2, @2, $4); }
  ;

dtype:
    NAME               { $$ = name_expr(ctx, $1, @1); }
  | NAME '.' NAME      { $$ = dtype_name(ctx, $1, @1, $3, @$); }
  ;

dims:
    dim                { $$ = (ExprList){0}; ast_push(ctx->arena, &$$, $1); }
  | dims ',' dim       { $$ = $1; ast_push(ctx->arena, &$$, $3); }
  ;

dim:
    NUMBER             { $$ = $1; }
  | NAME               { $$ = name_expr(ctx, $1, @1); }
  ;

names:
    NAME               { $$ = (ExprList){0}; ast_push(ctx->arena, &$$, name_expr(ctx, $1, @1)); }
  | names ',' NAME     { $$ = $1; ast_push(ctx->arena, &$$, name_expr(ctx, $3, @3)); }
  ;

exprs:
    expr               { $$ = (ExprList){0}; ast_push(ctx->arena, &$$, $1); }
  | exprs ',' expr     { $$ = $1; ast_push(ctx->arena, &$$, $3); }
  ;

expr:
    primary
  | expr '+' expr      { $$ = bin(ctx, AST_ADD, $1, $3, @2); }
  | expr '-' expr      { $$ = bin(ctx, AST_SUB, $1, $3, @2); }
  | expr '*' expr      { $$ = bin(ctx, AST_MUL, $1, $3, @2); }
  | expr '/' expr      { $$ = bin(ctx, AST_DIV, $1, $3, @2); }
  | expr FLOORDIV expr { $$ = bin(ctx, AST_FLOORDIV, $1, $3, @2); }
  | expr '%' expr      { $$ = bin(ctx, AST_MOD, $1, $3, @2); }
  | expr '@' expr      { $$ = bin(ctx, AST_MATMUL, $1, $3, @2); }
  | expr POW expr      { $$ = bin(ctx, AST_POW, $1, $3, @2); }
  | expr LSHIFT expr   { $$ = bin(ctx, AST_LSHIFT, $1, $3, @2); }
  | expr RSHIFT expr   { $$ = bin(ctx, AST_RSHIFT, $1, $3, @2); }
  | expr '&' expr      { $$ = bin(ctx, AST_BITAND, $1, $3, @2); }
  | expr '^' expr      { $$ = bin(ctx, AST_BITXOR, $1, $3, @2); }
  | expr '|' expr      { $$ = bin(ctx, AST_BITOR, $1, $3, @2); }
  | expr '<' expr      { $$ = compare(ctx, AST_LT, $1, $3, @2); }
  | expr LE expr       { $$ = compare(ctx, AST_LE, $1, $3, @2); }
  | expr '>' expr      { $$ = compare(ctx, AST_GT, $1, $3, @2); }
  | expr GE expr       { $$ = compare(ctx, AST_GE, $1, $3, @2); }
  | expr EQ expr       { $$ = compare(ctx, AST_EQ, $1, $3, @2); }
  | expr NE expr       { $$ = compare(ctx, AST_NE, $1, $3, @2); }
  | expr AND expr      { $$ = logical(ctx, "and", AST_BITAND, $1, $3, @2); }
  | expr OR expr       { $$ = logical(ctx, "or", AST_BITOR, $1, $3, @2); }
  | NOT expr           { $$ = logical(ctx, "not", AST_INVERT, $2, NULL, @1); }
  | '-' expr %prec UNARY { $$ = unary(ctx, AST_NEG, $2, @1); }
  | '+' expr %prec UNARY { $$ = unary(ctx, AST_POS, $2, @1); }
  | '~' expr %prec UNARY { $$ = unary(ctx, AST_INVERT, $2, @1); }
  ;

primary:
    atom
  | primary '.' NAME              { $$ = attr(ctx, $1, $3, @3); }
  | primary '(' call_args ')'     { $$ = postfix(ctx, EXPR_CALL, $1, $3, @$); }
  | primary '[' subscripts ']'    { $$ = postfix(ctx, EXPR_INDEX, $1, $3, @$); }
  | primary '[' subscripts ',' ']' { $$ = postfix(ctx, EXPR_INDEX, $1, $3, @$); }
  ;

atom:
    NAME               { $$ = name_expr(ctx, $1, @1); }
  | NUMBER             { $$ = $1; }
  | STRING             { $$ = $1; }
  | TRUE               { $$ = ast_expr(ctx->arena, EXPR_BOOL, @1); $$->ival = 1; }
  | FALSE              { $$ = ast_expr(ctx->arena, EXPR_BOOL, @1); }
  | NONE               { $$ = ast_expr(ctx->arena, EXPR_NONE, @1); }
  | '(' ')'            { $$ = paren(ctx, (ExprList){0}, true, @$); }
  | '(' exprs ')'      { $$ = paren(ctx, $2, $2.n > 1, @$); }
  | '(' exprs ',' ')'  { $$ = paren(ctx, $2, true, @$); }
  | '[' ']'            { $$ = ast_expr(ctx->arena, EXPR_LIST, @$); }
  | '[' exprs ']'      { $$ = ast_expr(ctx->arena, EXPR_LIST, @$); $$->args = $2; }
  | '[' exprs ',' ']'  { $$ = ast_expr(ctx->arena, EXPR_LIST, @$); $$->args = $2; }
  ;

/* A CALL node without its callee, filled in by primary. */
call_args:
    %empty             { $$ = ast_expr(ctx->arena, EXPR_CALL, @$); }
  | arglist
  | arglist ','
  ;

arglist:
    expr                    { $$ = ast_expr(ctx->arena, EXPR_CALL, @$); add_arg(ctx, $$, $1); }
  | NAME '=' expr           { $$ = ast_expr(ctx->arena, EXPR_CALL, @$); add_kwarg(ctx, $$, $1, @1, $3); }
  | arglist ',' expr        { $$ = $1; add_arg(ctx, $$, $3); }
  | arglist ',' NAME '=' expr { $$ = $1; add_kwarg(ctx, $$, $3, @3, $5); }
  ;

/* An INDEX node without its object, filled in by primary. */
subscripts:
    subscript               { $$ = ast_expr(ctx->arena, EXPR_INDEX, @$); ast_push(ctx->arena, &$$->args, $1); }
  | subscripts ',' subscript { $$ = $1; ast_push(ctx->arena, &$$->args, $3); }
  ;

subscript:
    expr
  | ELLIPSIS                           { $$ = ast_expr(ctx->arena, EXPR_ELLIPSIS, @1); }
  | expr_opt ':' expr_opt              { $$ = slice(ctx, $1, $3, NULL, @$); }
  | expr_opt ':' expr_opt ':' expr_opt { $$ = slice(ctx, $1, $3, $5, @$); }
  ;

expr_opt:
    %empty             { $$ = NULL; }
  | expr
  ;

%%

/* ---- building the tree ---------------------------------------------------- */

/* The source text of a span, for messages. */
static const char *src_at(ParseCtx *ctx, Span s) { return ctx->diag->src + s.begin; }
static int src_len(Span s) { return s.end - s.begin; }

/* Every diagnostic the parser gives goes through here. */
static void perr(ParseCtx *ctx, Span at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(ctx->diag, at, "%s", msg);
}

static Expr *name_expr(ParseCtx *ctx, const char *name, Span at)
{
    Expr *e = ast_expr(ctx->arena, EXPR_NAME, at);
    e->name = name;
    return e;
}

static Expr *bin(ParseCtx *ctx, AstOp op, Expr *l, Expr *r, Span at)
{
    Expr *e = ast_expr(ctx->arena, EXPR_BINARY, span_join(l->span, r->span));
    e->at = at;
    e->op = op;
    e->lhs = l;
    e->rhs = r;
    return e;
}

static Expr *unary(ParseCtx *ctx, AstOp op, Expr *x, Span at)
{
    Expr *e = ast_expr(ctx->arena, EXPR_UNARY, span_join(at, x->span));
    e->at = at;
    e->op = op;
    e->lhs = x;
    return e;
}

static bool is_comparison(const Expr *e)
{
    return e->kind == EXPR_BINARY && !e->parenthesized && e->op >= AST_LT && e->op <= AST_NE;
}

/* Short enough to quote from the source in a message. */
#define QUOTE_MAX 40
static bool quotable(Span s) { return src_len(s) <= QUOTE_MAX; }

/* a < b < c: NumPy would need "(a < b) & (b < c)"; the common slip is
 * "x > 0 & x < 1", where '&' binds first. */
static void chained(ParseCtx *ctx, Expr *l, AstOp op, Expr *r, Span at)
{
    Expr *a = l->lhs, *b = l->rhs;
    const char *o1 = ast_op_text[l->op], *o2 = ast_op_text[op];
    bool bitwise = b->kind == EXPR_BINARY && !b->parenthesized &&
                   (b->op == AST_BITAND || b->op == AST_BITOR || b->op == AST_BITXOR);
    if (bitwise && quotable(l->span) && quotable(r->span)) {
        Span b1 = b->lhs->span, b2 = b->rhs->span;
        perr(ctx, b->at, "comparisons cannot be chained, and '%s' binds tighter than '%s': "
             "write (%.*s %s %.*s) %s (%.*s %s %.*s)", ast_op_text[b->op], o1,
             src_len(a->span), src_at(ctx, a->span), o1, src_len(b1), src_at(ctx, b1),
             ast_op_text[b->op], src_len(b2), src_at(ctx, b2), o2,
             src_len(r->span), src_at(ctx, r->span));
    } else if (quotable(l->span) && quotable(r->span)) {
        perr(ctx, at, "comparisons cannot be chained; use (%.*s) & (%.*s %s %.*s)",
             src_len(l->span), src_at(ctx, l->span), src_len(b->span), src_at(ctx, b->span),
             o2, src_len(r->span), src_at(ctx, r->span));
    } else {
        perr(ctx, at, "comparisons cannot be chained; use (a < b) & (b < c)");
    }
}

static Expr *compare(ParseCtx *ctx, AstOp op, Expr *l, Expr *r, Span at)
{
    if (is_comparison(l) && !is_comparison(l->lhs))   /* a < b < c < d: once */
        chained(ctx, l, op, r, at);
    return bin(ctx, op, l, r, at);
}

/* and / or / not: report, then build the bitwise operation the user meant. */
static Expr *logical(ParseCtx *ctx, const char *word, AstOp op, Expr *l, Expr *r, Span at)
{
    const char *sym = ast_op_text[op];
    bool cmp = is_comparison(l) || (r && is_comparison(r));
    Span whole = r ? span_join(l->span, r->span) : l->span;
    if (!cmp)
        perr(ctx, at, "use '%s' instead of '%s' (NumPy arrays have no truth value)", sym, word);
    else if (!r && quotable(l->span))
        perr(ctx, at, "use '~' instead of 'not' (NumPy arrays have no truth value): ~(%.*s)",
             src_len(l->span), src_at(ctx, l->span));
    else if (r && quotable(whole))
        perr(ctx, at, "use '%s' instead of '%s' (NumPy arrays have no truth value), "
             "with each comparison in parentheses: (%.*s) %s (%.*s)", sym, word,
             src_len(l->span), src_at(ctx, l->span), sym, src_len(r->span), src_at(ctx, r->span));
    else
        perr(ctx, at, "use '%s' instead of '%s' (NumPy arrays have no truth value), "
             "with each comparison in parentheses", sym, word);
    return r ? bin(ctx, op, l, r, at) : unary(ctx, op, l, at);
}

static bool is_numpy(ParseCtx *ctx, const char *name)
{
    return !strcmp(name, "np") || !strcmp(name, "numpy") ||
           (ctx->np_alias && !strcmp(name, ctx->np_alias));
}

/* obj.name; np.name and numpy.name fold into one NAME. */
static Expr *attr(ParseCtx *ctx, Expr *obj, const char *name, Span name_at)
{
    Span whole = span_join(obj->span, name_at);
    if (obj->kind == EXPR_NAME && !obj->np_prefix && !obj->parenthesized &&
        is_numpy(ctx, obj->name)) {
        Expr *e = name_expr(ctx, name, whole);
        e->np_prefix = true;
        return e;
    }
    Expr *e = ast_expr(ctx->arena, EXPR_ATTR, whole);
    e->at = name_at;
    e->obj = obj;
    e->name = name;
    return e;
}

/* Attach the callee of a CALL or the object of an INDEX. */
static Expr *postfix(ParseCtx *ctx, ExprKind kind, Expr *obj, Expr *node, Span span)
{
    node->obj = obj;
    node->span = span;
    node->at = kind == EXPR_CALL ? obj->at : span;
    return node;
}

static Expr *paren(ParseCtx *ctx, ExprList items, bool tuple, Span span)
{
    if (!tuple) {
        Expr *e = items.v[0];
        e->parenthesized = true;
        e->span = span;
        return e;
    }
    Expr *e = ast_expr(ctx->arena, EXPR_TUPLE, span);
    e->args = items;
    return e;
}

/* y = a, b: a tuple, as in Python. */
static Expr *bare_tuple(ParseCtx *ctx, ExprList items, Span span)
{
    if (items.n == 1)
        return items.v[0];
    Expr *e = ast_expr(ctx->arena, EXPR_TUPLE, span);
    e->args = items;
    return e;
}

static void add_arg(ParseCtx *ctx, Expr *call, Expr *arg)
{
    if (call->kwargs.n > 0)
        perr(ctx, arg->span, "positional argument follows keyword argument");
    ast_push(ctx->arena, &call->args, arg);
}

static void add_kwarg(ParseCtx *ctx, Expr *call, const char *name, Span at, Expr *value)
{
    for (int i = 0; i < call->kwargs.n; i++)
        if (call->kwargs.v[i].name == name)
            perr(ctx, at, "keyword argument '%s' is repeated", name);
    ast_push_kwarg(ctx->arena, &call->kwargs, (Kwarg){name, at, value});
}

static Expr *slice(ParseCtx *ctx, Expr *lo, Expr *hi, Expr *step, Span span)
{
    Expr *e = ast_expr(ctx->arena, EXPR_SLICE, span);
    e->lhs = lo;
    e->rhs = hi;
    e->step = step;
    return e;
}

/* ---- statements ----------------------------------------------------------- */

static Stmt *stmt_new(ParseCtx *ctx, StmtKind kind, Span span)
{
    Stmt *s = arena_alloc(ctx->arena, sizeof *s);
    s->kind = kind;
    s->span = span;
    s->op = AST_NOP;
    return s;
}

/* Why a target is not a plain name, or NULL when it is one. */
static const char *bad_target(const Expr *t)
{
    switch (t->kind) {
    case EXPR_NAME:
        return t->np_prefix ? "cannot assign to a NumPy name" : NULL;
    case EXPR_INDEX:                             /* x[m] = 0: the new value of x (lower_setitem.c) */
        return t->obj->kind == EXPR_NAME && !t->obj->np_prefix
                   ? NULL
                   : "assignment to an element of an expression is not supported; index a name: x[i, j] = v";
    case EXPR_ATTR:
        return "assignment to an attribute is not supported; arrays are values in .npx";
    case EXPR_CALL:
        return "cannot assign to a function call; the left of '=' must be a name "
               "(use '==' to compare)";
    default:
        return "cannot assign to an expression; the left of '=' must be a name "
               "(use '==' to compare)";
    }
}

static Stmt *assign(ParseCtx *ctx, Expr *target, AstOp op, Expr *value, Span op_at, Span span)
{
    const char *why = bad_target(target);
    if (why) {
        perr(ctx, target->span, "%s", why);
        return NULL;
    }
    Stmt *s = stmt_new(ctx, STMT_ASSIGN, span);
    s->target = target->kind == EXPR_INDEX ? target : NULL;
    if (s->target)
        target = target->obj;
    s->name = target->name;
    s->name_span = target->span;
    s->names = &s->name;
    s->name_spans = &s->name_span;
    s->nnames = 1;
    s->op = op;
    s->op_span = op_at;
    s->value = value;
    return s;
}

/* a, b = value: Python's unpacking into names (ir/lower_unpack.c). */
static Stmt *assign_several(ParseCtx *ctx, ExprList targets, Expr *value, Span op_at, Span span)
{
    Stmt *s = stmt_new(ctx, STMT_ASSIGN, span);
    s->names = arena_alloc(ctx->arena, sizeof(char *) * (size_t)targets.n);
    s->name_spans = arena_alloc(ctx->arena, sizeof(Span) * (size_t)targets.n);
    bool ok = true;
    for (int i = 0; i < targets.n; i++) {
        const Expr *t = targets.v[i];
        const char *why = t->kind == EXPR_TUPLE || t->kind == EXPR_LIST
                              ? "nested unpacking is not supported yet; unpack into names"
                          : t->kind == EXPR_INDEX ? "unpacking into an element is not supported yet; unpack into a "
                                                    "name, then assign it: x[i] = name"
                                                  : bad_target(t);
        if (why) {
            perr(ctx, t->span, "%s", why);
            ok = false;
            continue;
        }
        s->names[i] = t->name;
        s->name_spans[i] = t->span;
    }
    s->nnames = targets.n;
    s->unpacks = true;
    s->name = s->names[0];
    s->name_span = s->name_spans[0];
    s->op_span = op_at;
    s->value = value;
    return ok ? s : NULL;
}

/* targets = values; several values make a tuple, as in Python, and so do
 * several targets, which the value is unpacked into: a, b = b, a. */
static Stmt *assign_eq(ParseCtx *ctx, ExprList targets, ExprList values, Span op_at, Span span)
{
    Span rhs = span_join(values.v[0]->span, values.v[values.n - 1]->span);
    Expr *value = bare_tuple(ctx, values, rhs);
    const Expr *t = targets.v[0];
    if (targets.n == 1 && (t->kind == EXPR_TUPLE || t->kind == EXPR_LIST) && t->args.n > 0)
        return assign_several(ctx, t->args, value, op_at, span);     /* (a, b) = ..., [a, b] = ... */
    if (targets.n > 1)
        return assign_several(ctx, targets, value, op_at, span);
    return assign(ctx, targets.v[0], AST_NOP, value, op_at, span);
}

/* An expression as a statement: only np.add.at(x, indices, v) (a ufunc's
 * at, which changes x in place) is one; it is x[indices] += v with each
 * repeated position applied again (Stmt.ufunc_at): add, subtract and
 * multiply, whose operators the statement keeps, and maximum, minimum,
 * fmax and fmin. */
static Stmt *expr_stmt(ParseCtx *ctx, Expr *e, Span span)
{
    const Expr *f = e->kind == EXPR_CALL ? e->obj : NULL;
    if (!f || f->kind != EXPR_ATTR || strcmp(f->name, "at") != 0 || f->obj->kind != EXPR_NAME || !f->obj->np_prefix) {
        perr(ctx, e->span, "this expression's value is not used; assign it to a name (y = ...)");
        return NULL;
    }
    static const char *const extrema[] = { "maximum", "minimum", "fmax", "fmin", NULL };
    const char *ufunc = f->obj->name;
    AstOp op = AST_NOP;
    bool known = false;
    for (AstOp o = AST_ADD; o <= AST_MUL; o++)
        if (strcmp(ast_op_ufunc[o], ufunc) == 0)
            op = o;
    for (int i = 0; extrema[i]; i++)
        known |= strcmp(extrema[i], ufunc) == 0;
    if (op == AST_NOP && !known) {
        perr(ctx, f->span, "np.%s.at is not supported yet (add, subtract, multiply, maximum, minimum, fmax "
             "and fmin's are)", ufunc);
        return NULL;
    }
    if (e->args.n != 3 || e->kwargs.n) {
        perr(ctx, e->span, "np.%s.at takes three arguments: the array, the indices and the values "
             "(np.%s.at(x, idx, v))", ufunc, ufunc);
        return NULL;
    }
    Expr *x = e->args.v[0], *indices = e->args.v[1];
    if (x->kind != EXPR_NAME || x->np_prefix) {
        perr(ctx, x->span, "np.%s.at changes its first argument in place: it must be a name", ufunc);
        return NULL;
    }
    Expr *target = ast_expr(ctx->arena, EXPR_INDEX, span_join(x->span, indices->span));
    target->obj = x;
    if (indices->kind == EXPR_TUPLE)             /* np.add.at(x, (i, j), v) is x[i, j] */
        target->args = indices->args;
    else
        ast_push(ctx->arena, &target->args, indices);
    Stmt *s = assign(ctx, target, op, e->args.v[2], f->span, span);
    s->ufunc_at = ufunc;
    return s;
}

static bool check_size(ParseCtx *ctx, Expr *dim)
{
    if (dim->kind == EXPR_NAME || dim->kind == EXPR_INT)
        return true;
    perr(ctx, dim->span, "a size must be an integer or a name");
    return false;
}

static Stmt *input(ParseCtx *ctx, const char *name, Span name_at, Expr *dtype, ExprList dims, Span span)
{
    bool ok = dtype != NULL;
    for (int i = 0; i < dims.n; i++)
        ok &= check_size(ctx, dims.v[i]);
    if (!ok)
        return NULL;
    Stmt *s = stmt_new(ctx, STMT_INPUT, span);
    s->name = name;
    s->name_span = name_at;
    s->dtype = dtype->name;
    s->dtype_span = dtype->span;
    s->dims = dims;
    return s;
}

/* np.float32 as a dtype: the name after the prefix. */
static Expr *dtype_name(ParseCtx *ctx, const char *prefix, Span prefix_at, const char *name, Span span)
{
    if (!is_numpy(ctx, prefix)) {
        perr(ctx, prefix_at, "a dtype is written f32 or np.float32, not %s.%s", prefix, name);
        return NULL;
    }
    Expr *e = name_expr(ctx, name, span);
    e->np_prefix = true;
    return e;
}

static Stmt *output(ParseCtx *ctx, ExprList names, Span span)
{
    Stmt *s = stmt_new(ctx, STMT_OUTPUT, span);
    s->nnames = names.n;
    s->names = arena_alloc(ctx->arena, names.n * sizeof *s->names);
    s->name_spans = arena_alloc(ctx->arena, names.n * sizeof *s->name_spans);
    for (int i = 0; i < names.n; i++) {
        s->names[i] = names.v[i]->name;
        s->name_spans[i] = names.v[i]->span;
    }
    return s;
}

static Stmt *loop(ParseCtx *ctx, const char *name, Span name_at, Expr *range, Span span)
{
    Stmt *s = stmt_new(ctx, STMT_FOR, span);
    s->name = name;
    s->name_span = name_at;
    s->value = range;
    return s;
}

static void import(ParseCtx *ctx, const char *module, Span at, const char *alias)
{
    if (strcmp(module, "numpy") != 0)
        perr(ctx, at, "only numpy can be imported in .npx ('import numpy as np')");
    else if (alias)
        ctx->np_alias = alias;
}

/* ---- syntax errors -------------------------------------------------------- */

static const char *closer(char open) { return open == '(' ? ")" : open == '[' ? "]" : "}"; }

/* "3:5" for an offset. */
static void line_col(ParseCtx *ctx, int offset, char *buf, size_t size)
{
    int len;
    const char *line = diag_line_text(ctx->diag, offset, &len);
    snprintf(buf, size, "%d:%d", diag_line(ctx->diag, offset),
             (int)(ctx->diag->src + offset - line) + 1);
}

/* The innermost open bracket was never closed. */
static void unclosed(ParseCtx *ctx, Span at)
{
    LexBracket *b = &ctx->brackets[ctx->nbrackets - 1];
    char pos[32];
    line_col(ctx, b->span.begin, pos, sizeof pos);
    perr(ctx, at, "expected '%s' to close '%c' opened at %s", closer(b->ch), b->ch, pos);
    diag_note(ctx->diag, b->span, "'%c' opened here", b->ch);
}

typedef struct {
    const yysymbol_kind_t *v;
    int n;
} Expected;

static bool has(Expected e, int token)
{
    for (int i = 0; i < e.n; i++)
        if (e.v[i] == YYTRANSLATE(token))
            return true;
    return false;
}

/* What the parser wanted, in words: "an expression", "')' or ','". Returns the
 * number of phrases; *group is set when the only phrase is a kind of operand. */
static int describe(ParseCtx *ctx, Expected e, const char **ph, bool *group)
{
    static const int lone[] = { ')', ']', ',', ':', '=', '[', AS, NEWLINE };
    int n = 0;
    *group = false;
    if (has(e, INPUT))
        ph[n++] = "a statement (input, const, output or name = ...)";
    else if (has(e, NUMBER))
        ph[n++] = has(e, '(') ? "an expression" : "a size (a number or a name)";
    else if (has(e, NAME))
        ph[n++] = ctx->first_kind == INPUT && ctx->prev.kind == ':' ? "a dtype (such as f32)"
                                                                    : "a name";
    *group = n == 1;
    if (has(e, '*'))
        ph[n++] = "an operator";
    for (size_t i = 0; i < sizeof lone / sizeof *lone; i++)
        if (has(e, lone[i]) && !(lone[i] == '[' && (has(e, '*') || has(e, NUMBER))))
            ph[n++] = yysymbol_name(YYTRANSLATE(lone[i]));
    *group &= n == 1;
    return n;
}

/* "a, b or c" */
static void join(const char **ph, int n, char *buf, size_t size)
{
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", ph[i]);
    }
}

/* How to name the token the parser stopped at. */
static void token_words(ParseCtx *ctx, yysymbol_kind_t tok, char *buf, size_t size)
{
    Span s = ctx->cur.span;
    if (tok == YYTRANSLATE(NAME) || tok == YYTRANSLATE(NUMBER))
        snprintf(buf, size, "%s '%.*s'", yysymbol_name(tok), src_len(s), src_at(ctx, s));
    else if (tok == YYTRANSLATE(NEWLINE) || tok == YYSYMBOL_YYEOF)
        snprintf(buf, size, "%s", yysymbol_name(tok));
    else
        snprintf(buf, size, "'%.*s'", src_len(s), src_at(ctx, s));
}

static void syntax_error(ParseCtx *ctx, yysymbol_kind_t tok, Span at, Expected e)
{
    const char *ph[16];
    char want[512], got[128];
    bool group;
    int n = describe(ctx, e, ph, &group);
    bool prev_here = ctx->prev.kind != 0 && ctx->prev.kind != NEWLINE;
    join(ph, n, want, sizeof want);
    token_words(ctx, tok, got, sizeof got);
    if (tok == YYTRANSLATE('{'))
        perr(ctx, at, "'{': sets and dicts are not supported in .npx");
    else if (group && prev_here)
        perr(ctx, at, "expected %s after '%.*s'", want, src_len(ctx->prev.span),
             src_at(ctx, ctx->prev.span));
    else if (n == 0 || n > 4)
        perr(ctx, at, "unexpected %s", got);
    else
        perr(ctx, at, "unexpected %s; expected %s", got, want);
}

/* Called by bison for every syntax error (not for the scanner's, which it
 * reports itself and signals with YYerror). */
static int yyreport_syntax_error(const yypcontext_t *yc, yyscan_t scanner, ParseCtx *ctx)
{
    yysymbol_kind_t tokens[YYNTOKENS];
    Expected e = { tokens, yypcontext_expected_tokens(yc, tokens, YYNTOKENS) };
    Span at = *yypcontext_location(yc);
    bool open = ctx->nbrackets > 0;
    ctx->err_stmt = ctx->cur.stmt;
    if (open && ctx->eof) {
        unclosed(ctx, at);
    } else if (open && ctx->cur.first_on_line &&
               has(e, closer(ctx->brackets[ctx->nbrackets - 1].ch)[0])) {
        /* The statement ran on into the next line: resume there. */
        unclosed(ctx, at);
        ctx->nbrackets = 0;
    } else {
        syntax_error(ctx, yypcontext_token(yc), at, e);
    }
    return 0;
}

static void yyerror(Span *at, yyscan_t scanner, ParseCtx *ctx, const char *msg)
{
    perr(ctx, *at, "%s", strcmp(msg, "memory exhausted") ? msg : "expression is nested too deeply");
}

/* ---- indentation: the lines under a 'for' are its body -------------------- */

/* A logical line has ended (its NEWLINE was read): recorded with the offset
 * of its first token, for nest_lines. */
static void add_line(ParseCtx *ctx, Stmt *s, bool failed)
{
    int k = ctx->cur.kind == NEWLINE ? ctx->cur.stmt : ctx->cur.stmt - 1;   /* or it read the next line's first token */
    ctx->lines = arena_grow(ctx->arena, ctx->lines, &ctx->cap_lines, ctx->nlines + 1, sizeof(ParsedLine));
    ctx->lines[ctx->nlines++] = (ParsedLine){ s, ctx->line_first[k], failed };
}

/* The whitespace before a line's first token. */
static Span indent_of(ParseCtx *ctx, const ParsedLine *l)
{
    int len;
    const char *text = diag_line_text(ctx->diag, l->first, &len);
    return (Span){ (int)(text - ctx->diag->src), l->first };
}

typedef enum { SAME, DEEPER, SHALLOWER, MISMATCH } Indent;

/* How line l's indent compares with a block's (Python's rule: the same
 * characters, or one a prefix of the other). */
static Indent compare_indent(ParseCtx *ctx, const ParsedLine *l, Span block)
{
    Span in = indent_of(ctx, l);
    int n = in.end - in.begin, m = block.end - block.begin, common = n < m ? n : m;
    if (memcmp(ctx->diag->src + in.begin, ctx->diag->src + block.begin, (size_t)common) != 0)
        return MISMATCH;
    return n == m ? SAME : n > m ? DEEPER : SHALLOWER;
}

static Span first_token(const ParsedLine *l) { return (Span){ l->first, l->first }; }

/* Lines from *i on that are indented as `block` go into out, each 'for'
 * taking the more indented lines after it as its body; returns at the
 * first line indented less. */
static void nest_lines(ParseCtx *ctx, int *i, Span block, AstProgram *out)
{
    while (*i < ctx->nlines) {
        ParsedLine *l = &ctx->lines[*i];
        Indent in = compare_indent(ctx, l, block);
        if (in == SHALLOWER)
            return;
        if (in != SAME)                          /* back from a body, but not to this block's level */
            perr(ctx, first_token(l), in == MISMATCH ? "inconsistent use of tabs and spaces in indentation"
                                                     : "unindent does not match any outer indentation level");
        if (l->stmt)
            ast_push_stmt(ctx->arena, out, l->stmt);
        (*i)++;
        bool under = *i < ctx->nlines && compare_indent(ctx, &ctx->lines[*i], indent_of(ctx, l)) == DEEPER;
        Span inner = under ? indent_of(ctx, &ctx->lines[*i]) : block;
        if (l->stmt && l->stmt->kind == STMT_FOR) {
            if (under)
                nest_lines(ctx, i, inner, &l->stmt->body);
            else
                perr(ctx, *i < ctx->nlines ? first_token(&ctx->lines[*i]) : (Span){ l->stmt->span.end, l->stmt->span.end },
                     "expected an indented block after 'for' on line %d", diag_line(ctx->diag, l->first));
        } else if (under && l->failed) {
            AstProgram skipped = { 0 };          /* the body of a line that did not parse */
            nest_lines(ctx, i, inner, &skipped);
        } else if (under) {
            perr(ctx, first_token(&ctx->lines[*i]), "unexpected indent");
            nest_lines(ctx, i, inner, out);
        }
    }
}

/* ---- entry point ---------------------------------------------------------- */

AstProgram *parse_program(Arena *a, Diag *d)
{
    ParseCtx ctx = { .arena = a, .diag = d, .err_stmt = -1 };
    yyscan_t scanner;
    ctx.prog = arena_alloc(a, sizeof *ctx.prog);
    if (yylex_init_extra(&ctx, &scanner) != 0) {
        diag_error(d, (Span){0, 0}, "out of memory");
        return ctx.prog;
    }
    YY_BUFFER_STATE buf = yy_scan_bytes(d->src, d->len, scanner);
    yyparse(scanner, &ctx);
    int line = 0;
    if (ctx.nlines > 0) {
        Span top = indent_of(&ctx, &ctx.lines[0]);
        if (top.end > top.begin)
            perr(&ctx, first_token(&ctx.lines[0]), "unexpected indent");
        nest_lines(&ctx, &line, top, ctx.prog);
    }
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);
    return ctx.prog;
}
