/* tells-synth-ade: write a synthetic corpus of social-media posts about
   antidepressants for binary adverse drug event (ADE) classification.

   Label 1: the post reports a side effect that the drug caused; label 0:
   it does not.  About 35% of the posts are label 1.  The corpus is meant
   for training a small classifier whose capabilities are then probed
   with the ADE templates in corpora/ade-templates (MacPhail et al.,
   "Evaluating the Robustness of ADE Classification Models Using
   Templates"), so the posts are written in their own words and use
   their own drug and effect lists; no template sentence is reused.

   Like real ADE corpora, the labels come with shortcuts: most label-1
   posts name an effect after the drug ("X gave me headaches", "since
   starting X I can't sleep"); most label-0 posts are about efficacy,
   dosage, the condition, the pharmacy or insurance, or somebody else.
   Only a few label-0 posts negate an effect ("no side effects so far")
   or place it before the drug, and only a few label-1 posts are
   positive overall.

   The output depends on the options only: the program has its own RNG
   (splitmix64, as in tells-synth), makes every decision with integer
   arithmetic, and gives each post its own stream. */
#include <config.h>

#include <ctype.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "synth.h"

#define PROG "tells-synth-ade"
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define LINE 1024
#define MINSIZE 30
#define MAXSIZE 1000000
#define MAXSENT 3 /* sentences in a post */

/* ---------------------------------------------------------------- */
/* Vocabulary                                                       */

/* Antidepressants as posters name them: brand names are capitalised
   about half the time, generics rarely.  mol: the same number for a
   brand and its generic.  Doses in increasing order. */
typedef struct { const char *name; int brand, mol; const char *dose[4]; } drug_t;
static const drug_t drugs[] = {
    {"sertraline", 0, 0, {"25mg", "50mg", "100mg", "150mg"}},
    {"zoloft", 1, 0, {"25mg", "50mg", "100mg", "200mg"}},
    {"fluoxetine", 0, 1, {"10mg", "20mg", "40mg", NULL}},
    {"prozac", 1, 1, {"10mg", "20mg", "40mg", "60mg"}},
    {"escitalopram", 0, 2, {"5mg", "10mg", "20mg", NULL}},
    {"lexapro", 1, 2, {"5mg", "10mg", "15mg", "20mg"}},
    {"citalopram", 0, 3, {"10mg", "20mg", "40mg", NULL}},
    {"celexa", 1, 3, {"10mg", "20mg", "30mg", "40mg"}},
    {"paroxetine", 0, 4, {"10mg", "20mg", "30mg", NULL}},
    {"paxil", 1, 4, {"10mg", "20mg", "40mg", NULL}},
    {"bupropion", 0, 5, {"150mg", "300mg", NULL, NULL}},
    {"wellbutrin", 1, 5, {"150mg", "300mg", "450mg", NULL}},
    {"venlafaxine", 0, 6, {"37.5mg", "75mg", "150mg", NULL}},
    {"effexor", 1, 6, {"37.5mg", "75mg", "150mg", "225mg"}},
    {"duloxetine", 0, 7, {"30mg", "60mg", NULL, NULL}},
    {"cymbalta", 1, 7, {"20mg", "30mg", "60mg", NULL}},
    {"mirtazapine", 0, 8, {"7.5mg", "15mg", "30mg", NULL}},
    {"remeron", 1, 8, {"7.5mg", "15mg", "30mg", "45mg"}},
    {"trazodone", 0, 9, {"25mg", "50mg", "100mg", NULL}},
    {"pristiq", 1, 10, {"25mg", "50mg", "100mg", NULL}},
    {"trintellix", 1, 11, {"5mg", "10mg", "20mg", NULL}},
    {"viibryd", 1, 12, {"10mg", "20mg", "40mg", NULL}},
    {"amitriptyline", 0, 13, {"10mg", "25mg", "50mg", NULL}},
    {"nortriptyline", 0, 14, {"10mg", "25mg", "50mg", NULL}},
};

