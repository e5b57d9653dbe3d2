/* The findings of a study, one row each, machine-readable (summary.tsv)
   and as plain sentences (the report):
     check value reference effect ci_low ci_high p_value q_value
     significant detail
   Every tested row belongs to one family, and its q-value is that
   family's: the study's primary checks (every row that is not a token
   screen or an audit's test) are one Benjamini-Hochberg family, adjusted
   here; the token-class screens of the competency test are their own
   family, Bonferroni over every pair tried (q = min(1, m p), set by their
   section); an audited batch's tests keep the audit's own
   Benjamini-Hochberg family (q as in audit.tsv). A primary row is
   significant when q <= alpha and its effect points the way the check
   looks for (a shortcut helps a model); the other families' rows are as
   their own test decided. detail ends with the family and its size
   ("family=primary(14)", "family=tokens(3837,bonferroni)",
   "family=audit(52)"). */
#ifndef TELLS_STUDY_VERDICTS_H
#define TELLS_STUDY_VERDICTS_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "stats/stattest.h"

/* The family of a tested row's q-value. */
typedef enum verdict_family {
    FAMILY_PRIMARY,            /* the study's checks: BH in verdicts_adjust */
    FAMILY_TOKENS,             /* token-class screens: Bonferroni, q and
                                  significance set by the section */
    FAMILY_AUDIT               /* a batch's audit: its BH, q and significance
                                  set by the section */
} verdict_family;

typedef struct verdict {
    char check[256];           /* "hypothesis_only", "token:W:CLASS", ... */
    double value, reference;   /* NAN when there is none */
    double effect, ci_low, ci_high;
    bool tested;               /* false: p, q and significant are "-" (a row
                                  with an effect and interval but no test is
                                  descriptive) */
    pvalue p, q;
    verdict_family family;
    size_t family_size;        /* tests in its family (set by verdicts_adjust
                                  for the primary family, else by the section) */
    bool direction_ok;         /* the effect is the kind the check seeks */
    bool significant;
    char detail[512];          /* key=value pairs, for machines */
    char sentence[1024];       /* one plain sentence, for people */
} verdict;

typedef struct verdicts {
    verdict *v;
    size_t n, cap;
    double alpha;
    size_t family;             /* tests in the primary BH family */
} verdicts;

void verdicts_init(verdicts *vs, double alpha);
void verdicts_free(verdicts *vs);
/* A new row named check (printf-style), all numbers NAN, untested;
   NULL when out of memory (err set). Pointers stay valid until the next
   add. */
verdict *verdicts_add(verdicts *vs, tells_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sets the q-values of the primary family (BH over its rows' p-values)
   and their significance, and ends every tested row's detail with its
   family and size. */
int verdicts_adjust(verdicts *vs, tells_error *err);
/* "q = 0.028 over 14 primary checks", "q = 1.2e-05, Bonferroni over 3837
   token-class pairs", "q = 0.03 over 52 tests of the batch's audit": a
   tested row's q (2 significant digits) and its family, for sentences. */
void verdict_q_text(const verdict *v, char *buf, size_t size);
/* The row named check, or NULL. */
const verdict *verdicts_find(const verdicts *vs, const char *check);
/* summary.tsv: an out_writer for a verdicts. Numbers with 6 decimals,
   p- and q-values with 3 significant digits, "-" where there is none. */
int verdicts_write(FILE *fp, void *vs, tells_error *err);

#endif
