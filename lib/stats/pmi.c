#include <config.h>
#include "stats/pmi.h"
#include "text/redact.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/outfile.h"

static int cmp_entries(const void *a, const void *b, void *arg)
{
    const pmi_entry *x = a, *y = b;
    if (x->pmi != y->pmi)
        return x->pmi > y->pmi ? -1 : 1;
    const token_counts *tc = arg;
    return redact_token_cmp(tc->shown, tc->tokens, x->token, y->token);
}

void pmi_free(pmi_table *t)
{
    for (size_t i = 0; i < t->nclasses; i++)
        free(t->classes[i].entries);
    free(t->classes);
    memset(t, 0, sizeof *t);
}

/* What every class's entries are computed from. */
typedef struct pmi_state {
    const token_counts *tc;
    bool binary;
    double k, S;
    size_t nc, nk;
    const uint64_t *total;    /* [token]: count(w) over the classes */
    size_t c;                 /* the class at hand */
    double s_c;
    pmi_entry *buf;           /* its entries so far */
    size_t n;
} pmi_state;

/* Token t's entry in the class at hand, with count(w,c) and docs. The
   arithmetic of the dense table of before, to the bit. */
static void pmi_entry_make(const pmi_state *st, size_t t, uint64_t count, uint64_t docs,
                           pmi_entry *e)
{
    const token_counts *tc = st->tc;
    uint64_t cnt = st->binary ? docs : count;
    double s_w = (double)st->total[t] + st->k * (double)st->nc;
    double s_wc = (double)cnt + st->k;
    e->token = t;
    e->count = cnt;
    e->pmi = log2(s_wc * st->S / (s_w * st->s_c));
    e->class_share = tc->examples[st->c] ? (double)docs / (double)tc->examples[st->c] : 0.0;
}

static int pmi_take(size_t t, void *ctx, double *value)
{
    pmi_state *st = ctx;
    pmi_entry *e = &st->buf[st->n++];
    pmi_entry_make(st, t, 0, 0, e);
    *value = e->pmi;
    return 1;
}

static void pmi_drop(void *ctx)
{
    ((pmi_state *)ctx)->n--;
}

int pmi_compute(const token_counts *tc, const pmi_options *opt, pmi_table *out)
{
    memset(out, 0, sizeof *out);
    size_t nc = vocab_size(tc->classes), nt = vocab_size(tc->tokens);
    size_t *order = vocab_sorted_ids(tc->classes);
    uint64_t *total = counts_token_totals(tc, opt->binary);
    size_t *kept = array_new(nt, sizeof *kept);
    size_t *mark = array_new(nt, sizeof *mark);      /* class rank + 1 of present tokens */
    const counts_cell **present = array_new(nt, sizeof *present);
    uint64_t *class_total = array_new(nc, sizeof *class_total);
    counts_cell *cells = NULL;
    size_t *first = NULL;
    zero_order z = {0};
    pmi_state st = {.tc = tc, .binary = opt->binary, .k = opt->smoothing, .nc = nc,
                    .total = total};
    out->classes = array_new(nc, sizeof *out->classes);
    if (!order || !total || !kept || !mark || !present || !class_total || !out->classes ||
        counts_cells(tc, false, NULL, NULL, &cells, &first) < 0)
        goto fail;
    /* Integer sums first: exact, and independent of hash order. */
    size_t nk = 0;
    uint64_t grand = 0;
    for (size_t t = 0; t < nt; t++)
        if (total[t] >= opt->min_count && total[t] > 0) {
            kept[nk++] = t;
            grand += total[t];
        }
    for (size_t i = 0; i < tc->ncells; i++)
        if (total[cells[i].token] >= opt->min_count)
            class_total[cells[i].cls] += opt->binary ? cells[i].docs : cells[i].count;
    double k = opt->smoothing;
    st.S = (double)grand + k * (double)nk * (double)nc;
    st.nk = nk;
    out->nclasses = nc;
    out->kept = nk;
    bool sparse = opt->top && opt->top < nk;
    /* An absent token's PMI is log2(k S / (s_w s_c)): by total, or -inf
       for every absent token when k is 0. */
    if (sparse && zero_order_make(&z, tc->tokens, kept, nk, k > 0 ? total : NULL) < 0)
        goto fail;
    st.buf = array_new(nk, sizeof *st.buf);
    if (!st.buf)
        goto fail;
    for (size_t i = 0; i < nc; i++) {
        size_t c = order[i];
        pmi_class *pc = &out->classes[i];
        pc->class_id = c;
        st.c = c;
        st.s_c = (double)class_total[c] + k * (double)nk;
        st.n = 0;
        const counts_cell *cc = cells + first[c], *cend = cells + first[c + 1];
        long walked = -2;
        /* With k = 0 a class without kept tokens has NaN everywhere, and
           qsort's order of those is the dense table's only. */
        if (sparse && st.s_c > 0) {
            for (const counts_cell *p = cc; p < cend; p++)
                if (total[p->token] >= opt->min_count) {
                    pmi_entry_make(&st, p->token, p->count, p->docs, &st.buf[st.n++]);
                    mark[p->token] = i + 1;
                }
            walked = zero_order_walk(&z, opt->top, mark, i + 1, pmi_take, pmi_drop, &st);
        }
        if (walked == -2) {
            /* Every kept token, in id order, as the dense table had them. */
            for (const counts_cell *p = cc; p < cend; p++)
                present[p->token] = p;
            for (size_t j = 0; j < nk; j++) {
                const counts_cell *p = present[kept[j]];
                pmi_entry_make(&st, kept[j], p ? p->count : 0, p ? p->docs : 0, &st.buf[j]);
            }
            st.n = nk;
            for (const counts_cell *p = cc; p < cend; p++)
                present[p->token] = NULL;
        }
        qsort_r(st.buf, st.n, sizeof *st.buf, cmp_entries, (void *)tc);
        pc->n = opt->top && opt->top < st.n ? opt->top : st.n;
        pc->entries = array_new(pc->n, sizeof *pc->entries);
        if (!pc->entries)
            goto fail;
        if (pc->n)
            memcpy(pc->entries, st.buf, pc->n * sizeof *pc->entries);
    }
    free(st.buf);
    free(order);
    free(total);
    free(kept);
    free(mark);
    free(present);
    free(class_total);
    free(cells);
    free(first);
    zero_order_free(&z);
    return 0;
fail:
    free(st.buf);
    free(order);
    free(total);
    free(kept);
    free(mark);
    free(present);
    free(class_total);
    free(cells);
    free(first);
    zero_order_free(&z);
    pmi_free(out);
    return -1;
}

