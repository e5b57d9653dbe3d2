#include <config.h>
#include "analysis/capability.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/baseline.h"
#include "base/csvrec.h"
#include "model/evaluate.h"
#include "base/vocab.h"

/* ---- label map ---- */

void label_map_free(label_map *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->from[i]);
        free(m->to[i]);
    }
    free(m->from);
    free(m->to);
    memset(m, 0, sizeof *m);
}

int label_map_parse(label_map *m, const char *spec, tells_error *err)
{
    char *copy = strdup(spec), *save = NULL;
    if (!copy)
        return tells_error_nomem(err, NULL, 0);
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1]) {
            tells_error_set(err, NULL, 0, "--labels: expected FROM=TO, not '%s'", item);
            free(copy);
            return -1;
        }
        *eq = '\0';
        char **from = realloc(m->from, (m->n + 1) * sizeof *from);
        char **to = from ? realloc(m->to, (m->n + 1) * sizeof *to) : NULL;
        if (from)
            m->from = from;
        if (to)
            m->to = to;
        if (!from || !to || !(m->from[m->n] = strdup(item)) ||
            !(m->to[m->n] = strdup(eq + 1))) {
            free(copy);
            return tells_error_nomem(err, NULL, 0);
        }
        m->n++;
    }
    free(copy);
    return 0;
}

const char *label_map_apply(const label_map *m, const char *label)
{
    for (size_t i = m->n; i-- > 0;)
        if (strcmp(m->from[i], label) == 0)
            return m->to[i];
    return label;
}

/* ---- input lines ---- */

void lines_free(char **lines, size_t n)
{
    for (size_t i = 0; lines && i < n; i++)
        free(lines[i]);
    free(lines);
}

static char *tokenized(const tok_options *tok, const char *text, token_list *tl)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (!tok)
        buf = strdup(text);
    else if (tokenize(tok, text, strlen(text), tl) < 0 ||
             token_list_join(tl, &buf, &len, &cap) < 0) {
        free(buf);
        return NULL;
    } else
        buf[len] = '\0';  /* join leaves room for it */
    /* A line holds no tab but a pair's, and no line end. */
    for (char *q = buf; q && *q; q++)
        if (*q == '\t' || *q == '\n' || *q == '\r')
            *q = ' ';
    return buf;
}

char *input_line(const tok_options *tok, const char *text)
{
    token_list tl;
    token_list_init(&tl);
    char *line = tokenized(tok, text, &tl);
    token_list_free(&tl);
    return line;
}

int case_lines(const case_set *cs, const tok_options *tok, char ***out, tells_error *err)
{
    char **lines = calloc(cs->n ? cs->n : 1, sizeof *lines);
    token_list tl;
    token_list_init(&tl);
    if (!lines)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < cs->n; i++) {
        const test_case *c = &cs->c[i];
        char *h = tokenized(tok, c->text, &tl);
        char *p = c->premise ? tokenized(tok, c->premise, &tl) : NULL;
        if (!h || (c->premise && !p)) {
            free(h);
            free(p);
            lines_free(lines, cs->n);
            token_list_free(&tl);
            return tells_error_nomem(err, NULL, 0);
        }
        if (p) {
            size_t n = strlen(p) + strlen(h) + 2;
            lines[i] = malloc(n);
            if (lines[i])
                snprintf(lines[i], n, "%s\t%s", p, h);
            free(h);
            free(p);
        } else
            lines[i] = h;
        if (!lines[i]) {
            lines_free(lines, cs->n);
            token_list_free(&tl);
            return tells_error_nomem(err, NULL, 0);
        }
    }
    token_list_free(&tl);
    *out = lines;
    return 0;
}

/* ---- scoring ---- */

void run_results_free(run_results *r)
{
    free(r->pred);
    free(r->prob);
    free(r->expected);
    free(r->pass);
    memset(r, 0, sizeof *r);
}

