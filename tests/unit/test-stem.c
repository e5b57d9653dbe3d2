/* Unit tests of the stemmer wrapper and of linking on stems, entry
   terms, abbreviations and terms of several descriptors. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "text/concepts.h"
#include "text/entryterms.h"
#include "text/stem.h"

static char dir[] = "/tmp/test-stem-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
    static char path[4][256];
    static int k;
    char *p = path[k++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    FILE *fp = fopen(p, "w");
    fputs(text, fp);
    fclose(fp);
    return p;
}

static void test_stemmer(void)
{
    stemmer *s = stemmer_new();
    CHECK(s != NULL);
    const char *words[][2] = {{"smokes", "smoke"}, {"smoking", "smoke"}, {"strokes", "stroke"},
                              {"headaches", "headach"}, {"headache", "headach"},
                              {"antibiotics", "antibiot"}, {"copd", "copd"}};
    for (int round = 0; round < 2; round++)   /* the second from the cache */
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
            const char *out;
            size_t n;
            CHECK(stemmer_stem(s, words[i][0], strlen(words[i][0]), &out, &n) == 0);
            CHECK(n == strlen(words[i][1]) && memcmp(out, words[i][1], n) == 0);
        }
    stemmer_free(s);
}

static const char *tree_text =
    "Tree Number\tDesc Ui\tTerm\n"
    "C14.907.489\tD006973\tHypertension\n"
    "C10.228.140.300.775\tD020521\tStroke\n"
    "F01.145.805\tD012907\tSmoking\n"
    "D20.633.937\tD012906\tSmoke\n"
    "C08.381.495.389\tD029424\tPulmonary Disease, Chronic Obstructive\n"
    "G01.750.250\tD008000\tLinear Energy Transfer\n";

static const char *terms_header =
    "DescriptorUI\tDescriptorName\tConceptUI\tTermName\tRecordPreferredTermYN\t"
    "ConceptPreferredTermYN\tIsPermutedTermYN\tLexicalTag\n";

static char *links(const concept_index *ci, const char *text)
{
    static char buf[1024];
    concept_hits h = {0};
    buf[0] = '\0';
    CHECK(concept_link_text(ci, text, strlen(text), &h) == 0);
    for (size_t i = 0; i < h.n; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s@%u-%u", i ? " " : "",
                 concept_ui(ci, h.v[i].concept), h.v[i].start, h.v[i].end);
    concept_hits_free(&h);
    return buf;
}

static void test_linking(void)
{
    char terms[4096];
    snprintf(terms, sizeof terms, "%s%s", terms_header,
             "D006973\tHypertension\tM1\tHypertension\tY\tY\tN\tNON\n"
             "D006973\tHypertension\tM1\tBlood Pressure, High\tN\tN\tN\tNON\n"
             "D006973\tHypertension\tM1\tPressure, High Blood\tN\tN\tY\tNON\n"
             "D012907\tSmoking\tM2\tSmoking Habits\tN\tN\tY\tNON\n"
             "D012907\tSmoking\tM2\tHabits, Smoking\tN\tN\tY\tNON\n"
             "D029424\tPulmonary Disease, Chronic Obstructive\tM3\tCOPD\tN\tN\tN\tABB\n"
             "D008000\tLinear Energy Transfer\tM4\tLET\tN\tN\tN\tABB\n"
             "D999999\tMissing\tM5\tMissing\tY\tY\tN\tNON\n");
    tells_error err;
    tells_error_clear(&err);
    concept_options o = {.terms = write_file("terms.tsv", terms), .stem = true};
    concept_index *ci = concept_index_open(write_file("tree.txt", tree_text), &o, &err);
    CHECK(ci != NULL);
    const concept_stats *st = concept_index_stats(ci);
    CHECK(st->term_rows == 8 && st->unknown_rows == 1 && st->unknown_descriptors == 1);
    CHECK(st->permuted_skipped == 2 && st->abbreviations == 1);
    CHECK(strcmp(links(ci, "high blood pressure"), "D006973@0-3") == 0);
    CHECK(strcmp(links(ci, "he smokes"), "D012907@1-2 D012906@1-2") == 0);
    CHECK(strcmp(links(ci, "smoking"), "D012907@0-1") == 0);   /* spelled: Smoking only */
    CHECK(strcmp(links(ci, "two strokes"), "D020521@1-2") == 0);
    CHECK(strcmp(links(ci, "smoking habits"), "D012907@0-2") == 0);
    CHECK(strcmp(links(ci, "habits smoking"), "D012907@1-2") == 0);
    CHECK(strcmp(links(ci, "COPD copd"), "D029424@0-1 D029424@1-2") == 0);
    CHECK(strcmp(links(ci, "let it be"), "") == 0);
    CHECK(strcmp(links(ci, "Let LET"), "D008000@1-2") == 0);
    CHECK(strcmp(links(ci, "brain_stroke"), "D020521@1-2") == 0);
    concept_index_free(ci);

    /* Exact tokens: no stems. */
    o.stem = false;
    ci = concept_index_open(write_file("tree.txt", tree_text), &o, &err);
    CHECK(ci != NULL);
    CHECK(strcmp(links(ci, "two strokes"), "") == 0);
    CHECK(strcmp(links(ci, "a stroke"), "D020521@1-2") == 0);
    concept_index_free(ci);
}

static void test_bad_terms(void)
{
    char tree[256];
    snprintf(tree, sizeof tree, "%s", write_file("tree.txt", tree_text));
    struct { const char *rows, *msg; long line; } cases[] = {
        {"D006973\tHypertension\tM1\tHigh\tY\tY\n", "expected 8 tab-separated columns, found 6", 2},
        {"D006973\tHypertension\tM1\t\tY\tY\tN\tNON\n", "empty TermName", 2},
        {"X1\tHypertension\tM1\tHigh\tY\tY\tN\tNON\n", "malformed DescriptorUI 'X1'", 2},
        {"D006973\tHypertension\tM1\tHigh\tY\tmaybe\tN\tNON\n",
         "ConceptPreferredTermYN must be Y or N, not 'maybe'", 2},
        {"D006973\tHigh Pressure\tM1\tHigh\tY\tY\tN\tNON\n",
         "descriptor D006973 is 'Hypertension' in %s, not 'High Pressure' (another "
         "MeSH version?)", 2},
        {"D006973\tHypertension\tM1\t--\tN\tN\tN\tNON\n", "term '--' has no words", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", terms_header, cases[i].rows);
        tells_error err;
        tells_error_clear(&err);
        concept_options o = {.terms = write_file("bad.tsv", text), .stem = true};
        concept_index *ci = concept_index_open(tree, &o, &err);
        CHECK(ci == NULL);
        CHECK(err.line == cases[i].line);
        char want[512];
        snprintf(want, sizeof want, cases[i].msg, tree);
        CHECK_STR(err.msg, want);
    }
    tells_error err;
    tells_error_clear(&err);
    concept_options o = {.terms = write_file("bad.tsv", "DescriptorUI\tTerm\n")};
    CHECK(concept_index_open(tree, &o, &err) == NULL);
    CHECK(err.line == 1 && strncmp(err.msg, "not an entry-term file", 22) == 0);
}

int main(void)
{
    CHECK(mkdtemp(dir) != NULL);
    test_stemmer();
    test_linking();
    test_bad_terms();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    CHECK_DONE();
}