/* Side effects: a noun phrase, whether it is plural (for "is"/"are"),
   and a present-tense clause as posters write it, or NULL. */
typedef struct { const char *noun; int plural; const char *clause; } effect_t;
static const effect_t effects[] = {
    {"headaches", 1, NULL},
    {"nausea", 0, "I feel sick to my stomach all day"},
    {"insomnia", 0, "I can't sleep"},
    {"weight gain", 0, "I keep gaining weight"},
    {"brain zaps", 1, NULL},
    {"night sweats", 1, "I wake up soaked in sweat"},
    {"dizziness", 0, "I get dizzy every time I stand up"},
    {"dry mouth", 0, NULL},
    {"fatigue", 0, "I'm exhausted all the time"},
    {"low libido", 0, "my sex drive is gone"},
    {"tremors", 1, "my hands won't stop shaking"},
    {"jaw clenching", 0, "I grind my teeth all night"},
    {"emotional numbness", 0, "I can't cry or feel much of anything"},
    {"diarrhea", 0, NULL},
    {"constipation", 0, NULL},
    {"heart palpitations", 1, "my heart races for no reason"},
    {"blurry vision", 0, NULL},
    {"restless legs", 1, "my legs won't stay still at night"},
    {"nightmares", 1, NULL},
    {"hair loss", 0, "my hair is falling out"},
    {"sweating", 0, "I sweat through every shirt"},
    {"yawning", 0, NULL},
    {"loss of appetite", 0, "I can barely eat"},
    {"stomach cramps", 1, NULL},
    {"acne", 0, NULL},
    {"itchy skin", 0, NULL},
    {"brain fog", 0, "I can't think straight"},
    {"irritability", 0, "I snap at everyone"},
    {"agitation", 0, NULL},
    {"suicidal thoughts", 1, NULL},
    {"sexual side effects", 1, NULL},
    {"ringing in my ears", 0, NULL},
    {"muscle twitches", 1, NULL},
    {"heartburn", 0, NULL},
    {"easy bruising", 0, NULL},
    {"hot flashes", 1, NULL},
    {"tingling hands", 1, NULL},
    {"memory problems", 1, "I forget everything"},
    {"apathy", 0, "I don't care about anything anymore"},
    {"bloating", 0, NULL},
    {"vomiting", 0, "I keep throwing up"},
    {"drowsiness", 0, "I can't stay awake"},
    {"the jitters", 1, "I feel jittery and wired"},
};

static const char *const intensifiers[] = {
    "terrible", "awful", "horrible", "really bad", "constant", "crazy",
    "nonstop", "insane", "mild",
};

/* Conditions, as in "my ...". */
static const char *const conditions[] = {
    "depression", "anxiety", "panic attacks", "social anxiety", "OCD",
    "PTSD", "postpartum depression", "seasonal depression",
    "intrusive thoughts", "chronic pain", "health anxiety", "low moods",
};

static const char *const spans[] = {
    "three days", "a week", "10 days", "two weeks", "3 weeks", "a month",
    "six weeks", "2 months", "three months", "half a year", "a year",
    "two years",
};

typedef struct { const char *who, *subj, *poss; } person_t;
static const person_t persons[] = {
    {"my sister", "she", "her"},   {"my husband", "he", "his"},
    {"my mom", "she", "her"},      {"my best friend", "she", "her"},
    {"my boyfriend", "he", "his"}, {"my dad", "he", "his"},
    {"my roommate", "she", "her"}, {"my coworker", "he", "his"},
    {"my wife", "she", "her"},     {"my brother", "he", "his"},
};

/* ---------------------------------------------------------------- */
/* Post templates.  Placeholders:
     %d the drug          %D another drug        %m a dose  %M a higher dose
     %e the effect, maybe with an intensifier    %E the bare effect
     %f a second effect   %k the effect's clause %v is/are  %o it/them
     %c a condition       %t a time span         %n a day number
     %p a person          %h he/she              %s his/her
   A template is one or two sentences.                               */

