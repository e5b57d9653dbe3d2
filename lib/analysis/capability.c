#include <config.h>
#include "analysis/capability.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/csvrec.h"
#include "base/outfile.h"
#include "model/baseline.h"
#include "model/evaluate.h"
#include "base/vocab.h"

/* ---- label map ---- */

void label_map_free(label_map *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->pair[i].from);
        free(m->pair[i].to);
    }
    free(m->pair);
    memset(m, 0, sizeof *m);
}

int label_map_parse(label_map *m, const char *spec, tells_error *err)
{
    char *copy = strdup(spec), *save = NULL;
    if (!copy)
        return tells_error_nomem(err, NULL, 0);
    int rc = 0;
    for (char *item = strtok_r(copy, ",", &save); item && rc == 0;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1]) {
            rc = tells_error_usage(err, "expected FROM=TO, not '%s'", item);
            break;
        }
        *eq = '\0';
        if (ARRAY_RESERVE(m->pair, m->cap, m->n + 1) < 0) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        label_pair *p = &m->pair[m->n];
        p->from = strdup(item);
        p->to = strdup(eq + 1);
        if (!p->from || !p->to) {
            free(p->from);
            free(p->to);
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        m->n++;
    }
    free(copy);
    return rc;
}

const char *label_map_apply(const label_map *m, const char *label)
{
    for (size_t i = m->n; i-- > 0;)
        if (strcmp(m->pair[i].from, label) == 0)
            return m->pair[i].to;
    return label;
}

/* ---- classes ---- */

void class_list_free(class_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->name[i]);
    free(l->name);
    memset(l, 0, sizeof *l);
}

/* Adds name unless the list has it. */
static int class_add(class_list *l, const char *name, tells_error *err)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->name[i], name) == 0)
            return 0;
    if (ARRAY_RESERVE(l->name, l->cap, l->n + 1) < 0 || !(l->name[l->n] = strdup(name)))
        return tells_error_nomem(err, NULL, 0);
    l->n++;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The classes of spec in its order: every comma-separated item a class,
   none empty, none twice (the order of probabilities in an answer, so a
   repeat or a gap would shift them). */
static int classes_of_spec(class_list *out, const char *spec, tells_error *err)
{
    if (!*spec)
        return tells_error_usage(err, "no class named");
    for (const char *p = spec;; ) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0)
            return tells_error_usage(err, "empty class name (item %zu)", out->n + 1);
        for (size_t i = 0; i < out->n; i++)
            if (strlen(out->name[i]) == len && memcmp(out->name[i], p, len) == 0)
                return tells_error_usage(err, "class '%.*s' listed twice (items %zu and "
                                         "%zu)", (int)len, p, i + 1, out->n + 1);
        if (ARRAY_RESERVE(out->name, out->cap, out->n + 1) < 0 ||
            !(out->name[out->n] = strndup(p, len)))
            return tells_error_nomem(err, NULL, 0);
        out->n++;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

int class_list_default(class_list *out, const char *spec, const template_set *ts,
                       const label_map *m, const test_tree *tr, const dataset *d,
                       tells_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = 0;
    if (spec)
        rc = classes_of_spec(out, spec, err);
    else {
        for (size_t i = 0; ts && rc == 0 && i < ts->n; i++) {
            if (ts->row[i].type == TEST_MFT)
                rc = class_add(out, label_map_apply(m, ts->row[i].label), err);
            if (rc == 0 && ts->row[i].type == TEST_DIR)
                rc = class_add(out, ts->row[i].dir_class, err);
        }
        for (size_t i = 0; tr && rc == 0 && i < tr->n; i++)
            if (tr->t[i].output)   /* an invariance test names no class */
                rc = class_add(out, tr->t[i].output, err);
        for (size_t i = 0; d && rc == 0 && i < vocab_size(d->labels); i++)
            rc = class_add(out, vocab_str(d->labels, i), err);
        if (rc == 0 && out->n)
            qsort(out->name, out->n, sizeof *out->name, cmp_str);
    }
    if (rc < 0)
        class_list_free(out);
    return rc;
}

/* ---- input lines ---- */

