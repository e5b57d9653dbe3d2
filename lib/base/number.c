#include <config.h>
#include "base/number.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
