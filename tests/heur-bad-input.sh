#!/bin/sh
# Bad input to tells-heur: prepared TSVs, tree files, synonym, cue, stop and
# prefix lists, heuristic definitions and options. Each names the file and
# line, exits 1 (2 for usage) and leaves existing outputs untouched.
. "${top_srcdir:-.}/tests/init.sh"

TELLS_DATA=$corpora
export TELLS_DATA
tree=$data/heur-tree.txt
H='id	split	label	premise	hypothesis'
printf "$H\n1\td\tentailment\tsepsis\tinfection\n" >"$tmp/ok.tsv"
printf 'old table\n' >"$tmp/keep.tsv"
printf 'old pairs\n' >"$tmp/keep-pairs.tsv"

# check NAME STDERR ARGS...: tells-heur ARGS fails with exit 1 and STDERR
# (prefixed "tells-heur: "), and neither output changed.
check() {
    what=$1 msg=$2
    shift 2
    run tells-heur -o "$tmp/keep.tsv" --pairs "$tmp/keep-pairs.tsv" "$@"
    expect 1 "tells-heur: $msg"
    [ "$(cat "$tmp/keep.tsv")" = "old table" ] || fail "$what: output changed"
    [ "$(cat "$tmp/keep-pairs.tsv")" = "old pairs" ] || fail "$what: pairs changed"
}

# --- the prepared TSV ---
bad() {
    printf "$2" >"$tmp/in.tsv"
    check "$1" "$tmp/in.tsv$3" --mesh "$tree" "$tmp/in.tsv"
}
bad "no header" '1\td\te\ta b\tc\n' \
    ":1: not a prepared TSV: the header must start with 'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis'"
bad "empty file" '' ": empty input: expected a prepared TSV header"
bad "four columns" "$H\n1\td\te\ta b\tc\n2\td\te\ta b\n" ":3: expected 5 tab-separated columns, found 4"
bad "six columns" "$H\n1\td\te\ta b\tc\tx\n" ":2: expected 5 tab-separated columns, found 6"
bad "empty premise" "$H\n1\td\te\t\tc\n" ":2: empty premise"
bad "empty hypothesis" "$H\n1\td\te\ta b\t\n" ":2: empty hypothesis"
bad "empty label" "$H\n1\td\t\ta b\tc\n" ":2: empty label"
bad "invalid UTF-8" "$H\n1\td\te\ta b\tc\377\n" ":2: invalid UTF-8"
bad "header only" "$H\n" ": no examples in the input"
check "missing file" "$tmp/nope.tsv: cannot open: No such file or directory" \
    --mesh "$tree" "$tmp/nope.tsv"
check "split absent" "$tmp/ok.tsv: no examples in split 'test'" \
    --mesh "$tree" --split d --split test "$tmp/ok.tsv"
what="bad row in the second file"
printf "$H\n1\td\te\ta b\n" >"$tmp/in.tsv"
check "$what" "$tmp/in.tsv:2: expected 5 tab-separated columns, found 4" \
    --mesh "$tree" "$tmp/ok.tsv" "$tmp/in.tsv"

# --- the tree file ---
badtree() {
    printf "$2" >"$tmp/tree.txt"
    check "tree: $1" "$tmp/tree.txt$3" --mesh "$tmp/tree.txt" --no-builtin \
        -H "$data/heur-control.heur" "$tmp/ok.tsv"
}
badtree "two columns" 'Tree Number\tDesc Ui\tTerm\nA01\tD001829\tBody Regions\nA01.111\tD059925\n' \
    ":3: expected 3 tab-separated columns (tree number, descriptor, term)"
badtree "four columns" 'A01\tD001829\tBody Regions\tx\n' \
    ":1: expected 3 tab-separated columns (tree number, descriptor, term)"
badtree "empty term" 'A01\tD001829\t\n' ":1: empty term"
badtree "empty descriptor" 'A01\t\tBody Regions\n' ":1: empty descriptor"
badtree "duplicate tree number" 'A01\tD001829\tBody Regions\nA01\tD059925\tLandmarks\n' \
    ":2: tree number A01 already given on line 1"
badtree "malformed tree number" 'A01.\tD001829\tX\n' ":1: malformed tree number 'A01.'"
badtree "descriptor with two terms" 'C01\tD1\tSepsis\nC02\tD1\tSepticemia\n' \
    ":2: descriptor D1 is named 'Sepsis' on line 1"
