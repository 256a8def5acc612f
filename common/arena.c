/* arena.c: bump allocation in big chunks, freed all at once, and name interning. */
#include "arena.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 64 * 1024, ALIGN = 16, INTERN_BUCKETS = 1024 };

typedef struct Chunk {
    struct Chunk *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
} Chunk;

typedef struct Interned {
    struct Interned *next;
    const char *s;
} Interned;

struct Arena {
    Chunk *chunks;
    Interned *names[INTERN_BUCKETS];
};

static void *xcalloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p) {
        fputs("npxc: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

Arena *arena_new(void) { return xcalloc(sizeof(Arena)); }

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

void *arena_alloc(Arena *a, size_t size)
{
    size = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    Chunk *c = a->chunks;
    if (!c || c->size - c->used < size) {
        size_t want = size > CHUNK ? size : CHUNK;
        c = xcalloc(sizeof(Chunk) + want);
        c->size = want;
        c->next = a->chunks;
        a->chunks = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void *arena_grow(Arena *a, void *old, int *cap, int need, size_t item)
{
    if (need <= *cap)
        return old;
    int ncap = *cap ? *cap * 2 : 8;
    while (ncap < need)
        ncap *= 2;
    void *p = arena_alloc(a, (size_t)ncap * item);
    if (old)
        memcpy(p, old, (size_t)*cap * item);
    *cap = ncap;
    return p;
}

const char *arena_intern(Arena *a, const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    Interned **bucket = &a->names[h % INTERN_BUCKETS];
    for (Interned *e = *bucket; e; e = e->next)
        if (strncmp(e->s, s, n) == 0 && e->s[n] == 0)
            return e->s;
    Interned *e = arena_alloc(a, sizeof *e);
    e->s = arena_strndup(a, s, n);
    e->next = *bucket;
    *bucket = e;
    return e->s;
}
