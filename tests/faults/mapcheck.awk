# Read a ddrescue mapfile written by cdtail image and print one line:
#   OK SIZE_BYTES BAD        (BAD: the "-" runs as JSON block ranges)
#   ERR reason
# -v bs=BLOCK_SIZE.  Checks what the tests rely on: the status line, runs
# in whole blocks that start at 0 and follow each other without a gap or an
# overlap.  -v final=1 also wants every run finished (+ or -).
# Hex without strtonum, so it runs on mawk.
function hex(s,   i, v, c) {
	s = tolower(s)
	if (s !~ /^0x[0-9a-f]+$/)
		return -1
	v = 0
	for (i = 3; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1)) - 1
		v = v * 16 + c
	}
	return v
}
function fail(msg) {
	if (!err)
		err = msg
}
/^#/ || /^[ \t]*$/ { next }
{
	if (!seen_status) {
		seen_status = 1
		if (NF < 2 || hex($1) < 0)
			fail("bad status line: " $0)
		next
	}
	if (NF != 3) {
		fail("bad line: " $0)
		next
	}
	p = hex($1)
	s = hex($2)
	if (p < 0 || s <= 0 || $3 !~ /^[?*\/+-]$/) {
		fail("bad line: " $0)
		next
	}
	if (p != pos)
		fail("run at " p " but the previous ended at " pos)
	if (p % bs || s % bs)
		fail("run " $1 " " $2 " not in whole blocks")
	if (final && $3 != "+" && $3 != "-")
		fail("unfinished run: " $0)
	if ($3 == "-") {
		a = p / bs
		z = (p + s) / bs - 1
		if (nbad && a == bz[nbad] + 1)
			bz[nbad] = z
		else {
			nbad++
			ba[nbad] = a
			bz[nbad] = z
		}
	}
	pos = p + s
}
END {
	if (!seen_status)
		fail("no status line")
	if (err) {
		print "ERR " err
		exit
	}
	out = ""
	for (i = 1; i <= nbad; i++)
		out = out (i > 1 ? "," : "") "[" ba[i] "," bz[i] "]"
	print "OK " pos " [" out "]"
}
