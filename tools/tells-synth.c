/* tells-synth: write a synthetic MedNLI-style corpus with planted
   annotation artifacts.

   MedNLI needs credentialed access, so the project ships this stand-in.
   Each hypothesis has a "kind" (what it is about: sex, a condition, a
   vital sign, smoking, ...) and a "variant" (its wording).  The premise
   is then written so that the hypothesis gets the wanted label.  Without
   artifacts, kind and variant are drawn from one distribution for all
   three labels, so the hypothesis alone says nothing about its label.
   Artifacts are label-specific preferences for some (kind, variant)
   pairs at known per-mille rates; KEY.tsv and MESH-KEY.tsv list them.

   The output depends on the options only: the program has its own RNG
   (splitmix64), makes every decision with integer arithmetic, and gives
   each premise its own stream, so --plant leaves all else unchanged.
   --plant-pair remakes hypotheses from their premise (a run of its
   words, an added negation cue or number), from streams of its own too. */
#include <config.h>

#include <ctype.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "synth.h"

#define PROG "tells-synth"
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define LINE 1024
#define MAXFRAG 8
#define MAXPLANT 16
#define MAXPREMISES 33333 /* three hypotheses each must fit in 5 digits */

/* Fisher-Yates permutation of 0..n-1. */
static void permute(synth_rng *r, int *v, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)synth_below(r, (uint32_t)i + 1), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* ---------------------------------------------------------------- */
/* Vocabulary.  Every concept is a real MeSH 2017 descriptor; the text
   is its lowercased term, so a MeSH matcher finds it token for token.
   The tree number given is the one that matters here (for hypernyms,
   the one under the ancestor).                                     */

typedef struct { const char *term, *tree; } mesh_t;

enum { ENT, NEU, CON, NCLS };
static const char *const cls_name[NCLS] =
    {"entailment", "neutral", "contradiction"};

/* Chronic history.  None is an infection, a heart, lung, kidney or liver
   disease, or below a hypernym used below, so a premise's history never
   decides a hypothesis it was not written for. */
static const mesh_t chronic[] = {
    {"Hypertension", "C14.907.489"},
    {"Diabetes Mellitus", "C18.452.394.750"},
    {"Hypothyroidism", "C19.874.482"},
    {"Hyperthyroidism", "C19.874.397"},
    {"Gout", "C05.550.114.423"},
    {"Osteoporosis", "C05.116.198.579"},
    {"Anemia", "C15.378.071"},
    {"Epilepsy", "C10.228.140.490"},
    {"Dementia", "C10.228.140.380"},
    {"Depression", "F01.145.126.350"},
    {"Hypercholesterolemia", "C18.452.584.500.500.396"},
    {"Osteoarthritis", "C05.550.114.606"},
    {"Multiple Sclerosis", "C10.114.375.500"},
    {"Glaucoma", "C11.525.381"},
    {"Psoriasis", "C17.800.859.675"},
    {"Schizophrenia", "F03.700.750"},
    {"Bipolar Disorder", "F03.084.500"},
    {"Myasthenia Gravis", "C10.114.656"},
    {"Sarcoidosis", "C15.604.515.827"},
    {"Fibromyalgia", "C05.651.324"},
    {"Hypertriglyceridemia", "C18.452.584.500.500.851"},
    {"Cataract", "C11.510.245"},
};

/* Signs and symptoms (C23); bleeding signs are left out because they
   sit under Hemorrhage, a hypernym used below. */
static const mesh_t symptoms[] = {
    {"Chest Pain", "C23.888.592.612.233"},
    {"Dyspnea", "C23.888.852.371"},
    {"Cough", "C23.888.852.293"},
    {"Fever", "C23.888.119.344"},
    {"Headache", "C23.888.592.612.441"},
    {"Abdominal Pain", "C23.888.592.612.054"},
    {"Nausea", "C23.888.821.712"},
    {"Vomiting", "C23.888.821.937"},
    {"Syncope", "C23.888.592.604.359.800.600"},
    {"Fatigue", "C23.888.369"},
    {"Back Pain", "C23.888.592.612.107"},
    {"Dizziness", "C23.888.592.763.237"},
    {"Confusion", "C23.888.592.604.339"},
    {"Diarrhea", "C23.888.821.214"},
    {"Weight Loss", "C23.888.144.243.963"},
    {"Edema", "C23.888.277"},
    {"Seizures", "C23.888.592.742"},
    {"Dysuria", "C23.888.942.343.274"},
    {"Pruritus", "C23.888.885.625"},
    {"Tremor", "C23.888.592.350.850"},
    {"Arthralgia", "C23.888.592.612.094"},
    {"Constipation", "C23.888.821.150"},
    {"Vertigo", "C23.888.592.958"},
    {"Neck Pain", "C23.888.592.612.553"},
    {"Myalgia", "C23.888.592.612.547.249"},
    {"Flank Pain", "C23.888.592.612.386"},
    {"Chills", "C23.888.208"},
};

static const mesh_t home_drugs[] = {
    {"Metformin", "D02.078.370.141.450"},
    {"Insulin", "D06.472.699.587.200.500.625"},
    {"Lisinopril", "D12.644.456.345.600"},
    {"Metoprolol", "D02.033.100.624.698.573"},
    {"Aspirin", "D02.455.426.559.389.657.410.595.176"},
    {"Warfarin", "D03.383.663.283.446.520.914"},
    {"Furosemide", "D02.065.884.725.300"},
    {"Thyroxine", "D06.472.931.812"},
    {"Prednisone", "D04.210.500.745.432.719.702"},
    {"Albuterol", "D02.033.100.291.057"},
    {"Amiodarone", "D03.633.100.127.075"},
    {"Digoxin", "D09.408.180.261.436"},
    {"Omeprazole", "D02.886.640.074.500"},
    {"Allopurinol", "D03.633.100.759.160"},
    {"Lorazepam", "D03.633.100.079.080.070.450"},
    {"Simvastatin", "D04.615.638.400.900"},
    {"Amlodipine", "D03.383.725.203.065"},
    {"Hydrochlorothiazide", "D03.633.100.174.261.476"},
    {"Sertraline", "D02.092.705.800"},
};

static const mesh_t antibiotics[] = {
    {"Vancomycin", "D09.400.420.925"},
    {"Ceftriaxone", "D02.065.589.099.249.190.190.155"},
    {"Amoxicillin", "D02.065.589.099.750.750.050.050"},
    {"Azithromycin", "D02.540.576.500.992.050"},
    {"Levofloxacin", "D03.633.100.810.835.322.500.500"},
    {"Ciprofloxacin", "D03.633.100.810.835.322.186"},
    {"Doxycycline", "D04.615.562.900.200"},
    {"Cefazolin", "D02.065.589.099.249.160"},
    {"Metronidazole", "D02.640.672.500"},
    {"Clindamycin", "D09.408.471.500.125"},
};

/* A measured quantity and example values: [high, low, normal][3]. */
typedef struct { mesh_t m; const char *val[3][3]; } vital_t;
static const vital_t vitals[] = {
    {{"Blood Pressure", "E01.370.600.875.249"},
     {{"190/110", "182/104", "176/98"}, {"78/40", "82/44", "70/38"},
      {"118/76", "124/80", "112/70"}}},
    {{"Heart Rate", "E01.370.600.875.500"},
     {{"134", "128", "142"}, {"38", "42", "45"}, {"72", "80", "66"}}},
    {{"Body Temperature", "E01.370.600.875.374"},
     {{"39.4 C", "40.1 C", "38.9 C"}, {"34.2 C", "33.8 C", "34.9 C"},
      {"36.8 C", "37.0 C", "36.6 C"}}},
    {{"Blood Glucose", "D09.546.359.448.500"},
     {{"486 mg/dL", "392 mg/dL", "610 mg/dL"},
      {"38 mg/dL", "45 mg/dL", "29 mg/dL"},
      {"96 mg/dL", "104 mg/dL", "88 mg/dL"}}},
    {{"Potassium", "D01.552.547.650"},
     {{"6.8", "7.1", "6.4"}, {"2.4", "2.7", "2.1"}, {"4.1", "3.9", "4.4"}}},
    {{"Sodium", "D01.552.547.725"},
     {{"158", "161", "155"}, {"118", "121", "116"}, {"139", "141", "137"}}},
    {{"Respiratory Rate", "E01.370.600.875.875"},
     {{"32", "36", "28"}, {"6", "5", "8"}, {"16", "14", "18"}}},
    {{"Calcium", "D01.552.539.288"},
     {{"13.4", "12.9", "14.1"}, {"6.6", "6.9", "7.1"}, {"9.4", "9.1", "9.8"}}},
};

/* Acute diagnoses grouped by organ, for "a heart condition" and the
   like; each tree number lies under that organ's "X Diseases". */
enum { ORG_HEART, ORG_LUNG, ORG_KIDNEY, ORG_LIVER, NORGAN };
static const char *const organ_word[NORGAN] =
    {"heart", "lung", "kidney", "liver"};
