/* Numbers in text: unsigned integers with overflow and range checks, and
   the probabilities of classes as one distribution. */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "base/number.h"

static void integers(void)
{
    uint64_t v = 7;
    char *end;
    CHECK(number_u64("0", NULL, UINT64_MAX, &v) == 0 && v == 0);
    CHECK(number_u64("18446744073709551615", NULL, UINT64_MAX, &v) == 0 &&
          v == UINT64_MAX);
    /* One more, or far more, does not saturate: it is too large. */
    CHECK(number_u64("18446744073709551616", NULL, UINT64_MAX, &v) == -2);
    CHECK(number_u64("100000000000000000000000", NULL, UINT64_MAX, &v) == -2);
    CHECK(number_u64("11", NULL, 10, &v) == -2);
    CHECK(number_u64("10", NULL, 10, &v) == 0 && v == 10);
    /* Only digits: no sign (strtoull would turn -1 into UINT64_MAX), no
       space, nothing after them without end. */
    CHECK(number_u64("-1", NULL, UINT64_MAX, &v) == -1);
    CHECK(number_u64("+1", NULL, UINT64_MAX, &v) == -1);
    CHECK(number_u64(" 1", NULL, UINT64_MAX, &v) == -1);
    CHECK(number_u64("1 ", NULL, UINT64_MAX, &v) == -1);
    CHECK(number_u64("", NULL, UINT64_MAX, &v) == -1);
    CHECK(number_u64("0x10", NULL, UINT64_MAX, &v) == -1);
    /* With end: a number followed by more; end past the digits even
       when the number is too large. */
    const char *s = "12 34";
    CHECK(number_u64(s, &end, UINT64_MAX, &v) == 0 && v == 12 && end == s + 2);
    s = "99999999999999999999 1";
    CHECK(number_u64(s, &end, UINT64_MAX, &v) == -2 && end == s + 20);
    s = "x";
    CHECK(number_u64(s, &end, UINT64_MAX, &v) == -1 && end == s);
}

static void probabilities(void)
{
    double p;
    CHECK(prob_parse("0.25", &p) == 0 && p == 0.25);
    CHECK(prob_parse("1", &p) == 0 && p == 1);
    CHECK(prob_parse("0", &p) == 0 && p == 0);
    CHECK(prob_parse("1e-400", &p) < 0);   /* underflow: ERANGE */
    CHECK(prob_parse("1.0001", &p) < 0);
    CHECK(prob_parse("-0.1", &p) < 0);
    CHECK(prob_parse("nan", &p) < 0);
    CHECK(prob_parse("inf", &p) < 0);
    CHECK(prob_parse("0.5x", &p) < 0);
    CHECK(prob_parse("", &p) < 0);

    char msg[256];
    const double good[] = {0.2, 0.3, 0.5};
    CHECK(prob_check(good, 3, msg, sizeof msg) == 0);
    /* Three decimals pass: 0.333 * 3 = 0.999, and nineteen classes each
       rounded down by 0.0005 (printed 0.0525 eighteen times and 0.0455)
       sum to 0.9905. */
    const double thirds[] = {0.333, 0.333, 0.333};
    CHECK(prob_check(thirds, 3, msg, sizeof msg) == 0);
    double nineteen[19];
    for (int i = 0; i < 18; i++)
        nineteen[i] = 0.0525;
    nineteen[18] = 0.0455;
    CHECK(prob_check(nineteen, 19, msg, sizeof msg) == 0);
    CHECK(PROB_SUM_TOLERANCE == 0.01);
    const double high[] = {0.9, 0.9, 0.9};
    CHECK(prob_check(high, 3, msg, sizeof msg) < 0);
    CHECK_STR(msg, "the probabilities sum to 2.7, not 1 (tolerance 0.01)");
    const double zeros[] = {0, 0, 0};
    CHECK(prob_check(zeros, 3, msg, sizeof msg) < 0);
    CHECK_STR(msg, "the probabilities sum to 0, not 1 (tolerance 0.01)");
    const double two[] = {0.9, 0.9};
    CHECK(prob_check(two, 2, msg, sizeof msg) < 0);
    CHECK_STR(msg, "the probabilities sum to 1.8, not 1 (tolerance 0.01)");
    const double just_over[] = {0.5, 0.5101};
    CHECK(prob_check(just_over, 2, msg, sizeof msg) < 0);
    CHECK_STR(msg, "the probabilities sum to 1.0101, not 1 (tolerance 0.01)");
    const double negative[] = {1.2, -0.2};
    CHECK(prob_check(negative, 2, msg, sizeof msg) < 0);
    CHECK_STR(msg, "probability 1.2 is not from 0 to 1");
    const double nan_[] = {NAN, 1};
    CHECK(prob_check(nan_, 2, msg, sizeof msg) < 0);
    CHECK_STR(msg, "probability nan is not from 0 to 1");
    const double inf_[] = {0, INFINITY};
    CHECK(prob_check(inf_, 2, msg, sizeof msg) < 0);
    CHECK_STR(msg, "probability inf is not from 0 to 1");
}

/* fixed6_format writes what printf's "%.6f" writes: near-ties of the
   sixth decimal (the doubles nearest 0.0000005 and 2.5e-6 lie a little
   below and above theirs), exact ties (odd multiples of 1/128, among
   the shares k/n), shares k/n, signs, zero, huge and non-finite values, and
   a million values of every magnitude from 1e-9 to 1e10. */
static void fixed6_one(double v)
{
    char want[400], got[FIXED6_MAX];
    int n = snprintf(want, sizeof want, "%.6f", v);
    size_t len = fixed6_format(got, v);
    if (len != (size_t)n || strcmp(want, got) != 0) {
        fprintf(stderr, "fixed6_format(%.17g): '%s', printf '%s'\n", v, got, want);
        CHECK(0);
    }
}

static void fixed6(void)
{
    static const double some[] = {0, -0.0, 1, -1, 0.5, 0.0000005, 0.0000015, 0.0000025,
                                  2.5e-6, 0.1234565, 0.1234575, 1.0000005, 999999999.9999995,
                                  1e9, -1e9, 1e300, -1e300, 5e-324, 0.999999, 0.9999995,
                                  -0.0000001, -0.0000005, 123456.7890125};
    for (size_t i = 0; i < sizeof some / sizeof *some; i++)
        fixed6_one(some[i]);
    fixed6_one(INFINITY);
    fixed6_one(-INFINITY);
    fixed6_one(NAN);
    for (int d = 1; d <= 2000; d++)
        for (int k = 0; k <= d; k++)
            fixed6_one((double)k / (double)d);
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 1000000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double m = (double)(x >> 11) * 0x1p-53, e = (double)(x % 20) - 9;
        double v = m * pow(10, e) * ((x >> 5) & 1 ? -1 : 1);
        fixed6_one(v);
        /* and the nearest tie of the sixth decimal, and its neighbours */
        double t = (floor(v * 1e6) + 0.5) / 1e6;
        fixed6_one(t);
        fixed6_one(nextafter(t, 0));
        fixed6_one(nextafter(t, 2 * t + 1));
    }
}

int main(void)
{
    integers();
    probabilities();
    fixed6();
    CHECK_DONE();
}
