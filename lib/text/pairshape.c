/* Pair features (text/pairshape.h). Words are interned once for the
   shaper's life; a pair marks its premise's words with its own stamp, so
   every membership test is one array lookup. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/vocab.h"
#include "text/concepts.h"
#include "text/mesh.h"
#include "text/pairshape.h"
#include "text/tokenize.h"

static const pair_feature_info features[PAIR_NFEATURES] = {
    {"overlap", PAIR_SHARE, "the share of the hypothesis's words that the premise has"},
    {"premise_overlap", PAIR_SHARE, "the share of the premise's words that the hypothesis has"},
    {"all_in_premise", PAIR_FLAG, "the premise has every word of the hypothesis"},
    {"subsequence", PAIR_FLAG, "the hypothesis's words are a contiguous run of the premise's"},
    {"negation", PAIR_FLAG, "a negation cue in the hypothesis that the premise lacks"},
    {"numbers", PAIR_FLAG, "a number (with its unit) in the hypothesis that the premise lacks"},
    {"length_difference", PAIR_COUNT, "the premise's words minus the hypothesis's"},
};

const pair_feature_info *pair_feature_at(pair_feature f)
{
    return f < PAIR_NFEATURES ? &features[f] : NULL;
}

const char *pair_kind_name(pair_kind k)
{
    return k == PAIR_SHARE ? "share" : k == PAIR_FLAG ? "flag" : "count";
}

const char *const pair_units[] = {
    "mg", "g", "kg", "mcg", "ug", "ng", "ml", "l", "dl", "mmol", "meq", "mmhg", "cm", "mm",
    "m", "km", "in", "ft", "lb", "lbs", "oz", "iu", "units", "unit", "percent", "%",
    "bpm", "degrees", "c", "f", "hours", "hour", "hrs", "hr", "h", "minutes", "minute",
    "min", "mins", "seconds", "days", "day", "weeks", "week", "wk", "months", "month",
    "years", "year", "yrs", "yr", "times", "tablets", "tablet", "doses", "dose", NULL};

static const char *const number_words[] = {
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
    "eighty", "ninety", "hundred", "thousand", "million", "billion", "dozen", NULL};

enum { IS_WORD = 1, IS_NUMBER = 2, IS_UNIT = 4 };

struct pair_shaper {
    term_trie *cues;
    vocab *words;               /* every token seen */
    unsigned char *flags;       /* per token id: IS_* */
    uint64_t *stamp;            /* per token id: the last pair whose premise has it */
    size_t cap;
    uint64_t pair;              /* the current pair's stamp */
    token_list toks, parts, scratch;
    term_hits hits;
    uint32_t *p_ids, *h_ids;    /* the words of P and H, in order */
    size_t p_cap, h_cap;
    uint32_t *p_cues;           /* the cue nodes P has */
    size_t p_cues_cap;
    uint64_t *p_qty;            /* number << 32 | unit of P's numbers with units */
    size_t p_qty_cap;
};

typedef struct cue_ctx {
    term_trie *trie;
    token_list words, parts;
} cue_ctx;