typedef struct { mesh_t m; int organ; } dx_t;
static const dx_t organ_dx[] = {
    {{"Myocardial Infarction", "C14.280.647.500"}, ORG_HEART},
    {{"Heart Failure", "C14.280.434"}, ORG_HEART},
    {{"Atrial Fibrillation", "C14.280.067.198"}, ORG_HEART},
    {{"Endocarditis", "C14.280.282"}, ORG_HEART},
    {{"Pericarditis", "C14.280.720"}, ORG_HEART},
    {{"Aortic Valve Stenosis", "C14.280.484.150"}, ORG_HEART},
    {{"Pneumonia", "C08.381.677"}, ORG_LUNG},
    {{"Pulmonary Embolism", "C08.381.746"}, ORG_LUNG},
    {{"Pulmonary Edema", "C08.381.742"}, ORG_LUNG},
    {{"Pulmonary Fibrosis", "C08.381.765"}, ORG_LUNG},
    {{"Lung Neoplasms", "C08.381.540"}, ORG_LUNG},
    {{"Bronchitis", "C08.381.495.146"}, ORG_LUNG},
    {{"Acute Kidney Injury", "C12.777.419.780.050"}, ORG_KIDNEY},
    {{"Pyelonephritis", "C12.777.419.570.643.790"}, ORG_KIDNEY},
    {{"Nephrotic Syndrome", "C12.777.419.630.643"}, ORG_KIDNEY},
    {{"Glomerulonephritis", "C12.777.419.570.363"}, ORG_KIDNEY},
    {{"Hydronephrosis", "C12.777.419.307"}, ORG_KIDNEY},
    {{"Liver Cirrhosis", "C06.552.630"}, ORG_LIVER},
    {{"Hepatitis", "C06.552.380"}, ORG_LIVER},
    {{"Fatty Liver", "C06.552.241"}, ORG_LIVER},
    {{"Liver Failure", "C06.552.308.500"}, ORG_LIVER},
};

/* Infections, all under Infection (C01.539), so "the patient has an
   infection" is also a MeSH hypernym of the premise's diagnosis. */
static const mesh_t mesh_infection = {"Infection", "C01.539"};
static const mesh_t infections[] = {
    {"Sepsis", "C01.539.757"},
    {"Cellulitis", "C01.539.800.130"},
    {"Appendicitis", "C01.539.463.099"},
    {"Osteomyelitis", "C01.539.160.495"},
    {"Diverticulitis", "C01.539.463.298"},
    {"Bacteremia", "C01.539.757.100"},
    {"Peritonitis", "C01.539.463.600"},
    {"Empyema", "C01.539.830.305"},
};

/* Hypernym pairs: anc's tree number is a proper prefix of desc's. */
typedef struct { mesh_t desc, anc; int drug; } hyper_t;
static const hyper_t hypers[] = {
    {{"Myocardial Infarction", "C14.280.647.500"},
     {"Myocardial Ischemia", "C14.280.647"}, 0},
    {{"Acute Kidney Injury", "C12.777.419.780.050"},
     {"Renal Insufficiency", "C12.777.419.780"}, 0},
    {{"Pulmonary Embolism", "C14.907.355.350.700"},
     {"Embolism", "C14.907.355.350"}, 0},
    {{"Venous Thrombosis", "C14.907.355.830.925"},
     {"Thrombosis", "C14.907.355.830"}, 0},
    {{"Pyelonephritis", "C12.777.419.570.643.790"},
     {"Nephritis", "C12.777.419.570"}, 0},
    {{"Glomerulonephritis", "C12.777.419.570.363"},
     {"Nephritis", "C12.777.419.570"}, 0},
    {{"Asthma", "C08.674.095"},
     {"Respiratory Hypersensitivity", "C08.674"}, 0},
    {{"Gastrointestinal Hemorrhage", "C23.550.414.788"},
     {"Hemorrhage", "C23.550.414"}, 0},
    {{"Pneumonia", "C08.381.677"}, {"Lung Diseases", "C08.381"}, 0},
    {{"Liver Cirrhosis", "C06.552.630"}, {"Liver Diseases", "C06.552"}, 0},
    {{"Ceftriaxone", "D02.065.589.099.249.190.190.155"},
     {"Cephalosporins", "D02.065.589.099.249"}, 1},
    {{"Cefazolin", "D02.065.589.099.249.160"},
     {"Cephalosporins", "D02.065.589.099.249"}, 1},
    {{"Amoxicillin", "D02.065.589.099.750.750.050.050"},
     {"Penicillins", "D02.065.589.099.750"}, 1},
    {{"Metformin", "D02.078.370.141.450"},
     {"Biguanides", "D02.078.370.141"}, 1},
};

/* Lifestyle statements.  The premise sentences avoid the exact cause
   term, so a hypothesis with a cause always "adds" it, whatever the
   label. */
typedef struct {
    const char *hyp, *ent, *con, *neu;
    mesh_t cause; /* term NULL: no MeSH behavioural cause */
} social_t;
static const social_t socials[] = {
    {"%s is a smoker.", "%s smokes a pack of cigarettes a day.",
     "%s has never smoked.", "%p %r smokes.", {NULL, NULL}},
    {"%s has a history of smoking.", "%s smoked for thirty years.",
     "%s has never smoked.", "%p %r smokes.",
     {"Smoking", "F01.145.958.500"}},
    {"%s has a history of alcohol drinking.",
     "%s drinks a bottle of wine every day.", "%s has never had a drink.",
     "%p %r drinks heavily.", {"Alcohol Drinking", "F01.145.317.269"}},
    {"%s has obesity.", "%p body mass index is 45.",
     "%p body mass index is 21.", "%p weight has not been recorded.",
     {"Obesity", "C18.654.726.500"}},
    {"%s uses cocaine.", "%p urine drug screen was positive for cocaine.",
     "%s has never used illicit drugs.", "A urine drug screen is pending.",
     {NULL, NULL}},
    {"%s is homeless.", "%s has been living on the street for two years.",
     "%s lives at home with %p family.",
     "%s was brought in by a social worker.", {NULL, NULL}},
    {"%s lives in a shelter for homeless persons.",
     "%s has been staying at a city shelter since losing %p apartment.",
     "%s lives at home with %p family.",
     "%s was brought in by a social worker.",
     {"Homeless Persons", "M01.325"}},
};

typedef struct { const char *hyp, *ent, *con, *neu; } event_t;
static const event_t events[] = {
    {"%s was intubated.", "%s was intubated in the emergency department.",
     "%s declined intubation.",
     "The team discussed intubation with %p family."},
    {"%s was admitted to the intensive care unit.",
     "%s was transferred to the intensive care unit for close monitoring.",
     "%s was discharged home from the emergency department.",
     "%s is waiting for a hospital bed."},
    {"%s received a blood transfusion.",
     "%s was transfused two units of blood.",
     "%s refused a blood transfusion.", "A blood transfusion was considered."},
    {"%s had surgery.", "%s was taken to the operating room.",
     "%s declined surgery.", "Surgery was consulted."},
    {"%s had a CT scan.", "A CT scan was performed.", "%s refused a CT scan.",
     "A CT scan was ordered."},
};

static const char *const family[] = {"mother", "father", "sister", "brother"};
static const char *const contacts[] = {"roommate", "son", "daughter",
                                       "coworker"};

/* ---------------------------------------------------------------- */
/* Kinds of hypothesis, the premise parts ("slots") each one needs, and
   the default artifacts.                                           */

enum kind {
    K_SEX, K_AGE, K_COND, K_SYMPT, K_DRUG, K_VITAL, K_EVENT, K_SOCIAL,
    K_GENDX, K_GENDRUG, K_HYPER, K_HEALTH, NKIND
};

enum slot {
    S_SEX = 1 << 0, S_AGE = 1 << 1, S_HIST = 1 << 2, S_MAINSYM = 1 << 3,
    S_PCOND = 1 << 4, S_PSYM = 1 << 5, S_DRUG = 1 << 6, S_VITAL = 1 << 7,
    S_EVENT = 1 << 8, S_SOCIAL = 1 << 9, S_DX = 1 << 10, S_HEALTH = 1 << 11
};

/* weight: share in the class-neutral pool.  excl: slots the kind may
   rewrite; reads: slots it relies on.  These do not depend on the
   label, so the pool stays label-blind even after conflicts. */
typedef struct { int weight, nvariant; unsigned excl, reads; } kind_info_t;
static const kind_info_t kinds[NKIND] = {
    [K_SEX] = {2, 2, S_SEX, 0},
    [K_AGE] = {2, 3, S_AGE, 0},
    [K_COND] = {3, 5, S_PCOND, 0},
    [K_SYMPT] = {3, 4, S_PSYM, 0},
    [K_DRUG] = {2, 4, S_DRUG, 0},
    [K_VITAL] = {3, 3, S_VITAL, 0},
    [K_EVENT] = {2, (int)NELEM(events), S_EVENT, 0},
    [K_SOCIAL] = {3, (int)NELEM(socials), S_SOCIAL, S_HIST},
    [K_GENDX] = {2, 3, S_DX, 0},
    [K_GENDRUG] = {2, 2, S_DRUG, 0},
    [K_HYPER] = {2, (int)NELEM(hypers), S_DX | S_DRUG, 0},
    /* "Healthy" premises only hold if nothing else makes the patient
       ill, so the pool version claims every disease-bearing slot. */
    [K_HEALTH] = {1, 1,
                  S_HEALTH | S_HIST | S_MAINSYM | S_PCOND | S_PSYM | S_DRUG
                      | S_VITAL | S_EVENT | S_DX,
                  0},
};

enum heur { H_NONE, H_HYPERNYM, H_CAUSE, H_FINE, NHEUR };
static const char *const heur_name[NHEUR] =
    {"", "hypernym", "probable-cause", "everything-fine"};
static const int heur_cls[NHEUR] = {0, ENT, NEU, CON};

