/* The study's verdicts (study/verdicts.h): the Benjamini-Hochberg family
   is the primary checks alone, the token screens and an audit's tests
   keeping their own families and q-values; a row is significant only
   when its q is small enough and its effect points the way it looks for;
   untested rows take no part; detail names each row's family and size;
   summary.tsv's formatting. */
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

/* A row of a family of its own, its q and significance set as its
   section sets them. */
static verdict *own_row(verdicts *vs, const char *name, double p, verdict_family f,
                        size_t size, double q, bool significant)
{
    verdict *v = row(vs, name, p, true);
    v->family = f;
    v->family_size = size;
    v->q = pvalue_from_p(q);
    v->significant = significant;
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
    /* a and b: BH q = 0.02 and 0.04, both significant; a token row and
       an audit row of p 0.5 are no part of their family. */
    own_row(&vs, "token:w:c", 0.5, FAMILY_TOKENS, 3, 1.0, false);
    own_row(&vs, "audit:b.tsv:length", 0.5, FAMILY_AUDIT, 4, 0.6, false);
    CHECK(verdicts_adjust(&vs, &err) == 0);
    CHECK(vs.family == 2);
    const verdict *a = verdicts_find(&vs, "a"), *b = verdicts_find(&vs, "b");
    CHECK_NEAR(a->q.p, 0.02, 1e-12);
    CHECK_NEAR(b->q.p, 0.04, 1e-12);
    CHECK(a->significant && b->significant);
    CHECK(a->family_size == 2);
    CHECK_STR(a->detail, "family=primary(2)");
    /* The other families' q and significance are their sections'. */
    const verdict *t = verdicts_find(&vs, "token:w:c"), *au = verdicts_find(&vs, "audit:b.tsv:length");
    CHECK(t->q.p == 1.0 && !t->significant);
    CHECK_STR(t->detail, "family=tokens(3,bonferroni)");
    CHECK(au->q.p == 0.6);
    CHECK_STR(au->detail, "family=audit(4)");
    CHECK(!verdicts_find(&vs, "untested")->significant);
    CHECK_STR(verdicts_find(&vs, "untested")->detail, "");
    CHECK(verdicts_find(&vs, "nope") == NULL);
    /* Sentences give the q and its family. */
    char q[128];
    verdict_q_text(a, q, sizeof q);
    CHECK_STR(q, "q = 0.02 over 2 primary checks");
    verdict_q_text(t, q, sizeof q);
    CHECK_STR(q, "q = 1, Bonferroni over 3 token-class pairs");
    verdict_q_text(au, q, sizeof q);
    CHECK_STR(q, "q = 0.6 over 4 tests of the batch's audit");
    verdicts_free(&vs);

    /* The same p the other way: not significant, however small q. */
    verdicts_init(&vs, 0.05);
    row(&vs, "backwards", 1e-9, false);
    CHECK(verdicts_adjust(&vs, &err) == 0);
    CHECK(vs.family == 1 && !vs.v[0].significant);
    CHECK_NEAR(vs.v[0].q.p, 1e-9, 1e-21);
    verdict_q_text(&vs.v[0], q, sizeof q);
    CHECK_STR(q, "q = 1e-09 over 1 primary check");
    verdicts_free(&vs);

    /* Nothing tested: an empty family. */
    verdicts_init(&vs, 0.05);
    CHECK(verdicts_add(&vs, &err, "logodds") != NULL);
    CHECK(verdicts_adjust(&vs, &err) == 0);
    CHECK(vs.family == 0);
    verdicts_free(&vs);
}

/* The corpus: a blatant hypothesis-only shortcut (one primary
   check, p = 0.00049) and 1,300 token screens of p = 0.5. Its q was
   swamped when the screens shared its family (0.5); over the primary
   checks alone it is 0.00049 * 1 / 1, significant. With two more
   primary checks of p 0.2 and 0.9, it is 0.00049 * 3 / 1. */
static void not_diluted(void)
{
    tells_error err;
    verdicts vs;
    for (int extra = 0; extra <= 2; extra += 2) {
        verdicts_init(&vs, 0.05);
        row(&vs, "hypothesis_only", 0.00049, true);
        for (int i = 0; i < 1300; i++) {
            char name[32];
            snprintf(name, sizeof name, "token:w%d:c", i);
            own_row(&vs, name, 0.5, FAMILY_TOKENS, 1300, 1.0, false);
        }
        if (extra) {
            row(&vs, "length", 0.2, true);
            row(&vs, "heuristic:h", 0.9, true);
        }
        CHECK(verdicts_adjust(&vs, &err) == 0);
        const verdict *v = verdicts_find(&vs, "hypothesis_only");
        size_t m = 1 + (size_t)extra;
        CHECK(vs.family == m && v->family_size == m);
        CHECK_NEAR(v->q.p, 0.00049 * (double)m / 1, 1e-12);
        CHECK(v->significant);
        char q[128];
        verdict_q_text(v, q, sizeof q);
        CHECK_STR(q, extra ? "q = 0.0015 over 3 primary checks"
                           : "q = 0.00049 over 1 primary check");
        verdicts_free(&vs);
    }
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
                   "2.1e-29\t2.1e-29\tyes\tn=450 family=primary(1)\n"
                   "token:sleeping:contradiction\t0.500000\t-\t-\t-\t-\t-\t-\t-\t-\n");
    free(buf);
    verdicts_free(&vs);
}

int main(void)
{
    family();
    not_diluted();
    format();
    CHECK_DONE();
}
