/* The study's verdicts (study/verdicts.h): the Benjamini-Hochberg family
   counts the extra tests that are no row; a row is significant only when
   its q is small enough and its effect points the way it looks for;
   untested rows take no part; summary.tsv's formatting. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "study/verdicts.h"

/* A tested row with p-value p and the direction it looks for or not. */
static verdict *row(verdicts *vs, const char *name, double p, bool direction_ok)
{
    tells_error err;
    verdict *v = verdicts_add(vs, &err, "%s", name);
    CHECK(v != NULL);
    v->tested = true;
    v->p = pvalue_from_p(p);
    v->direction_ok = direction_ok;
    return v;
}

static void family(void)
{
    tells_error err;
    verdicts vs;
    verdicts_init(&vs, 0.05);
    row(&vs, "a", 0.01, true);
    row(&vs, "b", 0.04, true);
    verdict *c = verdicts_add(&vs, &err, "untested");
    CHECK(c && !c->tested && isnan(c->value) && isnan(c->ci_low));
    /* Alone, a and b: BH q = 0.02 and 0.04, both significant. Two extra
       tests of p 0.5 make the family 4: q = 0.04 and 0.08. */
    CHECK(verdicts_add_extra(&vs, pvalue_from_p(0.5), &err) == 0);
    CHECK(verdicts_add_extra(&vs, pvalue_from_p(0.5), &err) == 0);
    CHECK(verdicts_adjust(&vs, &err) == 0);
    CHECK(vs.family == 4);
    const verdict *a = verdicts_find(&vs, "a"), *b = verdicts_find(&vs, "b");
    CHECK_NEAR(a->q.p, 0.04, 1e-12);
    CHECK_NEAR(b->q.p, 0.08, 1e-12);
    CHECK(a->significant && !b->significant);
    CHECK(!verdicts_find(&vs, "untested")->significant);
    CHECK(verdicts_find(&vs, "nope") == NULL);
    verdicts_free(&vs);

    /* The same p the other way: not significant, however small q. */
    verdicts_init(&vs, 0.05);
    row(&vs, "backwards", 1e-9, false);
    CHECK(verdicts_adjust(&vs, &err) == 0);
    CHECK(vs.family == 1 && !vs.v[0].significant);
    CHECK_NEAR(vs.v[0].q.p, 1e-9, 1e-21);
    verdicts_free(&vs);

    /* Nothing tested: an empty family. */
    verdicts_init(&vs, 0.05);
    CHECK(verdicts_add(&vs, &err, "logodds") != NULL);
    CHECK(verdicts_adjust(&vs, &err) == 0);
    CHECK(vs.family == 0);
    verdicts_free(&vs);
}

static void format(void)
{
    tells_error err;
    verdicts vs;
    verdicts_init(&vs, 0.05);
    verdict *v = row(&vs, "hypothesis_only", 2.1e-29, true);
    v->value = 0.722222;
    v->reference = 1.0 / 3;
    v->effect = 0.388889;
    v->ci_low = 0.3;
    v->ci_high = 0.45;
    snprintf(v->detail, sizeof v->detail, "n=450");
    v = verdicts_add(&vs, &err, "token:%s:%s", "sleeping", "contradiction");
    v->value = 0.5;
    CHECK(verdicts_adjust(&vs, &err) == 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    CHECK(verdicts_write(fp, &vs, &err) == 0);
    fclose(fp);
    CHECK_STR(buf, "check\tvalue\treference\teffect\tci_low\tci_high\tp_value\tq_value\t"
                   "significant\tdetail\n"
                   "hypothesis_only\t0.722222\t0.333333\t0.388889\t0.300000\t0.450000\t"
                   "2.1e-29\t2.1e-29\tyes\tn=450\n"
                   "token:sleeping:contradiction\t0.500000\t-\t-\t-\t-\t-\t-\t-\t-\n");
    free(buf);
    verdicts_free(&vs);
}

int main(void)
{
    family();
    format();
    CHECK_DONE();
}