/* Variant numbers used by the artifacts (see the gen_* functions). */
enum { COND_NOHIST = 2, COND_NOT = 3, COND_NEVER = 4 };
enum { SYMPT_DENIES = 2, SYMPT_NO = 3 };
enum { VITAL_NORMAL = 2 };
enum { GENDX_INFECTION, GENDX_CONDITION, GENDX_DISEASE };
enum { GENDRUG_MEDICATION, GENDRUG_ANTIBIOTIC };
enum { SOC_SMOKER, SOC_SMOKING, SOC_ALCOHOL, SOC_OBESITY, SOC_COCAINE,
       SOC_HOMELESS, SOC_SHELTER };

/* Default artifacts: rate is per mille of that class's hypotheses at
   --strength 1000; variant -1 means any.  Rates per class sum to at
   most 560, so a class keeps >= 44% class-neutral hypotheses. */
typedef struct { int cls, kind, variant, rate; const char *token; } artifact_t;
static const artifact_t artifacts[] = {
    {ENT, K_GENDX, GENDX_INFECTION, 90, "infection"},
    {ENT, K_GENDX, GENDX_CONDITION, 90, "condition"},
    {ENT, K_GENDX, GENDX_DISEASE, 90, "disease"},
    {ENT, K_GENDRUG, GENDRUG_MEDICATION, 90, "medication"},
    {ENT, K_GENDRUG, GENDRUG_ANTIBIOTIC, 80, "antibiotic"},
    {ENT, K_HYPER, -1, 120, NULL},
    {NEU, K_SOCIAL, SOC_SMOKER, 80, "smoker"},
    {NEU, K_SOCIAL, SOC_SMOKING, 80, "smoking"},
    {NEU, K_SOCIAL, SOC_ALCOHOL, 80, "alcohol"},
    {NEU, K_SOCIAL, SOC_OBESITY, 80, "obesity"},
    {NEU, K_SOCIAL, SOC_COCAINE, 80, "cocaine"},
    {NEU, K_SOCIAL, SOC_HOMELESS, 50, "homeless"},
    {NEU, K_SOCIAL, SOC_SHELTER, 50, "homeless"},
    {CON, K_COND, COND_NOT, 100, "not"},
    {CON, K_COND, COND_NEVER, 80, "never"},
    {CON, K_COND, COND_NOHIST, 50, "no"},
    {CON, K_SYMPT, SYMPT_DENIES, 100, "denies"},
    {CON, K_SYMPT, SYMPT_NO, 60, "no"},
    {CON, K_VITAL, VITAL_NORMAL, 90, "normal"},
    {CON, K_HEALTH, 0, 80, "healthy"},
};

/* Which heuristic a (kind, variant) realises, whatever its label. */
static int heur_of(int kind, int variant)
{
    switch (kind) {
    case K_COND: return variant >= COND_NOHIST ? H_FINE : H_NONE;
    case K_SYMPT: return variant >= SYMPT_DENIES ? H_FINE : H_NONE;
    case K_DRUG: return variant >= 2 ? H_FINE : H_NONE;
    case K_VITAL: return variant == VITAL_NORMAL ? H_FINE : H_NONE;
    case K_SOCIAL: return socials[variant].cause.term ? H_CAUSE : H_NONE;
    case K_GENDX: return variant == GENDX_INFECTION ? H_HYPERNYM : H_NONE;
    case K_HYPER: return H_HYPERNYM;
    default: return H_NONE;
    }
}

/* ---------------------------------------------------------------- */
/* Options                                                          */

typedef struct { char token[64]; int cls, permille; } plant_t;

/* Pair artifacts: how the hypothesis is made from its premise. */
enum { PP_OVERLAP, PP_NEGATION, PP_NUMBERS, NPAIRKIND };
static const char *const pair_kind_name[NPAIRKIND] =
    {"overlap", "negation", "numbers"};
typedef struct { int kind, cls, permille; } pair_plant_t;

typedef struct {
    const char *outdir, *prefix;
    int replace;             /* --replace: write over a corpus in outdir */
    uint64_t seed;
    long premises;
    long strength;
    long hypernym;     /* per mille of the tokenless hypernym artifact, or -1 */
    plant_t plant[MAXPLANT];
    int nplant;
    pair_plant_t pair[MAXPLANT]; /* --plant-pair, in the order given */
    int npair;
} opts_t;

/* An artifact's rate in parts per million: its rate scaled by --strength,
   or --hypernym's as given. */
static uint64_t artifact_ppm(const opts_t *o, const artifact_t *a)
{
    if (a->kind == K_HYPER && o->hypernym >= 0)
        return (uint64_t)o->hypernym * 1000;
    return (uint64_t)a->rate * (uint64_t)o->strength;
}

/* ---------------------------------------------------------------- */
/* Text: templates with %-placeholders, expanded into bounded buffers. */

typedef struct {
    const char *s, *p; /* subject and possessive: "she", "her" */
    const char *x, *y; /* concepts; MeSH terms are lowercased */
    const char *r, *v; /* a relative; a value */
    const char *a;     /* age and sex phrase: "67 year old man" */
} subst_t;

static void put(char *out, size_t size, size_t *n, const char *s, int lower)
{
    for (; *s; s++) {
        if (*n + 1 >= size)
            cli_die("internal error: sentence too long");
        out[(*n)++] = lower ? (char)tolower((unsigned char)*s) : *s;
    }
    out[*n] = '\0';
}

/* "an" before a vowel or a number read with one ("an 81 year old"). */
static const char *article(const char *w)
{
    if (strchr("aeiou8", w[0]) || !strncmp(w, "11 ", 3)
        || !strncmp(w, "18 ", 3))
        return "an ";
    return "a ";
}

/* Expands t into out; the first letter is capitalised because every
   template is one sentence. */
static void expand(char *out, size_t size, const char *t, const subst_t *sb)
{
    size_t n = 0;
    out[0] = '\0';
    for (; *t; t++) {
        char one[2] = {*t, '\0'};
        if (*t != '%') {
            put(out, size, &n, one, 0);
            continue;
        }
        switch (*++t) {
        case 's': put(out, size, &n, sb->s, 0); break;
        case 'p': put(out, size, &n, sb->p, 0); break;
        case 'x': put(out, size, &n, sb->x, 1); break;
        case 'y': put(out, size, &n, sb->y, 1); break;
        case 'r': put(out, size, &n, sb->r, 0); break;
        case 'v': put(out, size, &n, sb->v, 0); break;
        case 'a': put(out, size, &n, sb->a, 0); break;
        case 'A':
            put(out, size, &n, article(sb->a), 0);
            put(out, size, &n, sb->a, 0);
            break;
        default: cli_die("internal error: bad template '%s'", t - 1);
        }
    }
    out[0] = (char)toupper((unsigned char)out[0]);
}

/* ---------------------------------------------------------------- */
/* One premise and its three hypotheses                             */

enum { STYLE_ILL, STYLE_CHECKUP, STYLE_NEWCARE };

typedef struct {
    synth_rng *r;
    int sex, sex_shown, age, age_shown, style;
    const mesh_t *hist, *sym; /* NULL when the premise has none */
    char agephrase[64];
    char frag[MAXFRAG][LINE];
    int nfrag;
} prem_t;

typedef struct {
    int cls, kind, variant;
    const char *subj, *poss; /* "the patient" or "patient" */
    char text[LINE];
    int heur;
    const mesh_t *pm, *hm; /* MeSH pair behind heur */
    unsigned pairs;        /* bit k: --plant-pair number k remade it */
} hyp_t;

static subst_t prem_subst(const prem_t *p)
{
    subst_t sb = {0};
    sb.s = !p->sex_shown ? "the patient" : p->sex ? "he" : "she";
    sb.p = !p->sex_shown ? "the patient's" : p->sex ? "his" : "her";
    sb.a = p->agephrase;
    return sb;
}

/* Adds a premise sentence about concept x (y: second concept or word). */
static void frag_add(prem_t *p, const char *tmpl, const char *x,
                     const char *y, const char *v)
{
    subst_t sb = prem_subst(p);
    if (p->nfrag >= MAXFRAG)
        cli_die("internal error: too many premise sentences");
    sb.x = x ? x : "";
    sb.y = y ? y : "";
    sb.v = v ? v : "";
    sb.r = family[synth_below(p->r, NELEM(family))];
    expand(p->frag[p->nfrag++], LINE, tmpl, &sb);
}

static void hyp_write(hyp_t *h, const char *tmpl, const char *x,
                      const char *y)
{
    subst_t sb = {0};
    sb.s = h->subj;
    sb.p = h->poss;
    sb.x = x ? x : "";
    sb.y = y ? y : "";
    expand(h->text, LINE, tmpl, &sb);
}

static void set_heur(hyp_t *h, const mesh_t *pm, const mesh_t *hm)
{
    h->heur = heur_of(h->kind, h->variant);
    h->pm = pm;
    h->hm = hm;
}

/* A random element of a table other than *avoid. */
static const mesh_t *pick_other(synth_rng *r, const mesh_t *tab, size_t n,
                                const mesh_t *avoid)
{
    size_t skip = avoid ? (size_t)(avoid - tab) : n;
    size_t i = synth_below(r, (uint32_t)(skip < n ? n - 1 : n));
    return &tab[i >= skip ? i + 1 : i];
}

/* The premise sentence set for a statement about the patient: pos when
   the premise asserts what the hypothesis asserts positively, and so
   on.  Entailment repeats the hypothesis' polarity, contradiction flips
   it, neutral talks about someone else. */