badtree "term without words" 'C01\tD1\t(-)\n' ":1: term '(-)' has no words"
badtree "no entries" 'Tree Number\tDesc Ui\tTerm\n' ": no MeSH entries"
badtree "invalid UTF-8" 'C01\tD1\tSep\377sis\n' ":1: invalid UTF-8"

# --- synonyms ---
badsyn() {
    printf "$2" >"$tmp/syn.tsv"
    check "synonyms: $1" "$tmp/syn.tsv$3" --mesh "$tree" --synonyms "$tmp/syn.tsv" "$tmp/ok.tsv"
}
badsyn "one column" '# ok\nsmoker\n' ":2: expected 2 tab-separated columns (term, descriptor)"
badsyn "three columns" 'smoker\tD012907\tx\n' ":1: expected 2 tab-separated columns (term, descriptor)"
badsyn "empty term" '\tD012907\n' ":1: empty term"
badsyn "empty descriptor" 'smoker\t\n' ":1: empty descriptor"
badsyn "term without words" '(*)\tD012907\n' ":1: term '(*)' has no words"
badsyn "unknown descriptor" 'smoker\tD999999\n' ":1: unknown descriptor 'D999999' (not in $tree)"
badsyn "duplicate" 'smoker\tD012907\n\nSmoker.\tD064424\n' \
    ":3: term 'Smoker.' already given on line 1"

# --- heuristic definitions and their lists ---
baddef() {
    printf "$2" >"$tmp/h.heur"
    check "definition: $1" "$3" --mesh "$tree" -H "$tmp/h.heur" "$tmp/ok.tsv"
}
d=$tmp/h.heur
baddef "unknown directive" 'heuristic x\nrelaton same\n' "$d:2: unknown directive 'relaton'"
baddef "no value" 'heuristic x\nrelation   \n' "$d:2: 'relation' needs a value"
baddef "no name" 'heuristic\n' "$d:1: 'heuristic' needs a value"
baddef "before heuristic" '# c\nrelation same\nheuristic x\n' \
    "$d:2: 'relation' before the first 'heuristic' line"
baddef "invalid name" 'heuristic x/y\nrelation same\n' \
    "$d:1: invalid heuristic name 'x/y' (letters, digits, '-' and '_')"
baddef "name with a blank" 'heuristic x y\nrelation same\n' \
    "$d:1: invalid heuristic name 'x y' (letters, digits, '-' and '_')"
baddef "defined twice" 'heuristic x\nrelation same\n\nheuristic x\nrelation same\n' \
    "$d:4: heuristic 'x' already defined on line 1"
baddef "directive twice" 'heuristic x\nrelation same\nrelation hypernym\n' \
    "$d:3: 'relation' given twice for heuristic 'x'"
baddef "unknown relation" 'heuristic x\nrelation sibling\n' \
    "$d:2: unknown relation 'sibling' (hypernym, ancestor, descendant or same)"
baddef "no condition" 'heuristic x\ndescription nothing\nheuristic y\nrelation same\n' \
    "$d:1: heuristic 'x' has no condition"
baddef "no condition at the end" 'heuristic y\nrelation same\nheuristic x\n' \
    "$d:3: heuristic 'x' has no condition"
printf 'D010361\tPatients\n' >"$tmp/stop.tsv"
baddef "stop alone is no condition" 'heuristic x\nstop stop.tsv\n' \
    "$d:1: heuristic 'x' has no condition"
baddef "no heuristics" '# nothing\n\n' "$d: no heuristics"
baddef "malformed prefix" 'heuristic x\npremise-tree C01.\n' "$d:2: malformed tree prefix 'C01.'"
baddef "prefix not in tree" 'heuristic x\nhypothesis-tree C D C99.999\n' \
    "$d:2: tree number C99.999 is not in $tree"
baddef "stop takes one file" 'heuristic x\nrelation same\nstop a.tsv b.tsv\n' \
    "$d:3: 'stop' takes one file"
baddef "missing cue list" 'heuristic x\nhypothesis-cue nope.txt\n' \
    "$tmp/nope.txt: cannot open: No such file or directory"
baddef "invalid UTF-8" 'heuristic x\ndescription \377\n' "$d:2: invalid UTF-8"