/* Label 1: the drug caused the effect. */
static const char *const ade_noun[] = {
    "%d gave me %e.",
    "%d is giving me %e.",
    "%d has given me %e since the first week.",
    "Been on %d for %t and the %E %v getting worse.",
    "%t on %d and I have %e pretty much every day.",
    "The %E from %d %v killing me.",
    "Started %d %t ago and now I get %e.",
    "Switched from %D to %d and now I have %e.",
    "My doctor upped my %d to %M and the %E started almost right away.",
    "Had to quit %d because of the %E.",
    "Stopped taking %d, the %E %v just too much.",
    "Coming off %d gave me %e.",
    "Anyone else get %e on %d?",
    "Can %d cause %E? Never had %o before I started it.",
    "My %d side effects so far: %E and %f.",
    "Day %n of %d and the %E %v unreal.",
    "Ugh, %e again, thanks %d.",
    "%d works for my %c but the %E %v rough.",
    "On %m of %d and dealing with %e.",
    "My psychiatrist says the %E will pass but it's been %t on %d.",
    "%t into %d and the %E %v no joke.",
    "Pretty sure %d is behind my %E.",
    "Why did nobody warn me that %d causes %E.",
    "Took my first %d last night and woke up with %e.",
    "Since the dose increase on %d I've had %e.",
    "The %E started the same week as %d.",
    "%d = %E and %f for me.",
    "Went up to %M of %d and got hit with %e.",
};

static const char *const ade_clause[] = {
    "Since starting %d %k.",
    "Ever since the switch to %d, %k.",
    "%t on %d and %k.",
    "%d is great and all but %k.",
    "Thanks to %d %k.",
    "Went up to %M on %d and now %k.",
    "Is it normal that %k on %d?",
    "Not gonna lie, %k since %d.",
    "Started %d %t ago and now %k.",
    "My doctor put me on %d for my %c and now %k.",
};

/* Label 1, positive overall: an ADE sentence, then one of these. */
static const char *const ade_positive_start[] = {
    "%d gave me %e.",
    "The %E from %d %v real.",
    "%t on %d and I have %e.",
    "Not gonna sugarcoat it, %d gave me %E.",
};
static const char *const ade_positive_end[] = {
    "Still worth it, my %c is so much quieter.",
    "Honestly worth it though, I finally feel like myself again.",
    "I can live with that since my %c is finally under control.",
    "Small price to pay, I actually enjoy things again.",
    "Not complaining though, best I've felt in ages.",
    "Sticking with it because my mood is way better.",
    "Worth the trade-off, no more %c.",
};

