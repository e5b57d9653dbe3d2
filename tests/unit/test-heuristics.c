/* The shared heuristic machinery of tells-heur and tells-audit: loading
   the concepts and definitions in order, the pair evaluator (premise
   reuse, holds, witnesses), counting prepared files with the split
   filter and the pairs output, the table writer, and the audit gates. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "analysis/audit.h"
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
    "C01.539\tD007239\tInfection\n"
    "C01.539.757\tD018805\tSepsis\n"
    "C23.550.414\tD006470\tHemorrhage\n"
    "C23.550.414.788\tD006471\tGastrointestinal Hemorrhage\n"
    "D02.065.589.099.249\tD002511\tCephalosporins\n"
    "M01.643\tD010361\tPatients\n";

/* What check_data saw, in order. */
static char checked[1024];

static int check_data(const char *path, tells_error *err)
{
    const char *base = strrchr(path, '/');
    snprintf(checked + strlen(checked), sizeof checked - strlen(checked), "%s ",
             base ? base + 1 : path);
    if (strstr(path, "missing"))
        return tells_error_io(err, path, 0, "cannot open: no such file (a hint)");
    return 0;
}

static void test_open(void)
{
    const char *tree = write_file("tree.txt", tree_text);
    write_file("neg.txt", "no\n");
    const char *builtin = write_file("builtin.heur",
        "heuristic hyper\nrelation hypernym\n"
        "heuristic fine\nrelation same\nhypothesis-cue neg.txt\n");
    const char *user = write_file("user.heur",
        "heuristic fine\nrelation same\n"
        "heuristic drug\nhypothesis-tree D\n");
    char *defs[] = {(char *)user};
    const char *syn = write_file("syn.tsv", "blood loss\tD006470\n");
    char *syns[] = {(char *)syn};
    heur_sources src = {.mesh = tree, .mesh_in_data = true, .synonyms = syns,
                        .nsynonyms = 1, .builtin = builtin, .definitions = defs,
                        .ndefinitions = 1, .general = false, .check_data = check_data};
    heuristic_set hs;
    tells_error err;
    checked[0] = '\0';
    CHECK(heuristic_set_open(&hs, &src, &err) == 0);
    CHECK_STR(checked, "tree.txt builtin.heur ");
    CHECK(!hs.general);
    CHECK(hs.ci != NULL && hs.ci == hs.own_ci);
    /* A later file replaces a heuristic in its place. */
    CHECK(hs.n == 3);
    if (hs.n == 3) {
        CHECK_STR(hs.v[0].name, "hyper");
        CHECK_STR(hs.v[1].name, "fine");
        CHECK(hs.v[1].side[SIDE_HYPOTHESIS].ncue == 0);
        CHECK_STR(hs.v[2].name, "drug");
    }
    /* The synonym file was read. */
    CHECK(hs.ci && concept_find_ui(hs.ci, "D006470") >= 0);
    heuristic_set_free(&hs);

    /* A named tree file is not checked; a missing data file fails where
       it is read, after the tree file and its synonyms. */
    src.mesh_in_data = false;
    src.builtin = "missing.heur";
    checked[0] = '\0';
    CHECK(heuristic_set_open(&hs, &src, &err) < 0);
    CHECK_STR(checked, "missing.heur ");
    CHECK_STR(err.msg, "cannot open: no such file (a hint)");
    CHECK(err.kind == TELLS_ERR_IO);
    CHECK(hs.n == 0 && hs.ci == NULL && hs.own_ci == NULL);
    heuristic_set_free(&hs);

    /* No check hook, no built-ins; a bad definition file. */
    const char *bad = write_file("bad.heur", "heuristic x\nrelation cousin\n");
    char *bads[] = {(char *)bad};
    src = (heur_sources){.mesh = tree, .definitions = bads, .ndefinitions = 1};
    CHECK(heuristic_set_open(&hs, &src, &err) < 0);
    CHECK(err.kind == TELLS_ERR_DATA && err.line == 2);
    CHECK_STR(err.msg, "unknown relation 'cousin' (hypernym, ancestor, descendant or same)");
    CHECK(hs.n == 0 && hs.ci == NULL);
    heuristic_set_free(&hs);
}

static int open_set(heuristic_set *hs)
{
    const char *tree = write_file("tree.txt", tree_text);
    write_file("neg.txt", "no\ndoes not have\n");
    write_file("stop.tsv", "D010361\tPatients\n");
    const char *defs = write_file("h.heur",
        "heuristic hyper\nrelation hypernym\n"
        "heuristic fine\nrelation same\nstop stop.tsv\nhypothesis-cue neg.txt\n"
        "heuristic drug\nhypothesis-tree D\n");
    char *files[] = {(char *)defs};
    heur_sources src = {.mesh = tree, .definitions = files, .ndefinitions = 1,
                        .general = true};
    tells_error err;
    if (heuristic_set_open(hs, &src, &err) < 0) {
        fprintf(stderr, "%s:%ld: %s\n", err.file, err.line, err.msg);
        check_failures++;
        return -1;
    }
    return 0;
}