static int expected_classes(run_results *r, const case_set *cs, const template_set *s,
                            const label_map *m, const classifier *c, tells_error *err)
{
    for (size_t i = 0; i < cs->n; i++) {
        const template_row *t = &s->row[cs->c[i].tmpl];
        r->expected[i] = -1;
        if (t->type == TEST_MFT) {
            const char *want = label_map_apply(m, t->label);
            if ((r->expected[i] = classifier_find(c, want)) < 0)
                return tells_error_set(err, s->source, t->line,
                                       "label '%s' is not a class of the model (map it "
                                       "with --labels)",
                                       want);
        } else if (t->type == TEST_DIR && classifier_find(c, t->dir_class) < 0)
            return tells_error_set(err, s->source, t->line,
                                   "class '%s' is not a class of the model", t->dir_class);
    }
    return 0;
}

/* INV: one prediction in the group. DIR: the class probability moves
   the stated way from the group's reference case, within tolerance. */
static int score_groups(run_results *r, const case_set *cs, const template_set *s,
                        const classifier *c, tells_error *err)
{
    size_t G = cs->ngroups, K = r->nclasses;
    bool *ok = malloc((G ? G : 1) * sizeof *ok);
    long *first = malloc((G ? G : 1) * sizeof *first);
    if (!ok || !first) {
        free(ok);
        free(first);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t g = 0; g < G; g++) {
        ok[g] = true;
        first[g] = -1;
    }
    for (size_t i = 0; i < cs->n; i++) {
        const test_case *k = &cs->c[i];
        const template_row *t = &s->row[k->tmpl];
        if (t->type == TEST_MFT)
            ok[k->group] = r->pred[i] == (size_t)r->expected[i];
        else if (t->type == TEST_INV) {
            if (first[k->group] < 0)
                first[k->group] = (long)i;
            else if (r->pred[i] != r->pred[first[k->group]])
                ok[k->group] = false;
        } else if (k->reference)
            first[k->group] = (long)i;
    }
    for (size_t i = 0; i < cs->n; i++) {
        const test_case *k = &cs->c[i];
        const template_row *t = &s->row[k->tmpl];
        if (t->type != TEST_DIR || k->reference)
            continue;
        size_t cls = (size_t)classifier_find(c, t->dir_class);
        double p = r->prob[i * K + cls], p0 = r->prob[(size_t)first[k->group] * K + cls];
        if (isnan(p) || isnan(p0)) {
            free(ok);
            free(first);
            return tells_error_set(err, s->source, t->line,
                                   "a DIR test needs class probabilities, and the model "
                                   "gave none");
        }
        double delta = p - p0;
        bool pass = t->direction == DIR_UP     ? delta >= -t->tolerance
                    : t->direction == DIR_DOWN ? delta <= t->tolerance
                                               : fabs(delta) <= t->tolerance;
        if (!pass)
            ok[k->group] = false;
    }
    for (size_t i = 0; i < cs->n; i++)
        r->pass[i] = ok[cs->c[i].group];
    free(ok);
    free(first);
    return 0;
}

int run_cases(run_results *r, const case_set *cs, const template_set *s, const label_map *m,
              classifier *c, char *const *lines, size_t batch, tells_error *err)
{
    memset(r, 0, sizeof *r);
    size_t n = cs->n, K = classifier_nclasses(c);
    r->n = n;
    r->nclasses = K;
    r->pred = malloc((n ? n : 1) * sizeof *r->pred);
    r->prob = malloc((n ? n * K : 1) * sizeof *r->prob);
    r->expected = malloc((n ? n : 1) * sizeof *r->expected);
    r->pass = malloc((n ? n : 1) * sizeof *r->pass);
    if (!r->pred || !r->prob || !r->expected || !r->pass) {
        run_results_free(r);
        return tells_error_nomem(err, NULL, 0);
    }
    if (expected_classes(r, cs, s, m, c, err) < 0)
        goto fail;
    for (size_t i = 0; i < n; i += batch) {
        size_t b = n - i < batch ? n - i : batch;
        if (classifier_predict(c, (const char *const *)lines + i, b, r->pred + i,
                               r->prob + i * K, err) < 0)
            goto fail;
    }
    if (score_groups(r, cs, s, c, err) < 0)
        goto fail;
    return 0;
fail:
    run_results_free(r);
    return -1;
}