static int cue_row(void *ctx, char **field, const line_reader *r, tells_error *err)
{
    cue_ctx *c = ctx;
    if (term_parts(field[0], strlen(field[0]), &c->words, &c->parts) < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    if (c->parts.n == 0)
        return tells_error_set(err, r->name, r->lineno, "cue '%s' has no words", field[0]);
    uint32_t before;
    if (term_trie_add(c->trie, &c->parts, (uint32_t)r->lineno, &before) < 0)
        return tells_error_nomem(err, r->name, r->lineno);
    if (before != UINT32_MAX)
        return tells_error_set(err, r->name, r->lineno, "cue '%s' already given on line %u",
                               field[0], before);
    return 0;
}

pair_shaper *pair_shaper_load(const char *negation_cues, tells_error *err)
{
    pair_shaper *ps = calloc(1, sizeof *ps);
    if (!ps || !(ps->cues = term_trie_new()) || !(ps->words = vocab_new())) {
        pair_shaper_free(ps);
        tells_error_nomem(err, NULL, 0);
        return NULL;
    }
    token_list_init(&ps->toks);
    token_list_init(&ps->parts);
    token_list_init(&ps->scratch);
    if (!negation_cues)
        return ps;
    static const char *const names[] = {"cue phrase"};
    cue_ctx c = {.trie = ps->cues};
    token_list_init(&c.words);
    token_list_init(&c.parts);
    long rows = lexicon_read(negation_cues, 1, names, cue_row, &c, err);
    token_list_free(&c.words);
    token_list_free(&c.parts);
    if (rows == 0)
        tells_error_set(err, negation_cues, 0, "no cues");
    if (rows <= 0) {
        pair_shaper_free(ps);
        return NULL;
    }
    return ps;
}

void pair_shaper_free(pair_shaper *ps)
{
    if (!ps)
        return;
    term_trie_free(ps->cues);
    vocab_free(ps->words);
    free(ps->flags);
    free(ps->stamp);
    token_list_free(&ps->toks);
    token_list_free(&ps->parts);
    token_list_free(&ps->scratch);
    term_hits_free(&ps->hits);
    free(ps->p_ids);
    free(ps->h_ids);
    free(ps->p_cues);
    free(ps->p_qty);
    free(ps);
}

static bool in_list(const char *const *list, const char *s, size_t len)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
            return true;
    return false;
}

static unsigned char classify(const char *s, size_t len)
{
    unsigned char f = 0;
    bool digit = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c >= '0' && c <= '9'))
            digit = true;
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            c >= 0x80)
            f |= IS_WORD;
    }
    if (f && (digit || in_list(number_words, s, len)))
        f |= IS_NUMBER;
    if (in_list(pair_units, s, len))
        f |= IS_UNIT;
    return f;
}

/* The id of a token, interned (and classified when new). */
static long intern(pair_shaper *ps, const char *s, size_t len)
{
    size_t known = vocab_size(ps->words);
    long id = vocab_intern(ps->words, s, len);
    if (id < 0)
        return -1;
    if ((size_t)id >= ps->cap) {
        size_t cap = ps->cap ? ps->cap : 1024;
        while (cap <= (size_t)id)
            cap *= 2;
        unsigned char *f = realloc(ps->flags, cap);
        if (!f)
            return -1;
        ps->flags = f;
        uint64_t *st = realloc(ps->stamp, cap * sizeof *st);
        if (!st)
            return -1;
        ps->stamp = st;
        memset(st + ps->cap, 0, (cap - ps->cap) * sizeof *st);
        ps->cap = cap;
    }
    if ((size_t)id >= known)
        ps->flags[id] = classify(s, len);
    return id;
}

/* The token ids of text (every token, words or not) into *ids. */
static long tokens_of(pair_shaper *ps, const char *text, uint32_t **ids, size_t *cap)
{
    static const tok_options ws = {.kind = TOKENIZER_WHITESPACE};
    if (tokenize(&ws, text, strlen(text), &ps->toks) < 0 ||
        ARRAY_RESERVE(*ids, *cap, ps->toks.n + 1) < 0)
        return -1;
    for (size_t i = 0; i < ps->toks.n; i++) {
        long id = intern(ps, token_at(&ps->toks, i), ps->toks.len[i]);
        if (id < 0)
            return -1;
        (*ids)[i] = (uint32_t)id;
    }
    return (long)ps->toks.n;
}

/* The cue nodes found in text, leftmost-longest, into ps->hits. */
static int cues_of(pair_shaper *ps, const char *text)
{
    if (text_parts(text, strlen(text), &ps->scratch, &ps->parts) < 0)
        return -1;
    return term_trie_scan(ps->cues, &ps->parts, &ps->hits);
}

static bool is_word(const pair_shaper *ps, uint32_t id)
{
    return ps->flags[id] & IS_WORD;
}

