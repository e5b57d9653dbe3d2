/* The findings of a study, one row each, machine-readable (summary.tsv)
   and as plain sentences (the report):
     check value reference effect ci_low ci_high p_value q_value
     significant detail
   q-values are Benjamini-Hochberg over every test of the study: the rows'
   own and the extra ones a study adds (every token-class pair the
   competency test tried, of which only the significant ones are rows),
   so that a reader can weigh each row against all that was tried. A row
   is significant when q <= alpha and its effect points the way the check
   looks for (a shortcut helps a model; a token favours its class). */
#ifndef TELLS_STUDY_VERDICTS_H
#define TELLS_STUDY_VERDICTS_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "stats/stattest.h"

typedef struct verdict {
    char check[256];           /* "hypothesis_only", "token:W:CLASS", ... */
    double value, reference;   /* NAN when there is none */
    double effect, ci_low, ci_high;
    bool tested;
    pvalue p, q;
    bool direction_ok;         /* the effect is the kind the check seeks */
    bool significant;
    char detail[512];          /* key=value pairs, for machines */
    char sentence[1024];       /* one plain sentence, for people */
} verdict;

typedef struct verdicts {
    verdict *v;
    size_t n, cap;
    pvalue *extra;             /* tests of the family that are no row */
    size_t nextra, extra_cap;
    double alpha;
    size_t family;             /* tests in the BH family */
} verdicts;

void verdicts_init(verdicts *vs, double alpha);
void verdicts_free(verdicts *vs);
/* A new row named check (printf-style), all numbers NAN, untested;
   NULL when out of memory (err set). Pointers stay valid until the next
   add. */
verdict *verdicts_add(verdicts *vs, tells_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A test of the family that is no row (a token-class pair the
   competency test tried and found nothing in): it counts in the
   Benjamini-Hochberg adjustment all the same. */
int verdicts_add_extra(verdicts *vs, pvalue p, tells_error *err);
/* Sets the q-values (BH over the rows' p-values and the extra ones) and
   significance. */
int verdicts_adjust(verdicts *vs, tells_error *err);
/* The row named check, or NULL. */
const verdict *verdicts_find(const verdicts *vs, const char *check);
/* summary.tsv: an out_writer for a verdicts. Numbers with 6 decimals,
   p- and q-values with 3 significant digits, "-" where there is none. */
int verdicts_write(FILE *fp, void *vs, tells_error *err);

#endif
