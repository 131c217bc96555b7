# SPDX-License-Identifier: MIT
# exact-or-named.sh: exact_or_named FIELD TRUTH WHAT: a count of the last
# run's summary is exactly TRUTH, or, where the summary names it in
# lower_bounds (the kernel dropped process events, outside ptrace), at
# most TRUTH and more than 0.  One test point either way.

exact_or_named()
{
	if "$JQ" -e --arg f "$1" '.lower_bounds | index([$f])' "$summary" >/dev/null 2>&1; then
		diag "$3: $1 is a named lower bound: $(field "$1") of $2"
		in_range "$(field "$1")" 1 "$2" "$3: $1, a named lower bound, at most $2"
	else
		is "$(field "$1")" "$2" "$3: $1 is exactly $2"
	fi
}
