/* Annotator heuristic definitions (analysis/heuristics.h) as tells-heur -H
   reads them, over a fixed small MeSH tree (tests/data/heur-tree.txt),
   after the built-in definitions (corpora/lexicons/heuristics.heur) as
   tells-heur does; then the heuristics on a few pairs, counted and
   tested. Input: the definition file, then up to four list files that it
   may name as list1.txt .. list4.txt (separated by "=====" lines); the
   lexicons of corpora/lexicons are there too, under their names. */
#include <config.h>

#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "analysis/heuristics.h"

/* The tree file and the lexicons, copied without their comments. */
static const char tree_text[] =
    "Tree Number\tDesc Ui\tTerm\n"
    "C01.539\tD007239\tInfection\n"
    "C01.539.757\tD018805\tSepsis\n"
    "C15.378.071\tD000740\tAnemia\n"
    "C18.654.726.500\tD009765\tObesity\n"
    "C23.550.414\tD006470\tHemorrhage\n"
    "C23.550.414.788\tD006471\tGastrointestinal Hemorrhage\n"
    "C23.888.144.699\tD050177\tOverweight\n"
    "C23.888.144.699.500\tD009765\tObesity\n"
    "C23.888.592.958\tD014717\tVertigo\n"
    "C25.775\tD019966\tSubstance-Related Disorders\n"
    "D02.065.589.099.249\tD002511\tCephalosporins\n"
    "D02.065.589.099.249.190.190.155\tD002443\tCeftriaxone\n"
    "F01.145.317.269\tD000428\tAlcohol Drinking\n"
    "F01.145.958\tD064424\tTobacco Use\n"
    "F01.145.958.500\tD012907\tSmoking\n"
    "F03\tD001523\tMental Disorders\n"
    "K01.400\tD006664\tHistory\n"
    "M01.066\tD057229\tAlcoholics\n"
    "M01.169\tD055030\tDrug Users\n"
    "M01.325\tD006703\tHomeless Persons\n"
    "M01.643\tD010361\tPatients\n";

static const char cause_prefixes[] =
    "F01.145.958\tTobacco Use\n"
    "C25.775\tSubstance-Related Disorders\n"
    "M01.169\tDrug Users\n"
    "F03\tMental Disorders\n"
    "F01.145.317.269\tAlcohol Drinking\n"
    "M01.066\tAlcoholics\n"
    "C23.888.144.699\tOverweight\n"
    "M01.325\tHomeless Persons\n";

static const char stop_concepts[] =
    "D010361\tPatients\n"
    "D006664\tHistory\n";

static const char negation_cues[] =
    "no\n"
    "not\n"
    "never\n"
    "none\n"
    "without\n"
    "denies\n"
    "denied\n"
    "deny\n"
    "does not have\n"
    "no finding of\n"
    "negative for\n"
    "free of\n"
    "absence of\n"
    "cannot\n"
    "can't\n"
    "don't\n"
    "doesn't\n"
    "didn't\n"
    "isn't\n"
    "wasn't\n"
    "aren't\n"
    "weren't\n"
    "hasn't\n"
    "haven't\n"
    "hadn't\n"
    "won't\n"
    "nobody\n"
    "nothing\n";

static const char health_cues[] =
    "normal\n"
    "normally\n"
    "healthy\n"
    "discharged\n"
    "stable\n"
    "unremarkable\n"
    "asymptomatic\n"
    "within normal limits\n"
    "in good health\n"
    "resolved\n";

static const char marker[] =
    "zzmark\n";

static const char builtin[] =
    "\n"
    "heuristic\thypernym\n"
    "description\tentailment: the hypothesis generalises a premise concept "
    "(clindamycin -> antibiotic)\n"
    "relation\thypernym\n"
    "\n"
    "heuristic\tprobable-cause\n"
    "description\tneutral: the hypothesis adds a plausible behavioural cause for a "
    "premise condition\n"
    "premise-tree\tC D E F\n"
    "hypothesis-tree\t@cause-prefixes.tsv\n"
    "\n"
    "heuristic\teverything-fine\n"
    "description\tcontradiction: the hypothesis repeats a premise concept with a "
    "negation or an assertion of good health\n"
    "relation\tsame\n"
    "stop\tstop-concepts.tsv\n"
    "hypothesis-cue\tnegation-cues.txt health-cues.txt\n";

