#include <config.h>
#include "model/vmath.h"

#include <math.h>
#include <string.h>

#if defined HAVE_LIBMVEC && defined __x86_64__
#include <immintrin.h>

/* libmvec's entry points, named by the x86_64 vector function ABI: "b"
   SSE (4 floats), "d" AVX2 (8 floats). glibc declares them only under
   -ffast-math, for the vectoriser; they are called directly here. */
__m128 _ZGVbN4v_expf(__m128);
__m128 _ZGVbN4v_logf(__m128);
__attribute__((target("avx2"))) __m256 _ZGVdN8v_expf(__m256);
__attribute__((target("avx2"))) __m256 _ZGVdN8v_logf(__m256);

enum { FN_EXP, FN_LOG };

__attribute__((target("avx2"))) static void apply8(float *x, size_t n, int fn)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        _mm256_storeu_ps(x + i, fn == FN_EXP ? _ZGVdN8v_expf(v) : _ZGVdN8v_logf(v));
    }
    if (i < n) {
        float pad[8] = {1, 1, 1, 1, 1, 1, 1, 1};
        memcpy(pad, x + i, (n - i) * sizeof *x);
        __m256 v = _mm256_loadu_ps(pad);
        _mm256_storeu_ps(pad, fn == FN_EXP ? _ZGVdN8v_expf(v) : _ZGVdN8v_logf(v));
        memcpy(x + i, pad, (n - i) * sizeof *x);
    }
}

static void apply4(float *x, size_t n, int fn)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 v = _mm_loadu_ps(x + i);
        _mm_storeu_ps(x + i, fn == FN_EXP ? _ZGVbN4v_expf(v) : _ZGVbN4v_logf(v));
    }
    if (i < n) {
        float pad[4] = {1, 1, 1, 1};
        memcpy(pad, x + i, (n - i) * sizeof *x);
        __m128 v = _mm_loadu_ps(pad);
        _mm_storeu_ps(pad, fn == FN_EXP ? _ZGVbN4v_expf(v) : _ZGVbN4v_logf(v));
        memcpy(x + i, pad, (n - i) * sizeof *x);
    }
}

static void apply(float *x, size_t n, int fn)
{
    if (__builtin_cpu_supports("avx2"))
        apply8(x, n, fn);
    else
        apply4(x, n, fn);
}

void vmath_exp(float *x, size_t n)
{
    apply(x, n, FN_EXP);
}

void vmath_log(float *x, size_t n)
{
    apply(x, n, FN_LOG);
}

#else

void vmath_exp(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = expf(x[i]);
}

void vmath_log(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = logf(x[i]);
}

#endif