static const char *polar(synth_rng *r, int cls, int hyp_positive,
                         const char *const pos[2], const char *const neg[2],
                         const char *const neu[2])
{
    const char *const *set = cls == NEU ? neu
                             : (cls == ENT) == hyp_positive ? pos : neg;
    return set[synth_below(r, 2)];
}

static void gen_sex(prem_t *p, hyp_t *h)
{
    static const char *const words[2][2] = {{"%s is a woman.", "%s is a man."},
                                            {"%s is female.", "%s is male."}};
    int hs = (int)synth_below(p->r, 2);
    if (h->cls == NEU)
        p->sex_shown = 0;
    else
        p->sex = h->cls == ENT ? hs : !hs;
    hyp_write(h, words[h->variant][hs], NULL, NULL);
}

static void gen_age(prem_t *p, hyp_t *h)
{
    static const char *const words[3] =
        {"%s is young.", "%s is middle-aged.", "%s is elderly."};
    static const int lo[3] = {19, 45, 70}, hi[3] = {35, 60, 92};
    int cat = h->variant;
    if (h->cls == NEU)
        p->age_shown = 0;
    if (h->cls == CON)
        cat = (cat + 1 + (int)synth_below(p->r, 2)) % 3;
    p->age = lo[cat] + (int)synth_below(p->r, (uint32_t)(hi[cat] - lo[cat] + 1));
    hyp_write(h, words[h->variant], NULL, NULL);
}

static void gen_health(prem_t *p, hyp_t *h)
{
    static const int style[NCLS] = {STYLE_CHECKUP, STYLE_NEWCARE, STYLE_ILL};
    p->style = style[h->cls];
    hyp_write(h, "%s is healthy.", NULL, NULL);
}

static void gen_cond(prem_t *p, hyp_t *h)
{
    static const char *const hyps[5] = {
        "%s has a history of %x.", "%s has %x.", "%s has no history of %x.",
        "%s does not have %x.", "%s has never had %x."};
    static const char *const pos[2] = {"%s also has %x.",
                                       "%s was diagnosed with %x years ago."};
    static const char *const neg[2] = {
        "%s has no history of %x.", "%s has never been diagnosed with %x."};
    static const char *const neu[2] = {"%p %r has %x.",
                                       "There is a family history of %x."};
    const mesh_t *x = pick_other(p->r, chronic, NELEM(chronic), p->hist);
    frag_add(p, polar(p->r, h->cls, h->variant < 2, pos, neg, neu), x->term,
             NULL, NULL);
    hyp_write(h, hyps[h->variant], x->term, NULL);
    set_heur(h, x, x);
}

static void gen_sympt(prem_t *p, hyp_t *h)
{
    static const char *const hyps[4] = {
        "%s complains of %x.", "%s reports %x.", "%s denies %x.",
        "%s has no %x."};
    static const char *const pos[2] = {"%s also reports %x.",
                                       "%s also complains of %x."};
    static const char *const neg[2] = {"%s denies %x.", "%s reports no %x."};
    const mesh_t *x = pick_other(p->r, symptoms, NELEM(symptoms), p->sym);
    if (h->cls == NEU) /* a sick contact: says nothing about the patient */
        frag_add(p, "%p %y has had %x for a week.", x->term,
                 contacts[synth_below(p->r, NELEM(contacts))], NULL);
    else
        frag_add(p, polar(p->r, h->cls, h->variant < 2, pos, neg, NULL),
                 x->term, NULL, NULL);
    hyp_write(h, hyps[h->variant], x->term, NULL);
    set_heur(h, x, x);
}

static void gen_drug(prem_t *p, hyp_t *h)
{
    static const char *const hyps[4] = {"%s is on %x.", "%s takes %x.",
                                        "%s is not on %x.",
                                        "%s does not take %x."};
    static const char *const pos[2] = {"%s takes %x daily.",
                                       "Home medications include %x."};
    static const char *const neg[2] = {"%s stopped taking %x last year.",
                                       "%x was discontinued a year ago."};
    static const char *const neu[2] = {
        "It is unclear whether %s still takes %x.", "%p %r takes %x."};
    const mesh_t *x = &home_drugs[synth_below(p->r, NELEM(home_drugs))];
    frag_add(p, polar(p->r, h->cls, h->variant < 2, pos, neg, neu), x->term,
             NULL, NULL);
    hyp_write(h, hyps[h->variant], x->term, NULL);
    set_heur(h, x, x);
}

static void gen_vital(prem_t *p, hyp_t *h)
{
    static const char *const hyps[3] = {"%p %x is high.", "%p %x is low.",
                                        "%p %x is normal."};
    static const char *const neu[2] = {"%p %x has not been measured yet.",
                                       "%p %x was not recorded."};
    const vital_t *v = &vitals[synth_below(p->r, NELEM(vitals))];
    int cat = h->variant;
    if (h->cls == NEU) {
        frag_add(p, neu[synth_below(p->r, 2)], v->m.term, NULL, NULL);
    } else {
        if (h->cls == CON)
            cat = (cat + 1 + (int)synth_below(p->r, 2)) % 3;
        frag_add(p, "%p %x is %v.", v->m.term, NULL,
                 v->val[cat][synth_below(p->r, 3)]);
    }
    hyp_write(h, hyps[h->variant], v->m.term, NULL);
    set_heur(h, &v->m, &v->m);
}

static void gen_event(prem_t *p, hyp_t *h)
{
    const event_t *e = &events[h->variant];
    const char *f = h->cls == ENT ? e->ent : h->cls == CON ? e->con : e->neu;
    frag_add(p, f, NULL, NULL, NULL);
    hyp_write(h, e->hyp, NULL, NULL);
}

static void gen_social(prem_t *p, hyp_t *h)
{
    const social_t *s = &socials[h->variant];
    const char *f = h->cls == ENT ? s->ent : h->cls == CON ? s->con : s->neu;
    frag_add(p, f, NULL, NULL, NULL);
    hyp_write(h, s->hyp, NULL, NULL);
    if (!p->hist)
        cli_die("internal error: lifestyle hypothesis without a history");
    set_heur(h, p->hist, &s->cause);
}

/* The sentence that rules out a diagnosis x, or reports it in the
   family, so that the concept is in every premise whatever the label. */
static void dx_fragment(prem_t *p, int cls, const char *x, const char *con,
                        const char *y)
{
    static const char *const ent[2] = {"%s was diagnosed with %x.",
                                       "%s was found to have %x."};
    if (cls == ENT)
        frag_add(p, ent[synth_below(p->r, 2)], x, NULL, NULL);
    else if (cls == CON)
        frag_add(p, con, x, y, NULL);
    else
        frag_add(p, "%p %r was recently diagnosed with %x.", x, NULL, NULL);
}

static void gen_gendx(prem_t *p, hyp_t *h)
{
    if (h->variant == GENDX_INFECTION) {
        const mesh_t *x = &infections[synth_below(p->r, NELEM(infections))];
        dx_fragment(p, h->cls, x->term,
                    "%x was ruled out, and there is no sign of infection.",
                    NULL);
        hyp_write(h, "%s has an infection.", NULL, NULL);
        set_heur(h, x, &mesh_infection);
        return;
    }
    int organ = (int)synth_below(p->r, NORGAN), n = 0;
    const dx_t *x = NULL;
    for (size_t i = 0; i < NELEM(organ_dx); i++)
        n += organ_dx[i].organ == organ;
    n = (int)synth_below(p->r, (uint32_t)n);
    for (size_t i = 0; !x; i++)
        if (organ_dx[i].organ == organ && n-- == 0)
            x = &organ_dx[i];
    dx_fragment(p, h->cls, x->m.term,
                "%x was ruled out, and %s has no %y disease.",
                organ_word[organ]);
    hyp_write(h, h->variant == GENDX_CONDITION ? "%s has a %y condition."
                                               : "%s has %y disease.",
              NULL, organ_word[organ]);
}

static void gen_gendrug(prem_t *p, hyp_t *h)
{
    if (h->variant == GENDRUG_MEDICATION) {
        static const char *const f[NCLS] = {
            "%s takes %x daily.", "%p medication list is not available.",
            "%s takes no medications."};
        frag_add(p, f[h->cls],
                 home_drugs[synth_below(p->r, NELEM(home_drugs))].term, NULL, NULL);
        hyp_write(h, "%s is on medication.", NULL, NULL);
    } else {
        static const char *const f[NCLS] = {
            "%s was started on %x.",
            "Blood cultures were drawn, and treatment is being discussed.",
            "No antibiotics were given."};
        const mesh_t *x = &antibiotics[synth_below(p->r, NELEM(antibiotics))];
        frag_add(p, f[h->cls], x->term, NULL, NULL);
        hyp_write(h, "%s was given an antibiotic.", NULL, NULL);
    }
}

static void gen_hyper(prem_t *p, hyp_t *h)
{
    const hyper_t *x = &hypers[h->variant];
    if (x->drug) {
        static const char *const f[NCLS] = {
            "%s was given %x.", "%p %r is taking %x.",
            "%s is allergic to %y, so %x was not given."};
        frag_add(p, f[h->cls], x->desc.term, x->anc.term, NULL);
        hyp_write(h, "%s was given %y.", NULL, x->anc.term);
    } else {
        dx_fragment(p, h->cls, x->desc.term,
                    "%x was ruled out, and %s has no %y.", x->anc.term);
        hyp_write(h, "%s has %y.", NULL, x->anc.term);
    }
    set_heur(h, &x->desc, &x->anc);
}