/* Whether each heuristic holds, analysing both texts afresh. */
static void fresh_holds(const heuristic_set *hs, const char *p, const char *h, char *out)
{
    heur_text tp, th;
    heur_text_init(&tp);
    heur_text_init(&th);
    tells_error err;
    CHECK(heur_text_analyse(&tp, hs, p, strlen(p), &err) == 0);
    CHECK(heur_text_analyse(&th, hs, h, strlen(h), &err) == 0);
    size_t i;
    for (i = 0; i < hs->n; i++)
        out[i] = heuristic_holds(hs, i, &tp, &th, NULL, &err) > 0 ? '1' : '0';
    out[i] = '\0';
    heur_text_free(&tp);
    heur_text_free(&th);
}

static void test_eval(void)
{
    heuristic_set hs;
    if (open_set(&hs) < 0)
        return;
    /* Premises repeat, change, and come back: the evaluator must agree
       with a fresh analysis of every pair. */
    static const char *const pairs[][3] = {
        {"she had sepsis", "the patient has an infection", "100"},
        {"she had sepsis", "no sepsis", "010"},
        {"she had sepsis", "cephalosporins were given", "001"},
        {"gastrointestinal_hemorrhage", "hemorrhage", "100"},
        {"gastrointestinal_hemorrhage", "no gastrointestinal hemorrhage", "010"},
        {"she had sepsis", "no sepsis", "010"},
        {"the patients", "no patients", "000"},
        {"she had sepsis", "infection", "100"},
    };
    heur_eval ev;
    tells_error err;
    CHECK(heur_eval_init(&ev, &hs, false, &err) == 0);
    CHECK(ev.witness == NULL);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const char *p = pairs[i][0], *h = pairs[i][1];
        CHECK(heur_eval_pair(&ev, p, strlen(p), h, strlen(h), &err) == 0);
        char got[8], want[8];
        for (size_t k = 0; k < hs.n; k++)
            got[k] = ev.holds[k] ? '1' : '0';
        got[hs.n] = '\0';
        fresh_holds(&hs, p, h, want);
        CHECK_STR(got, want);
        CHECK_STR(got, pairs[i][2]);
    }
    heur_eval_free(&ev);

    /* Witnesses: the concepts and cues that made each heuristic hold. */
    CHECK(heur_eval_init(&ev, &hs, true, &err) == 0);
    const char *p = "hemorrhage after gastrointestinal_hemorrhage";
    const char *h = "no hemorrhage";
    CHECK(heur_eval_pair(&ev, p, strlen(p), h, strlen(h), &err) == 0);
    CHECK(ev.holds[0] && ev.holds[1] && !ev.holds[2]);
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    heur_eval_write_witness(fp, &ev, 0);
    fputc('|', fp);
    heur_eval_write_witness(fp, &ev, 1);
    fclose(fp);
    CHECK_STR(buf, "Gastrointestinal Hemorrhage (D006471 C23.550.414.788)\t"
              "Hemorrhage (D006470 C23.550.414)\t-|"
              "Hemorrhage (D006470)\tHemorrhage (D006470)\tno");
    free(buf);
    heur_eval_free(&ev);
    heuristic_set_free(&hs);
}

static char *table_of(const heuristic_set *hs, const heur_tally *t, heur_expect e)
{
    heur_table table = {.hs = hs, .tally = t, .expect = e, .digits = 2};
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    tells_error err;
    tells_error_clear(&err);
    CHECK(heur_table_write(fp, &table, &err) == 0);
    fclose(fp);
    return buf;
}