/* The rows of both tables: the last column is the class share, or the
   published code's percentage of it. */
static int write_rows(const pmi_table *t, const token_counts *tc, size_t top,
                      bool percent, FILE *fp)
{
    for (size_t i = 0; i < t->nclasses; i++) {
        const pmi_class *pc = &t->classes[i];
        size_t n = top && top < pc->n ? top : pc->n;
        const char *cls = vocab_str(tc->classes, pc->class_id);
        for (size_t j = 0; j < n; j++) {
            const pmi_entry *e = &pc->entries[j];
            /* No "-0.000000" for values that round to zero. */
            double pmi = fabs(e->pmi) < 5e-7 ? 0.0 : e->pmi;
            fprintf(fp, "%s\t%s\t%.6f\t%" PRIu64 "\t", cls,
                    counts_token_shown(tc, e->token), pmi, e->count);
            if (percent)
                fprintf(fp, "%.2f%%\n", 100 * e->class_share);
            else
                fprintf(fp, "%.6f\n", e->class_share);
        }
    }
    return ferror(fp) ? -1 : 0;
}

int pmi_write(const pmi_table *t, const token_counts *tc, size_t top,
              bool header, FILE *fp)
{
    if (header)
        fputs("class\ttoken\tpmi\tcount\tclass_share\n", fp);
    return write_rows(t, tc, top, false, fp);
}

/* scikit-learn's ENGLISH_STOP_WORDS as release 0.24 ships it (the
   Glasgow Information Retrieval Group's list), in byte order. */
