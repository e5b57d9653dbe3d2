/* Annotator heuristics (heuristics.h) on pairs: a text's concepts and
   cues, whether a pair satisfies a heuristic and what shows it, and the
   evaluation of every heuristic on pair after pair. The set and its
   definitions are in heuristics-defs.c, counting and testing in
   heuristics-count.c. */
#include <config.h>
#include "analysis/heuristics.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* ---- one pair ---- */

void heur_text_init(heur_text *t)
{
    memset(t, 0, sizeof *t);
    token_list_init(&t->words);
    token_list_init(&t->parts);
}

void heur_text_free(heur_text *t)
{
    token_list_free(&t->words);
    token_list_free(&t->parts);
    concept_hits_free(&t->hits);
    free(t->concepts);
    for (size_t i = 0; i < t->ncues; i++)
        term_hits_free(&t->cues[i]);
    free(t->cues);
    memset(t, 0, sizeof *t);
}

int heur_text_analyse(heur_text *t, const heuristic_set *hs, const char *text,
                      size_t len, tells_error *err)
{
    if (text_parts(text, len, &t->words, &t->parts) < 0 ||
        concept_link_text(hs->ci, text, len, &t->hits) < 0 ||
        ARRAY_RESERVE(t->concepts, t->cap, t->hits.n) < 0)
        return tells_error_nomem(err, NULL, 0);
    t->nconcepts = 0;
    for (size_t i = 0; i < t->hits.n; i++) {
        uint32_t c = t->hits.v[i].concept;
        size_t k = 0;
        while (k < t->nconcepts && t->concepts[k] != c)
            k++;
        if (k == t->nconcepts)
            t->concepts[t->nconcepts++] = c;
    }
    if (t->ncues < hs->ncue) {
        term_hits *v = array_resize_zeroed(t->cues, t->ncues, hs->ncue, sizeof *v);
        if (!v)
            return tells_error_nomem(err, NULL, 0);
        t->cues = v;
        t->ncues = hs->ncue;
    }
    for (size_t i = 0; i < hs->ncue; i++)
        if (term_trie_scan(hs->cue[i].trie, &t->parts, &t->cues[i]) < 0)
            return tells_error_nomem(err, NULL, 0);
    return 0;
}

void heur_witness_free(heur_witness *w)
{
    for (int s = 0; s < 2; s++)
        free(w->item[s]);
    memset(w, 0, sizeof *w);
}

/* Adds concept c (once) to side s of w. */
static int witness_add(heur_witness *w, int s, uint32_t c, int32_t tree)
{
    for (size_t i = 0; i < w->nitem[s]; i++)
        if (w->item[s][i].concept == c)
            return 0;
    if (ARRAY_RESERVE(w->item[s], w->cap[s], w->nitem[s] + 1) < 0)
        return -1;
    w->item[s][w->nitem[s]++] = (heur_item){c, tree};
    return 0;
}

/* Whether concept c passes side s's stop list and tree prefixes; *tree
   gets the tree number that matched a prefix, or -1. */
static bool admits(const heuristic_set *hs, const heuristic *h, int s,
                   uint32_t c, int32_t *tree)
{
    *tree = -1;
    if (h->stop >= 0 && hs->stop[h->stop].stopped[c])
        return false;
    const heur_side *side = &h->side[s];
    if (side->nprefix == 0)
        return true;
    for (size_t i = 0; i < side->nprefix; i++) {
        size_t k;
        if (concept_under(hs->ci, c, side->prefix[i], &k)) {
            *tree = (int32_t)k;
            return true;
        }
    }
    return false;
}

/* Whether a tree number of anc is a proper ancestor of one of desc. */
static bool ancestor(const concept_index *ci, uint32_t anc, uint32_t desc,
                     int32_t *ta, int32_t *td)
{
    size_t na = concept_ntrees(ci, anc), nd = concept_ntrees(ci, desc);
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nd; j++)
            if (mesh_tree_ancestor(concept_tree(ci, anc, i),
                                   concept_tree(ci, desc, j))) {
                *ta = (int32_t)i;
                *td = (int32_t)j;
                return true;
            }
    return false;
}

