# bash completion for benchrack: commands, each command's options (read from
# its --help, so they never fall behind), and board, suite and rack names
# (from the installed share/benchrack/configs beside the benchrack found on
# PATH, and ./configs of a source tree).

_benchrack_configs_files()
{
	# $1: boards, suites or racks. Prints the YAML files there: the installed
	# ones beside the benchrack on PATH, and a source tree's ./configs.
	local exe dir f
	exe=$(command -v benchrack 2>/dev/null)
	for dir in "${exe%/*}/../share/benchrack/configs/$1" "configs/$1"; do
		[[ -d $dir ]] || continue
		for f in "$dir"/*.yaml; do
			[[ -e $f ]] && printf '%s\n' "$f"
		done
	done
}

_benchrack_configs_names()
{
	# $1: boards, suites or racks. Prints their names (file names less .yaml).
	local f
	_benchrack_configs_files "$1" | while read -r f; do
		f=${f##*/}
		printf '%s\n' "${f%.yaml}"
	done
}

_benchrack_options()
{
	# $1: a command. Prints the long and short options its --help lists.
	benchrack "$1" --help 2>/dev/null | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' |
		tr -d ' ,' | sort -u
}

_benchrack()
{
	local cur prev cmd i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=""
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} != -* ]]; then
			cmd=${COMP_WORDS[i]}
			break
		fi
	done
	if [[ -z $cmd ]]; then
		local commands
		commands=$(benchrack --help 2>/dev/null | sed -nE 's/^  ([a-z]+)( .*)?$/\1/p' |
			grep -vx benchrack)
		COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
		return
	fi
	case $prev in
	-b | --board)
		COMPREPLY=($(compgen -W "$(_benchrack_configs_names boards)" -- "$cur"))
		[[ ${#COMPREPLY[@]} -eq 0 ]] && COMPREPLY=($(compgen -f -X '!*.yaml' -- "$cur"))
		return
		;;
	--firmware | --bench-elf | --empty-elf | --kernel | --json | --output | -o | \
		--baseline | --upload-config | --document | --results-dir | --lock-dir | --qemu)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_benchrack_options "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	run | check)
		# a suite (name or file) or an ELF
		COMPREPLY=($(compgen -W "$(_benchrack_configs_files suites)" -- "$cur")
			$(compgen -f -X '!*.@(yaml|elf)' -- "$cur"))
		;;
	rack)
		COMPREPLY=($(compgen -W "$(_benchrack_configs_files racks)" -- "$cur")
			$(compgen -f -X '!*.yaml' -- "$cur"))
		;;
	*)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
}

complete -o filenames -F _benchrack benchrack
