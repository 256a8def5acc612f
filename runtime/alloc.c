/* alloc.c: memory for the computation (npx_alloc never returns NULL: it exits
 * 3 instead), size arithmetic checked for overflow, and the error messages of
 * a generated program, "PROG: error: ...". */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#ifndef NPX_EMBEDDED               /* else the header defines it, for this file only */
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

static void npx_report(const npx_state *st, int line, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: error: %s:%d: ", npx_prog_name, st->prog->source, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    fflush(stdout);
}

#ifdef NPX_LIB
void npx_runtime_error(const npx_state *st, int line, const char *fmt, ...)
{
#ifdef _OPENMP
    bool in_loop = st->on_error && omp_get_level() > 0;
    if (in_loop && __atomic_exchange_n(&((npx_state *)st)->failed, 1, __ATOMIC_ACQ_REL))
        return;                    /* another thread of the loop has reported */
#endif
    va_list ap;
    va_start(ap, fmt);
    npx_report(st, line, fmt, ap);
    va_end(ap);
#ifdef _OPENMP
    if (in_loop)
        return;
#endif
    if (st->on_error)
        longjmp(*st->on_error, 1);
    exit(NPX_EXIT_RUNTIME);
}
#else
/* Threads of a parallel loop that fail at once print one message: the
 * first to report exits while it holds the section, and that ends the
 * others (two messages used to come out interleaved on one line). */
#ifdef _OPENMP
#define NPX_ONE_REPORT _Pragma("omp critical(npx_runtime_error)")
#else
#define NPX_ONE_REPORT
#endif
void npx_runtime_error(const npx_state *st, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    NPX_ONE_REPORT
    {
        npx_report(st, line, fmt, ap);
        va_end(ap);
        exit(NPX_EXIT_RUNTIME);
    }
}
#endif

__attribute__((noreturn)) static void npx_alloc_fail(size_t nbytes)
{
    npx_error("out of memory (allocating %zu bytes)", nbytes);
    exit(NPX_EXIT_RUNTIME);
}

/* A big array: one of at least 4 MB, more than the cache holds. */
#define NPX_BIG_BYTES ((size_t)4 << 20)

/* Big arrays ask for transparent huge pages, as NumPy's do: a first touch of
 * 40 MB then takes 20 page faults instead of 10,000. */
static void *npx_alloc_check(void *p, size_t nbytes)
{
    if (!p)
        npx_alloc_fail(nbytes);
    npx_lib_hold(p);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (nbytes >= NPX_BIG_BYTES) {
        uintptr_t page = 4096, begin = ((uintptr_t)p + page - 1) & ~(page - 1);
        uintptr_t end = ((uintptr_t)p + nbytes) & ~(page - 1);
        if (end > begin)
            madvise((void *)begin, end - begin, MADV_HUGEPAGE);
    }
#endif
    return p;
}

/* Freed big arrays kept for the next allocation of about their size, after
 * npx_alloc_keep (a program, not a library). Given back, a big block comes
 * back as fresh pages that the kernel zeroes on first touch, and glibc does
 * not even reuse a freed aligned block for the next aligned request of the
 * same size (the few bytes it splits off the block's end stay in its cache
 * of small blocks, between the block and the free space): each run of
 * --bench, and each statement's temporary, took new pages, a quarter of
 * transcend's time. A kept block is reused when it is at most an eighth
 * larger than asked for. */
#if defined(__GLIBC__)
#define NPX_KEPT_BLOCKS 8
static struct {
    bool on;
    struct {
        void *p;
        size_t bytes;
    } block[NPX_KEPT_BLOCKS];
} npx_kept;
#ifdef _OPENMP
#define NPX_KEPT_ONE_THREAD _Pragma("omp critical(npx_kept)")
#else
#define NPX_KEPT_ONE_THREAD
#endif

static void *npx_kept_take(size_t nbytes)
{
    void *p = NULL;
    if (!npx_kept.on || nbytes < NPX_BIG_BYTES)
        return NULL;
    NPX_KEPT_ONE_THREAD
    {
        int best = -1;
        for (int k = 0; k < NPX_KEPT_BLOCKS; k++) {
            size_t bytes = npx_kept.block[k].bytes;
            if (npx_kept.block[k].p && bytes >= nbytes && bytes - nbytes <= nbytes / 8 &&
                (best < 0 || bytes < npx_kept.block[best].bytes))
                best = k;
        }
        if (best >= 0) {
            p = npx_kept.block[best].p;
            npx_kept.block[best].p = NULL;
        }
    }
    return p;
}

/* Keeps p if it is big and there is room; false if it was not kept. */
static bool npx_kept_put(void *p)
{
    bool kept = false;
    if (!npx_kept.on || !p || malloc_usable_size(p) < NPX_BIG_BYTES)
        return false;
    NPX_KEPT_ONE_THREAD
    {
        for (int k = 0; k < NPX_KEPT_BLOCKS && !kept; k++)
            if (!npx_kept.block[k].p) {
                npx_kept.block[k].p = p;
                npx_kept.block[k].bytes = malloc_usable_size(p);
                kept = true;
            }
    }
    return kept;
}

/* Big blocks also come from the heap, not from mappings of their own as
 * glibc would give them: an input of 64 MB read from a mapping made
 * sum_axis0 20% slower (0.79 ms against 0.66); and the heap is not trimmed,
 * which would give its top back to the kernel to be zeroed again. */
void npx_alloc_keep(void)
{
    npx_kept.on = true;
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
}
#else
static void *npx_kept_take(size_t nbytes)
{
    (void)nbytes;
    return NULL;
}

static bool npx_kept_put(void *p)
{
    (void)p;
    return false;
}

void npx_alloc_keep(void)
{
}
#endif

/* Aligned to a cache line, so that a strip of a loop's stores (store.c)
 * starts on one. */
void *npx_alloc(size_t nbytes)
{
    void *kept = npx_kept_take(nbytes);
    if (kept)
        return kept;
    if (nbytes > SIZE_MAX - 63)
        npx_alloc_fail(nbytes);
    size_t lines = nbytes ? (nbytes + 63) & ~(size_t)63 : 64; /* C11: a multiple of the alignment */
    return npx_alloc_check(aligned_alloc(64, lines), nbytes);
}

void *npx_alloc_zero(size_t nbytes)
{
    void *kept = npx_kept_take(nbytes);
    if (kept)
        return memset(kept, 0, nbytes);
    return npx_alloc_check(calloc(nbytes ? nbytes : 1, 1), nbytes);
}

void npx_free(void *p)
{
    if (npx_kept_put(p))
        return;
    npx_lib_release(p);
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