/* The opening sentence: who the patient is, and why they came. */
static void main_sentence(prem_t *p, char *out, size_t size)
{
    static const char *const ill[] = {
        "The patient is %A with a history of %x who presents with %y.",
        "%A with a history of %x presented to the emergency department "
        "with %y.",
        "%A with a past medical history of %x was brought in with %y.",
        "%A with known %x comes in complaining of %y.",
        "%A with %x presents with %y.",
        "This is %A with a history of %x who was sent in by %p doctor "
        "for %y.",
    };
    /* "adult", not "patient", when the sex is hidden: the opening
       sentence often starts with "The patient is". */
    static const char *const noun[3] = {"woman", "man", "adult"};
    subst_t sb;
    const char *who = noun[p->sex_shown ? p->sex : 2];
    if (p->age_shown)
        snprintf(p->agephrase, sizeof p->agephrase, "%d year old %s", p->age,
                 who);
    else
        snprintf(p->agephrase, sizeof p->agephrase, "%s", who);
    sb = prem_subst(p);
    if (p->style == STYLE_CHECKUP) {
        char more[LINE];
        size_t n;
        expand(out, size,
               "A healthy %a presents for a routine physical examination.",
               &sb);
        expand(more, sizeof more,
               "%s has no complaints and takes no medications.", &sb);
        n = strlen(out);
        put(out, size, &n, " ", 0);
        put(out, size, &n, more, 0);
    } else if (p->style == STYLE_NEWCARE) {
        expand(out, size,
               "%A presents to establish care with a new primary care doctor.",
               &sb);
    } else {
        sb.x = p->hist->term;
        sb.y = p->sym->term;
        expand(out, size, ill[synth_below(p->r, NELEM(ill))], &sb);
    }
}

/* Background sentences that bear on no hypothesis. */
static void add_background(prem_t *p, unsigned used)
{
    static const char *const filler[] = {
        "%s was seen by %p primary care doctor two weeks ago.",
        "The history was obtained from the medical record.",
        "%s is accompanied by %p daughter.",
    };
    if (p->style == STYLE_ILL && !(used & S_DRUG) && synth_below(p->r, 1000) < 400)
        frag_add(p, "%s takes %x at home.",
                 home_drugs[synth_below(p->r, NELEM(home_drugs))].term, NULL, NULL);
    if (synth_below(p->r, 1000) < 300)
        frag_add(p, filler[synth_below(p->r, NELEM(filler))], NULL, NULL, NULL);
}

/* ---------------------------------------------------------------- */
/* Choosing the kinds of one premise's three hypotheses             */

typedef struct { int kind, variant, artifact; } pick_t;

static void claims(const pick_t *k, int cls, unsigned *excl, unsigned *reads)
{
    *excl = kinds[k->kind].excl;
    *reads = kinds[k->kind].reads;
    /* A planted "is healthy" contradiction needs only an ill patient,
       which every ordinary premise has. */
    if (k->kind == K_HEALTH && k->artifact && cls == CON) {
        *excl = S_HEALTH;
        *reads = S_HIST | S_MAINSYM;
    }
}

static int compatible(unsigned e, unsigned r, unsigned all_e, unsigned all_r)
{
    return !(e & (all_e | all_r)) && !(r & all_e);
}

/* Draws one artifact for cls, or none.  Always one draw (plus the
   variant), so --strength 0 and --no-artifacts give the same output. */
static int draw_artifact(synth_rng *r, const opts_t *o, int cls, pick_t *k)
{
    uint32_t u = synth_below(r, 1000000);
    uint64_t cum = 0;
    for (size_t i = 0; i < NELEM(artifacts); i++) {
        const artifact_t *a = &artifacts[i];
        if (a->cls != cls)
            continue;
        cum += artifact_ppm(o, a);
        if (u < cum) {
            k->kind = a->kind;
            k->variant = a->variant;
            if (k->variant < 0)
                k->variant =
                    (int)synth_below(r, (uint32_t)kinds[a->kind].nvariant);
            k->artifact = 1;
            return 1;
        }
    }
    return 0;
}

/* Draws a class-neutral kind among those that fit the slots taken. */
static void draw_pool(synth_rng *r, unsigned all_e, unsigned all_r, pick_t *k)
{
    int total = 0, x;
    for (int i = 0; i < NKIND; i++)
        if (compatible(kinds[i].excl, kinds[i].reads, all_e, all_r))
            total += kinds[i].weight;
    if (total == 0)
        cli_die("internal error: no hypothesis kind fits");
    x = (int)synth_below(r, (uint32_t)total);
    for (int i = 0; i < NKIND; i++) {
        if (!compatible(kinds[i].excl, kinds[i].reads, all_e, all_r))
            continue;
        if ((x -= kinds[i].weight) < 0) {
            k->kind = i;
            break;
        }
    }
    k->variant = (int)synth_below(r, (uint32_t)kinds[k->kind].nvariant);
    k->artifact = 0;
}

/* Artifacts first, then the pool, each class in a random order so that
   no class is favoured when kinds compete for a slot. */
static unsigned choose_kinds(synth_rng *r, const opts_t *o, pick_t pick[NCLS])
{
    int order[NCLS];
    unsigned all_e = 0, all_r = 0, e, rd;
    permute(r, order, NCLS);
    for (int i = 0; i < NCLS; i++) {
        int c = order[i];
        pick[c].kind = -1;
        if (!draw_artifact(r, o, c, &pick[c]))
            continue;
        claims(&pick[c], c, &e, &rd);
        if (!compatible(e, rd, all_e, all_r)) {
            pick[c].kind = -1;
            continue;
        }
        all_e |= e;
        all_r |= rd;
    }
    for (int i = 0; i < NCLS; i++) {
        int c = order[i];
        if (pick[c].kind >= 0)
            continue;
        draw_pool(r, all_e, all_r, &pick[c]);
        claims(&pick[c], c, &e, &rd);
        all_e |= e;
        all_r |= rd;
    }
    return all_e | all_r;
}

/* ---------------------------------------------------------------- */
/* Building one premise                                             */

typedef struct {
    char *premise;
    hyp_t *base;       /* the three hypotheses, by class */
    hyp_t *hyp[NCLS];  /* the same, in output order */
} item_t;

typedef void (*gen_fn)(prem_t *, hyp_t *);

static void gen_kind(prem_t *p, hyp_t *h)
{
    static const gen_fn fn[NKIND] = {
        [K_SEX] = gen_sex, [K_AGE] = gen_age, [K_COND] = gen_cond,
        [K_SYMPT] = gen_sympt, [K_DRUG] = gen_drug, [K_VITAL] = gen_vital,
        [K_EVENT] = gen_event, [K_SOCIAL] = gen_social, [K_GENDX] = gen_gendx,
        [K_GENDRUG] = gen_gendrug, [K_HYPER] = gen_hyper,
        [K_HEALTH] = gen_health};
    fn[h->kind](p, h);
}

/* Sex, age and health shape the opening sentence, so they go first. */
static int early_kind(int kind)
{
    return kind == K_SEX || kind == K_AGE || kind == K_HEALTH;
}

static void assemble(prem_t *p, const char *opening, char *out, size_t size)
{
    int order[MAXFRAG];
    size_t n = 0;
    put(out, size, &n, opening, 0);
    permute(p->r, order, p->nfrag);
    for (int i = 0; i < p->nfrag; i++) {
        put(out, size, &n, " ", 0);
        put(out, size, &n, p->frag[order[i]], 0);
    }
}

/* Appends planted extra tokens, from a stream of their own so that the
   rest of the corpus does not change. */
static void plant_extras(const opts_t *o, long idx, hyp_t *hyp)
{
    for (int k = 0; k < o->nplant; k++) {
        synth_rng r;
        synth_rng_init(&r, o->seed, (uint64_t)idx, (uint64_t)k + 1);
        for (int c = 0; c < NCLS; c++) {
            hyp_t *h = &hyp[c];
            size_t len = strlen(h->text), tl = strlen(o->plant[k].token);
            if (synth_below(&r, 1000) >= (uint32_t)o->plant[k].permille
                || h->cls != o->plant[k].cls)
                continue;
            if (len + tl + 2 >= LINE)
                cli_die("internal error: sentence too long");
            /* before the final period: "... pneumonia TOKEN." */
            h->text[len - 1] = ' ';
            memcpy(h->text + len, o->plant[k].token, tl);
            strcpy(h->text + len + tl, ".");
        }
    }
}

/* ---------------------------------------------------------------- */
/* Pair artifacts (--plant-pair)                                    */

static int has_words(const char *text, const char *seq);

/* A negation cue and the clause that adds it before the final period;
   %s is the hypothesis' subject. */
static const struct { const char *cue, *tail; } neg_cues[] = {
    {"denies", ", and %s denies pain"},
    {"no evidence of", ", with no evidence of bleeding"},
    {"negative for", ", and %s tested negative for influenza"},
    {"not", ", and %s is not in distress"},
    {"no", ", with no acute distress"},
    {"never", ", and %s has never been hospitalized"},
    {"without", ", without acute distress"},
    {"free of", ", and %s is free of pain"},
};

/* A unit, the clause that adds a number with it (%d), and its numbers. */
static const struct { const char *unit, *tail; int val[10]; } num_units[] = {
    {"mg", ", given %d mg", {5, 10, 20, 25, 40, 50, 80, 100, 250, 500}},
    {"days", ", for %d days", {2, 3, 4, 5, 6, 7, 10, 14}},
    {"weeks", ", for %d weeks", {2, 3, 4, 6, 8}},
    {"hours", ", for %d hours", {6, 12, 24, 36, 48, 72}},
    {"kg", ", weighing %d kg", {52, 58, 64, 71, 77, 83, 96, 104}},
    {"ml", ", after %d ml of saline", {250, 500, 750, 1000, 1500, 2000}},
};

