/* alloc.c: memory for the computation (npx_alloc never returns NULL: it exits
 * 3 instead), size arithmetic checked for overflow, and the error messages of
 * a generated program, "PROG: error: ...". */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "npx_rt.h"
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* The one global (see npx_rt.h): the program name, set by npx_main. */
#ifndef NPX_LIB                    /* else the header defines it, for this file only */
const char *npx_prog_name = "npx";
#endif

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
#if defined(NPX_LIB) && defined(_OPENMP)
    bool in_loop = st->on_error && omp_get_level() > 0;
    if (in_loop && __atomic_exchange_n(&((npx_state *)st)->failed, 1, __ATOMIC_ACQ_REL))
        return;                    /* another thread of the loop has reported */
#endif
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: %s:%d: ", npx_prog_name, st->prog->source, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stdout);
#ifdef NPX_LIB
#ifdef _OPENMP
    if (in_loop)
        return;
#endif
    if (st->on_error)
        longjmp(*st->on_error, 1);
#endif
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
    npx_lib_hold(p);
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

/* Aligned to a cache line, so that a strip of a loop's stores (store.c)
 * starts on one. */
void *npx_alloc(size_t nbytes)
{
    if (nbytes > SIZE_MAX - 63)
        npx_alloc_fail(nbytes);
    size_t lines = nbytes ? (nbytes + 63) & ~(size_t)63 : 64; /* C11: a multiple of the alignment */
    return npx_alloc_check(aligned_alloc(64, lines), nbytes);
}

void *npx_alloc_zero(size_t nbytes)
{
    return npx_alloc_check(calloc(nbytes ? nbytes : 1, 1), nbytes);
}

void npx_free(void *p)
{
    npx_lib_release(p);
    free(p);
}

/* glibc gives every block over 32 MB back to the kernel at free, and the
 * next allocation of it gets fresh pages that the kernel zeroes on first
 * touch: for a 40 MB output, about as long as the loop that fills it. Kept
 * in the process instead, a freed array is reused as it is by the next run
 * (--bench) or the next statement, as the CUDA target's memory pool does. */
void npx_alloc_keep(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
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
