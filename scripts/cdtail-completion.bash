# bash completion for cdtail                              -*- shell-script -*-
# Installed as share/bash-completion/completions/cdtail (make install).
#
# The commands and each command's options are read from the installed
# cdtail itself (`cdtail --help`, `cdtail COMMAND --help`), so the completion
# never lists an option the binary does not have.  An option whose help line
# names an argument (--map MAPFILE) takes the next word: files for file
# arguments, the listed words for the few with fixed values.  Device
# arguments are the optical nodes /dev/sr* and /dev/sg*, "sim:" and
# "iscsi://", or files.

# _cdtail_commands: the command words of `cdtail --help`
_cdtail_commands()
{
	"${1:-cdtail}" --help 2>/dev/null |
		sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'
	echo help
}

# _cdtail_opts CDTAIL COMMAND: "--opt ARG" or "--opt" per line, from --help
_cdtail_opts()
{
	"$1" "$2" --help 2>/dev/null |
		sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z0-9-]*\)\( [A-Z][A-Z]*\)\{0,1\} .*/\2\3/p'
}

_cdtail_devices()
{
	local cur=$1 nodes
	nodes=$(compgen -G '/dev/sr[0-9]*'; compgen -G '/dev/sg[0-9]*')
	COMPREPLY+=($(compgen -W "$nodes sim: iscsi://" -- "$cur"))
	COMPREPLY+=($(compgen -f -- "$cur"))
}

# _cdtail_sim_image CUR: after "sim:", the image files
_cdtail_sim_image()
{
	local f
	while IFS= read -r f; do
		COMPREPLY+=("sim:$f")
	done < <(compgen -f -- "${1#sim:}")
}

# The words are taken from COMP_LINE, split at blanks only: bash splits
# COMP_WORDS at ':' too (COMP_WORDBREAKS), which would cut sim:IMAGE and
# iscsi://HOST in pieces; the replies lose the part before the cursor word's
# last ':' again below, as bash inserts them after it.
_cdtail()
{
	local line=${COMP_LINE:0:COMP_POINT} words cur prev bin cmd= i w opts arg n
	read -r -a words <<<"$line"
	if [[ $line == *[[:blank:]] || ${#words[@]} -eq 0 ]]; then
		words+=("")
	fi
	n=$((${#words[@]} - 1))
	cur=${words[n]}
	prev=${words[n - 1]:-}
	bin=${words[0]}
	COMPREPLY=()
	for ((i = 1; i < n; i++)); do
		w=${words[i]}
		case $w in -*) ;; *) cmd=$w; break ;; esac
	done
	_cdtail_body
	if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
		local pre=${cur%"${cur##*:}"}
		COMPREPLY=("${COMPREPLY[@]#"$pre"}")
	fi
}

# _cdtail_body: fills COMPREPLY from _cdtail's words, cur, prev, bin, cmd, i, n
_cdtail_body()
{
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_cdtail_commands "$bin")" -- "$cur"))
		fi
		return
	fi
	if [[ $cmd == help ]]; then
		[[ $n -eq $((i + 1)) ]] &&
			COMPREPLY=($(compgen -W "$(_cdtail_commands "$bin")" -- "$cur"))
		return
	fi
	opts=$(_cdtail_opts "$bin" "$cmd")
	# the argument of the option before the cursor
	arg=$(printf '%s\n' "$opts" | sed -n "s/^${prev} \([A-Z]*\)$/\1/p")
	if [[ $prev == --* && -n $arg ]]; then
		case $prev:$arg in
		--digest:*) COMPREPLY=($(compgen -W 'md5,sha256 sha256 md5 none' -- "$cur")) ;;
		--formatted:*) COMPREPLY=($(compgen -W 'skip cut read' -- "$cur")) ;;
		--cue-paths:*) COMPREPLY=($(compgen -W 'inside any' -- "$cur")) ;;
		--color:*) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")) ;;
		*:FILE | *:MAPFILE | *:ROOT | *:IMAGE) COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "$opts" | cut -d' ' -f1)" -- "$cur"))
		return
	fi
	case $cur in
	sim:*) _cdtail_sim_image "$cur" ;;
	*) _cdtail_devices "$cur" ;;
	esac
}
complete -o filenames -F _cdtail cdtail
