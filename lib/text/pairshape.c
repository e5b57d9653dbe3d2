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
    {"new_concept", PAIR_FLAG, "a MeSH concept in the hypothesis that the premise lacks"},
    {"more_general", PAIR_FLAG, "a MeSH concept of the hypothesis an ancestor of one of the premise's"},
    {"more_specific", PAIR_FLAG, "a MeSH concept of the hypothesis a descendant of one of the premise's"},
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

/* IS_CUE: a part of the token (split at '_') is the first word of a
   cue, so that a text without such a token has no cue and is not
   scanned for one. */
enum { IS_WORD = 1, IS_NUMBER = 2, IS_UNIT = 4, IS_CUE = 8 };

struct pair_shaper {
    term_trie *cues;
    vocab *words;               /* every token seen, ASCII letters lowercased */
    unsigned char *flags;       /* per token id: IS_* */
    uint64_t *pstamp, *hstamp;  /* per token id: the last premise (hypothesis) with it */
    size_t cap;
    uint64_t pair;              /* the last stamp given */
    uint64_t pcur;              /* the current premise's stamp */
    char *low;                  /* a token lowercased */
    size_t low_cap;
    token_list parts;           /* a text's tokens split at '_', for the cues */
    token_list p_parts;         /* the premise's, made when a cue needs them */
    bool p_parts_made;
    term_hits hits;
    uint32_t *p_tok, *h_tok;    /* the tokens of P and H, in order */
    uint32_t *p_ids, *h_ids;    /* their words, in order */
    size_t p_tok_cap, h_tok_cap, p_cap, h_cap, np, pw;
    uint64_t *p_qty;            /* number << 32 | unit of P's numbers with units */
    size_t p_qty_cap, nqty;
    const concept_index *ci;    /* MeSH, or NULL */
    concept_hits hits_p, hits_h;
    uint32_t *p_con;            /* the premise's descriptors, each once */
    size_t p_con_cap, npcon;
    char *last_premise;         /* the premise of the last pair (kept when the next shares it) */
    bool cached;                /* last_premise and what was read of it hold */
    size_t last_cap;
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
    token_list_init(&ps->parts);
    token_list_init(&ps->p_parts);
    concept_hits_init(&ps->hits_p);
    concept_hits_init(&ps->hits_h);
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
    free(ps->pstamp);
    free(ps->hstamp);
    free(ps->low);
    token_list_free(&ps->parts);
    token_list_free(&ps->p_parts);
    term_hits_free(&ps->hits);
    free(ps->p_tok);
    free(ps->h_tok);
    free(ps->p_ids);
    free(ps->h_ids);
    free(ps->last_premise);
    concept_hits_free(&ps->hits_p);
    concept_hits_free(&ps->hits_h);
    free(ps->p_con);
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

/* Where the part of w (len bytes) that starts at i ends: the next '_'
   or the end. Merged tokens ("no_fever") are split so for the cues. */
static size_t part_end(const char *w, size_t len, size_t i)
{
    const char *u = memchr(w + i, '_', len - i);
    return u ? (size_t)(u - w) : len;
}

static unsigned char classify(const term_trie *cues, const char *s, size_t len)
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
    for (size_t i = 0, j; i < len; i = j + 1)
        if ((j = part_end(s, len, i)) > i && term_trie_child(cues, 0, s + i, j - i) >= 0)
            f |= IS_CUE;
    return f;
}

void pair_shaper_set_concepts(pair_shaper *ps, const concept_index *ci)
{
    ps->ci = ci;
    ps->cached = false;   /* read the next premise again */
    ps->npcon = 0;
}

bool pair_shaper_has_concepts(const pair_shaper *ps)
{
    return ps->ci != NULL;
}

/* The distinct descriptors of h's hits into *out (n of them). */
static int distinct_concepts(const concept_hits *h, uint32_t **out, size_t *cap, size_t *n)
{
    *n = 0;
    if (ARRAY_RESERVE(*out, *cap, h->n + 1) < 0)
        return -1;
    for (size_t i = 0; i < h->n; i++) {
        uint32_t c = h->v[i].concept;
        bool seen = false;
        for (size_t j = 0; j < *n && !seen; j++)
            seen = (*out)[j] == c;
        if (!seen)
            (*out)[(*n)++] = c;
    }
    return 0;
}

/* Whether a is a proper descendant of b: a != b and one of a's tree
   numbers lies under one of b's. */
static bool descends(const concept_index *ci, uint32_t a, uint32_t b)
{
    if (a == b)
        return false;
    size_t n = concept_ntrees(ci, b);
    for (size_t k = 0; k < n; k++)
        if (concept_under(ci, a, concept_tree(ci, b, k), NULL))
            return true;
    return false;
}

/* The id of a token (lowercased in ps->low, h its vocab_hash), interned,
   and classified when new. */
