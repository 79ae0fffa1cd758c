#!/bin/sh
# Bash completion (scripts/cdtail-completion.bash, installed by make install):
# each case types a command line into bash's completion function, as bash
# does at TAB, and checks the words it offers.
. "$(dirname "$0")/lib.sh"
COMP="$ROOT/scripts/cdtail-completion.bash"
mkdir -p "$T/bin" "$T/work"
ln -s "$CDTAIL" "$T/bin/cdtail"
: >"$T/work/disc.img"
: >"$T/work/disc.map"

# complete LINE: the words bash would offer at the end of LINE, one a line
complete_line() {
	(cd "$T/work" && PATH="$T/bin:$PATH" bash -c '
		. "$1"
		COMP_LINE=$2
		COMP_POINT=${#2}
		COMP_WORDBREAKS=" \"'"'"'><=;|&(:"
		_cdtail
		printf "%s\n" "${COMPREPLY[@]}" | sort -u' sh "$COMP" "$1")
}

# offers NAME LINE WORD...: every WORD is among LINE's completions
offers() {
	name=$1 line=$2
	shift 2
	got=$(complete_line "$line")
	for w in "$@"; do
		if ! printf '%s\n' "$got" | grep -qxF -- "$w"; then
			not_ok "$name" "'$line' offered: $(echo $got)" "wanted $w among them"
			return
		fi
	done
	ok "$name"
}

# offers_only NAME LINE WORDS: LINE's completions are exactly WORDS
offers_only() {
	got=$(complete_line "$2" | tr '\n' ' ')
	if [ "$got" = "$3 " ]; then ok "$1"; else
		not_ok "$1" "'$2' offered '$got'" "wanted '$3 '"; fi
}

if ! command -v bash >/dev/null 2>&1; then not_ok "bash is installed"; finish; exit; fi
offers "the commands" "cdtail " probe image tail verify hazards map help
offers_only "a command's prefix" "cdtail im" "image"
offers_only "help's command" "cdtail help ver" "verify"
offers_only "options before a command" "cdtail --v" "--version"
offers_only "image's --m options" "cdtail image --m" "--map --map-interval --max-extra"
offers "verify's digest options" "cdtail verify --" --sha256 --md5 --image --all --json
offers "hazards' options" "cdtail hazards --" --sysfs --no-mode-sense
offers_only "an abbreviation is not offered twice" "cdtail probe --al" "--all"
offers_only "--digest's values" "cdtail image --digest " "md5 md5,sha256 none sha256"
offers_only "--formatted's values" "cdtail verify --formatted " "cut read skip"
offers_only "--cue-paths' values (issue 32)" "cdtail verify --cue-paths " "any inside"
offers_only "verify's --cue options" "cdtail verify --cue" "--cue --cue-paths"
offers_only "--color's values" "cdtail map --color a" "always auto"
offers "a file argument" "cdtail image --map d" disc.img disc.map
offers_only "a sim: image, after the colon" "cdtail probe sim:d" "disc.img disc.map"
offers_only "a sim: image, options after it" "cdtail probe -q sim:disc.i" "disc.img"
offers "the device word" "cdtail probe " sim: iscsi:// disc.img
# every optical node the host has, and no other /dev node
want=$( (ls -d /dev/sr[0-9]* /dev/sg[0-9]* 2>/dev/null) | sort -u | tr '\n' ' ')
got=$(complete_line "cdtail probe /dev/s" | grep -E '^/dev/s[rg][0-9]' | tr '\n' ' ')
if [ "$got" = "$want" ]; then ok "the optical nodes: '$want'"; else
	not_ok "the optical nodes" "offered '$got'" "wanted '$want'"; fi
# the options come from the binary: each option of every command's --help
for c in probe image tail verify hazards map; do
	want=$("$CDTAIL" "$c" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9-]+' | sed 's/.*--/--/' | sort -u | tr '\n' ' ')
	got=$(complete_line "cdtail $c --" | tr '\n' ' ')
	if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "$c: every option of its --help"; else
		not_ok "$c: every option of its --help" "offered '$got'" "wanted '$want'"; fi
done
finish