/* Label 0, by topic.  The last two topics mention an effect. */
static const char *const l0_efficacy[] = {
    "%d has really helped my %c.",
    "%t on %d and my %c is so much better.",
    "Honestly %d saved my life.",
    "%d finally kicked in after %t, I feel like a person again.",
    "%d stopped working for me after %t.",
    "%d did absolutely nothing for my %c.",
    "Not sure %d is doing anything yet, it's only been %t.",
    "My %c is way more manageable since %d.",
    "First week on %d and I already feel a little lighter.",
    "%d took the edge off my %c.",
    "Feeling more like myself on %d.",
    "Tried %D and %d, only %d did anything for my %c.",
};
static const char *const l0_dosage[] = {
    "My doctor bumped me up from %m to %M of %d.",
    "Going from %m to %M of %d next week.",
    "Starting %d at %m tomorrow.",
    "Is it better to take %d in the morning or at night?",
    "Forgot my %d this morning, should I take it now?",
    "Down to %m of %d, tapering slowly with my doctor.",
    "Can I split a %M %d pill in half?",
    "Currently on %m of %d plus therapy.",
    "How long did %d take to work at %m?",
};
static const char *const l0_condition[] = {
    "My %c has been really bad this week.",
    "Had a rough day with my %c, my doctor wants me to try %d.",
    "Finally told my doctor about my %c and left with a prescription for %d.",
    "Therapy plus %d is the combo that works for my %c.",
    "Anyone here manage their %c without meds? On the fence about %d.",
    "My %c has been creeping back, appointment on Friday to talk about %d.",
    "Living with %c is hard, some days more than others.",
};
static const char *const l0_pharmacy[] = {
    "Insurance won't cover %d anymore, anyone know a cheaper option?",
    "Pharmacy ran out of %d again.",
    "Generic %d is so much cheaper than the brand.",
    "Waited an hour at the pharmacy for my %d refill.",
    "My refill for %d got denied, prior authorization again.",
    "Does anyone use GoodRx for %d?",
    "Switched pharmacies because they kept messing up my %d.",
    "Paying 40 bucks a month for %d is ridiculous.",
};
static const char *const l0_person[] = {
    "%p has been on %d for %t and swears by it.",
    "%p just started %d for %s %c.",
    "%p is asking about %d, any advice?",
    "%p says %d helped %s a lot.",
    "Trying to convince %p to talk to a doctor about %d.",
    "%p's doctor switched %s to %d.",
    "Picking up %d for %p on the way home.",
};
static const char *const l0_question[] = {
    "How long does %d take to kick in?",
    "Can you drink coffee on %d?",
    "Anyone tried %d after %D?",
    "What side effects should I watch for on %d?",
    "Is %d safe to take with birth control?",
    "Thinking of asking my psychiatrist about %d.",
    "Can you drink alcohol on %d?",
};
static const char *const l0_negated[] = {
    "No side effects so far on %d.",
    "%t on %d and zero %E.",
    "Everyone warned me about %E on %d but I've been totally fine.",
    "Haven't noticed any %E on %d at all.",
    "Was scared %d would cause %E, it never did.",
    "Good news, %d hasn't given me any %E.",
    "Not a single bit of %E since starting %d.",
};
static const char *const l0_before[] = {
    "I've had %E for years, long before %d.",
    "The %E %v not from %d, I had %o way before I started.",
    "My %E started months before I went on %d.",
    "Had %E before %d too, so I don't think it's the meds.",
};

typedef struct { const char *const *t; int n, weight; } pool_t;
#define POOL(a, w) {a, (int)NELEM(a), w}
/* Weights in percent of the label's posts. */
static const pool_t l0_pools[] = {
    POOL(l0_efficacy, 26), POOL(l0_dosage, 16), POOL(l0_condition, 13),
    POOL(l0_pharmacy, 12), POOL(l0_person, 12), POOL(l0_question, 10),
    POOL(l0_negated, 7),   POOL(l0_before, 4),
};
enum { P1_NOUN, P1_CLAUSE, P1_POSITIVE };
static const pool_t l1_pools[] = {
    POOL(ade_noun, 64), POOL(ade_clause, 29), POOL(ade_positive_start, 7),
};

/* Extra sentences, after the main one; one post in ten opens with an
   opener instead.  Fillers lean towards a label, as in real posts. */
static const char *const openers[] = {
    "Quick update.", "Long time lurker, first post.", "Okay so.",
    "Need some advice.",
};
static const char *const fill_shared[] = {
    "Day %n.", "Any tips appreciated.", "Anyone else?", "Long week.",
    "Thanks for reading.",
};
static const char *const fill0[] = {
    "Just wanted to share.", "Fingers crossed it keeps working.",
    "Seeing my psychiatrist next week.", "Thanks in advance.",
    "Therapy helps too.", "Small wins.", "Hope everyone is doing ok.",
};
static const char *const fill1[] = {
    "Is this normal?", "Does it ever go away?", "Calling my doctor tomorrow.",
    "Not sure how long I can keep this up.", "Ugh.",
    "My doctor calls it \"an adjustment period\".",
    "Thinking about quitting.", "This sucks.",
};

