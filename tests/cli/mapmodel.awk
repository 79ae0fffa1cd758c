# mapmodel.awk -v cols=N -v rows=R MAPFILE: the grid `cdtail map --color
# never` must draw, from the contract alone, for a map whose runs are whole
# 2048-byte blocks: at most cols x rows cells of ceil(blocks / (cols x rows))
# blocks each; a cell shows the worst status of its blocks in the order
# + . ? * / - ('.' for the blocks cdtail's "# cdtail skipped ...: LBA+N WHY,
# ..." comment names, whatever the runs say); cols cells a line, after two spaces.
function worst(a, b) { return index(order, a) > index(order, b) ? a : b }
function num(s,   v, i) {
	if (s !~ /^0[xX]/) return s + 0
	v = 0
	for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
	return v
}
BEGIN { order = "+.?*/-"; bs = 2048; seen = 0; ns = 0 }
/^# cdtail skipped .*: / {
	# "LBA+BLOCKS WHY, LBA+BLOCKS WHY"
	line = $0; sub(/^[^:]*: */, "", line)
	k = split(line, item, /, */)
	for (i = 1; i <= k; i++) { split(item[i], w, /[+ ]/); sp[ns] = w[1] + 0; ss[ns++] = w[2] + 0 }
	next
}
/^#/ || NF == 0 { next }
!seen { seen = 1; next }
num($1) + num($2) > 1e9 { print "mapmodel: map too large for the model" >"/dev/stderr"; big = 1; exit 1 }
{ for (b = num($1) / bs; b < (num($1) + num($2)) / bs; b++) st[b] = $3; blocks = b }
END {
	if (big) exit 1
	for (k = 0; k < ns; k++)
		for (b = sp[k]; b < sp[k] + ss[k] && b < blocks; b++) st[b] = "."
	max = cols * rows
	bpc = int((blocks + max - 1) / max); if (bpc < 1) bpc = 1
	line = ""; c = 0
	for (s = 0; s < blocks; s += bpc) {
		r = "+"
		for (b = s; b < s + bpc && b < blocks; b++) r = worst(r, st[b])
		line = line r; c++
		if (c % cols == 0 || s + bpc >= blocks) { print "  " line; line = "" }
	}
}
