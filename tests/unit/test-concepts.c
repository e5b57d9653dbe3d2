/* Concept linking (longest match, case, merged tokens, uninverted terms,
   synonyms), the tree-number relations, heuristic conditions, and the
   chi-squared test against SciPy and mpmath (tests/ref/make-heur-ref.py). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "text/concepts.h"
#include "analysis/heuristics.h"

static char dir[256];

static const char *write_file(const char *name, const char *text)
{
    static char path[8][512];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    FILE *fp = fopen(p, "w");
    if (!fp) {
        perror(p);
        exit(1);
    }
    fputs(text, fp);
    fclose(fp);
    return p;
}

static const char *tree_text =
    "\xEF\xBB\xBFTree Number\tDesc Ui\tTerm\n"
    "C01.539\tD007239\tInfection\n"
    "C01.539.757\tD018805\tSepsis\n"
    "C10.228.140.300\tD001930\tBrain Injuries\n"
    "C10.228.140.300.100\tD000001\tBrain Injury, Chronic\n"
    "C26.915.300\tD001930\tBrain Injuries\n"
    "C23.550.414\tD006470\tHemorrhage\n"
    "C23.550.414.788\tD006471\tGastrointestinal Hemorrhage\n"
    "D02.065.589.099.249\tD002511\tCephalosporins\n"
    "M01.643\tD010361\tPatients\n";

/* The descriptor UIs linked in text, space-separated. */
static const char *link_uis(const concept_index *ci, const char *text)
{
    static char out[512];
    token_list words, parts;
    token_list_init(&words);
    token_list_init(&parts);
    concept_hits hits = {0};
    out[0] = '\0';
    if (text_parts(text, strlen(text), &words, &parts) < 0 ||
        concept_link(ci, &parts, &hits) < 0)
        strcpy(out, "error");
    for (size_t i = 0; i < hits.n; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s",
                 i ? " " : "", concept_ui(ci, hits.v[i].concept));
    concept_hits_free(&hits);
    token_list_free(&words);
    token_list_free(&parts);
    return out;
}

static void test_tree_numbers(void)
{
    CHECK(mesh_tree_ancestor("C08.381", "C08.381.677"));
    CHECK(!mesh_tree_ancestor("C08.381", "C08.3810"));
    CHECK(!mesh_tree_ancestor("C08.381", "C08.381"));
    CHECK(!mesh_tree_ancestor("C08.381.677", "C08.381"));
    CHECK(mesh_tree_under("C08.381.677", "C"));
    CHECK(mesh_tree_under("C08", "C08"));
    CHECK(mesh_tree_under("C08.381", "C08"));
    CHECK(!mesh_tree_under("C081.381", "C08"));
    CHECK(!mesh_tree_under("D08", "C"));
    CHECK(mesh_valid_tree_prefix("C"));
    CHECK(mesh_valid_tree_prefix("F01.145.958"));
    CHECK(!mesh_valid_tree_prefix("c"));
    CHECK(!mesh_valid_tree_prefix("C08."));
    CHECK(!mesh_valid_tree_prefix("CC"));
    char buf[64];
    CHECK(mesh_uninvert("Anemia, Sickle Cell", buf, sizeof buf));
    CHECK_STR(buf, "Sickle Cell Anemia");
    CHECK(!mesh_uninvert("Sepsis", buf, sizeof buf));
}

static void test_trie(void)
{
    term_trie *t = term_trie_new();
    token_list a, b;
    token_list_init(&a);
    token_list_init(&b);
    token_list_push(&a, "does", 4);
    token_list_push(&a, "not", 3);
    token_list_push(&b, "does", 4);
    uint32_t before;
    CHECK(term_trie_add(t, &a, 7, &before) == 1 && before == UINT32_MAX);
    CHECK(term_trie_add(t, &b, 1, &before) == 1 && before == UINT32_MAX);
    CHECK(term_trie_add(t, &a, 7, &before) == 0 && before == 7);
    CHECK(term_trie_add(t, &a, 9, &before) == 1 && before == 7);
    CHECK(term_trie_add(t, &b, 2, &before) == 1 && before == 1);
    term_hits hits = {0};
    token_list_clear(&b);
    token_list_push(&b, "he", 2);
    token_list_push(&b, "does", 4);
    token_list_push(&b, "not", 3);
    token_list_push(&b, "does", 4);
    CHECK(term_trie_scan(t, &b, &hits) == 0);
    CHECK(hits.n == 2);
    if (hits.n == 2) {
        const uint32_t *v;
        CHECK(hits.v[0].start == 1 && hits.v[0].end == 3);
        CHECK(term_trie_values(t, hits.v[0].node, &v) == 2 && v[0] == 7 && v[1] == 9);
        CHECK(hits.v[1].start == 3 && hits.v[1].end == 4);
        CHECK(term_trie_values(t, hits.v[1].node, &v) == 2 && v[0] == 1 && v[1] == 2);
    }
    term_hits_free(&hits);
    token_list_free(&a);
    token_list_free(&b);
    term_trie_free(t);
}