static bool related(const heuristic_set *hs, heur_relation rel, uint32_t p,
                    uint32_t q, int32_t *tp, int32_t *tq)
{
    if (rel == REL_HYPERNYM)
        rel = hs->general ? REL_ANCESTOR : REL_DESCENDANT;
    switch (rel) {
    case REL_SAME:
        return p == q;
    case REL_ANCESTOR:
        return p != q && ancestor(hs->ci, q, p, tq, tp);
    case REL_DESCENDANT:
        return p != q && ancestor(hs->ci, p, q, tp, tq);
    default:
        return false;
    }
}

static bool has_cue(const heur_side *side, const heur_text *t)
{
    for (size_t i = 0; i < side->ncue; i++)
        if (t->cues[side->cue[i]].n > 0)
            return true;
    return false;
}

int heuristic_holds(const heuristic_set *hs, size_t hi, const heur_text *premise,
                    const heur_text *hypothesis, heur_witness *w, tells_error *err)
{
    const heuristic *h = &hs->v[hi];
    const heur_text *text[2] = {premise, hypothesis};
    heur_witness scratch = {0};
    if (!w)
        w = &scratch;
    w->nitem[0] = w->nitem[1] = 0;
    for (int s = 0; s < 2; s++)
        if (h->side[s].ncue && !has_cue(&h->side[s], text[s]))
            return 0;
    int rc = 0;
    if (h->relation == REL_NONE) {
        for (int s = 0; s < 2 && rc >= 0; s++) {
            if (h->side[s].nprefix == 0)
                continue;
            for (size_t i = 0; i < text[s]->nconcepts && rc >= 0; i++) {
                int32_t t;
                if (admits(hs, h, s, text[s]->concepts[i], &t))
                    rc = witness_add(w, s, text[s]->concepts[i], t);
            }
            if (w->nitem[s] == 0)
                break;
        }
        if (rc >= 0)
            rc = (h->side[0].nprefix == 0 || w->nitem[0] > 0) &&
                 (h->side[1].nprefix == 0 || w->nitem[1] > 0);
    } else {
        for (size_t i = 0; i < premise->nconcepts && rc >= 0; i++) {
            uint32_t p = premise->concepts[i];
            int32_t tp0, tq0;
            if (!admits(hs, h, SIDE_PREMISE, p, &tp0))
                continue;
            for (size_t j = 0; j < hypothesis->nconcepts && rc >= 0; j++) {
                uint32_t q = hypothesis->concepts[j];
                int32_t tp = tp0, tq;
                if (!admits(hs, h, SIDE_HYPOTHESIS, q, &tq0))
                    continue;
                tq = tq0;
                if (related(hs, h->relation, p, q, &tp, &tq) &&
                    (witness_add(w, SIDE_PREMISE, p, tp) < 0 ||
                     witness_add(w, SIDE_HYPOTHESIS, q, tq) < 0))
                    rc = -1;
            }
        }
        if (rc >= 0)
            rc = w->nitem[SIDE_PREMISE] > 0;
    }
    heur_witness_free(&scratch);
    return rc < 0 ? tells_error_nomem(err, NULL, 0) : rc;
}

static void write_items(FILE *fp, const concept_index *ci, const heur_item *v,
                        size_t n)
{
    if (n == 0)
        fputc('-', fp);
    for (size_t i = 0; i < n; i++) {
        fprintf(fp, "%s%s (%s", i ? "; " : "", concept_term(ci, v[i].concept),
                concept_ui(ci, v[i].concept));
        if (v[i].tree >= 0)
            fprintf(fp, " %s", concept_tree(ci, v[i].concept, (size_t)v[i].tree));
        fputc(')', fp);
    }
}