static const struct fixed_file {
    const char *name;
    const char *text;
    size_t size;
} fixed[] = {
    {"cause-prefixes.tsv", cause_prefixes, sizeof cause_prefixes - 1},
    {"stop-concepts.tsv", stop_concepts, sizeof stop_concepts - 1},
    {"negation-cues.txt", negation_cues, sizeof negation_cues - 1},
    {"health-cues.txt", health_cues, sizeof health_cues - 1},
    {"heur-marker.txt", marker, sizeof marker - 1},
    {"builtin.heur", builtin, sizeof builtin - 1},
};

static const char *const pairs[][3] = {
    {"entailment", "the patient has sepsis", "the patient has an infection"},
    {"contradiction", "history of gastrointestinal hemorrhage", "no hemorrhage zzmark"},
    {"neutral", "obesity and anemia", "smoking and alcohol drinking"},
    {"neutral", "obesity and anemia", "patients are normal"},
    {"entailment", "vertigo", "vertigo ceftriaxone cephalosporins"},
};

static const concept_index *fixed_index(void)
{
    static concept_index *ci;
    if (!ci) {
        tells_error err;
        const char *tree = fuzz_file("mtrees.txt", tree_text, sizeof tree_text - 1);
        if (!(ci = concept_index_load(tree, &err)))
            fuzz_fail("mtrees.txt", err.msg);
    }
    return ci;
}

static void evaluate(const heuristic_set *hs)
{
    heur_eval ev;
    heur_tally tally;
    tells_error err;
    if (heur_eval_init(&ev, hs, true, &err) < 0 || heur_tally_init(&tally, hs->n, &err) < 0)
        fuzz_fail("heur_eval_init", err.msg);
    fuzz_sink sink;
    FILE *fp = fuzz_sink_open(&sink);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const char *const *p = pairs[i];
        if (heur_eval_pair(&ev, p[1], strlen(p[1]), p[2], strlen(p[2]), &err) < 0 ||
            heur_tally_add(&tally, p[0], strlen(p[0]), ev.holds, &err) < 0)
            fuzz_fail("heur_eval_pair", err.msg);
        for (size_t h = 0; h < hs->n; h++)
            if (ev.holds[h])
                heur_eval_write_witness(fp, &ev, h);
    }
    heur_table table = {hs, &tally, EXPECT_CLASS_PRIOR, 2, 1};
    if (heur_table_write(fp, &table, &err) < 0)
        fuzz_fail("heur_table_write", err.msg);
    fuzz_sink_close(&sink);
    heur_tally_free(&tally);
    heur_eval_free(&ev);
}

FUZZ_TARGET(heuristics)
{
    static bool written;
    const concept_index *ci = fixed_index();
    if (!written) {
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            fuzz_file(fixed[i].name, fixed[i].text, fixed[i].size);
        written = true;
    }
    fuzz_part part[5];
    size_t n = fuzz_split(data, size, part, 5);
    const char *defs = fuzz_file("defs.heur", part[0].data, part[0].size);
    for (size_t k = 1; k < 5; k++) {
        char name[16];
        snprintf(name, sizeof name, "list%zu.txt", k);
        if (k < n)
            fuzz_file(name, part[k].data, part[k].size);
        else
            unlink(fuzz_path(name));
    }

    heuristic_set hs;
    tells_error err;
    tells_error_clear(&err);
    heuristic_set_init(&hs, ci);
    if (heuristic_set_load(&hs, fuzz_path("builtin.heur"), &err) < 0)
        fuzz_fail("builtin.heur", err.msg);
    if (fuzz_check(heuristic_set_load(&hs, defs, &err), &err, "heuristic_set_load") == 0)
        evaluate(&hs);
    heuristic_set_free(&hs);
    return 0;
}
