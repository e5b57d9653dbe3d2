#include <config.h>
#include "base/number.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int number_u64(const char *s, char **end, uint64_t max, uint64_t *out)
{
    /* strtoull would take leading spaces and a sign (negating "-1" into
       UINT64_MAX): only digits may start the number. */
    if (*s < '0' || *s > '9') {
        if (end)
            *end = (char *)s;
        return -1;
    }
    char *stop;
    errno = 0;
    unsigned long long v = strtoull(s, &stop, 10);
    if (end)
        *end = stop;
    else if (*stop)
        return -1;
    if (errno == ERANGE || v > max)
        return -2;
    *out = (uint64_t)v;
    return 0;
}

int prob_parse(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !(v >= 0.0 && v <= 1.0))
        return -1;
    *out = v;
    return 0;
}

int prob_check(const double *p, size_t k, char *msg, size_t size)
{
    double sum = 0.0;
    for (size_t c = 0; c < k; c++) {
        if (!(p[c] >= 0.0 && p[c] <= 1.0)) {
            snprintf(msg, size, "probability %g is not from 0 to 1", p[c]);
            return -1;
        }
        sum += p[c];
    }
    if (!(fabs(sum - 1.0) <= PROB_SUM_TOLERANCE)) {
        snprintf(msg, size, "the probabilities sum to %.15g, not 1 (tolerance %g)", sum,
                 PROB_SUM_TOLERANCE);
        return -1;
    }
    return 0;
}

size_t fixed6_format(char *buf, double v)
{
    double a = fabs(v);
    if (!(a < 1e9))
        return (size_t)snprintf(buf, FIXED6_MAX, "%.6f", v);
    /* y is v * 10^6 up to half an ulp of y (at most y * 2^-53); r, its
       nearest integer, is the exact product's unless that lies within
       the error of a half. */
    double y = a * 1e6, r = nearbyint(y), gap = fabs(fabs(y - r) - 0.5);
    if (gap <= y * 0x1p-50 + 0x1p-60)
        return (size_t)snprintf(buf, FIXED6_MAX, "%.6f", v);
    uint64_t u = (uint64_t)r;
    char tmp[32], *e = tmp + sizeof tmp, *p = e;
    for (int k = 0; k < 6; k++) {
        *--p = (char)('0' + u % 10);
        u /= 10;
    }
    *--p = '.';
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (signbit(v))
        *--p = '-';
    size_t n = (size_t)(e - p);
    memcpy(buf, p, n);
    buf[n] = '\0';
    return n;
}
