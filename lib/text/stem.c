#include <config.h>
#include "text/stem.h"

#include <libstemmer.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "base/vocab.h"

/* Beyond this many distinct words the cache stops growing: a huge
   vocabulary is stemmed word by word rather than held in memory. */
enum { STEM_CACHE_MAX = 1 << 20 };

struct stemmer {
    struct sb_stemmer *sb;
    vocab *words;       /* words stemmed so far */
    vocab *stems;       /* their stems */
    uint32_t *stem_of;  /* word id -> stem id */
    size_t cap;
};

stemmer *stemmer_new(void)
{
    stemmer *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->sb = sb_stemmer_new("english", "UTF_8");
    s->words = vocab_new();
    s->stems = vocab_new();
    if (!s->sb || !s->words || !s->stems) {
        stemmer_free(s);
        return NULL;
    }
    return s;
}

void stemmer_free(stemmer *s)
{
    if (!s)
        return;
    if (s->sb)
        sb_stemmer_delete(s->sb);
    vocab_free(s->words);
    vocab_free(s->stems);
    free(s->stem_of);
    free(s);
}

int stemmer_stem(stemmer *s, const char *word, size_t len, const char **out,
                 size_t *out_len)
{
    uint64_t h = vocab_hash(word, len);
    long w = vocab_find(s->words, word, len);
    if (w >= 0) {
        *out = vocab_str(s->stems, s->stem_of[w]);
        *out_len = vocab_len(s->stems, s->stem_of[w]);
        return 0;
    }
    const sb_symbol *st = sb_stemmer_stem(s->sb, (const sb_symbol *)word, (int)len);
    if (!st)
        return -1;
    *out = (const char *)st;
    *out_len = (size_t)sb_stemmer_length(s->sb);
    if (vocab_size(s->words) >= STEM_CACHE_MAX)
        return 0;
    long id = vocab_intern(s->stems, *out, *out_len);
    if (id < 0 || (w = vocab_intern_hashed(s->words, word, len, h)) < 0 ||
        ARRAY_RESERVE(s->stem_of, s->cap, (size_t)w + 1) < 0)
        return -1;
    s->stem_of[w] = (uint32_t)id;
    *out = vocab_str(s->stems, (size_t)id);
    return 0;
}
