/* Word stems for matching "smokes" with "smoking" and "strokes" with
   "stroke": the Snowball English (Porter2) stemmer of libstemmer_c, with
   a cache of the words already stemmed, since a text or a thesaurus
   repeats its words. A stemmer has state: one per thread. */
#ifndef TELLS_STEM_H
#define TELLS_STEM_H

#include <stddef.h>

typedef struct stemmer stemmer;

/* NULL when out of memory. */
stemmer *stemmer_new(void);
void stemmer_free(stemmer *s);
/* The stem of word (len bytes of lowercase UTF-8) in *out (*out_len
   bytes), valid until the next call. -1 when out of memory. */
int stemmer_stem(stemmer *s, const char *word, size_t len, const char **out,
                 size_t *out_len);

#endif