/* ---------------------------------------------------------------- */
/* One post                                                         */

typedef struct {
    char drug[32], drug2[32];
    const char *dose, *dose2;
    const effect_t *eff, *eff2;
    const char *intens; /* NULL: none */
    const char *cond, *span;
    const person_t *person;
    int day;
} post_t;

static void put(char *out, size_t size, size_t *n, const char *s)
{
    for (; *s; s++) {
        if (*n + 1 >= size)
            cli_die("internal error: post too long");
        out[(*n)++] = *s;
    }
    out[*n] = '\0';
}

/* A drug as written: brands capitalised half the time, generics one
   time in ten. */
static void drug_name(synth_rng *r, const drug_t *d, char *out, size_t size)
{
    snprintf(out, size, "%s", d->name);
    if (synth_below(r, 10) < (d->brand ? 5u : 1u))
        out[0] = (char)toupper((unsigned char)out[0]);
}

/* Appends template t, expanded, to out; capitalises its first letter. */
static void expand(char *out, size_t size, size_t *n, const char *t,
                   const post_t *p)
{
    size_t start = *n;
    char num[16];
    for (; *t; t++) {
        char one[2] = {*t, '\0'};
        if (*t != '%') {
            put(out, size, n, one);
            continue;
        }
        switch (*++t) {
        case 'd': put(out, size, n, p->drug); break;
        case 'D': put(out, size, n, p->drug2); break;
        case 'm': put(out, size, n, p->dose); break;
        case 'M': put(out, size, n, p->dose2); break;
        case 'e':
            if (p->intens) {
                put(out, size, n, p->intens);
                put(out, size, n, " ");
            }
            put(out, size, n, p->eff->noun);
            break;
        case 'E': put(out, size, n, p->eff->noun); break;
        case 'f': put(out, size, n, p->eff2->noun); break;
        case 'k': put(out, size, n, p->eff->clause); break;
        case 'v': put(out, size, n, p->eff->plural ? "are" : "is"); break;
        case 'o': put(out, size, n, p->eff->plural ? "them" : "it"); break;
        case 'c': put(out, size, n, p->cond); break;
        case 't': put(out, size, n, p->span); break;
        case 'n':
            snprintf(num, sizeof num, "%d", p->day);
            put(out, size, n, num);
            break;
        case 'p': put(out, size, n, p->person->who); break;
        case 'h': put(out, size, n, p->person->subj); break;
        case 's': put(out, size, n, p->person->poss); break;
        default: cli_die("internal error: bad template '%s'", t - 1);
        }
    }
    out[start] = (char)toupper((unsigned char)out[start]);
}

/* Sentences in a template: ends of sentence followed by space or end. */
static int sentences(const char *t)
{
    int k = 0;
    for (; *t; t++)
        k += strchr(".?!", *t) && (t[1] == ' ' || t[1] == '\0');
    return k;
}

static const char *pick(synth_rng *r, const char *const *t, size_t n)
{
    return t[synth_below(r, (uint32_t)n)];
}

static int pick_pool(synth_rng *r, const pool_t *pools, int npools)
{
    int total = 0, x, i;
    for (i = 0; i < npools; i++)
        total += pools[i].weight;
    x = (int)synth_below(r, (uint32_t)total);
    for (i = 0; x >= pools[i].weight; i++)
        x -= pools[i].weight;
    return i;
}

/* Writes post idx into text; returns its label.  All randomness comes
   from the post's own stream, drawn in a fixed order. */
