# Independent PMI reference for the tests of tells-pmi (POSIX awk; runs
# with mawk and gawk).
#
#   awk -f pmi-reference.awk -v field=hypothesis -v k=50 -v mincount=5 \
#       -v binary=0 prepared.tsv
#
# Input: the prepared TSV (id, split, label, premise, hypothesis; the
# first line is a header).  field is hypothesis, premise or both.
#
# count(w,c): occurrences of token w in the field of class-c examples
# (binary=1: each example counts at most once).  w is kept when its total
# count is >= mincount.  k is added to count(w,c) for every kept w and
# every class (every label present).  p(w,c) = smoothed count / total of
# smoothed counts, p(w,.) and p(.,c) its marginals, and
# PMI = log2 p(w,c) / (p(w,.) p(.,c)).
#
# Output, unsorted, one line per kept token and class (also where the
# raw count is 0): class, token, pmi, raw count, class_share (fraction
# of class-c examples whose field contains w), pmi and share as %.10f.

BEGIN {
    FS = "\t"
    if (field == "") field = "hypothesis"
    if (k == "") k = 50
    if (mincount == "") mincount = 5
    if (binary == "") binary = 0
    if (field != "hypothesis" && field != "premise" && field != "both") {
        print "pmi-reference.awk: bad field: " field > "/dev/stderr"
        exit 2
    }
    k += 0; mincount += 0; binary += 0
}

FNR == 1 { next }                       # header

{
    label = $3
    if (field == "premise")
        text = $4
    else if (field == "hypothesis")
        text = $5
    else
        text = $4 " " $5

    if (!(label in nexamples)) {
        nexamples[label] = 0
        classes[++nclasses] = label
    }
    nexamples[label]++

    n = split(text, tok, " ")
    split("", seen)
    for (i = 1; i <= n; i++) {
        w = tok[i]
        key = label "\t" w
        if (!(w in seen)) {
            seen[w] = 1
            present[key]++
            if (binary) {
                count[key]++
                total[w]++
            }
        }
        if (!binary) {
            count[key]++
            total[w]++
        }
    }
}

END {
    # Kept tokens, and the smoothed marginals.
    nkept = 0
    grand = 0
    for (w in total) {
        if (total[w] < mincount)
            continue
        kept[++nkept] = w
    }
    for (c = 1; c <= nclasses; c++)
        col[classes[c]] = 0
    for (i = 1; i <= nkept; i++) {
        w = kept[i]
        row[w] = 0
        for (c = 1; c <= nclasses; c++) {
            key = classes[c] "\t" w
            s = (key in count ? count[key] : 0) + k
            row[w] += s
            col[classes[c]] += s
            grand += s
        }
    }

    ln2 = log(2)
    for (c = 1; c <= nclasses; c++) {
        label = classes[c]
        for (i = 1; i <= nkept; i++) {
            w = kept[i]
            key = label "\t" w
            raw = (key in count) ? count[key] : 0
            share = (key in present) ? present[key] / nexamples[label] : 0
            pwc = (raw + k) / grand
            pw = row[w] / grand
            pc = col[label] / grand
            pmi = log(pwc / (pw * pc)) / ln2
            printf "%s\t%s\t%.10f\t%d\t%.10f\n", label, w, pmi, raw, share
        }
    }
}