/* ---- reports ---- */

static void put_rate(FILE *fp, size_t passed, size_t n)
{
    if (n)
        fprintf(fp, "\t%.6f", (double)passed / (double)n);
    else
        fputs("\t-", fp);
}

int report_summary(FILE *fp, const report_context *x, double fail_under, size_t *below)
{
    const template_set *s = x->s;
    vocab *keys = vocab_new();
    size_t *key_of = malloc((s->n ? s->n : 1) * sizeof *key_of);
    size_t *tmpl_n = calloc(s->n ? s->n : 1, sizeof *tmpl_n);
    size_t *case_n = calloc(s->n ? s->n : 1, sizeof *case_n);
    size_t *pass_n = calloc(s->n ? s->n : 1, sizeof *pass_n);
    size_t *first = calloc(s->n ? s->n : 1, sizeof *first);
    int rc = -1;
    *below = 0;
    if (!keys || !key_of || !tmpl_n || !case_n || !pass_n || !first)
        goto done;
    for (size_t i = 0; i < s->n; i++) {
        const template_row *t = &s->row[i];
        char *slots = template_slot_set(t);
        if (!slots)
            goto done;
        size_t len = strlen(t->capability) + strlen(t->label) + strlen(slots) + 16;
        char *key = malloc(len);
        if (!key) {
            free(slots);
            goto done;
        }
        snprintf(key, len, "%s\t%s\t%s\t%s", t->capability, t->label[0] ? t->label : "-",
                 test_type_name(t->type), slots);
        size_t before = vocab_size(keys);
        long k = vocab_intern(keys, key, strlen(key));
        free(key);
        free(slots);
        if (k < 0)
            goto done;
        if ((size_t)k == before)
            first[k] = i;
        key_of[i] = (size_t)k;
        if (x->cs->selected[i])
            tmpl_n[k]++;
    }
    for (size_t i = 0; i < x->cs->n; i++) {
        size_t k = key_of[x->cs->c[i].tmpl];
        case_n[k]++;
        pass_n[k] += x->r->pass[i];
    }
    fputs("capability\tlabel\ttype\tplaceholders\ttemplates\tcases\tpassed\tpass_rate", fp);
    fputs(x->heldout_recall ? "\theldout_recall\n" : "\n", fp);
    for (size_t k = 0; k < vocab_size(keys); k++) {
        fprintf(fp, "%s\t%zu\t%zu\t%zu", vocab_str(keys, k), tmpl_n[k], case_n[k], pass_n[k]);
        put_rate(fp, pass_n[k], case_n[k]);
        if (fail_under >= 0 && case_n[k] && (double)pass_n[k] / (double)case_n[k] < fail_under)
            (*below)++;
        if (x->heldout_recall) {
            const template_row *t = &s->row[first[k]];
            long cls = t->type == TEST_MFT
                           ? classifier_find(x->c, label_map_apply(x->m, t->label))
                           : -1;
            if (cls >= 0 && !isnan(x->heldout_recall[cls]))
                fprintf(fp, "\t%.6f", x->heldout_recall[cls]);
            else
                fputs("\t-", fp);
        }
        putc('\n', fp);
    }
    rc = 0;
done:
    vocab_free(keys);
    free(key_of);
    free(tmpl_n);
    free(case_n);
    free(pass_n);
    free(first);
    return rc;
}

