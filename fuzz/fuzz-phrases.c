/* Phrase files of tells-prep --phrases (text/phrase.h), tokenised as
   tells-prep does by default and with the whitespace tokenizer, and
   merged into a fixed text. */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "text/phrase.h"

FUZZ_TARGET(phrases)
{
    static const char text[] = "the patient has chest pain and shortness of breath , new york";
    const char *path = fuzz_file("phrases.txt", data, size);
    tok_options opts[2] = {{.kind = TOKENIZER_DEFAULT},
                           {.kind = TOKENIZER_WHITESPACE, .keep_case = true}};
    token_list in, out;
    token_list_init(&in);
    token_list_init(&out);
    for (int k = 0; k < 2; k++) {
        phrase_set *ps = phrase_set_new();
        tells_error err;
        tells_error_clear(&err);
        if (!ps)
            fuzz_fail("phrase_set_new", "out of memory");
        if (fuzz_check(phrase_set_load(ps, path, &opts[k], &err), &err,
                       "phrase_set_load") == 0) {
            if (tokenize(&opts[k], text, strlen(text), &in) < 0 ||
                phrase_set_merge(ps, &in, &out) < 0)
                fuzz_fail("phrase_set_merge", "out of memory");
            if (out.n > in.n)
                fuzz_fail("phrase_set_merge", "more tokens after merging");
        }
        phrase_set_free(ps);
    }
    token_list_free(&in);
    token_list_free(&out);
    return 0;
}
