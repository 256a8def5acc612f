/* arena.h: one arena per compilation; everything the compiler allocates lives
 * here and is freed at once. Also interns names so they compare by pointer. */
#ifndef NPX_ARENA_H
#define NPX_ARENA_H
#include <stddef.h>

typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size);          /* zeroed, aligned for any type */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Grow a vector stored in the arena: returns a buffer of at least need items. */
void *arena_grow(Arena *a, void *old, int *cap, int need, size_t item);
/* The unique copy of a name: equal names give equal pointers. */
const char *arena_intern(Arena *a, const char *s, size_t n);

#endif
