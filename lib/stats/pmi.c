#include <config.h>
#include "stats/pmi.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"

static int cmp_entries(const void *a, const void *b, void *arg)
{
    const pmi_entry *x = a, *y = b;
    if (x->pmi != y->pmi)
        return x->pmi > y->pmi ? -1 : 1;
    const vocab *tokens = arg;
    return strcmp(vocab_str(tokens, x->token), vocab_str(tokens, y->token));
}

void pmi_free(pmi_table *t)
{
    for (size_t i = 0; i < t->nclasses; i++)
        free(t->classes[i].entries);
    free(t->classes);
    memset(t, 0, sizeof *t);
}

int pmi_compute(const token_counts *tc, const pmi_options *opt, pmi_table *out)
{
    memset(out, 0, sizeof *out);
    size_t nc = vocab_size(tc->classes), nt = vocab_size(tc->tokens);
    uint64_t *const *cnt = opt->binary ? tc->docs : tc->count;
    size_t *order = vocab_sorted_ids(tc->classes);
    size_t *kept = malloc((nt ? nt : 1) * sizeof *kept);
    uint64_t *class_total = calloc(nc ? nc : 1, sizeof *class_total);
    out->classes = calloc(nc ? nc : 1, sizeof *out->classes);
    if (!order || !kept || !class_total || !out->classes)
        goto fail;
    /* Integer sums first: exact, and independent of hash order. */
    size_t nk = 0;
    uint64_t grand = 0;
    for (size_t t = 0; t < nt; t++) {
        uint64_t total = 0;
        for (size_t c = 0; c < nc; c++)
            total += cnt[c][t];
        if (total >= opt->min_count && total > 0) {
            kept[nk++] = t;
            for (size_t c = 0; c < nc; c++)
                class_total[c] += cnt[c][t];
            grand += total;
        }
    }
    double k = opt->smoothing;
    double S = (double)grand + k * (double)nk * (double)nc;
    out->nclasses = nc;
    out->kept = nk;
    for (size_t i = 0; i < nc; i++) {
        size_t c = order[i];
        pmi_class *pc = &out->classes[i];
        pc->class_id = c;
        pc->entries = malloc((nk ? nk : 1) * sizeof *pc->entries);
        if (!pc->entries)
            goto fail;
        double s_c = (double)class_total[c] + k * (double)nk;
        for (size_t j = 0; j < nk; j++) {
            size_t t = kept[j];
            uint64_t total = 0;
            for (size_t c2 = 0; c2 < nc; c2++)
                total += cnt[c2][t];
            double s_w = (double)total + k * (double)nc;
            double s_wc = (double)cnt[c][t] + k;
            pmi_entry *e = &pc->entries[j];
            e->token = t;
            e->count = cnt[c][t];
            e->pmi = log2(s_wc * S / (s_w * s_c));
            e->class_share = tc->examples[c]
                ? (double)tc->docs[c][t] / (double)tc->examples[c] : 0.0;
        }
        pc->n = nk;
        qsort_r(pc->entries, nk, sizeof *pc->entries, cmp_entries,
                (void *)tc->tokens);
    }
    free(order);
    free(kept);
    free(class_total);
    return 0;
fail:
    free(order);
    free(kept);
    free(class_total);
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
                    vocab_str(tc->tokens, e->token), pmi, e->count);
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
    uint64_t *total = calloc(nt ? nt : 1, sizeof *total);
    bool *stop = calloc(nt ? nt : 1, sizeof *stop);
    out->classes = calloc(nc ? nc : 1, sizeof *out->classes);
    if (!order || !total || !stop || !out->classes)
        goto fail;
    uint64_t grand = 0, examples = 0;
    size_t seen = 0;
    for (size_t t = 0; t < nt; t++) {
        for (size_t c = 0; c < nc; c++)
            total[t] += tc->count[c][t];
        grand += total[t];
        seen += total[t] > 0;
        stop[t] = pmi_stop_word(vocab_str(tc->tokens, t));
    }
    for (size_t c = 0; c < nc; c++)
        examples += tc->examples[c];
    double k = smoothing;
    double S = (double)grand + k * (double)seen;
    out->nclasses = nc;
    for (size_t i = 0; i < nc; i++) {
        size_t c = order[i];
        pmi_class *pc = &out->classes[i];
        pc->class_id = c;
        pc->entries = malloc((nt ? nt : 1) * sizeof *pc->entries);
        if (!pc->entries)
            goto fail;
        uint64_t class_sum = 0;
        size_t n = 0;
        for (size_t t = 0; t < nt; t++)
            if (tc->docs[c][t] > 0 && tc->docs[c][t] >= min_df && !stop[t]) {
                pc->entries[n++].token = t;
                class_sum += tc->count[c][t];
            }
        double S_c = (double)class_sum + k * (double)n;
        double p_c = (double)tc->examples[c] / (double)examples;
        for (size_t j = 0; j < n; j++) {
            pmi_entry *e = &pc->entries[j];
            size_t t = e->token;
            double p_wc = ((double)tc->count[c][t] + k) / S_c;
            double p_w = ((double)total[t] + k) / S;
            e->count = tc->count[c][t];
            e->pmi = log2(p_wc / (p_w * p_c));
            e->class_share = p_wc;
        }
        pc->n = n;
        out->kept += n;
        qsort_r(pc->entries, n, sizeof *pc->entries, cmp_entries, (void *)tc->tokens);
    }
    free(order);
    free(total);
    free(stop);
    return 0;
fail:
    free(order);
    free(total);
    free(stop);
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
        rc = competency_compute(&tc, &co, &o.z, err);
    } else if (rc == 0 && !job->emit_counts && job->measure == MEASURE_LOGODDS) {
        logodds_options lo = {.binary = job->opt.binary, .min_count = job->opt.min_count,
                              .prior_scale = job->prior_scale,
                              .prior = job->prior ? &prior : NULL};
        rc = logodds_compute(&tc, &lo, &o.lo, err);
    } else if (rc == 0 && !job->emit_counts && job->measure == MEASURE_PMI_PUBLISHED) {
        if (pmi_published_compute(&tc, job->opt.smoothing, job->opt.min_count, &o.table) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    } else if (rc == 0 && !job->emit_counts && pmi_compute(&tc, &job->opt, &o.table) < 0)
        rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0)
        rc = out_write(output, write_output, &o, err);
    pmi_free(&o.table);
    competency_free(&o.z);
    logodds_free(&o.lo);
    logodds_prior_free(&prior);
    counts_free(&tc);
    return rc;
}
