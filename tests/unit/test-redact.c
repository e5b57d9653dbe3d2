/* text/redact: the gate counts premises, not pairs; keyed ids are
   HMAC-SHA256 (RFC 4231's first test case); the scan finds runs and rare
   words where a reader sees them, and only there. */
#include <config.h>

#include <unistd.h>

#include "check.h"
#include "text/redact.h"

static void test_gate(void)
{
    char path[256];
    /* "rare" is in three hypotheses of one premise and one of another:
       two premises; "wide" in hypotheses of four premises. */
    check_temp_file(path, sizeof path,
                    "id\tsplit\tlabel\tpremise\thypothesis\n"
                    "1\tt\ta\tp one\trare wide\n"
                    "2\tt\tb\tp one\trare\n"
                    "3\tt\tc\tp one\trare rare\n"
                    "4\tt\ta\tp two\trare wide\n"
                    "5\tt\ta\tp three\twide\n"
                    "6\tt\ta\tp four\twide x_y\n"
                    "7\tt\ta\tp one\ta_b_c_d a_b\n"
                    "8\tt\ta\tp two\ta_b_c_d a_b\n"
                    "9\tt\ta\tp three\ta_b_c_d a_b\n"
                    "10\tt\ta\t-\tsolo\n"
                    "11\tt\ta\t-\tsolo\n"
                    "12\tt\ta\t-\tsolo\n");
    dataset d;
    tells_error err;
    tells_error_clear(&err);
    CHECK(dataset_load(&d, path, &err) == 0);
    redact_gate *g = redact_gate_new(&d, 3, &err);
    CHECK(g != NULL);
    CHECK(!redact_gate_ok(g, "rare", 4));
    CHECK(redact_gate_ok(g, "wide", 4));
    CHECK(redact_gate_ok(g, "p", 1));        /* in every premise */
    CHECK(!redact_gate_ok(g, "x_y", 3));
    CHECK(!redact_gate_ok(g, "absent", 6));
    CHECK(redact_gate_text_ok(g, "wide p"));
    /* Four words or more: a merged phrase is withheld however frequent. */
    CHECK(redact_gate_ok(g, "a_b", 3));
    CHECK(!redact_gate_ok(g, "a_b_c_d", 7));
    /* Without a premise, each example is its own group. */
    CHECK(redact_gate_ok(g, "solo", 4));
    CHECK(!redact_gate_text_ok(g, "wide rare"));
    CHECK(redact_gate_ok(NULL, "rare", 4));
    redact_gate_free(g);
    g = redact_gate_new(&d, 2, &err);
    CHECK(redact_gate_ok(g, "rare", 4));
    redact_gate_free(g);

    leak_index *ix = leak_index_new(4, 3, &err);
    CHECK(leak_index_add_dataset(ix, &d, &err) == 0);
    CHECK(leak_index_premises(ix, "rare", 4) == 2);
    CHECK(leak_index_premises(ix, "wide", 4) == 4);
    CHECK(leak_index_premises(ix, "solo", 4) == 3);
    CHECK(leak_index_premises(ix, "RARE", 4) == 2);
    CHECK(leak_index_premises(ix, "x", 1) == 1);
    leak_index_free(ix);
    /* Latin-1 capitals fold as the tokenizer folds them. */
    ix = leak_index_new(4, 3, &err);
    CHECK(leak_index_add(ix, NULL, 0, "\xc3\x89CHO seen", 10, "c", 1, &err) == 0);
    CHECK(leak_index_premises(ix, "\xc3\xa9cho", 5) == 1);
    CHECK(leak_index_premises(ix, "\xc3\x89cho", 5) == 1);
    leak_index_free(ix);
    dataset_free(&d);
    unlink(path);
}

/* Every example without a premise is a group of its own, apart from
   every premise's; a premise is one group however often it comes. */
static void test_premise_tally(void)
{
    premise_tally t;
    CHECK(premise_tally_init(&t) == 0);
    long a = premise_tally_group(&t, "p one", 5), b = premise_tally_group(&t, "p one", 5);
    long n1 = premise_tally_group(&t, NULL, 0), n2 = premise_tally_group(&t, "-", 1);
    long c = premise_tally_group(&t, "p two", 5), n3 = premise_tally_group(&t, "", 0);
    CHECK(a == b && a != c);
    CHECK(n1 != n2 && n2 != n3 && n1 != n3 && n1 != a && n1 != c && n3 != c);
    const long groups[] = {a, b, n1, n2, c, n3, n3};
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++)
        CHECK(premise_tally_add(&t, 42, groups[i]) == 0);
    CHECK(premise_tally_count(&t, 42) == 5);
    CHECK(premise_tally_count(&t, 43) == 0);
    premise_tally_free(&t);
}

static void test_keyed_ids(void)
{
    /* RFC 4231, test case 2's key is 4 bytes (too short for a key file);
       test case 1: key 0x0b x 20, data "Hi There". */
    uint8_t key[20];
    memset(key, 0x0b, sizeof key);
    redact_key k = {key, sizeof key};
    char out[REDACT_ID_HEX + 1];
    redact_id_hash(&k, "Hi There", 8, out);
    CHECK_STR(out, "b0344c61d8db38535ca8afce");
}

static int scan(const leak_index *ix, const char *name, const char *text, leak_finding *f)
{
    return leak_scan_buffer(ix, name, text, strlen(text), f);
}

