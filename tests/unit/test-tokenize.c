/* The tokeniser's rules, one case each. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "text/tokenize.h"

/* Tokens of text joined by '|', in a static buffer. */
static const char *toks(const tok_options *opt, const char *text)
{
    static char buf[1024];
    token_list t;
    token_list_init(&t);
    if (tokenize(opt, text, strlen(text), &t) < 0)
        return "(out of memory)";
    buf[0] = '\0';
    for (size_t i = 0; i < t.n; i++) {
        if (i)
            strcat(buf, "|");
        strcat(buf, token_at(&t, i));
    }
    token_list_free(&t);
    return buf;
}

int main(void)
{
    tok_options def = {TOKENIZER_DEFAULT, false, false};
    tok_options punct = {TOKENIZER_DEFAULT, false, true};
    tok_options cased = {TOKENIZER_DEFAULT, true, false};
    tok_options ws = {TOKENIZER_WHITESPACE, false, false};

    CHECK_STR(toks(&def, "The X-ray showed 1.5 cm."), "the|x-ray|showed|1.5|cm");
    CHECK_STR(toks(&punct, "The X-ray showed 1.5 cm."), "the|x-ray|showed|1.5|cm|.");
    CHECK_STR(toks(&def, "Patient's BP: 120/80"), "patient's|bp|120|80");
    CHECK_STR(toks(&punct, "Patient's BP: 120/80"), "patient's|bp|:|120|/|80");
    /* A connector at a word edge is punctuation, not part of the word. */
    CHECK_STR(toks(&punct, "'quoted' -dash- end."), "'|quoted|'|-|dash|-|end|.");
    CHECK_STR(toks(&def, "e.g. a--b"), "e.g|a|b");
    CHECK_STR(toks(&cased, "The X-ray"), "The|X-ray");
    /* Multibyte characters are letters; Latin-1 capitals lowercase. */
    CHECK_STR(toks(&def, "Ångström über–alles"), "ångström|über–alles");
    /* U+00A0 no-break space separates tokens. */
    CHECK_STR(toks(&def, "a\xC2\xA0" "b"), "a|b");
    CHECK_STR(toks(&def, "  \t\r\n "), "");
    CHECK_STR(toks(&def, "brain_injury"), "brain_injury");
    CHECK_STR(toks(&ws, "Two women , outside ."), "two|women|,|outside|.");
    CHECK_STR(toks(&ws, "x-ray:1.5"), "x-ray:1.5");

    tokenizer_kind k;
    CHECK(tokenizer_parse("whitespace", &k) == 0 && k == TOKENIZER_WHITESPACE);
    CHECK(tokenizer_parse("default", &k) == 0 && k == TOKENIZER_DEFAULT);
    CHECK(tokenizer_parse("spacy", &k) < 0);
    CHECK_DONE();
}
