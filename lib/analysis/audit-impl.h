/* The inside of analysis/audit, shared by its pieces and by nothing else
   (other modules see audit.h):
     audit.c            the options, a whole audit (its groups, its run, its
                        tables) and the gates
     audit-reference.c  the reference: hypotheses as hashes, token counts
                        and top-PMI tokens, the model and its MODEL.ref,
                        heuristic counts
     audit-group.c      one group: its checks against the reference, their
                        Benjamini-Hochberg family, its examples' flags
   Names with external linkage start with au_. */
#ifndef TELLS_AUDIT_IMPL_H
#define TELLS_AUDIT_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/audit.h"

/* ---- from audit-reference.c, for a group's checks ---- */

/* Exact: the prepared text (already lowercased and tokenised). Near: the
   set of its words but stopwords, in any order. -1 when out of memory. */
int au_hypothesis_keys(const char *text, uint64_t *exact, uint64_t *near);
/* Keeps the first row of each key (as row + 1: 0 is no row). */
int au_remember(u64map *m, uint64_t key, size_t row);
/* Counts the hypotheses of rows (all n rows when NULL) of d, by label. */
int au_count_rows(token_counts *tc, const dataset *d, const size_t *rows, size_t n);
/* The probability of the gold label of prediction i. fastText's come
   out of exp(log(p + 1e-5)) and may pass 1 by that much: clamped, so that
   no mean or flag shows a probability above 1. */
double au_gold_prob(const dataset *d, const predictions *p, size_t i);
/* The mean of au_gold_prob over p; *correct gets the right predictions. */
double au_mean_gold_prob(const dataset *d, const predictions *p, size_t *correct);
/* holds[i * nheur + h]: whether row rows[i] (row i when rows is NULL)
   satisfies heuristic h. */
int au_eval_heuristics(const heuristic_set *hs, const dataset *d, const size_t *rows,
                       size_t n, bool *holds, tells_error *err);

#endif