static void test_linking(void)
{
    tells_error err;
    concept_index *ci = concept_index_load(write_file("tree.txt", tree_text), &err);
    CHECK(ci != NULL);
    if (!ci)
        return;
    CHECK(concept_count(ci) == 8);
    long bi = concept_find_ui(ci, "D001930");
    CHECK(bi >= 0 && concept_ntrees(ci, (uint32_t)bi) == 2);
    if (bi >= 0) {
        CHECK_STR(concept_tree(ci, (uint32_t)bi, 1), "C26.915.300");
        CHECK_STR(concept_term(ci, (uint32_t)bi), "Brain Injuries");
    }
    CHECK(concept_find_tree(ci, "C26.915.300") == bi);
    CHECK(concept_find_tree(ci, "C26.915") == -1);
    /* Longest match, case, merged tokens, the uninverted form. */
    CHECK_STR(link_uis(ci, "the patients had sepsis"), "D010361 D018805");
    CHECK_STR(link_uis(ci, "Gastrointestinal Hemorrhage"), "D006471");
    CHECK_STR(link_uis(ci, "no gastrointestinal_hemorrhage ."), "D006471");
    CHECK_STR(link_uis(ci, "hemorrhage_gastrointestinal hemorrhage"), "D006470 D006471");
    CHECK_STR(link_uis(ci, "chronic brain injury and brain injuries"), "D000001 D001930");
    CHECK_STR(link_uis(ci, "brain_injury_chronic"), "D000001");
    CHECK_STR(link_uis(ci, "brain injury"), "");
    CHECK_STR(link_uis(ci, "SEPSIS"), "D018805");
    /* Synonyms. */
    CHECK(concept_index_add_synonyms(ci, write_file("syn.tsv",
        "# comment\nbrain injury\tD001930\nInfection\tD018805\n"), &err) == 0);
    CHECK_STR(link_uis(ci, "brain_injury"), "D001930");
    CHECK_STR(link_uis(ci, "infection"), "D007239 D018805");
    CHECK(concept_index_add_synonyms(ci, write_file("syn2.tsv",
        "smoker\tD999999\n"), &err) < 0);
    CHECK(strstr(err.msg, "unknown descriptor 'D999999' (not in /") == err.msg);
    CHECK(concept_index_add_synonyms(ci, write_file("syn3.tsv",
        "a b\tD001930\nA, B\tD018805\n"), &err) < 0);
    CHECK(err.line == 2);
    CHECK_STR(err.msg, "term 'A, B' already given on line 1");
    CHECK(concept_index_add_synonyms(ci, write_file("syn4.tsv",
        "x\tD001930\textra\n"), &err) < 0);
    CHECK_STR(err.msg, "expected 2 tab-separated columns (term, descriptor)");
    CHECK(concept_index_add_synonyms(ci, write_file("syn5.tsv",
        "...\tD001930\n"), &err) < 0);
    CHECK_STR(err.msg, "term '...' has no words");
    concept_index_free(ci);

    /* One descriptor, two names. */
    CHECK(!concept_index_load(write_file("bad.txt",
        "C01\tD1\tSepsis\nC02\tD1\tSepticemia\n"), &err));
    CHECK(err.line == 2);
    CHECK_STR(err.msg, "descriptor D1 is named 'Sepsis' on line 1");
}

/* Whether each heuristic holds for the pair. */
static const char *holds(const heuristic_set *hs, const char *p, const char *h)
{
    static char out[16];
    heur_text tp, th;
    heur_text_init(&tp);
    heur_text_init(&th);
    tells_error err;
    CHECK(heur_text_analyse(&tp, hs, p, strlen(p), &err) == 0);
    CHECK(heur_text_analyse(&th, hs, h, strlen(h), &err) == 0);
    size_t i;
    for (i = 0; i < hs->n && i + 1 < sizeof out; i++)
        out[i] = heuristic_holds(hs, i, &tp, &th, NULL, &err) ? '1' : '0';
    out[i] = '\0';
    heur_text_free(&tp);
    heur_text_free(&th);
    return out;
}

