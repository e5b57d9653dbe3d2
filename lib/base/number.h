/* Numbers in the text formats tells reads: unsigned integers read with
   overflow checks, and the probabilities a model gives its classes,
   checked as one distribution. */
#ifndef TELLS_NUMBER_H
#define TELLS_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* Reads the decimal digits at s (no sign, space or other prefix) as an
   unsigned integer of at most max (UINT64_MAX for any that fits). With
   end, *end gets the first byte after the digits (also when the number
   is too large); without, s must hold nothing but them. 0 with *out set;
   -1 when s does not start with a digit (or, without end, holds more);
   -2 when the number is above max. */
int number_u64(const char *s, char **end, uint64_t max, uint64_t *out);

/* How far the probabilities of one example's classes may sum from 1.
   Rounding to 3 decimals moves each by at most 0.0005, so probabilities
   printed that way pass for up to 19 classes even when every rounding
   goes the same way (with 6 decimals, for thousands); sums such as 0,
   0.9 or 1.8 fail. */
#define PROB_SUM_TOLERANCE 0.01

/* Reads one probability, the whole of s as strtod reads it: 0 with *out
   set when it is a number from 0 to 1 (NaN, infinities, out-of-range
   and malformed numbers are -1). */
int prob_parse(const char *s, double *out);
/* The probabilities p[0..k) of k classes as one distribution: each from
   0 to 1 and their sum within PROB_SUM_TOLERANCE of 1. 0, or -1 with
   the reason in msg (size bytes): "probability 1.5 is not from 0 to 1",
   "the probabilities sum to 2.7, not 1 (tolerance 0.01)". */
int prob_check(const double *p, size_t k, char *msg, size_t size);

/* Writes v as printf's "%.6f" writes it (the same bytes, for any finite
   v) into buf, which must hold FIXED6_MAX bytes, and returns its length.
   Values of magnitude below 1e9 are rounded by one multiplication and
   written digit by digit; those within rounding error of a tie, larger
   ones and non-finite ones go through snprintf. For tables of many
   thousand numbers, where printf's general path dominates. */
enum { FIXED6_MAX = 352 };
size_t fixed6_format(char *buf, double v);

#endif