static int build_post(uint64_t seed, long idx, char *text, size_t size)
{
    synth_rng r;
    post_t p;
    const drug_t *d;
    const char *main_t, *second = NULL;
    size_t n = 0, nd, nx;
    int label, pool, want, have, opener;

    synth_rng_init(&r, seed, (uint64_t)idx, 0);
    memset(&p, 0, sizeof p);

    /* The slots first, so that every post draws them the same way. */
    d = &drugs[synth_below(&r, NELEM(drugs))];
    drug_name(&r, d, p.drug, sizeof p.drug);
    do /* another molecule, not the brand of the same one */
        nx = synth_below(&r, NELEM(drugs));
    while (drugs[nx].mol == d->mol);
    drug_name(&r, &drugs[nx], p.drug2, sizeof p.drug2);
    for (nd = 0; nd < NELEM(d->dose) && d->dose[nd]; nd++)
        ;
    {
        uint32_t lo = synth_below(&r, (uint32_t)nd - 1);
        uint32_t hi = lo + 1 + synth_below(&r, (uint32_t)nd - 1 - lo);
        p.dose = d->dose[lo];
        p.dose2 = d->dose[hi];
    }
    p.eff = &effects[synth_below(&r, NELEM(effects))];
    nx = synth_below(&r, NELEM(effects) - 1);
    nx += &effects[nx] >= p.eff;
    p.eff2 = &effects[nx];
    p.intens = synth_below(&r, 100) < 40 ? pick(&r, intensifiers, NELEM(intensifiers))
                                   : NULL;
    p.cond = pick(&r, conditions, NELEM(conditions));
    p.span = pick(&r, spans, NELEM(spans));
    p.person = &persons[synth_below(&r, NELEM(persons))];
    p.day = 2 + (int)synth_below(&r, 59);

    label = synth_below(&r, 1000) < 350;
    if (label) {
        pool = pick_pool(&r, l1_pools, (int)NELEM(l1_pools));
        /* Only some effects have a clause form. */
        if (pool == P1_CLAUSE && !p.eff->clause)
            pool = P1_NOUN;
        main_t = pick(&r, l1_pools[pool].t, (size_t)l1_pools[pool].n);
        if (pool == P1_POSITIVE)
            second = pick(&r, ade_positive_end, NELEM(ade_positive_end));
    } else {
        pool = pick_pool(&r, l0_pools, (int)NELEM(l0_pools));
        main_t = pick(&r, l0_pools[pool].t, (size_t)l0_pools[pool].n);
    }

    /* 1, 2 or 3 sentences in all: 45%, 38%, 17%. */
    want = (int)synth_below(&r, 100);
    want = want < 45 ? 1 : want < 83 ? 2 : 3;
    have = sentences(main_t) + (second ? 1 : 0);
    opener = have < want && synth_below(&r, 10) == 0;

    text[0] = '\0';
    if (opener) {
        expand(text, size, &n, pick(&r, openers, NELEM(openers)), &p);
        put(text, size, &n, " ");
        have++;
    }
    expand(text, size, &n, main_t, &p);
    if (second) {
        put(text, size, &n, " ");
        expand(text, size, &n, second, &p);
    }
    for (; have < want && have < MAXSENT; have++) {
        const char *f;
        /* A post that is positive overall does not end in a complaint. */
        if (synth_below(&r, 100) < 40 || second)
            f = pick(&r, fill_shared, NELEM(fill_shared));
        else if (label)
            f = pick(&r, fill1, NELEM(fill1));
        else
            f = pick(&r, fill0, NELEM(fill0));
        put(text, size, &n, " ");
        expand(text, size, &n, f, &p);
    }

    /* Some posters never use the shift key. */
    if (synth_below(&r, 100) < 15)
        for (char *c = text; *c; c++)
            *c = (char)tolower((unsigned char)*c);
    return label;
}

/* ---------------------------------------------------------------- */
/* Writing                                                          */

typedef struct {
    uint64_t seed;
    const char *split;
    long from, to; /* the split's posts */
} out_t;