static void write_cues(FILE *fp, const heur_side *side, const heur_text *t,
                       const char *mark, size_t *written)
{
    for (size_t i = 0; i < side->ncue; i++) {
        const term_hits *hits = &t->cues[side->cue[i]];
        for (size_t k = 0; k < hits->n; k++) {
            fputs((*written)++ ? "; " : "", fp);
            fputs(mark, fp);
            for (uint32_t j = hits->v[k].start; j < hits->v[k].end; j++)
                fprintf(fp, "%s%s", j > hits->v[k].start ? " " : "",
                        token_at(&t->parts, j));
        }
    }
}

static void write_witness(FILE *fp, const heuristic_set *hs, size_t hi,
                          const heur_witness *w, const heur_text *premise,
                          const heur_text *hypothesis)
{
    const heuristic *h = &hs->v[hi];
    write_items(fp, hs->ci, w->item[SIDE_PREMISE], w->nitem[SIDE_PREMISE]);
    fputc('\t', fp);
    write_items(fp, hs->ci, w->item[SIDE_HYPOTHESIS], w->nitem[SIDE_HYPOTHESIS]);
    fputc('\t', fp);
    size_t written = 0;
    write_cues(fp, &h->side[SIDE_HYPOTHESIS], hypothesis, "", &written);
    write_cues(fp, &h->side[SIDE_PREMISE], premise, "premise: ", &written);
    if (written == 0)
        fputc('-', fp);
}

/* ---- evaluating pairs ---- */

int heur_eval_init(heur_eval *ev, const heuristic_set *hs, bool witnesses,
                   tells_error *err)
{
    memset(ev, 0, sizeof *ev);
    ev->hs = hs;
    heur_text_init(&ev->premise);
    heur_text_init(&ev->hypothesis);
    ev->holds = array_new(hs->n, sizeof *ev->holds);
    if (witnesses)
        ev->witness = array_new(hs->n, sizeof *ev->witness);
    if (!ev->holds || (witnesses && !ev->witness)) {
        heur_eval_free(ev);
        return tells_error_nomem(err, NULL, 0);
    }
    return 0;
}

void heur_eval_free(heur_eval *ev)
{
    for (size_t h = 0; ev->witness && h < ev->hs->n; h++)
        heur_witness_free(&ev->witness[h]);
    free(ev->witness);
    free(ev->holds);
    free(ev->last);
    heur_text_free(&ev->premise);
    heur_text_free(&ev->hypothesis);
    memset(ev, 0, sizeof *ev);
}

int heur_eval_pair(heur_eval *ev, const char *premise, size_t plen,
                   const char *hypothesis, size_t hlen, tells_error *err)
{
    if (!(ev->have_last && plen == ev->last_len &&
          memcmp(premise, ev->last, plen) == 0)) {
        ev->have_last = false;
        if (ARRAY_RESERVE(ev->last, ev->last_cap, plen + 1) < 0)
            return tells_error_nomem(err, NULL, 0);
        if (heur_text_analyse(&ev->premise, ev->hs, premise, plen, err) < 0)
            return -1;
        memcpy(ev->last, premise, plen);
        ev->last[plen] = '\0';
        ev->last_len = plen;
        ev->have_last = true;
    }
    if (heur_text_analyse(&ev->hypothesis, ev->hs, hypothesis, hlen, err) < 0)
        return -1;
    for (size_t h = 0; h < ev->hs->n; h++) {
        int ok = heuristic_holds(ev->hs, h, &ev->premise, &ev->hypothesis,
                                 ev->witness ? &ev->witness[h] : NULL, err);
        if (ok < 0)
            return -1;
        ev->holds[h] = ok > 0;
    }
    return 0;
}

void heur_eval_write_witness(FILE *fp, const heur_eval *ev, size_t h)
{
    write_witness(fp, ev->hs, h, &ev->witness[h], &ev->premise, &ev->hypothesis);
}