# listed NAME DEFINITION FILE CONTENT MESSAGE: a list file FILE (beside the
# definition) with CONTENT fails with MESSAGE.
listed() {
    printf "$4" >"$tmp/$3"
    printf "$2" >"$tmp/h.heur"
    check "list: $1" "$tmp/$3$5" --mesh "$tree" -H "$tmp/h.heur" "$tmp/ok.tsv"
}
cue='heuristic x\nhypothesis-cue ok.txt cues.txt\n'
printf 'no\n' >"$tmp/ok.txt"
listed "cue with a tab" "$cue" cues.txt 'no\nnot\tx\n' ":2: expected one column (cue phrase), found a tab"
listed "cue without words" "$cue" cues.txt 'no\n...\n' ":2: cue '...' has no words"
listed "duplicate cue" "$cue" cues.txt '# cues\ndoes not have\nno\nDoes not have\n' \
    ":4: cue 'Does not have' already given on line 2"
listed "no cues" "$cue" cues.txt '# nothing\n' ": no cues"
listed "cue invalid UTF-8" "$cue" cues.txt 'n\377o\n' ":1: invalid UTF-8"
stop='heuristic x\nrelation same\nstop stop.tsv\n'
listed "stop one column" "$stop" stop.tsv 'D010361\n' ":1: expected 2 tab-separated columns (descriptor, term)"
listed "stop empty term" "$stop" stop.tsv 'D010361\t\n' ":1: empty term"
listed "stop unknown" "$stop" stop.tsv 'D010362\tPatients\n' ":1: unknown descriptor 'D010362' (not in $tree)"
listed "stop wrong term" "$stop" stop.tsv 'D010361\tPatient\n' ":1: D010361 is 'Patients' in $tree, not 'Patient'"
listed "stop duplicate" "$stop" stop.tsv 'D010361\tPatients\nD006664\tHistory\nD010361\tPatients\n' \
    ":3: descriptor D010361 already given on line 1"
listed "no stop descriptors" "$stop" stop.tsv '\n' ": no descriptors"
pre='heuristic x\npremise-tree C\nhypothesis-tree F03 @causes.tsv\n'
listed "prefix three columns" "$pre" causes.tsv 'F03\tMental Disorders\tx\n' \
    ":1: expected 2 tab-separated columns (tree prefix, term)"
listed "prefix malformed" "$pre" causes.tsv 'F03.\tMental Disorders\n' ":1: malformed tree prefix 'F03.'"
listed "prefix not in tree" "$pre" causes.tsv 'F04\tMental Disorders\n' ":1: tree number F04 is not in $tree"
listed "prefix wrong term" "$pre" causes.tsv 'F01.145.958\tSmoking\n' \
    ":1: F01.145.958 is 'Tobacco Use' in $tree, not 'Smoking'"
listed "prefix duplicate" "$pre" causes.tsv 'M\tPersons\nF03\tMental Disorders\nM\tPeople\n' \
    ":3: prefix M already given on line 1"
listed "prefix empty" "$pre" causes.tsv '\tMental Disorders\n' ":1: empty tree prefix"

what="the built-ins check their lists against the tree file"
printf 'C01\tD1\tSepsis\n' >"$tmp/tree.txt"
check "$what" "$corpora/lexicons/cause-prefixes.tsv:5: tree number F01.145.958 is not in $tmp/tree.txt" \
    --mesh "$tmp/tree.txt" "$tmp/ok.tsv"

# --- a failure after the pairs file was started leaves it alone ---
what="late error"
printf "$H\n1\td\te\tsepsis\tinfection\n2\td\te\tsepsis\n" >"$tmp/in.tsv"
check "$what" "$tmp/in.tsv:3: expected 5 tab-separated columns, found 4" --mesh "$tree" "$tmp/in.tsv"
# out_file's temporary files are named .NAME.XXXXXX
left=$(ls -A "$tmp" | grep '^\.keep' || :)
[ -n "$left" ] && fail "temporary files left: $left"

# --- usage errors ---
for args in "--hypernym-direction up|invalid --hypernym-direction 'up' (general or specific)" \
    "--expected prior|invalid --expected 'prior' (uniform or class-prior)" \
    "--digits 0|invalid value '0' for --digits (expected an integer from 1 to 17)" \
    "--no-builtin|--no-builtin needs --heuristics FILE" \
    "--pairs -|--pairs - needs --output FILE for the table" \
    "--pairs $tmp/x -o $tmp/x|--pairs and --output name the same file: $tmp/x"; do
    opts=${args%%|*}
    what="tells-heur $opts"
    # shellcheck disable=SC2086
    run tells-heur $opts "$tmp/ok.tsv"
    expect 2 "tells-heur: ${args#*|}
Try 'tells-heur --help' for more information."
done
finish
