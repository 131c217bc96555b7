# SPDX-License-Identifier: MIT
# tests/shcalls.awk: the words shell scripts run as commands, and the
# functions they define, for structure.test's lint of the tests.  Prints
# "call WORD FILE:LINE" for a word in a command's place (a line's start,
# after ; & | ( { ` and $( and the keywords that begin a command) and
# "def WORD FILE" for "WORD()".  Quoted text and here-documents are
# skipped (but not $(...) inside double quotes), so an awk program or a
# file's text written by a test is not taken for commands; case patterns
# ("a|b)"), assignments (X=1 cmd), redirections' targets and continued
# lines are not commands.  Shell syntax is not parsed in full: this finds
# the calls a test makes by name.

function flush_word(next_c) {
	if (word == "")
		return
	if (next_c == " " || next_c == "\t") {	# "a | b)": the next one that is not blank
		rest = substr(line, i)
		sub(/^[ \t]+/, "", rest)
		if (rest ~ /^[|)]/ && rest !~ /^\|\|/)
			next_c = substr(rest, 1, 1)
	}
	if (next_c == "(" && substr(line, i + 1, 1) == ")")
		print "def", word, FILENAME
	else if (redir)
		redir = 0
	else if (cmdpos && word ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && next_c != ")" && next_c != "|") {
		if (word ~ /^(if|then|else|elif|while|until|do|time)$/) {
			word = ""
			return
		}
		if (word !~ /^(fi|done|esac|in|case|for|function)$/)
			print "call", word, FILENAME ":" FNR
		cmdpos = 0
	} else if (!(cmdpos && word ~ /^[A-Za-z_][A-Za-z0-9_]*=/))
		cmdpos = 0	# (after an assignment, the command follows)
	word = ""
}

# one character C at i outside quotes
function plain(c) {
	if (c == "\\") {
		i++
		return
	}
	if (c == "'" || c == "\"") {
		flush_word(c)
		quote = c
		cmdpos = 0
		return
	}
	if (c == "#" && word == "") {
		i = n
		return
	}
	if (c == "{" && word ~ /\$$/ || substr(line, i, 3) == "$((") {
		# ${...} and $((...)): no command inside
		close_c = c == "{" ? "}" : "))"
		j = index(substr(line, i), close_c)
		i = j ? i + j + length(close_c) - 2 : n
		word = word "x"
		return
	}
	if (c == "$" && substr(line, i + 1, 1) == "(") {
		flush_word(c)
		stack = stack "n"
		depth[length(stack)] = 0
		i++
		cmdpos = 1
		return
	}
	if (c == "<" && substr(line, i, 2) == "<<") {
		flush_word(c)
		rest = substr(line, i + 2)
		sub(/^-?[ \t]*/, "", rest)
		if (match(rest, /^['"]?[A-Za-z_][A-Za-z0-9_]*/)) {
			heredoc = substr(rest, RSTART, RLENGTH)
			gsub(/['"]/, "", heredoc)
		}
		i++
		cmdpos = 0
		return
	}
	if (c ~ /[A-Za-z0-9_=!.\/$:@%+,*?\[\]~^-]/) {
		word = word c
		return
	}
	flush_word(c)
	if (c == "(" && stack != "")
		depth[length(stack)]++
	if (c == ")" && stack != "" && depth[length(stack)]-- == 0) {
		quote = substr(stack, length(stack)) == "d" ? "\"" : ""
		stack = substr(stack, 1, length(stack) - 1)
		return
	}
	if (c == ">" || c == "<")
		redir = 1
	if (c == ";" || c == "&" || c == "|" || c == "{" || c == "(" || c == "`")
		cmdpos = 1
}

FNR == 1 {
	heredoc = quote = stack = ""
	cont = 0
}

{
	line = $0
	if (heredoc != "") {
		t = line
		sub(/^\t*/, "", t)
		if (t == heredoc)
			heredoc = ""
		next
	}
	if (quote == "" && !cont)
		cmdpos = 1
	word = ""
	redir = 0
	n = length(line)
	for (i = 1; i <= n; i++) {
		c = substr(line, i, 1)
		if (quote == "'") {
			if (c == "'")
				quote = ""
		} else if (quote == "\"") {
			if (c == "\\")
				i++
			else if (c == "\"")
				quote = ""
			else if (c == "$" && substr(line, i + 1, 1) == "(" && substr(line, i + 2, 1) != "(") {
				stack = stack "d"
				depth[length(stack)] = 0
				quote = ""
				i++
				cmdpos = 1
			}
		} else
			plain(c)
	}
	cont = quote == "" && line ~ /\\$/
	if (quote == "")
		flush_word("")
}