/* Puts clause before h's final period. */
static void add_clause(hyp_t *h, const char *clause)
{
    size_t len = strlen(h->text), cl = strlen(clause);
    if (len + cl + 1 >= LINE)
        cli_die("internal error: sentence too long");
    memcpy(h->text + len - 1, clause, cl);
    strcpy(h->text + len - 1 + cl, ".");
}

/* The premise's words: its space-separated chunks. */
enum { MAXW = 4 * LINE / 2 };
typedef struct {
    const char *w[MAXW];
    size_t wl[MAXW];       /* without trailing punctuation */
    int sent[MAXW];        /* the sentence of each */
    char glue[MAXW];       /* glue[i]: i and i + 1 are in one concept */
    int n;
} words_t;

static int same_word(const char *a, const char *b, size_t l)
{
    for (size_t i = 0; i < l; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return 0;
    return 1;
}

/* Glues the words of each occurrence of a multiword term, so that a run
   does not cut it (and stays a run when a prepared text merges it). */
static void glue_term(words_t *ws, const char *term)
{
    if (!strchr(term, ' '))
        return;
    for (int i = 0; i < ws->n; i++) {
        const char *t = term;
        for (int j = i; j < ws->n; j++) {
            size_t tl = strcspn(t, " ");
            if (ws->wl[j] != tl || !same_word(ws->w[j], t, tl))
                break;
            t += tl;
            if (!*t) {
                for (int b = i; b < j; b++)
                    ws->glue[b] = 1;
                break;
            }
            t++;
        }
    }
}

static void split_words(words_t *ws, const char *premise)
{
    int s = 0;
    ws->n = 0;
    for (const char *c = premise; *c && ws->n < MAXW;) {
        size_t l = strcspn(c, " ");
        if (l) {
            ws->w[ws->n] = c;
            ws->sent[ws->n] = s;
            ws->glue[ws->n] = 0;
            s += c[l - 1] == '.';
            while (l > 1 && strchr(".,;:", c[l - 1]))
                l--;
            ws->wl[ws->n++] = l;
        }
        c += strcspn(c, " ");
        c += *c == ' ';
    }
    /* MeSH terms of the fixed wording ("Hepatitis A" when a sentence
       starting with "A" follows "hepatitis", merged across the period) */
    static const char *const fixed[] = {"Physical Examination",
        "Body Mass Index", "Blood Transfusion", "Hepatitis A"};
    for (size_t i = 0; i < NELEM(fixed); i++)
        glue_term(ws, fixed[i]);
    for (size_t i = 0; i < NELEM(chronic); i++)
        glue_term(ws, chronic[i].term);
    for (size_t i = 0; i < NELEM(symptoms); i++)
        glue_term(ws, symptoms[i].term);
    for (size_t i = 0; i < NELEM(vitals); i++)
        glue_term(ws, vitals[i].m.term);
    for (size_t i = 0; i < NELEM(organ_dx); i++)
        glue_term(ws, organ_dx[i].m.term);
    for (size_t i = 0; i < NELEM(infections); i++)
        glue_term(ws, infections[i].term);
    for (size_t i = 0; i < NELEM(hypers); i++) {
        glue_term(ws, hypers[i].desc.term);
        glue_term(ws, hypers[i].anc.term);
    }
}

/* May the run of len words from i be taken?  strict 2: inside one
   sentence and cutting no concept; 1: cutting no concept; 0: any. */
static int run_ok(const words_t *ws, int i, int len, int strict)
{
    int last = i + len - 1;
    if (strict >= 1 && ((i > 0 && ws->glue[i - 1]) || ws->glue[last]))
        return 0;
    return strict < 2 || ws->sent[i] == ws->sent[last];
}

/* The hypothesis becomes a run of 4 to 8 of the premise's words (all of
   them when fewer): inside one sentence and cutting no concept when
   such a run exists. */
static int pair_overlap(synth_rng *r, const char *premise, hyp_t *h)
{
    static words_t ws;
    int len, from = -1;
    size_t out = 0;

    split_words(&ws, premise);
    if (ws.n == 0)
        return 0;
    len = 4 + (int)synth_below(r, 5);
    if (len > ws.n)
        len = ws.n;
    for (int strict = 2; from < 0; strict--) {
        int starts = 0, pick;
        for (int i = 0; i + len <= ws.n; i++)
            starts += run_ok(&ws, i, len, strict);
        if (!starts)
            continue;
        pick = (int)synth_below(r, (uint32_t)starts);
        for (int i = 0; from < 0; i++)
            if (run_ok(&ws, i, len, strict) && pick-- == 0)
                from = i;
    }
    for (int i = from; i < from + len; i++) {
        /* the last word without its period; the others as they are */
        size_t l = i == from + len - 1 ? ws.wl[i] : strcspn(ws.w[i], " ");
        if (out + l + 3 >= LINE)
            cli_die("internal error: sentence too long");
        if (i > from)
            h->text[out++] = ' ';
        memcpy(h->text + out, ws.w[i], l);
        out += l;
    }
    strcpy(h->text + out, ".");
    h->text[0] = (char)toupper((unsigned char)h->text[0]);
    return 1;
}

/* Adds a negation cue the premise does not have; none left: 0. */
static int pair_negation(synth_rng *r, const char *premise, hyp_t *h)
{
    int ok[NELEM(neg_cues)], nok = 0, pick;
    char clause[LINE];
    for (size_t i = 0; i < NELEM(neg_cues); i++)
        if (!has_words(premise, neg_cues[i].cue))
            ok[nok++] = (int)i;
    if (nok == 0)
        return 0;
    pick = ok[synth_below(r, (uint32_t)nok)];
    snprintf(clause, sizeof clause, neg_cues[pick].tail, h->subj);
    add_clause(h, clause);
    return 1;
}

/* Adds a number with a unit, the number not in the premise; none: 0. */
static int pair_numbers(synth_rng *r, const char *premise, hyp_t *h)
{
    size_t u = synth_below(r, NELEM(num_units));
    int ok[NELEM(num_units[0].val)], nok = 0;
    char num[16], clause[LINE];
    for (size_t i = 0; i < NELEM(num_units[u].val) && num_units[u].val[i]; i++) {
        snprintf(num, sizeof num, "%d", num_units[u].val[i]);
        if (!has_words(premise, num))
            ok[nok++] = num_units[u].val[i];
    }
    if (nok == 0)
        return 0;
    snprintf(clause, sizeof clause, num_units[u].tail,
             ok[synth_below(r, (uint32_t)nok)]);
    add_clause(h, clause);
    return 1;
}

/* Remakes hypotheses by --plant-pair, in the order given, each from a
   stream of its own: one draw per option and premise decides. */
static void plant_pairs(const opts_t *o, long idx, const char *premise,
                        hyp_t *hyp)
{
    for (int k = 0; k < o->npair; k++) {
        const pair_plant_t *pp = &o->pair[k];
        hyp_t *h = &hyp[pp->cls];
        synth_rng r;
        int done;
        synth_rng_init(&r, o->seed, (uint64_t)idx, (uint64_t)(MAXPLANT + 1 + k));
        if (synth_below(&r, 1000) >= (uint32_t)pp->permille)
            continue;
        done = pp->kind == PP_OVERLAP    ? pair_overlap(&r, premise, h)
               : pp->kind == PP_NEGATION ? pair_negation(&r, premise, h)
                                         : pair_numbers(&r, premise, h);
        if (done)
            h->pairs |= 1u << k;
    }
}

static void build_item(const opts_t *o, long idx, item_t *it)
{
    synth_rng r;
    prem_t p;
    pick_t pick[NCLS];
    hyp_t *hyp = malloc(NCLS * sizeof *hyp);
    char opening[LINE], text[4 * LINE];
    int pos[NCLS];
    unsigned used;

    if (!hyp)
        cli_die("out of memory");
    synth_rng_init(&r, o->seed, (uint64_t)idx, 0);
    memset(&p, 0, sizeof p);
    p.r = &r;
    used = choose_kinds(&r, o, pick);
    p.sex = (int)synth_below(&r, 2);
    p.age = 19 + (int)synth_below(&r, 74);
    p.sex_shown = p.age_shown = 1;
    p.style = STYLE_ILL;
    for (int c = 0; c < NCLS; c++) {
        hyp[c].cls = c;
        hyp[c].kind = pick[c].kind;
        hyp[c].variant = pick[c].variant;
        hyp[c].heur = H_NONE;
        hyp[c].pm = hyp[c].hm = NULL;
        hyp[c].pairs = 0;
        hyp[c].subj = synth_below(&r, 100) < 80 ? "the patient" : "patient";
        hyp[c].poss = hyp[c].subj[0] == 't' ? "the patient's" : "patient's";
    }
    for (int c = 0; c < NCLS; c++)
        if (early_kind(hyp[c].kind))
            gen_kind(&p, &hyp[c]);
    if (p.style == STYLE_ILL) {
        p.hist = &chronic[synth_below(&r, NELEM(chronic))];
        p.sym = &symptoms[synth_below(&r, NELEM(symptoms))];
    }
    main_sentence(&p, opening, sizeof opening);
    for (int c = 0; c < NCLS; c++)
        if (!early_kind(hyp[c].kind))
            gen_kind(&p, &hyp[c]);
    add_background(&p, used);
    assemble(&p, opening, text, sizeof text);
    plant_extras(o, idx, hyp);
    plant_pairs(o, idx, text, hyp);

    /* Output order within a premise is random, so that a pairID's
       position says nothing about its label. */
    permute(&r, pos, NCLS);
    it->premise = cli_strdup(text);
    it->base = hyp;
    for (int i = 0; i < NCLS; i++)
        it->hyp[i] = &hyp[pos[i]];
}

/* ---------------------------------------------------------------- */
/* Counting what was planted                                        */

/* Does text contain the words of seq (space-separated) in a row, with
   text split lowercased on every non-alphanumeric character? */
static int has_words(const char *text, const char *seq)
{
    char tok[4 * LINE];
    size_t n = 0;
    for (const char *s = text; *s; s++) {
        if (n + 2 >= sizeof tok)
            break;
        if (isalnum((unsigned char)*s))
            tok[n++] = (char)tolower((unsigned char)*s);
        else if (n && tok[n - 1] != ' ')
            tok[n++] = ' ';
    }
    tok[n] = '\0';
    for (const char *s = tok; (s = strstr(s, seq)); s++) {
        size_t l = strlen(seq);
        if ((s == tok || s[-1] == ' ') && (s[l] == ' ' || s[l] == '\0'))
            return 1;
    }
    return 0;
}

static long count_token(const item_t *items, long n, int cls,
                        const char *token)
{
    long count = 0;
    for (long i = 0; i < n; i++)
        for (int j = 0; j < NCLS; j++)
            count += items[i].hyp[j]->cls == cls
                     && has_words(items[i].hyp[j]->text, token);
    return count;
}

/* Hypotheses that --plant-pair number k remade. */
static long count_pair(const item_t *items, long n, int k)
{
    long count = 0;
    for (long i = 0; i < n; i++)
        for (int j = 0; j < NCLS; j++)
            count += (items[i].hyp[j]->pairs >> k) & 1;
    return count;
}

static long count_heur(const item_t *items, long n, int heur)
{
    long count = 0;
    for (long i = 0; i < n; i++)
        for (int j = 0; j < NCLS; j++)
            count += items[i].hyp[j]->cls == heur_cls[heur]
                     && items[i].hyp[j]->heur == heur;
    return count;
}

/* Planted per-mille rate of a token (or heuristic when token is NULL)
   in its class, after --strength; rounded down. */
static long planted_rate(const opts_t *o, int cls, const char *token, int heur)
{
    long ppm = 0;
    for (size_t i = 0; i < NELEM(artifacts); i++) {
        const artifact_t *a = &artifacts[i];
        if (a->cls != cls)
            continue;
        if (token ? (a->token && !strcmp(a->token, token))
                  : heur_of(a->kind, a->variant < 0 ? 0 : a->variant) == heur)
            ppm += (long)artifact_ppm(o, a);
    }
    return ppm / 1000;
}

/* ---------------------------------------------------------------- */
/* Writing                                                          */

typedef struct {
    const opts_t *o;
    const item_t *items;
    long n, from, to; /* all items; the split's range */
} out_t;

/* One line per pair, keys and separators as in MedNLI and SNLI. */
static int write_split(FILE *f, void *ctx, tells_error *err)
{
    const out_t *w = ctx;
    for (long i = w->from; i < w->to; i++) {
        for (int j = 0; j < NCLS; j++) {
            const hyp_t *h = w->items[i].hyp[j];
            fputs("{\"sentence1\": \"", f);
            synth_put_json(f, w->items[i].premise);
            fputs("\", \"sentence2\": \"", f);
            synth_put_json(f, h->text);
            fprintf(f, "\", \"gold_label\": \"%s\", \"pairID\": \"",
                    cls_name[h->cls]);
            synth_put_json(f, w->o->prefix);
            fprintf(f, "-%05ld\"}\n", i * NCLS + j);
        }
    }
    return out_status(f, err);
}

static int write_key(FILE *f, void *ctx, tells_error *err)
{
    const out_t *w = ctx;
    const opts_t *o = w->o;
    fputs("kind\tname\tclass\trate_permille\tcount\n", f);
    for (size_t i = 0; i < NELEM(artifacts); i++) {
        const artifact_t *a = &artifacts[i];
        int seen = 0;
        if (!a->token)
            continue;
        for (size_t j = 0; j < i; j++)
            seen |= artifacts[j].token && artifacts[j].cls == a->cls
                    && !strcmp(artifacts[j].token, a->token);
        if (!seen)
            fprintf(f, "token\t%s\t%s\t%ld\t%ld\n", a->token, cls_name[a->cls],
                    planted_rate(o, a->cls, a->token, H_NONE),
                    count_token(w->items, w->n, a->cls, a->token));
    }
    for (int h = H_HYPERNYM; h < NHEUR; h++)
        fprintf(f, "heuristic\t%s\t%s\t%ld\t%ld\n", heur_name[h],
                cls_name[heur_cls[h]], planted_rate(o, heur_cls[h], NULL, h),
                count_heur(w->items, w->n, h));
    for (int k = 0; k < o->nplant; k++)
        fprintf(f, "extra\t%s\t%s\t%d\t%ld\n", o->plant[k].token,
                cls_name[o->plant[k].cls], o->plant[k].permille,
                count_token(w->items, w->n, o->plant[k].cls,
                            o->plant[k].token));
    for (int k = 0; k < o->npair; k++)
        fprintf(f, "pair\t%s\t%s\t%d\t%ld\n", pair_kind_name[o->pair[k].kind],
                cls_name[o->pair[k].cls], o->pair[k].permille,
                count_pair(w->items, w->n, k));
    return out_status(f, err);
}

typedef struct { int heur; const mesh_t *pm, *hm; } pair_t;

static int pair_cmp(const void *a, const void *b)
{
    const pair_t *x = a, *y = b;
    int d;
    if (x->heur != y->heur)
        return x->heur - y->heur;
    if ((d = strcmp(x->pm->term, y->pm->term)))
        return d;
    if ((d = strcmp(x->hm->term, y->hm->term)))
        return d;
    if ((d = strcmp(x->pm->tree, y->pm->tree)))
        return d;
    return strcmp(x->hm->tree, y->hm->tree);
}

/* Every distinct MeSH pair behind a heuristic hypothesis, any label. */
static int write_mesh_key(FILE *f, void *ctx, tells_error *err)
{
    const out_t *w = ctx;
    pair_t *v = malloc((size_t)w->n * NCLS * sizeof *v + 1);
    long m = 0;
    if (!v)
        cli_die("out of memory");
    for (long i = 0; i < w->n; i++)
        for (int j = 0; j < NCLS; j++) {
            const hyp_t *h = w->items[i].hyp[j];
            if (h->heur != H_NONE)
                v[m++] = (pair_t){h->heur, h->pm, h->hm};
        }
    qsort(v, (size_t)m, sizeof *v, pair_cmp);
    fputs("heuristic\tpremise_term\tpremise_tree\thypothesis_term\t"
          "hypothesis_tree\n", f);
    for (long i = 0; i < m; i++)
        if (i == 0 || pair_cmp(&v[i - 1], &v[i]))
            fprintf(f, "%s\t%s\t%s\t%s\t%s\n", heur_name[v[i].heur],
                    v[i].pm->term, v[i].pm->tree, v[i].hm->term,
                    v[i].hm->tree);
    free(v);
    return out_status(f, err);
}

/* ---------------------------------------------------------------- */
/* Command line                                                     */

static void usage(void)
{
    fputs(
"Usage: " PROG " -o DIR [OPTION]...\n"
"Generate a synthetic MedNLI-style corpus with planted annotation artifacts.\n"
"Writes DIR/train.jsonl, DIR/dev.jsonl and DIR/test.jsonl (about 80/10/10\n"
"of the premises, three hypotheses each), DIR/KEY.tsv (what was planted, at\n"
"which rate, and how often) and DIR/MESH-KEY.tsv (the MeSH concept pairs\n"
"behind the planted heuristics).  The same options give the same bytes.\n"
"\n"
"  -o, --output DIR          write the corpus into DIR (created if needed);\n"
"                              a DIR that holds one of these files is\n"
"                              refused unless --replace\n"
"      --replace             write over the corpus files DIR holds\n"
"      --seed N              random seed [1]\n"
"      --premises N          number of premises, 1 to 33333 [1500]\n"
"      --no-artifacts        plant none of the default artifacts: wording is\n"
"                              then independent of the label\n"
"      --strength PERMILLE   scale the default planted rates; 0 is the same\n"
"                              as --no-artifacts [1000]\n"
"      --plant TOKEN=CLASS:PERMILLE\n"
"                            also append TOKEN (lowercase words) to PERMILLE\n"
"                              per mille of CLASS's hypotheses; repeatable,\n"
"                              not scaled by --strength or --no-artifacts\n"
"      --plant-pair KIND=CLASS:PERMILLE\n"
"                            remake PERMILLE per mille of CLASS's hypotheses\n"
"                              from their premise by KIND (below), after\n"
"                              --plant and in the order given; repeatable,\n"
"                              not scaled by --strength or --no-artifacts\n"
"      --hypernym PERMILLE   plant the hypernym heuristic without a token (a\n"
"                              premise concept's MeSH ancestor in the\n"
"                              hypothesis) in PERMILLE per mille of the\n"
"                              entailment hypotheses, not scaled by\n"
"                              --strength [120 x strength / 1000]\n"
"      --id-prefix STR       pairIDs are STR-NNNNN [synth]\n"
"      --help                display this help and exit\n"
"      --version             output version information and exit\n"
"\n"
"CLASS is entailment, neutral or contradiction.  KIND is one of:\n"
"  overlap    the hypothesis becomes a run of 4 to 8 of the premise's words\n"
"               (all of them when fewer)\n"
"  negation   a clause with a negation cue the premise lacks is added: denies,\n"
"               no evidence of, negative for, not, no, never, without, free of\n"
"  numbers    a clause with a number the premise lacks and a unit is added:\n"
"               mg, days, weeks, hours, kg, ml\n"
"A hypothesis whose premise leaves no such cue or number is kept as it was.\n"
"KEY.tsv has a row of kind pair for each --plant-pair, its count the\n"
"hypotheses remade.\n"
"\n"
"Examples:\n"
"  " PROG " -o my-corpus\n"
"  " PROG " --seed 2 --plant 'at baseline=neutral:200' -o batch2\n"
"  " PROG " --plant-pair negation=contradiction:300 -o pairs\n",
        stdout);
}

/* TOKEN: lowercase words of [a-z0-9] separated by single spaces. */
static int valid_token(const char *t, size_t len)
{
    if (len == 0 || t[0] == ' ' || t[len - 1] == ' ')
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!(islower((unsigned char)t[i]) || isdigit((unsigned char)t[i])
              || (t[i] == ' ' && t[i + 1] != ' ')))
            return 0;
    return 1;
}