static const char *const stop_words[] = {
    "a", "about", "above", "across", "after", "afterwards", "again", "against", "all",
    "almost", "alone", "along", "already", "also", "although", "always", "am", "among",
    "amongst", "amoungst", "amount", "an", "and", "another", "any", "anyhow", "anyone",
    "anything", "anyway", "anywhere", "are", "around", "as", "at", "back", "be", "became",
    "because", "become", "becomes", "becoming", "been", "before", "beforehand", "behind",
    "being", "below", "beside", "besides", "between", "beyond", "bill", "both", "bottom",
    "but", "by", "call", "can", "cannot", "cant", "co", "con", "could", "couldnt", "cry",
    "de", "describe", "detail", "do", "done", "down", "due", "during", "each", "eg",
    "eight", "either", "eleven", "else", "elsewhere", "empty", "enough", "etc", "even",
    "ever", "every", "everyone", "everything", "everywhere", "except", "few", "fifteen",
    "fifty", "fill", "find", "fire", "first", "five", "for", "former", "formerly", "forty",
    "found", "four", "from", "front", "full", "further", "get", "give", "go", "had", "has",
    "hasnt", "have", "he", "hence", "her", "here", "hereafter", "hereby", "herein",
    "hereupon", "hers", "herself", "him", "himself", "his", "how", "however", "hundred",
    "i", "ie", "if", "in", "inc", "indeed", "interest", "into", "is", "it", "its", "itself",
    "keep", "last", "latter", "latterly", "least", "less", "ltd", "made", "many", "may",
    "me", "meanwhile", "might", "mill", "mine", "more", "moreover", "most", "mostly",
    "move", "much", "must", "my", "myself", "name", "namely", "neither", "never",
    "nevertheless", "next", "nine", "no", "nobody", "none", "noone", "nor", "not",
    "nothing", "now", "nowhere", "of", "off", "often", "on", "once", "one", "only", "onto",
    "or", "other", "others", "otherwise", "our", "ours", "ourselves", "out", "over", "own",
    "part", "per", "perhaps", "please", "put", "rather", "re", "same", "see", "seem",
    "seemed", "seeming", "seems", "serious", "several", "she", "should", "show", "side",
    "since", "sincere", "six", "sixty", "so", "some", "somehow", "someone", "something",
    "sometime", "sometimes", "somewhere", "still", "such", "system", "take", "ten", "than",
    "that", "the", "their", "them", "themselves", "then", "thence", "there", "thereafter",
    "thereby", "therefore", "therein", "thereupon", "these", "they", "thick", "thin",
    "third", "this", "those", "though", "three", "through", "throughout", "thru", "thus",
    "to", "together", "too", "top", "toward", "towards", "twelve", "twenty", "two", "un",
    "under", "until", "up", "upon", "us", "very", "via", "was", "we", "well", "were",
    "what", "whatever", "when", "whence", "whenever", "where", "whereafter", "whereas",
    "whereby", "wherein", "whereupon", "wherever", "whether", "which", "while", "whither",
    "who", "whoever", "whole", "whom", "whose", "why", "will", "with", "within", "without",
    "would", "yet", "you", "your", "yours", "yourself", "yourselves"
};