static long intern(pair_shaper *ps, const char *s, size_t len, uint64_t h)
{
    /* Room for one more token first, so that a token is never interned
       without its flags and stamps. */
    size_t known = vocab_size(ps->words);
    if (known >= ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 1024;
        unsigned char *f = realloc(ps->flags, cap);
        if (!f)
            return -1;
        ps->flags = f;
        uint64_t *p = realloc(ps->pstamp, cap * sizeof *p);
        if (!p)
            return -1;
        ps->pstamp = p;
        uint64_t *hs = realloc(ps->hstamp, cap * sizeof *hs);
        if (!hs)
            return -1;
        ps->hstamp = hs;
        memset(p + ps->cap, 0, (cap - ps->cap) * sizeof *p);
        memset(hs + ps->cap, 0, (cap - ps->cap) * sizeof *hs);
        ps->cap = cap;
    }
    long id = vocab_intern_hashed(ps->words, s, len, h);
    if (id >= 0 && (size_t)id >= known)
        ps->flags[id] = classify(ps->cues, s, len);
    return id;
}

/* The tokens of text, len bytes (split at spaces, ASCII letters
   lowercased) as ids into *ids; the number of tokens, or -1. Each token
   is lowercased and hashed in one pass. */
static long tokens_of(pair_shaper *ps, const char *text, size_t len, uint32_t **ids,
                      size_t *cap)
{
    size_t n = 0;
    if (ARRAY_RESERVE(ps->low, ps->low_cap, len + 1) < 0)
        return -1;
    const unsigned char *t = (const unsigned char *)text, *end = t + len;
    while (t < end) {
        while (t < end && *t == ' ')
            t++;
        if (t == end)
            break;
        uint64_t h = VOCAB_HASH_INIT;
        size_t k = 0;
        for (; t < end && *t != ' '; t++, k++) {
            unsigned char c = *t >= 'A' && *t <= 'Z' ? (unsigned char)(*t - 'A' + 'a') : *t;
            ps->low[k] = (char)c;
            h = vocab_hash_step(h, c);
        }
        long id = intern(ps, ps->low, k, vocab_hash_final(h));
        if (id < 0 || ARRAY_RESERVE(*ids, *cap, n + 1) < 0)
            return -1;
        (*ids)[n++] = (uint32_t)id;
    }
    return (long)n;
}

/* The parts of tokens ids[0 .. n) (split again at '_'), for the cues. */
static int parts_of(const pair_shaper *ps, const uint32_t *ids, size_t n, token_list *parts)
{
    token_list_clear(parts);
    for (size_t k = 0; k < n; k++) {
        const char *w = vocab_str(ps->words, ids[k]);
        size_t len = vocab_len(ps->words, ids[k]);
        for (size_t i = 0, j; i < len; i = j + 1)
            if ((j = part_end(w, len, i)) > i && token_list_push(parts, w + i, j - i) < 0)
                return -1;
    }
    return 0;
}

static bool is_word(const pair_shaper *ps, uint32_t id)
{
    return ps->flags[id] & IS_WORD;
}

/* Whether parts[from, to) of h occur together, in that order, in p. */
static bool has_run(const token_list *p, const token_list *h, size_t from, size_t to)
{
    size_t k = to - from;
    for (size_t s = 0; s + k <= p->n; s++) {
        size_t j = 0;
        while (j < k && p->len[s + j] == h->len[from + j] &&
               memcmp(token_at(p, s + j), token_at(h, from + j), p->len[s + j]) == 0)
            j++;
        if (j == k)
            return true;
    }
    return false;
}

/* P's tokens, words and quantities, kept for the next pair when it
   has the same premise (an NLI corpus lists a premise's hypotheses
   together). */
static int read_premise(pair_shaper *ps, const char *premise)
{
    size_t len = strlen(premise);
    if (ps->cached && strcmp(ps->last_premise, premise) == 0)
        return 0;
    /* Whatever fails below leaves nothing cached. */
    ps->cached = false;
    long np = tokens_of(ps, premise, len, &ps->p_tok, &ps->p_tok_cap);
    if (np < 0 || ARRAY_RESERVE(ps->p_ids, ps->p_cap, (size_t)np + 1) < 0 ||
        ARRAY_RESERVE(ps->last_premise, ps->last_cap, len + 1) < 0)
        return -1;
    ps->np = (size_t)np;
    ps->p_parts_made = false;
    /* A new stamp: this premise's words. */
    ps->pcur = ++ps->pair;
    ps->nqty = 0;
    for (size_t i = 0; i + 1 < ps->np; i++)
        if ((ps->flags[ps->p_tok[i]] & IS_NUMBER) && (ps->flags[ps->p_tok[i + 1]] & IS_UNIT)) {
            if (ARRAY_RESERVE(ps->p_qty, ps->p_qty_cap, ps->nqty + 1) < 0)
                return -1;
            ps->p_qty[ps->nqty++] = (uint64_t)ps->p_tok[i] << 32 | ps->p_tok[i + 1];
        }
    ps->pw = 0;
    for (size_t i = 0; i < ps->np; i++) {
        uint32_t t = ps->p_tok[i];
        if (!is_word(ps, t))
            continue;
        ps->p_ids[ps->pw++] = t;
        ps->pstamp[t] = ps->pcur;
    }
    if (ps->ci && (concept_link_text(ps->ci, premise, len, &ps->hits_p) < 0 ||
                   distinct_concepts(&ps->hits_p, &ps->p_con, &ps->p_con_cap, &ps->npcon) < 0))
        return -1;
    memcpy(ps->last_premise, premise, len + 1);
    ps->cached = true;
    return 0;
}

