/* alloc.c: memory for the computation (npx_alloc never returns NULL: it exits
 * 3 instead), size arithmetic checked for overflow, and the error messages of
 * a generated program, "PROG: error: ...". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "npx_rt.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* The one global (see npx_rt.h): the program name, set by npx_main. */
const char *npx_prog_name = "npx";

void npx_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", npx_prog_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void npx_runtime_error(const npx_state *st, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: %s:%d: ", npx_prog_name, st->prog->source, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stdout);
    exit(NPX_EXIT_RUNTIME);
}

__attribute__((noreturn)) static void npx_alloc_fail(size_t nbytes)
{
    npx_error("out of memory (allocating %zu bytes)", nbytes);
    exit(NPX_EXIT_RUNTIME);
}

/* Big arrays ask for transparent huge pages, as NumPy's do: a first touch of
 * 40 MB then takes 20 page faults instead of 10,000. */
static void *npx_alloc_check(void *p, size_t nbytes)
{
    if (!p)
        npx_alloc_fail(nbytes);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (nbytes >= ((size_t)4 << 20)) {
        uintptr_t page = 4096, begin = ((uintptr_t)p + page - 1) & ~(page - 1);
        uintptr_t end = ((uintptr_t)p + nbytes) & ~(page - 1);
        if (end > begin)
            madvise((void *)begin, end - begin, MADV_HUGEPAGE);
    }
#endif
    return p;
}

void *npx_alloc(size_t nbytes)
{
    return npx_alloc_check(malloc(nbytes ? nbytes : 1), nbytes);
}

void *npx_alloc_zero(size_t nbytes)
{
    return npx_alloc_check(calloc(nbytes ? nbytes : 1, 1), nbytes);
}

void npx_free(void *p)
{
    free(p);
}

size_t npx_bytes(int64_t count, size_t size, const char *what)
{
    if (count < 0 || (size && (uint64_t)count > SIZE_MAX / size)) {
        npx_error("the size of %s overflows (%lld elements of %zu bytes)", what,
                  (long long)count, size);
        exit(NPX_EXIT_RUNTIME);
    }
    return (size_t)count * size;
}