static void parse_plant(opts_t *o, const char *arg)
{
    const char *eq = strchr(arg, '='), *colon;
    plant_t *p = &o->plant[o->nplant];
    size_t tl;
    int c;

    if (o->nplant >= MAXPLANT)
        cli_usage_error("at most %d --plant options", MAXPLANT);
    if (!eq || !(colon = strchr(eq, ':')))
        cli_usage_error("invalid --plant '%s': expected TOKEN=CLASS:PERMILLE", arg);
    tl = (size_t)(eq - arg);
    if (tl >= sizeof p->token || !valid_token(arg, tl))
        cli_usage_error("invalid --plant token '%.*s': use lowercase words", (int)tl, arg);
    for (c = 0; c < NCLS; c++)
        if (strlen(cls_name[c]) == (size_t)(colon - eq - 1)
            && !strncmp(eq + 1, cls_name[c], (size_t)(colon - eq - 1)))
            break;
    if (c == NCLS)
        cli_usage_error("invalid --plant class '%.*s'", (int)(colon - eq - 1), eq + 1);
    memcpy(p->token, arg, tl);
    p->token[tl] = '\0';
    p->cls = c;
    p->permille = (int)synth_parse_num("--plant", colon + 1, 0, 1000);
    o->nplant++;
}

static void parse_plant_pair(opts_t *o, const char *arg)
{
    const char *eq = strchr(arg, '='), *colon;
    pair_plant_t *p = &o->pair[o->npair];
    int k, c;

    if (o->npair >= MAXPLANT)
        cli_usage_error("at most %d --plant-pair options", MAXPLANT);
    if (!eq || !(colon = strchr(eq, ':')))
        cli_usage_error("invalid --plant-pair '%s': expected KIND=CLASS:PERMILLE", arg);
    for (k = 0; k < NPAIRKIND; k++)
        if (strlen(pair_kind_name[k]) == (size_t)(eq - arg)
            && !strncmp(arg, pair_kind_name[k], (size_t)(eq - arg)))
            break;
    if (k == NPAIRKIND)
        cli_usage_error("invalid --plant-pair kind '%.*s': expected overlap, negation or numbers",
                        (int)(eq - arg), arg);
    for (c = 0; c < NCLS; c++)
        if (strlen(cls_name[c]) == (size_t)(colon - eq - 1)
            && !strncmp(eq + 1, cls_name[c], (size_t)(colon - eq - 1)))
            break;
    if (c == NCLS)
        cli_usage_error("invalid --plant-pair class '%.*s'", (int)(colon - eq - 1), eq + 1);
    p->kind = k;
    p->cls = c;
    p->permille = (int)synth_parse_num("--plant-pair", colon + 1, 0, 1000);
    o->npair++;
}

