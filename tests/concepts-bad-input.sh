#!/bin/sh
# Bad entry-term files and inputs of tells-concepts: each error names the
# file and line, exits 1 and leaves the old output; a byte-order mark and
# CRLF line ends are accepted (as in every tells text format); rows of
# descriptors the tree file lacks are skipped and counted (--stats).
. "${top_srcdir:-.}/tests/init.sh"

TELLS_DATA=$corpora
export TELLS_DATA
tree=$data/heur-tree.txt
Hd='DescriptorUI	DescriptorName	ConceptUI	TermName	RecordPreferredTermYN	ConceptPreferredTermYN	IsPermutedTermYN	LexicalTag'
printf 'sepsis and blood poisoning\n' >"$tmp/text"
printf 'old links\n' >"$tmp/keep.tsv"

check() {
    what=$1 msg=$2
    printf "$3" >"$tmp/terms.tsv"
    run tells-concepts --mesh "$tree" --terms "$tmp/terms.tsv" -T -o "$tmp/keep.tsv" "$tmp/text"
    expect 1 "tells-concepts: $tmp/terms.tsv$msg"
    [ "$(cat "$tmp/keep.tsv")" = "old links" ] || fail "$what: output changed"
}
check "no header" ":1: not an entry-term file: the header must be DescriptorUI, DescriptorName, ConceptUI, TermName, RecordPreferredTermYN, ConceptPreferredTermYN, IsPermutedTermYN, LexicalTag (tab-separated)" \
    'D018805\tSepsis\tM1\tBlood Poisoning\tN\tN\tN\tNON\n'
check "empty file" ": empty entry-term file" ''
check "header only" ": no entry terms" "$Hd\n"
check "seven columns" ":3: expected 8 tab-separated columns, found 7" \
    "$Hd\nD018805\tSepsis\tM1\tSepsis\tY\tY\tN\tNON\nD018805\tSepsis\tM1\tBlood Poisoning\tN\tN\tN\n"
check "empty term" ":2: empty TermName" "$Hd\nD018805\tSepsis\tM1\t\tN\tN\tN\tNON\n"
check "a term without a word" ":2: term '--' has no words" "$Hd\nD018805\tSepsis\tM1\t--\tN\tN\tN\tNON\n"
check "bad flag" ":2: IsPermutedTermYN must be Y or N, not 'yes'" \
    "$Hd\nD018805\tSepsis\tM1\tBlood Poisoning\tN\tN\tyes\tNON\n"
check "bad descriptor id" ":2: malformed DescriptorUI 'M018805'" \
    "$Hd\nM018805\tSepsis\tM1\tBlood Poisoning\tN\tN\tN\tNON\n"
check "another MeSH version" ":2: descriptor D018805 is 'Sepsis' in $tree, not 'Septicemia' (another MeSH version?)" \
    "$Hd\nD018805\tSepticemia\tM1\tBlood Poisoning\tN\tN\tN\tNON\n"
check "invalid UTF-8" ":2: invalid UTF-8" "$Hd\nD018805\tSepsis\tM1\tBlood \377\tN\tN\tN\tNON\n"

what="BOM, CRLF and unknown descriptors"
printf '\357\273\277%s\r\nD018805\tSepsis\tM1\tBlood Poisoning\tN\tN\tN\tNON\r\nD999999\tNowhere\tM2\tNowhere\tY\tY\tN\tNON\r\nD999999\tNowhere\tM2\tElsewhere\tN\tN\tN\tNON\r\n' "$Hd" >"$tmp/terms.tsv"
run tells-concepts --mesh "$tree" --terms "$tmp/terms.tsv" -T "$tmp/text"
expect 0 ""
expect_out_text "id	field	start	end	text	descriptor	name	tree_numbers
1	text	0	1	sepsis	D018805	Sepsis	C01.539.757
1	text	2	4	blood poisoning	D018805	Sepsis	C01.539.757"
run tells-concepts --mesh "$tree" --terms "$tmp/terms.tsv" --stats
expect 0 ""
[ "$(grep unknown "$tmp/out" | tr '\n' ' ')" = "unknown_rows	2 unknown_descriptors	1 " ] ||
    fail "$what: $(cat "$tmp/out")"

what="bad input text"
printf 'ok\nbad \377\n' >"$tmp/bad.txt"
run tells-concepts -T -o "$tmp/keep.tsv" "$tmp/bad.txt"
expect 1 "tells-concepts: $tmp/bad.txt:2: invalid UTF-8"
[ "$(cat "$tmp/keep.tsv")" = "old links" ] || fail "$what: output changed"
run tells-concepts -T /dev/null
expect 1 "tells-concepts: /dev/null: no examples in the input"
# Blank lines are no examples: input of them only is as empty as /dev/null.
what="blank lines only"
printf '\n  \n\t\n' >"$tmp/blank.txt"
run tells-concepts -T -o "$tmp/keep.tsv" "$tmp/blank.txt"
expect 1 "tells-concepts: $tmp/blank.txt: no examples in the input"
[ "$(cat "$tmp/keep.tsv")" = "old links" ] || fail "$what: output changed"
run tells-concepts -T <"$tmp/blank.txt"
expect 1 "tells-concepts: stdin: no examples in the input"
printf 'id\tsplit\tlabel\tpremise\n' >"$tmp/p.tsv"
run tells-concepts "$tmp/p.tsv"
expect 1 "$(tells-heur "$tmp/p.tsv" 2>&1 | sed 's/^tells-heur:/tells-concepts:/')"
run tells-concepts --mesh "$tmp/none.txt" -T "$tmp/text"
expect 1 "tells-concepts: $tmp/none.txt: cannot open: No such file or directory"
what="no data folder"
mkdir "$tmp/empty"
run env TELLS_DATA="$tmp/empty" tells-concepts -T "$tmp/text"
expect 1 "tells-concepts: $tmp/empty/mesh/mtrees2024.txt: cannot open: no such file (install tells, set TELLS_DATA to the corpora folder of its source tree, or name the file)"
# stdin is read once: '-' twice is a usage error, not an empty second input.
what="stdin twice"
run tells-concepts -T -o "$tmp/keep.tsv" - - <"$tmp/text"
expect 2 "tells-concepts: stdin: already read for another input ('-' can stand for one input only)
Try 'tells-concepts --help' for more information."
[ "$(cat "$tmp/keep.tsv")" = "old links" ] || fail "$what: output changed"
finish