int report_by_template(FILE *fp, const report_context *x)
{
    const template_set *s = x->s;
    size_t *case_n = calloc(s->n ? s->n : 1, sizeof *case_n);
    size_t *pass_n = calloc(s->n ? s->n : 1, sizeof *pass_n);
    if (!case_n || !pass_n) {
        free(case_n);
        free(pass_n);
        return -1;
    }
    for (size_t i = 0; i < x->cs->n; i++) {
        case_n[x->cs->c[i].tmpl]++;
        pass_n[x->cs->c[i].tmpl] += x->r->pass[i];
    }
    fputs("template\tcapability\tlabel\ttype\tbase\tcases\tpassed\tpass_rate\ttext\n", fp);
    for (size_t i = 0; i < s->n; i++) {
        const template_row *t = &s->row[i];
        if (!x->cs->selected[i])
            continue;
        fprintf(fp, "%s\t%s\t%s\t%s\t%s\t%zu\t%zu", t->name, t->capability,
                t->label[0] ? t->label : "-", test_type_name(t->type), t->base ? t->base : "-",
                case_n[i], pass_n[i]);
        put_rate(fp, pass_n[i], case_n[i]);
        fputc('\t', fp);
        for (const char *p = t->premise; p && *p; p++)
            fputc(*p == '\t' ? ' ' : *p, fp);
        if (t->premise)
            fputs(" || ", fp);
        for (const char *p = t->text; *p; p++)
            fputc(*p == '\t' ? ' ' : *p, fp);
        putc('\n', fp);
    }
    free(case_n);
    free(pass_n);
    return 0;
}

int report_by_fill(FILE *fp, const report_context *x, const char *name, tells_error *err)
{
    vocab *keys = vocab_new();
    size_t cap = 256;
    size_t *case_n = calloc(cap, sizeof *case_n), *pass_n = calloc(cap, sizeof *pass_n);
    int rc = -1;
    bool any = false;
    if (!keys || !case_n || !pass_n) {
        tells_error_nomem(err, NULL, 0);
        goto done;
    }
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < x->cs->n; i++) {
            const test_case *c = &x->cs->c[i];
            const template_row *t = &x->s->row[c->tmpl];
            for (size_t k = 0; k < t->nslots; k++) {
                if (strcmp(t->slots[k], name) != 0)
                    continue;
                any = true;
                const char *v = case_value(x->cs, c, k);
                const char *cap_name = pass == 0 ? t->capability : "all";
                size_t len = strlen(cap_name) + strlen(v) + 2;
                char *key = malloc(len);
                if (!key) {
                    tells_error_nomem(err, NULL, 0);
                    goto done;
                }
                snprintf(key, len, "%s\t%s", cap_name, v);
                long id = vocab_intern(keys, key, strlen(key));
                free(key);
                if (id < 0) {
                    tells_error_nomem(err, NULL, 0);
                    goto done;
                }
                if ((size_t)id >= cap) {
                    size_t ncap = cap * 2;
                    size_t *a = realloc(case_n, ncap * sizeof *a);
                    if (a)
                        case_n = a;
                    size_t *b = a ? realloc(pass_n, ncap * sizeof *b) : NULL;
                    if (!a || !b) {
                        tells_error_nomem(err, NULL, 0);
                        goto done;
                    }
                    pass_n = b;
                    memset(case_n + cap, 0, (ncap - cap) * sizeof *case_n);
                    memset(pass_n + cap, 0, (ncap - cap) * sizeof *pass_n);
                    cap = ncap;
                }
                case_n[id]++;
                pass_n[id] += x->r->pass[i];
            }
        }
    if (!any) {
        tells_error_set(err, NULL, 0, "--by-fill %s: no template uses {%s}", name, name);
        goto done;
    }
    fprintf(fp, "capability\t%s\tcases\tpassed\tpass_rate\n", name);
    for (size_t k = 0; k < vocab_size(keys); k++) {
        fprintf(fp, "%s\t%zu\t%zu", vocab_str(keys, k), case_n[k], pass_n[k]);
        put_rate(fp, pass_n[k], case_n[k]);
        putc('\n', fp);
    }
    rc = 0;
done:
    vocab_free(keys);
    free(case_n);
    free(pass_n);
    return rc;
}

