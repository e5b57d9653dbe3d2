#include <config.h>
#include "study/verdicts.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void verdicts_init(verdicts *vs, double alpha)
{
    memset(vs, 0, sizeof *vs);
    vs->alpha = alpha;
}

void verdicts_free(verdicts *vs)
{
    free(vs->v);
    memset(vs, 0, sizeof *vs);
}

verdict *verdicts_add(verdicts *vs, tells_error *err, const char *fmt, ...)
{
    if (ARRAY_RESERVE(vs->v, vs->cap, vs->n + 1) < 0) {
        tells_error_nomem(err, NULL, 0);
        return NULL;
    }
    verdict *v = &vs->v[vs->n++];
    memset(v, 0, sizeof *v);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->check, sizeof v->check, fmt, ap);
    va_end(ap);
    v->value = v->reference = v->effect = v->ci_low = v->ci_high = NAN;
    v->p = v->q = pvalue_from_p(1.0);
    v->direction_ok = true;
    return v;
}

static bool at_most(pvalue p, double level)
{
    return p.p >= PVALUE_TINY ? p.p <= level : p.log_p <= log(level);
}

/* The primary rows' p-values in row order, adjusted as one family. */
static int adjust_primary(verdicts *vs, size_t m, tells_error *err)
{
    pvalue *p = array_new(m, sizeof *p), *q = array_new(m, sizeof *q);
    bool *reject = array_new(m, sizeof *reject);
    int rc = p && q && reject ? 0 : tells_error_nomem(err, NULL, 0);
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < vs->n; i++)
        if (vs->v[i].tested && vs->v[i].family == FAMILY_PRIMARY)
            p[k++] = vs->v[i].p;
    if (rc == 0)
        rc = bh_adjust(p, m, vs->alpha, q, reject, err);
    k = 0;
    for (size_t i = 0; rc == 0 && i < vs->n; i++) {
        verdict *v = &vs->v[i];
        if (!v->tested || v->family != FAMILY_PRIMARY)
            continue;
        v->q = q[k++];
        v->family_size = m;
        v->significant = v->direction_ok && at_most(v->q, vs->alpha);
    }
    free(p);
    free(q);
    free(reject);
    return rc;
}

/* " family=primary(14)" and the like at the end of detail. */
static void tag_family(verdict *v)
{
    size_t used = strlen(v->detail);
    if (used + 1 >= sizeof v->detail)
        return;
    const char *sep = used ? " " : "";
    switch (v->family) {
    case FAMILY_TOKENS:
        snprintf(v->detail + used, sizeof v->detail - used, "%sfamily=tokens(%zu,bonferroni)",
                 sep, v->family_size);
        break;
    case FAMILY_AUDIT:
        snprintf(v->detail + used, sizeof v->detail - used, "%sfamily=audit(%zu)", sep,
                 v->family_size);
        break;
    default:
        snprintf(v->detail + used, sizeof v->detail - used, "%sfamily=primary(%zu)", sep,
                 v->family_size);
    }
}

int verdicts_adjust(verdicts *vs, tells_error *err)
{
    size_t m = 0;
    for (size_t i = 0; i < vs->n; i++)
        m += vs->v[i].tested && vs->v[i].family == FAMILY_PRIMARY;
    vs->family = m;
    if (m > 0 && adjust_primary(vs, m, err) < 0)
        return -1;
    for (size_t i = 0; i < vs->n; i++)
        if (vs->v[i].tested)
            tag_family(&vs->v[i]);
    return 0;
}

void verdict_q_text(const verdict *v, char *buf, size_t size)
{
    char q[64];
    pvalue_format(v->q, 2, q, sizeof q);
    size_t m = v->family_size;
    switch (v->family) {
    case FAMILY_TOKENS:
        snprintf(buf, size, "q = %s, Bonferroni over %zu token-class pair%s", q, m,
                 m == 1 ? "" : "s");
        break;
    case FAMILY_AUDIT:
        snprintf(buf, size, "q = %s over %zu test%s of the batch's audit", q, m,
                 m == 1 ? "" : "s");
        break;
    default:
        snprintf(buf, size, "q = %s over %zu primary check%s", q, m, m == 1 ? "" : "s");
    }
}

const verdict *verdicts_find(const verdicts *vs, const char *check)
{
    for (size_t i = 0; i < vs->n; i++)
        if (strcmp(vs->v[i].check, check) == 0)
            return &vs->v[i];
    return NULL;
}

static void put_number(FILE *fp, double x)
{
    if (isnan(x))
        fputs("\t-", fp);
    else
        fprintf(fp, "\t%.6f", x);
}

int verdicts_write(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const verdicts *vs = ctx;
    fputs("check\tvalue\treference\teffect\tci_low\tci_high\tp_value\tq_value\t"
          "significant\tdetail\n", fp);
    for (size_t i = 0; i < vs->n; i++) {
        const verdict *v = &vs->v[i];
        fputs(v->check, fp);
        put_number(fp, v->value);
        put_number(fp, v->reference);
        put_number(fp, v->effect);
        put_number(fp, v->ci_low);
        put_number(fp, v->ci_high);
        if (v->tested) {
            char p[64], q[64];
            pvalue_format(v->p, 3, p, sizeof p);
            pvalue_format(v->q, 3, q, sizeof q);
            fprintf(fp, "\t%s\t%s\t%s", p, q, v->significant ? "yes" : "no");
        } else
            fputs("\t-\t-\t-", fp);
        fprintf(fp, "\t%s\n", v->detail[0] ? v->detail : "-");
    }
    return 0;
}