/* The largest --strength that keeps every class's rates <= 1000. */
static long max_strength(void)
{
    long sum[NCLS] = {0}, mx = 1;
    for (size_t i = 0; i < NELEM(artifacts); i++)
        sum[artifacts[i].cls] += artifacts[i].rate;
    for (int c = 0; c < NCLS; c++)
        if (sum[c] > mx)
            mx = sum[c];
    return 1000000 / mx;
}

static void check_prefix(const char *s)
{
    if (!*s)
        cli_usage_error("--id-prefix must not be empty");
    for (; *s; s++)
        if (*s < 0x20 || *s > 0x7e)
            cli_usage_error("--id-prefix must be printable ASCII");
}

static void parse_args(int argc, char **argv, opts_t *o)
{
    enum { O_SEED = 256, O_PREMISES, O_NOART, O_STRENGTH, O_PLANT,
           O_PLANT_PAIR, O_HYPERNYM, O_PREFIX, O_REPLACE, O_HELP, O_VERSION };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"seed", required_argument, NULL, O_SEED},
        {"premises", required_argument, NULL, O_PREMISES},
        {"no-artifacts", no_argument, NULL, O_NOART},
        {"strength", required_argument, NULL, O_STRENGTH},
        {"plant", required_argument, NULL, O_PLANT},
        {"plant-pair", required_argument, NULL, O_PLANT_PAIR},
        {"hypernym", required_argument, NULL, O_HYPERNYM},
        {"id-prefix", required_argument, NULL, O_PREFIX},
        {"replace", no_argument, NULL, O_REPLACE},
        {"help", no_argument, NULL, O_HELP},
        {"version", no_argument, NULL, O_VERSION},
        {NULL, 0, NULL, 0}};
    int c, noart = 0;

    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->premises = 1500;
    o->strength = 1000;
    o->hypernym = -1;
    o->prefix = "synth";
    while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->outdir = optarg; break;
        case O_SEED:
            o->seed = synth_parse_num("--seed", optarg, 0, UINT64_MAX);
            break;
        case O_PREMISES:
            o->premises =
                (long)synth_parse_num("--premises", optarg, 1, MAXPREMISES);
            break;
        case O_NOART: noart = 1; break;
        case O_STRENGTH:
            o->strength = (long)synth_parse_num("--strength", optarg, 0,
                                          (uint64_t)max_strength());
            break;
        case O_PLANT: parse_plant(o, optarg); break;
        case O_PLANT_PAIR: parse_plant_pair(o, optarg); break;
        case O_HYPERNYM:
            o->hypernym = (long)synth_parse_num("--hypernym", optarg, 0, 1000);
            break;
        case O_PREFIX: check_prefix(optarg); o->prefix = optarg; break;
        case O_REPLACE: o->replace = 1; break;
        case O_HELP: usage(); exit(0);
        case O_VERSION: synth_version(); exit(0);
        default: cli_try_help();
        }
    }
    synth_check_args(argc, optind, o->outdir);
    if (noart)
        o->strength = 0;
    for (int cls = 0; cls < NCLS; cls++) {
        uint64_t sum = 0;
        for (size_t i = 0; i < NELEM(artifacts); i++)
            if (artifacts[i].cls == cls)
                sum += artifact_ppm(o, &artifacts[i]);
        if (sum > 1000000)
            cli_usage_error("--hypernym %ld with --strength %ld plants more than all of "
                        "the %s hypotheses", o->hypernym, o->strength, cls_name[cls]);
    }
}

int main(int argc, char **argv)
{
    opts_t o;
    item_t *items;
    long ndev, ntest, ntrain;

    cli_init(argv, PROG);
    parse_args(argc, argv, &o);
    /* Premises are i.i.d., so contiguous blocks are random splits and
       pairIDs run on across train, dev and test. */
    ndev = ntest = o.premises / 10;
    ntrain = o.premises - ndev - ntest;
    out_t train = {&o, NULL, o.premises, 0, ntrain};
    out_t dev = {&o, NULL, o.premises, ntrain, ntrain + ndev};
    out_t test = {&o, NULL, o.premises, ntrain + ndev, o.premises};
    const struct {
        const char *name;
        out_writer write;
        out_t *out;
    } files[] = {
        {"train.jsonl", write_split, &train}, {"dev.jsonl", write_split, &dev},
        {"test.jsonl", write_split, &test},   {"KEY.tsv", write_key, &train},
        {"MESH-KEY.tsv", write_mesh_key, &train},
    };
    /* A folder that holds a corpus (the bundled one, from the source
       tree's own --help example) is not written over unasked, and that
       is found before any work. */
    if (!o.replace)
        for (size_t i = 0; i < NELEM(files); i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", o.outdir, files[i].name);
            if (access(path, F_OK) == 0)
                cli_die("%s: holds a corpus (%s); give --replace to write over it",
                        o.outdir, files[i].name);
        }
    items = malloc((size_t)o.premises * sizeof *items);
    if (!items)
        cli_die("out of memory");
    for (long i = 0; i < o.premises; i++)
        build_item(&o, i, &items[i]);
    train.items = dev.items = test.items = items;
    synth_make_dir(o.outdir);
    for (size_t i = 0; i < NELEM(files); i++)
        synth_write_file(o.outdir, files[i].name, files[i].write, files[i].out);
    for (long i = 0; i < o.premises; i++) {
        free(items[i].premise);
        free(items[i].base);
    }
    free(items);
    return 0;
}