static void test_count(void)
{
    heuristic_set hs;
    if (open_set(&hs) < 0)
        return;
    const char *tsv = write_file("in.tsv",
        "id\tsplit\tlabel\tpremise\thypothesis\n"
        "1\ttrain\tentailment\tsepsis\tinfection\n"
        "2\ttrain\tcontradiction\tsepsis\tno sepsis\n"
        "3\tdev\tentailment\tsepsis\tinfection\n"
        "4\ttrain\tneutral\tsepsis\tcephalosporins\n"
        "5\ttest\tneutral\themorrhage\tblood\n");
    char *files[] = {(char *)tsv};
    char *splits[] = {"train", "test"};
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    heur_count_options o = {.splits = splits, .nsplits = 2, .pairs = fp};
    heur_tally t;
    tells_error err;
    CHECK(heur_count_files(&hs, files, 1, &o, &t, &err) == 0);
    fclose(fp);
    CHECK_STR(buf, "id\tsplit\tlabel\theuristic\tpremise_concepts\thypothesis_concepts\tcues\n"
              "1\ttrain\tentailment\thyper\tSepsis (D018805 C01.539.757)\t"
              "Infection (D007239 C01.539)\t-\n"
              "2\ttrain\tcontradiction\tfine\tSepsis (D018805)\tSepsis (D018805)\tno\n"
              "4\ttrain\tneutral\tdrug\t-\tCephalosporins (D002511 D02.065.589.099.249)\t-\n");
    free(buf);
    /* Four rows of train and test, in three classes. */
    CHECK(vocab_size(t.classes) == 3);
    char *table = table_of(&hs, &t, EXPECT_UNIFORM);
    /* One pair each, 1/3 expected in each class: the exact test, every
       outcome as likely (p 1; chi-squared said 0.37). */
    CHECK_STR(table, "heuristic\tn\tchi2\tdf\tp_value\ttest\ttop_class\ttop_share\t"
              "contradiction\tentailment\tneutral\n"
              "hyper\t1\t2.000000\t2\t1\texact\tentailment\t1.000000\t0\t1\t0\n"
              "fine\t1\t2.000000\t2\t1\texact\tcontradiction\t1.000000\t1\t0\t0\n"
              "drug\t1\t2.000000\t2\t1\texact\tneutral\t1.000000\t0\t0\t1\n");
    free(table);
    heur_tally_free(&t);

    /* Every row, no pairs output: the same counts as one pair at a time. */
    o = (heur_count_options){0};
    CHECK(heur_count_files(&hs, files, 1, &o, &t, &err) == 0);
    uint64_t rows = 0;
    for (size_t c = 0; c < vocab_size(t.classes); c++)
        rows += t.rows[c];
    CHECK(rows == 5);
    long e = vocab_find(t.classes, "entailment", 10);
    CHECK(e >= 0 && t.count[(size_t)e * t.nheur + 0] == 2);
    heur_tally_free(&t);

    /* A split without rows; no rows at all; a bad file names its line. */
    char *absent[] = {"train", "valid"};
    o = (heur_count_options){.splits = absent, .nsplits = 2};
    CHECK(heur_count_files(&hs, files, 1, &o, &t, &err) < 0);
    CHECK_STR(err.msg, "no examples in split 'valid'");
    CHECK(strstr(err.file, "in.tsv") != NULL);
    heur_tally_free(&t);
    const char *empty = write_file("empty.tsv", "id\tsplit\tlabel\tpremise\thypothesis\n");
    char *two[] = {(char *)tsv, (char *)empty};
    o = (heur_count_options){.splits = absent + 1, .nsplits = 1};
    CHECK(heur_count_files(&hs, two, 2, &o, &t, &err) < 0);
    CHECK_STR(err.msg, "no examples in split 'valid'");
    CHECK_STR(err.file, "");  /* several files: none is to blame */
    heur_tally_free(&t);
    o = (heur_count_options){0};
    CHECK(heur_count_files(&hs, two + 1, 1, &o, &t, &err) < 0);
    CHECK_STR(err.msg, "no examples in the input");
    heur_tally_free(&t);
    const char *bad = write_file("bad.tsv", "id\tsplit\tlabel\tpremise\thypothesis\n"
                                 "1\ttrain\te\tsepsis\n");
    char *bads[] = {(char *)bad};
    CHECK(heur_count_files(&hs, bads, 1, &o, &t, &err) < 0);
    CHECK(err.kind == TELLS_ERR_DATA && err.line == 2);
    heur_tally_free(&t);
    heuristic_set_free(&hs);
}

static void test_gates(void)
{
    CHECK(audit_gate_find("tokens") == AUDIT_GATE_TOKENS);
    CHECK(audit_gate_find("tell-share") == AUDIT_GATE_TELL_SHARE);
    CHECK(audit_gate_find("everything") == -1);
    CHECK_STR(audit_gate_name(AUDIT_GATE_HEURISTICS), "heuristics");
    finding token = {.check = "token:stat", .significant = true};
    finding self = {.check = "self_predictability", .significant = true};
    finding calm = {.check = "label_balance", .significant = false};
    finding dup = {.check = "near_duplicates", .batch = 0.01};
    finding nodup = {.check = "duplicates", .batch = 0};
    unsigned tokens = 1u << AUDIT_GATE_TOKENS, any = 1u << AUDIT_GATE_ANY;
    CHECK(audit_gate_fails(&token, tokens));
    CHECK(!audit_gate_fails(&self, tokens));
    CHECK(audit_gate_fails(&self, tokens | 1u << AUDIT_GATE_PREDICTABILITY));
    CHECK(audit_gate_fails(&self, any));
    CHECK(!audit_gate_fails(&calm, any));
    CHECK(audit_gate_fails(&dup, 1u << AUDIT_GATE_DUPLICATES));
    CHECK(!audit_gate_fails(&nodup, any));
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/tells-heuristics.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror(dir);
        return 1;
    }
    test_open();
    test_eval();
    test_count();
    test_gates();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    CHECK_DONE();
}