static void test_heuristics(void)
{
    tells_error err;
    concept_index *ci = concept_index_load(write_file("tree.txt", tree_text), &err);
    CHECK(ci != NULL);
    if (!ci)
        return;
    write_file("neg.txt", "no\ndoes not have\n");
    write_file("stop.tsv", "D010361\tPatients\n");
    write_file("causes.tsv", "C23.550.414\tHemorrhage\n");
    const char *def = write_file("h.heur",
        "# four heuristics\n"
        "heuristic hyper\nrelation hypernym\n"
        "heuristic fine\nrelation same\nstop stop.tsv\nhypothesis-cue neg.txt\n"
        "heuristic cause\npremise-tree C\thypothesis-tree @causes.tsv\n"
        "heuristic drug\tdescription a drug in the hypothesis\n"
        "hypothesis-tree D\n");
    heuristic_set hs;
    heuristic_set_init(&hs, ci);
    /* "premise-tree C<TAB>hypothesis-tree ..." is one directive whose
       value has a word that is not a prefix. */
    CHECK(heuristic_set_load(&hs, def, &err) < 0);
    CHECK(err.line == 9);
    CHECK_STR(err.msg, "malformed tree prefix 'hypothesis-tree'");
    heuristic_set_free(&hs);

    def = write_file("h.heur",
        "# four heuristics\n"
        "heuristic hyper\nrelation hypernym\n"
        "heuristic fine\nrelation same\nstop stop.tsv\nhypothesis-cue neg.txt\n"
        "heuristic cause\npremise-tree C\nhypothesis-tree @causes.tsv\n"
        "heuristic drug\ndescription a drug in the hypothesis\n"
        "hypothesis-tree D\n");
    heuristic_set_init(&hs, ci);
    if (heuristic_set_load(&hs, def, &err) < 0) {
        fprintf(stderr, "%s:%ld: %s\n", err.file, err.line, err.msg);
        check_failures++;
    }
    CHECK(hs.n == 4);
    CHECK_STR(holds(&hs, "she had sepsis", "the patient has an infection"), "1000");
    CHECK_STR(holds(&hs, "sepsis", "infection"), "1000");
    CHECK_STR(holds(&hs, "sepsis", "no sepsis"), "0100");
    CHECK_STR(holds(&hs, "the patients", "no patients"), "0000");
    CHECK_STR(holds(&hs, "sepsis", "does not have gastrointestinal hemorrhage"),
              "0010");
    CHECK_STR(holds(&hs, "gastrointestinal_hemorrhage", "hemorrhage"), "1010");
    CHECK_STR(holds(&hs, "patients", "hemorrhage"), "0000");
    CHECK_STR(holds(&hs, "x", "cephalosporins"), "0001");
    hs.general = false;
    CHECK_STR(holds(&hs, "sepsis", "infection"), "0000");
    CHECK_STR(holds(&hs, "infection", "sepsis"), "1000");
    heuristic_set_free(&hs);
    concept_index_free(ci);
}

/* tests/data/heur-ref.tsv, by tests/ref/make-heur-ref.py: SciPy's
   chisquare (chi2, p; p 0 where it underflows) and log p from mpmath;
   where a class expects fewer than 5 pairs, the exact multinomial test's
   p by brute force in fractions (exact). */