int pair_shape(pair_shaper *ps, const char *premise, const char *hypothesis, double *out)
{
    if (read_premise(ps, premise) < 0)
        return -1;
    uint64_t pstamp = ps->pcur;
    size_t hlen = strlen(hypothesis);
    long nh = tokens_of(ps, hypothesis, hlen, &ps->h_tok, &ps->h_tok_cap);
    if (nh < 0 || ARRAY_RESERVE(ps->h_ids, ps->h_cap, (size_t)nh + 1) < 0)
        return -1;
    /* The cues: only a hypothesis with a cue's first word is scanned, and
       the premise split into parts only when a cue was found. */
    bool may_cue = false;
    for (long i = 0; i < nh && !may_cue; i++)
        may_cue = ps->flags[ps->h_tok[i]] & IS_CUE;
    ps->hits.n = 0;
    if (may_cue && (parts_of(ps, ps->h_tok, (size_t)nh, &ps->parts) < 0 ||
                    term_trie_scan(ps->cues, &ps->parts, &ps->hits) < 0))
        return -1;
    if (ps->hits.n && !ps->p_parts_made) {
        if (parts_of(ps, ps->p_tok, ps->np, &ps->p_parts) < 0)
            return -1;
        ps->p_parts_made = true;
    }
    /* H's stamp: one per pair, above every premise's. */
    uint64_t hstamp = ++ps->pair;
    size_t hw = 0, found = 0;
    bool numbers = false;
    for (long i = 0; i < nh; i++) {
        uint32_t t = ps->h_tok[i];
        unsigned char f = ps->flags[t];
        if (f & IS_NUMBER) {
            if (ps->pstamp[t] != pstamp)
                numbers = true;
            else if (i + 1 < nh && (ps->flags[ps->h_tok[i + 1]] & IS_UNIT)) {
                uint64_t q = (uint64_t)t << 32 | ps->h_tok[i + 1];
                bool has = false;
                for (size_t k = 0; k < ps->nqty && !has; k++)
                    has = ps->p_qty[k] == q;
                numbers |= !has;
            }
        }
        if (!(f & IS_WORD))
            continue;
        ps->h_ids[hw++] = t;
        ps->hstamp[t] = hstamp;
        found += ps->pstamp[t] == pstamp;
    }
    size_t covered = 0;
    for (size_t i = 0; i < ps->pw; i++)
        covered += ps->hstamp[ps->p_ids[i]] == hstamp;

    bool subsequence = false;
    for (size_t s = 0; hw > 0 && s + hw <= ps->pw && !subsequence; s++)
        subsequence = memcmp(ps->p_ids + s, ps->h_ids, hw * sizeof *ps->h_ids) == 0;

    bool negation = false;
    for (size_t k = 0; k < ps->hits.n && !negation; k++)
        negation = !has_run(&ps->p_parts, &ps->parts, ps->hits.v[k].start, ps->hits.v[k].end);

    out[PAIR_OVERLAP] = hw ? (double)found / (double)hw : 0;
    out[PAIR_PREMISE_OVERLAP] = ps->pw ? (double)covered / (double)ps->pw : 0;
    out[PAIR_ALL_IN_PREMISE] = hw > 0 && found == hw;
    out[PAIR_SUBSEQUENCE] = subsequence;
    out[PAIR_NEGATION] = negation;
    out[PAIR_NUMBERS] = numbers;
    out[PAIR_LENGTH_DIFFERENCE] = (double)ps->pw - (double)hw;
    out[PAIR_NEW_CONCEPT] = out[PAIR_MORE_GENERAL] = out[PAIR_MORE_SPECIFIC] = 0;
    if (ps->ci) {
        if (concept_link_text(ps->ci, hypothesis, hlen, &ps->hits_h) < 0)
            return -1;
        for (size_t i = 0; i < ps->hits_h.n; i++) {
            uint32_t h = ps->hits_h.v[i].concept;
            bool in_p = false;
            for (size_t j = 0; j < ps->npcon; j++) {
                uint32_t p = ps->p_con[j];
                in_p |= p == h;
                if (descends(ps->ci, p, h))
                    out[PAIR_MORE_GENERAL] = 1;
                if (descends(ps->ci, h, p))
                    out[PAIR_MORE_SPECIFIC] = 1;
            }
            if (!in_p)
                out[PAIR_NEW_CONCEPT] = 1;
        }
    }
    return 0;
}