int pair_shape(pair_shaper *ps, const char *premise, const char *hypothesis, double *out)
{
    ps->pair++;
    long np = tokens_of(ps, premise, &ps->p_ids, &ps->p_cap);
    if (np < 0)
        return -1;
    /* P's numbers with a unit after them (the unit a token, word or
       not), then P's words only, in order, each stamped. */
    size_t pw = 0, nqty = 0;
    for (long i = 0; i + 1 < np; i++)
        if ((ps->flags[ps->p_ids[i]] & IS_NUMBER) && (ps->flags[ps->p_ids[i + 1]] & IS_UNIT)) {
            if (ARRAY_RESERVE(ps->p_qty, ps->p_qty_cap, nqty + 1) < 0)
                return -1;
            ps->p_qty[nqty++] = (uint64_t)ps->p_ids[i] << 32 | ps->p_ids[i + 1];
        }
    for (long i = 0; i < np; i++) {
        uint32_t t = ps->p_ids[i];
        if (!is_word(ps, t))
            continue;
        ps->p_ids[pw++] = t;
        ps->stamp[t] = ps->pair;
    }

    long nh = tokens_of(ps, hypothesis, &ps->h_ids, &ps->h_cap);
    if (nh < 0)
        return -1;
    size_t hw = 0, found = 0;
    bool numbers = false;
    for (long i = 0; i < nh; i++) {
        uint32_t t = ps->h_ids[i];
        unsigned char f = ps->flags[t];
        if (f & IS_NUMBER) {
            if (ps->stamp[t] != ps->pair)
                numbers = true;
            else if (i + 1 < nh && (ps->flags[ps->h_ids[i + 1]] & IS_UNIT)) {
                uint64_t q = (uint64_t)t << 32 | ps->h_ids[i + 1];
                bool has = false;
                for (size_t k = 0; k < nqty && !has; k++)
                    has = ps->p_qty[k] == q;
                numbers |= !has;
            }
        }
    }
    for (long i = 0; i < nh; i++) {
        uint32_t t = ps->h_ids[i];
        if (!is_word(ps, t))
            continue;
        ps->h_ids[hw++] = t;
        found += ps->stamp[t] == ps->pair;
    }
    /* P's words that H has: stamp H's words with the next stamp. */
    uint64_t hstamp = ++ps->pair;
    size_t covered = 0;
    for (size_t i = 0; i < hw; i++)
        ps->stamp[ps->h_ids[i]] = hstamp;
    for (size_t i = 0; i < pw; i++)
        covered += ps->stamp[ps->p_ids[i]] == hstamp;

    bool subsequence = false;
    for (size_t s = 0; hw > 0 && s + hw <= pw && !subsequence; s++)
        subsequence = memcmp(ps->p_ids + s, ps->h_ids, hw * sizeof *ps->h_ids) == 0;

    /* Cues: H's that P lacks. */
    if (cues_of(ps, premise) < 0)
        return -1;
    size_t npc = ps->hits.n;
    if (ARRAY_RESERVE(ps->p_cues, ps->p_cues_cap, npc + 1) < 0)
        return -1;
    for (size_t k = 0; k < npc; k++)
        ps->p_cues[k] = ps->hits.v[k].node;
    if (cues_of(ps, hypothesis) < 0)
        return -1;
    bool negation = false;
    for (size_t k = 0; k < ps->hits.n && !negation; k++) {
        bool has = false;
        for (size_t j = 0; j < npc && !has; j++)
            has = ps->p_cues[j] == ps->hits.v[k].node;
        negation = !has;
    }

    out[PAIR_OVERLAP] = hw ? (double)found / (double)hw : 0;
    out[PAIR_PREMISE_OVERLAP] = pw ? (double)covered / (double)pw : 0;
    out[PAIR_ALL_IN_PREMISE] = hw > 0 && found == hw;
    out[PAIR_SUBSEQUENCE] = subsequence;
    out[PAIR_NEGATION] = negation;
    out[PAIR_NUMBERS] = numbers;
    out[PAIR_LENGTH_DIFFERENCE] = (double)pw - (double)hw;
    return 0;
}