/* One line per post; ids count from 0 in each split. */
static int write_split(FILE *f, void *ctx, tells_error *err)
{
    const out_t *w = ctx;
    char text[LINE];
    for (long i = w->from; i < w->to; i++) {
        int label = build_post(w->seed, i, text, sizeof text);
        fprintf(f, "{\"id\": \"ade-%s-%ld\", \"text\": \"", w->split,
                i - w->from);
        synth_put_json(f, text);
        fprintf(f, "\", \"label\": \"%d\"}\n", label);
    }
    return out_status(f, err);
}

/* ---------------------------------------------------------------- */
/* Command line                                                     */

typedef struct {
    const char *outdir;
    uint64_t seed;
    long size;
} opts_t;

static void usage(void)
{
    fputs(
"Usage: " PROG " -o DIR [OPTION]...\n"
"Generate a synthetic corpus of social-media posts about antidepressants for\n"
"binary adverse drug event (ADE) classification: label 1 when the post\n"
"reports a side effect caused by the drug, 0 otherwise (about 35% are 1).\n"
"Writes DIR/train.jsonl, DIR/dev.jsonl and DIR/test.jsonl (80/10/10 of the\n"
"posts), one {\"id\", \"text\", \"label\"} object a line.  The same options give\n"
"the same bytes.\n"
"\n"
"As in real ADE corpora the labels have shortcuts: most ADE posts name an\n"
"effect after the drug, most others are about efficacy, dosage, the\n"
"condition, the pharmacy or someone else; few non-ADE posts negate an effect\n"
"or date it before the drug, and few ADE posts are positive overall.  No\n"
"sentence of the ADE templates (corpora/ade-templates) is reused.\n"
"\n"
"  -o, --output DIR          write the corpus into DIR (created if needed)\n"
"      --seed N              random seed [1]\n"
"      --size N              number of posts, 30 to 1000000 [3000]\n"
"      --help                display this help and exit\n"
"      --version             output version information and exit\n"
"\n"
"Examples:\n"
"  " PROG " -o my-ade-posts\n"
"  " PROG " --seed 2 --size 500 -o my-ade-small\n",
        stdout);
}

static void parse_args(int argc, char **argv, opts_t *o)
{
    enum { O_SEED = 256, O_SIZE, O_HELP, O_VERSION };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"seed", required_argument, NULL, O_SEED},
        {"size", required_argument, NULL, O_SIZE},
        {"help", no_argument, NULL, O_HELP},
        {"version", no_argument, NULL, O_VERSION},
        {NULL, 0, NULL, 0}};
    int c;

    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->size = 3000;
    while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->outdir = optarg; break;
        case O_SEED:
            o->seed = synth_parse_num("--seed", optarg, 0, UINT64_MAX);
            break;
        case O_SIZE:
            o->size = (long)synth_parse_num("--size", optarg, MINSIZE, MAXSIZE);
            break;
        case O_HELP: usage(); exit(0);
        case O_VERSION: synth_version(); exit(0);
        default: cli_try_help();
        }
    }
    synth_check_args(argc, optind, o->outdir);
}

int main(int argc, char **argv)
{
    opts_t o;
    long ndev, ntest, ntrain;

    cli_init(argv, PROG);
    parse_args(argc, argv, &o);

    /* Posts are i.i.d., so contiguous blocks are random splits. */
    ndev = ntest = o.size / 10;
    ntrain = o.size - ndev - ntest;
    synth_make_dir(o.outdir);
    {
        out_t train = {o.seed, "train", 0, ntrain};
        out_t dev = {o.seed, "dev", ntrain, ntrain + ndev};
        out_t test = {o.seed, "test", ntrain + ndev, o.size};
        synth_write_file(o.outdir, "train.jsonl", write_split, &train);
        synth_write_file(o.outdir, "dev.jsonl", write_split, &dev);
        synth_write_file(o.outdir, "test.jsonl", write_split, &test);
    }
    return 0;
}