void input_lines_free(input_lines *l)
{
    for (size_t i = 0; l->v && i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
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

/* The line of one text, or of a premise (may be NULL) and a text. */
static char *input_line(const tok_options *tok, const char *premise, const char *text,
                        token_list *tl)
{
    char *h = tokenized(tok, text, tl);
    if (!premise || !h)
        return h;
    char *p = tokenized(tok, premise, tl);
    char *line = NULL;
    if (p) {
        size_t n = strlen(p) + strlen(h) + 2;
        if ((line = malloc(n)))
            snprintf(line, n, "%s\t%s", p, h);
    }
    free(h);
    free(p);
    return line;
}

/* The lines of n texts (and premises when premise is not NULL), read
   through the accessors. */
typedef const char *(*text_at)(const void *items, size_t i, bool premise);

static int make_lines(input_lines *out, const void *items, size_t n, text_at at,
                      const tok_options *tok, tells_error *err)
{
    token_list tl;
    token_list_init(&tl);
    out->v = array_new(n, sizeof *out->v);  /* zeroed: freeable at any point */
    out->n = out->v ? n : 0;
    int rc = out->v ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (!(out->v[i] = input_line(tok, at(items, i, true), at(items, i, false), &tl)))
            rc = tells_error_nomem(err, NULL, 0);
    token_list_free(&tl);
    if (rc < 0)
        input_lines_free(out);
    return rc;
}

static const char *case_text(const void *items, size_t i, bool premise)
{
    const test_case *c = &((const case_set *)items)->c[i];
    return premise ? c->premise : c->text;
}

static const char *tree_text(const void *items, size_t i, bool premise)
{
    return premise ? NULL : ((const test_tree *)items)->inputs[i];
}

int case_lines(const case_set *cs, const tok_options *tok, input_lines *out, tells_error *err)
{
    return make_lines(out, cs, cs->n, case_text, tok, err);
}

int tree_lines(const test_tree *tr, const tok_options *tok, input_lines *out,
               tells_error *err)
{
    return make_lines(out, tr, tr->ninputs, tree_text, tok, err);
}

void input_lines_print(FILE *fp, const input_lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        fprintf(fp, "%s\n", l->v[i]);
}

static int write_lines(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    input_lines_print(fp, ctx);
    return 0;
}

int input_lines_write(const char *path, const input_lines *l, tells_error *err)
{
    return out_write(path, write_lines, (void *)l, err);
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
            if ((r->expected[i] = classifier_find(c, want)) < 0) {
                tells_error_set(err, s->source, t->line, "label '%s' is not a class of the model",
                                want);
                tells_error_tag(err, TELLS_E_NOT_A_CLASS, want);
                return -1;
            }
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
    if (expected_classes(r, cs, s, m, c, err) < 0 ||
        classifier_predict_all(c, (const char *const *)lines, n, batch, r->pred, r->prob,
                               err) < 0 ||
        score_groups(r, cs, s, c, err) < 0)
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

void summary_free(summary *sm)
{
    free(sm->row);
    vocab_free(sm->keys);
    memset(sm, 0, sizeof *sm);
}

/* The summary key of template t ("Neg\t0\tMFT\tade,drug"); NULL when
   out of memory. */
static char *summary_key(const template_row *t)
{
    char *slots = template_slot_set(t);
    if (!slots)
        return NULL;
    size_t len = strlen(t->capability) + strlen(t->label) + strlen(slots) + 16;
    char *key = malloc(len);
    if (key)
        snprintf(key, len, "%s\t%s\t%s\t%s", t->capability, t->label[0] ? t->label : "-",
                 test_type_name(t->type), slots);
    free(slots);
    return key;
}

int summary_compute(summary *sm, const report_context *x, tells_error *err)
{
    const template_set *s = x->s;
    memset(sm, 0, sizeof *sm);
    size_t *row_of = array_new(s->n, sizeof *row_of);
    if (!row_of || !(sm->keys = vocab_new()))
        goto nomem;
    for (size_t i = 0; i < s->n; i++) {
        char *key = summary_key(&s->row[i]);
        long k = key ? vocab_intern(sm->keys, key, strlen(key)) : -1;
        free(key);
        if (k < 0)
            goto nomem;
        if ((size_t)k == sm->n) {
            if (ARRAY_RESERVE(sm->row, sm->cap, sm->n + 1) < 0)
                goto nomem;
            sm->row[sm->n++] = (summary_row){NULL, 0, 0, 0, i};
        }
        row_of[i] = (size_t)k;
        sm->row[k].templates += x->cs->selected[i];
    }
    /* Keys are read only now: the vocabulary may move them while it grows. */
    for (size_t k = 0; k < sm->n; k++)
        sm->row[k].key = vocab_str(sm->keys, k);
    for (size_t i = 0; i < x->cs->n; i++) {
        summary_row *row = &sm->row[row_of[x->cs->c[i].tmpl]];
        row->cases++;
        row->passed += x->r->pass[i];
    }
    free(row_of);
    return 0;
nomem:
    free(row_of);
    summary_free(sm);
    return tells_error_nomem(err, NULL, 0);
}

size_t summary_below(const summary *sm, double rate)
{
    size_t below = 0;
    for (size_t k = 0; k < sm->n; k++)
        below += sm->row[k].cases &&
                 (double)sm->row[k].passed / (double)sm->row[k].cases < rate;
    return below;
}

int report_summary(FILE *fp, const report_context *x, tells_error *err)
{
    summary sm;
    if (summary_compute(&sm, x, err) < 0)
        return -1;
    fputs("capability\tlabel\ttype\tplaceholders\ttemplates\tcases\tpassed\tpass_rate", fp);
    fputs(x->heldout_recall ? "\theldout_recall\n" : "\n", fp);
    for (size_t k = 0; k < sm.n; k++) {
        const summary_row *row = &sm.row[k];
        fprintf(fp, "%s\t%zu\t%zu\t%zu", row->key, row->templates, row->cases, row->passed);
        put_rate(fp, row->passed, row->cases);
        if (x->heldout_recall) {
            const template_row *t = &x->s->row[row->first];
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
    summary_free(&sm);
    return 0;
}

int report_by_template(FILE *fp, const report_context *x, tells_error *err)
{
    const template_set *s = x->s;
    size_t *case_n = array_new(s->n, sizeof *case_n);
    size_t *pass_n = array_new(s->n, sizeof *pass_n);
    if (!case_n || !pass_n) {
        free(case_n);
        free(pass_n);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; i < x->cs->n; i++) {
        case_n[x->cs->c[i].tmpl]++;
        pass_n[x->cs->c[i].tmpl] += x->r->pass[i];
    }
    fputs(x->redacted ? "template\tcapability\tlabel\ttype\tbase\tcases\tpassed\tpass_rate\n"
                      : "template\tcapability\tlabel\ttype\tbase\tcases\tpassed\tpass_rate\ttext\n",
          fp);
    for (size_t i = 0; i < s->n; i++) {
        const template_row *t = &s->row[i];
        if (!x->cs->selected[i])
            continue;
        fprintf(fp, "%s\t%s\t%s\t%s\t%s\t%zu\t%zu", t->name, t->capability,
                t->label[0] ? t->label : "-", test_type_name(t->type), t->base ? t->base : "-",
                case_n[i], pass_n[i]);
        put_rate(fp, pass_n[i], case_n[i]);
        if (x->redacted) {
            putc('\n', fp);
            continue;
        }
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

/* Cases and passes of one row of a report. */
typedef struct tally {
    size_t cases, passed;
} tally;

int report_by_fill(FILE *fp, const report_context *x, const char *name, tells_error *err)
{
    vocab *keys = vocab_new();
    tally *row = NULL;
    size_t nrows = 0, cap = 0;
    bool any = false;
    if (!keys)
        goto nomem;
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
                if (!key)
                    goto nomem;
                snprintf(key, len, "%s\t%s", cap_name, v);
                long id = vocab_intern(keys, key, strlen(key));
                free(key);
                if (id < 0)
                    goto nomem;
                if ((size_t)id == nrows) {
                    if (ARRAY_RESERVE(row, cap, nrows + 1) < 0)
                        goto nomem;
                    row[nrows++] = (tally){0, 0};
                }
                row[id].cases++;
                row[id].passed += x->r->pass[i];
            }
        }
    int rc = 0;
    if (!any)
        rc = tells_error_set(err, NULL, 0, "%s: no template uses {%s}", name, name);
    else {
        fprintf(fp, "capability\t%s\tcases\tpassed\tpass_rate\n", name);
        for (size_t k = 0; k < nrows; k++) {
            fprintf(fp, "%s\t%zu\t%zu", vocab_str(keys, k), row[k].cases, row[k].passed);
            put_rate(fp, row[k].passed, row[k].cases);
            putc('\n', fp);
        }
    }
    vocab_free(keys);
    free(row);
    return rc;
nomem:
    vocab_free(keys);
    free(row);
    return tells_error_nomem(err, NULL, 0);
}

void report_failures(FILE *fp, const report_context *x)
{
    const run_results *r = x->r;
    fputs("case,template,capability,label,type,expected,predicted", fp);
    for (size_t k = 0; k < r->nclasses; k++) {
        fputs(",", fp);
        char name[512];
        snprintf(name, sizeof name, "p_%s", classifier_class(x->c, k));
        csv_write_field(fp, name);
    }
    fputs(x->redacted ? "\n" : ",premise,text\n", fp);
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
        if (x->redacted) {
            putc('\n', fp);
            continue;
        }
        putc(',', fp);
        csv_write_field(fp, c->premise ? c->premise : "");
        putc(',', fp);
        csv_write_field(fp, c->text);
        putc('\n', fp);
    }
}

/* ---- held-out evaluation ---- */

void heldout_free(heldout *h)
{
    free(h->rows);
    free(h->pred);
    memset(h, 0, sizeof *h);
}

int heldout_select(heldout *h, dataset *d, const char *split, tells_error *err)
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
    if (!h->rows) {
        h->n = 0;
        return tells_error_nomem(err, NULL, 0);
    }
    return 0;
}

int heldout_predict(heldout *h, bool pair, classifier *c, size_t batch, tells_error *err)
{
    dataset *d = h->d;
    free(h->pred);
    size_t K = classifier_nclasses(c);
    h->pred = malloc((h->n ? h->n : 1) * sizeof *h->pred);
    size_t *cls = malloc((batch ? batch : 1) * sizeof *cls);
    double *prob = malloc((batch ? batch * K : 1) * sizeof *prob);
    char **lines = calloc(batch ? batch : 1, sizeof *lines);
    long *label_of = malloc(K * sizeof *label_of);
    int rc = -1;
    if (!h->pred || !cls || !prob || !lines || !label_of) {
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

static int heldout_scores(const heldout *h, id_set *subset, scores *s, tells_error *err)
{
    predictions p = {.n = h->n, .row = h->rows, .pred = h->pred,
                     .nlabels = vocab_size(h->d->labels)};
    return scores_compute(s, h->d, &p, subset, err);
}

int heldout_recall(const heldout *h, const classifier *c, double **recall, tells_error *err)
{
    scores s;
    double *r = array_new(classifier_nclasses(c), sizeof *r);
    if (!r)
        return tells_error_nomem(err, NULL, 0);
    if (heldout_scores(h, NULL, &s, err) < 0) {
        free(r);
        return -1;
    }
    for (size_t k = 0; k < classifier_nclasses(c); k++) {
        const char *name = classifier_class(c, k);
        long l = vocab_find(h->d->labels, name, strlen(name));
        r[k] = l >= 0 && s.support[l] ? s.recall[l] : NAN;
    }
    scores_free(&s);
    *recall = r;
    return 0;
}

void report_recall(FILE *fp, const classifier *c, const double *recall)
{
    fputs("class\trecall\n", fp);
    for (size_t k = 0; k < classifier_nclasses(c); k++) {
        if (isnan(recall[k]))
            fprintf(fp, "%s\t-\n", classifier_class(c, k));
        else
            fprintf(fp, "%s\t%.6f\n", classifier_class(c, k), recall[k]);
    }
}

int partition_load(partition *p, const char *name, size_t len, const char *path,
                   tells_error *err)
{
    memset(p, 0, sizeof *p);
    if (!(p->name = strndup(name, len)))
        return tells_error_nomem(err, NULL, 0);
    if (id_set_load(&p->ids, path, err) < 0) {
        free(p->name);
        p->name = NULL;
        return -1;
    }
    return 0;
}

void partition_free(partition *p)
{
    free(p->name);
    id_set_free(&p->ids);
    memset(p, 0, sizeof *p);
}

int report_partitions(FILE *fp, const heldout *h, partition *parts, size_t nparts,
                      tells_error *err)
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
        if (heldout_scores(h, p ? &parts[p - 1].ids : NULL, &s[p], err) < 0)
            goto done;
        done_n = p + 1;
        if (p && s[p].n == 0) {
            tells_error_set(err, NULL, 0, "partition '%s': none of its ids is an evaluated row",
                            parts[p - 1].name);
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
        fprintf(fp, "%s\t%zu\t%.6f\t%.6f\t%.6f", p ? parts[p - 1].name : "full", a->n, a->accuracy,
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
