# SPDX-License-Identifier: MIT
# tests/doc-blocks.sh: the examples of the documentation, for the tests
# that run them as written; sourced after init.sh.  An example is the
# fenced code block that follows a line `<!-- test: NAME -->` in a
# Markdown file of doc/.  POSIX sh.

# doc_block DOC NAME: print the block marked NAME in doc/DOC.
doc_block()
{
	awk -v mark="<!-- test: $2 -->" '
		$0 == mark { armed = 1; next }
		armed && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }' "$TESTS_SRCDIR/../doc/$1"
}

# doc_extract DOC NAME [FILE]: write the block marked NAME in doc/DOC to
# FILE (default: NAME in the current directory); the test bails out
# when the documentation has no such block.
doc_extract()
{
	doc_block "$1" "$2" >"${3:-$2}"
	[ -s "${3:-$2}" ] || bail_out "doc/$1 has no example marked '$2'"
}

# doc_tpmon_on_path: the examples call `tpmon` by name: put the tpmon
# under test first on PATH ($tmp/bin/tpmon, which runs it under
# $TPMON_WRAPPER when there is one).  Exported: jobs inherit it.
doc_tpmon_on_path()
{
	mkdir -p "$tmp/bin" || bail_out "mkdir $tmp/bin"
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$TPMON_WRAPPER" "$TPMON" >"$tmp/bin/tpmon" &&
		chmod +x "$tmp/bin/tpmon" || bail_out "cannot write $tmp/bin/tpmon"
	PATH=$tmp/bin:$PATH
	export PATH
}
