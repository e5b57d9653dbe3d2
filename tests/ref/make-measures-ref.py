#!/usr/bin/python3
"""Reference tables for tells-pmi's --measure logodds and --measure
pmi-published, from their definitions in plain Python (no tells code), on
SNLI dev as tells-prep -t whitespace prepares it (argument 1):

  tests/data/logodds-ref.tsv   Monroe, Colaresi and Quinn (2008), section
      3.5: the log-odds ratio with an informative Dirichlet prior, each
      class against the others pooled, the prior the corpus's own counts,
      every token seen at least 5 times
  tests/data/pmi-published-ref.tsv   PMI as src/analysis/lexical.py of
      crherlihy/clinical_nli_artifacts (commit b330f71199a7) computes it
      with its example_cfg.ini (SMOOTHING 50, MIN_DF 5, NGRAM_MAX 1).
      That code needs pandas and scikit-learn (CountVectorizer); neither is
      installed here, so their part is ported: CountVectorizer's default
      analyzer (lowercase, token_pattern r"(?u)\\b\\w\\w+\\b", English stop
      words of scikit-learn 0.24, min_df as a document count, counts summed
      over documents) and the pandas arithmetic of get_pmi_by_label.

make check does not run this; it compares tells with the files."""
import math
import re
import sys
from collections import Counter, defaultdict

# scikit-learn 0.24's sklearn/feature_extraction/_stop_words.py
ENGLISH_STOP_WORDS = frozenset("""
a about above across after afterwards again against all almost alone along
already also although always am among amongst amoungst amount an and another
any anyhow anyone anything anyway anywhere are around as at back be became
because become becomes becoming been before beforehand behind being below
beside besides between beyond bill both bottom but by call can cannot cant co
con could couldnt cry de describe detail do done down due during each eg eight
either eleven else elsewhere empty enough etc even ever every everyone
everything everywhere except few fifteen fifty fill find fire first five for
former formerly forty found four from front full further get give go had has
hasnt have he hence her here hereafter hereby herein hereupon hers herself him
himself his how however hundred i ie if in inc indeed interest into is it its
itself keep last latter latterly least less ltd made many may me meanwhile
might mill mine more moreover most mostly move much must my myself name namely
neither never nevertheless next nine no nobody none noone nor not nothing now
nowhere of off often on once one only onto or other others otherwise our ours
ourselves out over own part per perhaps please put rather re same see seem
seemed seeming seems serious several she should show side since sincere six
sixty so some somehow someone something sometime sometimes somewhere still
such system take ten than that the their them themselves then thence there
thereafter thereby therefore therein thereupon these they thick thin third
this those though three through throughout thru thus to together too top
toward towards twelve twenty two un under until up upon us very via was we
well were what whatever when whence whenever where whereafter whereas whereby
wherein whereupon wherever whether which while whither who whoever whole whom
whose why will with within without would yet you your yours yourself
yourselves""".split())
assert len(ENGLISH_STOP_WORDS) == 318
TOKEN = re.compile(r"(?u)\b\w\w+\b")


def analyse(doc, stop_words):
    words = TOKEN.findall(doc.lower())
    return [w for w in words if w not in stop_words] if stop_words else words


def count_vectorizer(docs, stop_words=None, min_df=1):
    """Column sums of CountVectorizer(...).fit_transform(docs)."""
    counts, df = Counter(), Counter()
    for d in docs:
        words = analyse(d, stop_words)
        counts.update(words)
        df.update(set(words))
    return {w: c for w, c in counts.items() if df[w] >= min_df}


def pmi_published(rows, out, smoothing=50, min_df=5):
    corpus = [(r[4], r[2]) for r in rows]
    full = count_vectorizer([d for d, _ in corpus])
    full_sum = sum(c + smoothing for c in full.values())
    with open(out, "w", encoding="utf-8") as f:
        f.write("class\ttoken\tpmi\tcount\tp_word_label\n")
        for label in sorted({l for _, l in corpus}):
            docs = [d for d, l in corpus if l == label]
            prob_label = len(docs) / len(corpus)
            counts = count_vectorizer(docs, ENGLISH_STOP_WORDS, min_df)
            label_sum = sum(c + smoothing for c in counts.values())
            table = []
            for w, c in counts.items():
                p_word_label = (c + smoothing) / label_sum
                p_word = (full[w] + smoothing) / full_sum
                table.append((-math.log2(p_word_label / (p_word * prob_label)), w, c,
                              p_word_label))
            for neg, w, c, p in sorted(table):
                f.write("%s\t%s\t%.10f\t%d\t%.10f\n" % (label, w, -neg, c, p))


def logodds(rows, out, min_count=5):
    y = defaultdict(Counter)
    for r in rows:
        y[r[2]].update(t for t in r[4].split(" ") if t)
    classes = sorted(y)
    total = Counter()
    for c in classes:
        total.update(y[c])
    a0 = sum(total.values())
    n = {c: sum(y[c].values()) for c in classes}
    N = sum(n.values())
    with open(out, "w", encoding="utf-8") as f:
        f.write("class\ttoken\tcount\tdelta\tvar\tz\n")
        for c in classes:
            table = []
            for w, tw in total.items():
                if tw < min_count:
                    continue
                a = tw
                yc, yr = y[c][w], tw - y[c][w]
                nc, nr = n[c], N - n[c]
                delta = (math.log((yc + a) / (nc + a0 - yc - a))
                         - math.log((yr + a) / (nr + a0 - yr - a)))
                var = 1 / (yc + a) + 1 / (yr + a)
                table.append((-delta / math.sqrt(var), w, yc, delta, var))
            for negz, w, yc, delta, var in sorted(table):
                f.write("%s\t%s\t%d\t%.10f\t%.10f\t%.10f\n" % (c, w, yc, delta, var, -negz))


rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")][1:]
data = sys.argv[2] if len(sys.argv) > 2 else "tests/data"
logodds(rows, data + "/logodds-ref.tsv")
pmi_published(rows, data + "/pmi-published-ref.tsv")