static const struct {
    const char *name;
    unsigned counts[4], rows[4];   /* rows all 0: uniform */
    size_t k;
    double chi2;
    bool exact;
    double p, log_p;
} refs[] = {
    {"synthetic-hypernym", {41, 400, 31}, {0}, 3,
     561.74152542372883, false, 1.0456290158875585e-122, -280.87076271186441},
    {"synthetic-probable-cause", {90, 31, 510}, {0}, 3,
     648.68779714738503, false, 1.3779536529571571e-141, -324.34389857369255},
    {"synthetic-everything-fine", {857, 119, 144}, {0}, 3,
     940.74821428571443, false, 5.2374614294840441e-205, -470.37410714285714},
    {"snli-everything-fine", {23, 2, 7}, {0}, 3,
     22.562500000000004, false, 1.2607105177048491e-05, -11.28125},
    {"snli-prior", {23, 2, 7}, {3278, 3329, 3235}, 3,
     22.662247516928776, false, 1.1993763417727636e-05, -11.331123758464387},
    {"synthetic-prior", {857, 119, 144}, {1500, 1500, 1500}, 3,
     940.74821428571443, false, 5.2374614294840441e-205, -470.37410714285714},
    {"unbalanced-prior", {40, 25, 35, 0}, {1000, 300, 500, 20}, 4,
     11.626666666666669, true, 0.010620838429012656, -4.5449373181666304},
    {"near-uniform", {100, 101, 99}, {0}, 3,
     0.02, false, 0.990049833749168, -0.01},
    {"two-classes", {60, 40}, {0}, 2,
     4, false, 0.04550026389635857, -3.0900371531220866},
    {"tiny-p", {3000, 10, 10}, {0}, 3,
     5920.5960264900668, false, 0, -2960.2980132450331},
    {"tiny-p-four", {5000, 20, 30, 40}, {0}, 4,
     14558.644400785855, false, 0, -7274.7549529583965},
    {"tiny-p-prior", {4000, 5, 5}, {5000, 4000, 4000}, 3,
     6364.1053615960091, false, 0, -3182.052680798005},
    {"three-in-one", {3, 0, 0}, {0}, 3,
     6, true, 0.1111111111111111, -2.1972245773362194},
    {"one-pair", {0, 1, 0}, {0}, 3,
     2.0000000000000004, true, 1, 0.0},
    {"four-of-four", {4, 0}, {0}, 2,
     4, true, 0.125, -2.0794415416798359},
    {"small-mixed", {5, 1, 0}, {0}, 3,
     7, true, 0.053497942386831275, -2.9281120858790117},
    {"small-prior", {7, 3}, {30, 70}, 2,
     7.6190476190476186, true, 0.0105920784, -4.5476488780021891},
    {"small-prior-three", {1, 4, 2}, {50, 30, 20}, 3,
     3.7619047619047619, true, 0.10435, -2.2600046454589273},
    {"snli-prior-small", {6, 0, 1}, {3278, 3329, 3235}, 3,
     8.8757439649652543, true, 0.010442557954154575, -4.5618657117730963},
    {"snli-2017-probable-cause", {0, 3, 1}, {0}, 3,
     3.5000000000000004, true, 0.33333333333333331, -1.0986122886681097},
};

static double rel_err(double got, double want)
{
    return want == 0 ? fabs(got) : fabs(got - want) / fabs(want);
}

static void test_chi2(void)
{
    static const char *classes[] = {"a", "b", "c", "d"};
    double worst_chi2 = 0, worst_p = 0, worst_log = 0;
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        heur_tally t;
        tells_error err;
        CHECK(heur_tally_init(&t, 1, &err) == 0);
        bool prior = refs[i].rows[0] > 0;
        for (size_t c = 0; c < refs[i].k; c++) {
            /* Uniform cases: one pair that fails beside those that hold,
               so that a class with no satisfying pair is still read. */
            unsigned rows = prior ? refs[i].rows[c] : refs[i].counts[c] + 1;
            for (unsigned r = 0; r < rows; r++) {
                bool h = r < refs[i].counts[c];
                CHECK(heur_tally_add(&t, classes[c], 1, &h, &err) == 0);
            }
        }
        heur_result r;
        CHECK(heur_test(&t, 0, prior ? EXPECT_CLASS_PRIOR : EXPECT_UNIFORM, 1, &r, &err) == 0);
        CHECK(r.tested && r.test.df == (double)(refs[i].k - 1));
        CHECK(r.method == (refs[i].exact ? GOF_EXACT : GOF_CHI2));
        double e1 = rel_err(r.test.statistic, refs[i].chi2);
        double e3 = rel_err(r.test.p.log_p, refs[i].log_p);
        double e2 = refs[i].p > 0 ? rel_err(r.test.p.p, refs[i].p) : 0;
        if (e1 > 1e-9 || e2 > 1e-9 || e3 > 1e-9) {
            fprintf(stderr, "%s: chi2 %.17g p %.17g log p %.17g\n", refs[i].name,
                    r.test.statistic, r.test.p.p, r.test.p.log_p);
            check_failures++;
        }
        worst_chi2 = e1 > worst_chi2 ? e1 : worst_chi2;
        worst_p = e2 > worst_p ? e2 : worst_p;
        worst_log = e3 > worst_log ? e3 : worst_log;
        if (refs[i].p == 0)
            CHECK(r.test.p.log_p < -690);  /* below 1e-300 */
        heur_tally_free(&t);
    }
    printf("max relative error: chi2 %.2g, p %.2g, log p %.2g\n", worst_chi2,
           worst_p, worst_log);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/tells-concepts.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror(dir);
        return 1;
    }
    test_tree_numbers();
    test_trie();
    test_linking();
    test_heuristics();
    test_chi2();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    CHECK_DONE();
}