/* Two examples; k = 1 lets every word appear alone (runs only). */
static leak_index *two_examples(size_t k)
{
    tells_error err;
    leak_index *ix = leak_index_new(4, k, &err);
    CHECK(leak_index_add(ix, "The quick brown fox jumps over", 30, "zebras graze at dawn", 20,
                         "c.jsonl", 7, &err) == 0);
    CHECK(leak_index_add(ix, "another premise here", 20, "Zebras graze", 12, "c.jsonl", 8,
                         &err) == 0);
    return ix;
}

static void test_scan(void)
{
    tells_error err;
    leak_index *ix = two_examples(1);
    leak_finding f;
    CHECK(scan(ix, "a.tsv", "x\tQuick Brown fox JUMPS\n", &f) == 1);
    CHECK(f.kind == LEAK_NGRAM && f.line == 1);
    CHECK_STR(f.fragment, "quick brown fox jumps");
    CHECK_STR(f.source, "c.jsonl");
    CHECK(f.source_line == 7);
    /* Fields, lines and elements break runs; inline elements do not. */
    CHECK(scan(ix, "a.tsv", "quick brown\tfox jumps\n", &f) == 0);
    CHECK(scan(ix, "a.tsv", "quick brown\nfox jumps\n", &f) == 0);
    CHECK(scan(ix, "a.html", "<td>quick brown</td><td>fox jumps</td>", &f) == 0);
    CHECK(scan(ix, "a.html", "<p>quick <code>brown</code> fox\njumps</p>", &f) == 1);
    CHECK(f.line == 1);
    CHECK(scan(ix, "a.html", "<p>\n\nquick&#x20;brown&nbsp;fox&amp;jumps</p>", &f) == 1);
    CHECK(f.line == 3);
    /* Comments, style and script are read too; tags inside a comment are
       its text. */
    CHECK(scan(ix, "a.html", "<!-- quick brown fox jumps -->", &f) == 1);
    CHECK(scan(ix, "a.html", "<style>\nquick brown fox jumps</style>", &f) == 1);
    CHECK(f.line == 2);
    CHECK(scan(ix, "a.html", "<script>x = 'quick brown';\ny = 'fox jumps'</script>", &f) == 0);
    /* Soft hyphens and zero-width spaces join; symbols and emoji split. */
    CHECK(scan(ix, "a.html", "<p>qui&shy;ck brown fox ju\xe2\x80\x8bmps</p>", &f) == 1);
    CHECK(scan(ix, "a.tsv", "\xe2\x86\x92quick\xe2\x84\xa2 brown fox \xf0\x9f\x98\x80jumps\n", &f) == 1);
    CHECK(scan(ix, "a.svg", "<g><title>x</title><text aria-label='the quick brown fox'>",
               &f) == 1);
    CHECK(scan(ix, "a.tsv", "dawn\n", &f) == 0);
    leak_index_free(ix);
    ix = two_examples(2);
    /* Rare words: "dawn" and "jumps" are in one premise's group each. */
    CHECK(scan(ix, "a.tsv", "id\ttoken\n1\tdawn\n", &f) == 1);
    CHECK(f.kind == LEAK_RARE_WORD && f.line == 2 && f.premises == 1 && f.k == 2);
    CHECK_STR(f.fragment, "dawn");
    CHECK(scan(ix, "a.tsv", "zebras graze\n", &f) == 0);   /* two premises */
    CHECK(scan(ix, "a.tsv", "unknown words only\n", &f) == 0);
    /* Words tells writes itself, and numbers, are no leak. */
    CHECK(redact_own_word("withheld", 8));
    CHECK(!redact_own_word("zebras", 6));
    CHECK(leak_index_add(ix, "withheld 17", 11, "1 2 3 4", 7, "c.jsonl", 9, &err) == 0);
    CHECK(scan(ix, "a.tsv", "withheld 17\n1 2 3 4\n", &f) == 0);
    CHECK(leak_index_allow(ix, "dawn", &err) == 0);
    CHECK(scan(ix, "a.tsv", "dawn\n", &f) == 0);
    leak_index_free(ix);
    ix = two_examples(1);
    /* Binary: printable runs, and 4-byte code units. */
    const char bin[] = "\x00\x01the quick brown fox jumps\x00";
    CHECK(leak_scan_buffer(ix, "a.bin", bin, sizeof bin, &f) == 1);
    const char ucs[] = "q\0\0\0u\0\0\0i\0\0\0c\0\0\0k\0\0\0 \0\0\0b\0\0\0r\0\0\0o\0\0\0w\0\0\0"
                       "n\0\0\0 \0\0\0f\0\0\0o\0\0\0x\0\0\0 \0\0\0j\0\0\0u\0\0\0m\0\0\0p\0\0\0"
                       "s\0\0\0";
    CHECK(leak_scan_buffer(ix, "a.npy", ucs, sizeof ucs - 1, &f) == 1);
    CHECK_STR(f.fragment, "quick brown fox jumps");
    const char u16[] = "\xff\xfeq\0u\0i\0c\0k\0 \0b\0r\0o\0w\0n\0 \0f\0o\0x\0 \0j\0u\0m\0p\0s\0";
    CHECK(leak_scan_buffer(ix, "a.txt", u16, sizeof u16 - 1, &f) == 1);
    CHECK_STR(f.fragment, "quick brown fox jumps");
    leak_index_free(ix);
}

int main(void)
{
    test_gate();
    test_premise_tally();
    test_keyed_ids();
    test_scan();
    CHECK_DONE();
}