static int cmp_word(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

bool pmi_stop_word(const char *word)
{
    return bsearch(word, stop_words, sizeof stop_words / sizeof *stop_words,
                   sizeof *stop_words, cmp_word) != NULL;
}

int pmi_published_compute(const token_counts *tc, double smoothing, uint64_t min_df,
                          pmi_table *out)
{
    memset(out, 0, sizeof *out);
    size_t nc = vocab_size(tc->classes), nt = vocab_size(tc->tokens);
    size_t *order = vocab_sorted_ids(tc->classes);
    uint64_t *total = counts_token_totals(tc, false);
    bool *stop = array_new(nt, sizeof *stop);
    counts_cell *cells = NULL;
    size_t *first = NULL;
    out->classes = array_new(nc, sizeof *out->classes);
    if (!order || !total || !stop || !out->classes ||
        counts_cells(tc, false, NULL, NULL, &cells, &first) < 0)
        goto fail;
    uint64_t grand = 0, examples = 0;
    size_t seen = 0;
    for (size_t t = 0; t < nt; t++) {
        grand += total[t];
        seen += total[t] > 0;
        stop[t] = pmi_stop_word(vocab_str(tc->tokens, t));
    }
    for (size_t c = 0; c < nc; c++)
        examples += tc->examples[c];
    double k = smoothing;
    double S = (double)grand + k * (double)seen;
    out->nclasses = nc;
    /* Only a class's own words have entries: its cells, in token order. */
    for (size_t i = 0; i < nc; i++) {
        size_t c = order[i];
        pmi_class *pc = &out->classes[i];
        pc->class_id = c;
        pc->entries = array_new(first[c + 1] - first[c], sizeof *pc->entries);
        if (!pc->entries)
            goto fail;
        uint64_t class_sum = 0;
        size_t n = 0;
        for (size_t j = first[c]; j < first[c + 1]; j++) {
            const counts_cell *p = &cells[j];
            if (p->docs > 0 && p->docs >= min_df && !stop[p->token]) {
                pmi_entry *e = &pc->entries[n++];
                e->token = p->token;
                e->count = p->count;
                class_sum += p->count;
            }
        }
        double S_c = (double)class_sum + k * (double)n;
        double p_c = (double)tc->examples[c] / (double)examples;
        for (size_t j = 0; j < n; j++) {
            pmi_entry *e = &pc->entries[j];
            double p_wc = ((double)e->count + k) / S_c;
            double p_w = ((double)total[e->token] + k) / S;
            e->pmi = log2(p_wc / (p_w * p_c));
            e->class_share = p_wc;
        }
        pc->n = n;
        out->kept += n;
        qsort_r(pc->entries, n, sizeof *pc->entries, cmp_entries, (void *)tc);
    }
    free(order);
    free(total);
    free(stop);
    free(cells);
    free(first);
    return 0;
fail:
    free(order);
    free(total);
    free(stop);
    free(cells);
    free(first);
    pmi_free(out);
    return -1;
}

int pmi_published_write(const pmi_table *t, const token_counts *tc, size_t top, FILE *fp)
{
    fputs("class\ttoken\tpmi\tcount\tpercent\n", fp);
    return write_rows(t, tc, top, true, fp);
}

int pmi_measure_parse(const char *name, pmi_measure *m)
{
    if (strcmp(name, "pmi") == 0)
        *m = MEASURE_PMI;
    else if (strcmp(name, "z") == 0)
        *m = MEASURE_Z;
    else if (strcmp(name, "logodds") == 0)
        *m = MEASURE_LOGODDS;
    else if (strcmp(name, "pmi-published") == 0)
        *m = MEASURE_PMI_PUBLISHED;
    else
        return -1;
    return 0;
}

typedef struct pmi_output {
    const pmi_job *job;
    const token_counts *tc;
    pmi_table table;
    competency_table z;
    logodds_table lo;
} pmi_output;

static int write_output(FILE *fp, void *ctx, tells_error *err)
{
    const pmi_output *o = ctx;
    if (o->job->emit_counts)
        return counts_write(o->tc, fp, err);
    if (o->job->measure == MEASURE_Z)
        return competency_write(fp, &o->z, o->tc, o->job->top, false, 3);
    if (o->job->measure == MEASURE_LOGODDS)
        return logodds_write(fp, &o->lo, o->tc, o->job->top);
    if (o->job->measure == MEASURE_PMI_PUBLISHED)
        return pmi_published_write(&o->table, o->tc, o->job->top, fp);
    return pmi_write(&o->table, o->tc, o->job->top, true, fp);
}

int pmi_run(const pmi_job *job, char *const *paths, size_t npaths, const char *output,
            tells_error *err)
{
    token_counts tc;
    if (counts_init(&tc, job->field) < 0)
        return tells_error_nomem(err, NULL, 0);
    if (job->measure == MEASURE_PMI_PUBLISHED)
        tc.analyzer = COUNTS_TOKENS_WORDS;
    tc.shown = job->shown;
    logodds_prior prior = {0};
    int rc = 0;
    /* The prior first: a bad prior file is found before a long count. */
    if (!job->emit_counts && job->measure == MEASURE_LOGODDS && job->prior)
        rc = logodds_prior_load(&prior, job->prior, job->field, job->opt.binary, err);
    for (size_t i = 0; i < npaths && rc == 0; i++)
        rc = job->from_counts
             ? counts_merge_file(&tc, paths[i], err)
             : counts_add_prepared(&tc, paths[i], job->no_header, job->threads, err);
    if (rc == 0 && vocab_size(tc.classes) == 0)
        rc = prepared_empty_error(err, paths, npaths);
    pmi_output o = {.job = job, .tc = &tc};
    if (rc == 0 && !job->emit_counts && job->measure == MEASURE_Z) {
        competency_options co;
        competency_options_default(&co);
        co.min_count = job->opt.min_count ? job->opt.min_count : 1;
        co.alpha = job->alpha > 0 ? job->alpha : co.alpha;
        co.class_prior = job->class_prior;
        co.exact = job->exact;
        co.top = job->top;
        rc = competency_compute(&tc, &co, &o.z, err);
    } else if (rc == 0 && !job->emit_counts && job->measure == MEASURE_LOGODDS) {
        logodds_options lo = {.binary = job->opt.binary, .min_count = job->opt.min_count,
                              .prior_scale = job->prior_scale,
                              .prior = job->prior ? &prior : NULL, .top = job->top};
        rc = logodds_compute(&tc, &lo, &o.lo, err);
    } else if (rc == 0 && !job->emit_counts && job->measure == MEASURE_PMI_PUBLISHED) {
        if (pmi_published_compute(&tc, job->opt.smoothing, job->opt.min_count, &o.table) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    } else if (rc == 0 && !job->emit_counts) {
        pmi_options po = job->opt;
        po.top = job->top;
        if (pmi_compute(&tc, &po, &o.table) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    }
    if (rc == 0)
        rc = out_write(output, write_output, &o, err);
    pmi_free(&o.table);
    competency_free(&o.z);
    logodds_free(&o.lo);
    logodds_prior_free(&prior);
    counts_free(&tc);
    return rc;
}