int report_failures(FILE *fp, const report_context *x)
{
    const run_results *r = x->r;
    fputs("case,template,capability,label,type,expected,predicted", fp);
    for (size_t k = 0; k < r->nclasses; k++) {
        fputs(",", fp);
        char name[512];
        snprintf(name, sizeof name, "p_%s", classifier_class(x->c, k));
        if (csv_write_field(fp, name) < 0)
            return -1;
    }
    fputs(",premise,text\n", fp);
    for (size_t i = 0; i < x->cs->n; i++) {
        if (r->pass[i])
            continue;
        const test_case *c = &x->cs->c[i];
        const template_row *t = &x->s->row[c->tmpl];
        fprintf(fp, "%zu,", c->id);
        csv_write_field(fp, t->name);
        putc(',', fp);
        csv_write_field(fp, t->capability);
        putc(',', fp);
        csv_write_field(fp, t->label);
        fprintf(fp, ",%s,", test_type_name(t->type));
        csv_write_field(fp, r->expected[i] >= 0 ? classifier_class(x->c, (size_t)r->expected[i])
                                                : "");
        putc(',', fp);
        csv_write_field(fp, classifier_class(x->c, r->pred[i]));
        for (size_t k = 0; k < r->nclasses; k++) {
            double p = r->prob[i * r->nclasses + k];
            if (isnan(p))
                fputs(",", fp);
            else
                fprintf(fp, ",%.6f", p);
        }
        putc(',', fp);
        csv_write_field(fp, c->premise ? c->premise : "");
        putc(',', fp);
        csv_write_field(fp, c->text);
        putc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

/* ---- held-out evaluation ---- */

void heldout_free(heldout *h)
{
    free(h->rows);
    free(h->pred);
    memset(h, 0, sizeof *h);
}

int heldout_predict(heldout *h, dataset *d, const char *split, bool pair, classifier *c,
                    size_t batch, tells_error *err)
{
    memset(h, 0, sizeof *h);
    h->d = d;
    if (split) {
        long sp = vocab_find(d->splits, split, strlen(split));
        if (sp < 0)
            return tells_error_set(err, d->source, 0, "no split named '%s'", split);
        h->rows = split_rows(d, (size_t)sp, &h->n);
    } else {
        h->rows = malloc((d->n ? d->n : 1) * sizeof *h->rows);
        for (size_t i = 0; h->rows && i < d->n; i++)
            h->rows[i] = i;
        h->n = d->n;
    }
    size_t K = classifier_nclasses(c);
    h->pred = malloc((h->n ? h->n : 1) * sizeof *h->pred);
    size_t *cls = malloc((batch ? batch : 1) * sizeof *cls);
    double *prob = malloc((batch ? batch * K : 1) * sizeof *prob);
    char **lines = calloc(batch ? batch : 1, sizeof *lines);
    long *label_of = malloc(K * sizeof *label_of);
    int rc = -1;
    if (!h->rows || !h->pred || !cls || !prob || !lines || !label_of) {
        tells_error_nomem(err, NULL, 0);
        goto done;
    }
    for (size_t k = 0; k < K; k++) {
        const char *name = classifier_class(c, k);
        if ((label_of[k] = vocab_intern(d->labels, name, strlen(name))) < 0) {
            tells_error_nomem(err, NULL, 0);
            goto done;
        }
    }
    for (size_t i = 0; i < h->n; i += batch) {
        size_t b = h->n - i < batch ? h->n - i : batch;
        for (size_t j = 0; j < b; j++) {
            const example *e = &d->ex[h->rows[i + j]];
            size_t len = strlen(e->hypothesis) + (pair ? strlen(e->premise) + 1 : 0) + 1;
            if (!(lines[j] = malloc(len))) {
                tells_error_nomem(err, NULL, 0);
                goto done;
            }
            if (pair)
                snprintf(lines[j], len, "%s\t%s", e->premise, e->hypothesis);
            else
                snprintf(lines[j], len, "%s", e->hypothesis);
        }
        int prc = classifier_predict(c, (const char *const *)lines, b, cls, prob, err);
        for (size_t j = 0; j < b; j++) {
            free(lines[j]);
            lines[j] = NULL;
        }
        if (prc < 0)
            goto done;
        for (size_t j = 0; j < b; j++)
            h->pred[i + j] = (size_t)label_of[cls[j]];
    }
    rc = 0;
done:
    for (size_t j = 0; lines && j < batch; j++)
        free(lines[j]);
    free(lines);
    free(cls);
    free(prob);
    free(label_of);
    if (rc < 0)
        heldout_free(h);
    return rc;
}

static int heldout_scores(const heldout *h, id_set *subset, scores *s)
{
    predictions p = {h->n, h->rows, h->pred, NULL, vocab_size(h->d->labels)};
    return scores_compute(s, h->d, &p, subset);
}

int heldout_recall(const heldout *h, const classifier *c, double *recall, tells_error *err)
{
    scores s;
    if (heldout_scores(h, NULL, &s) < 0)
        return tells_error_nomem(err, NULL, 0);
    for (size_t k = 0; k < classifier_nclasses(c); k++) {
        const char *name = classifier_class(c, k);
        long l = vocab_find(h->d->labels, name, strlen(name));
        recall[k] = l >= 0 && s.support[l] ? s.recall[l] : NAN;
    }
    scores_free(&s);
    return 0;
}

int report_partitions(FILE *fp, const heldout *h, char *const *names, id_set *parts,
                      size_t nparts, tells_error *err)
{
    const dataset *d = h->d;
    size_t L = vocab_size(d->labels);
    size_t *order = vocab_sorted_ids(d->labels);
    scores *s = calloc(nparts + 1, sizeof *s);
    size_t *gold_seen = calloc(L ? L : 1, sizeof *gold_seen);
    int rc = -1;
    size_t done_n = 0;
    if (!order || !s || !gold_seen) {
        tells_error_nomem(err, NULL, 0);
        goto done;
    }
    /* Recall columns for the labels of the evaluated rows. */
    for (size_t i = 0; i < h->n; i++)
        gold_seen[d->ex[h->rows[i]].label] = 1;
    for (size_t p = 0; p <= nparts; p++) {
        if (heldout_scores(h, p ? &parts[p - 1] : NULL, &s[p]) < 0) {
            tells_error_nomem(err, NULL, 0);
            goto done;
        }
        done_n = p + 1;
        if (p && s[p].n == 0) {
            tells_error_set(err, NULL, 0, "partition '%s': none of its ids is an evaluated row",
                            names[p - 1]);
            goto done;
        }
    }
    fputs("partition\tn\taccuracy\tmicro_f1\tmacro_f1", fp);
    for (size_t j = 0; j < L; j++)
        if (gold_seen[order[j]])
            fprintf(fp, "\trecall_%s", vocab_str(d->labels, order[j]));
    fputs("\tchange_accuracy\tchange_micro_f1\tchange_macro_f1", fp);
    for (size_t j = 0; j < L; j++)
        if (gold_seen[order[j]])
            fprintf(fp, "\tchange_recall_%s", vocab_str(d->labels, order[j]));
    putc('\n', fp);
    for (size_t p = 0; p <= nparts; p++) {
        const scores *a = &s[p], *f = &s[0];
        fprintf(fp, "%s\t%zu\t%.6f\t%.6f\t%.6f", p ? names[p - 1] : "full", a->n, a->accuracy,
                a->micro_f1, a->macro_f1);
        for (size_t j = 0; j < L; j++)
            if (gold_seen[order[j]]) {
                if (a->support[order[j]])
                    fprintf(fp, "\t%.6f", a->recall[order[j]]);
                else
                    fputs("\t-", fp);
            }
        fprintf(fp, "\t%.6f\t%.6f\t%.6f", a->accuracy - f->accuracy, a->micro_f1 - f->micro_f1,
                a->macro_f1 - f->macro_f1);
        for (size_t j = 0; j < L; j++)
            if (gold_seen[order[j]]) {
                if (a->support[order[j]] && f->support[order[j]])
                    fprintf(fp, "\t%.6f", a->recall[order[j]] - f->recall[order[j]]);
                else
                    fputs("\t-", fp);
            }
        putc('\n', fp);
    }
    rc = 0;
done:
    for (size_t p = 0; p < done_n; p++)
        scores_free(&s[p]);
    free(s);
    free(order);
    free(gold_seen);
    return rc;
}
