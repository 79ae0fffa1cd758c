# One tool's run over a damaged disc, from its trace (the emulated drive's
# trace= lines, or bench/ddshim.c's in the same format):
#   OPCODE lba=L blocks=N sense=KK/AA/QQ
# Virtual time is summed with the emulated drive's cost model (cdtail(1),
# cost=OK_US/FAIL_MS): a good command 1 ms + OK_US us per block a READ moved,
# a failing READ FAIL_MS, any other failing command 1 ms.
# -v n=BLOCKS (the disc), ok_us, fail_ms, recoverable=BLOCKS (not bad for
# good; flaky blocks count as recoverable).
# Prints: total_ms reads failed_reads recovered t99 t99.9 t100 (ms, or
# "never" when that share was not reached).
function isread(op) { return op == "28" || op == "a8" }
{
	op = $1
	lba = $2; sub(/^lba=/, "", lba); lba += 0
	nb = $3; sub(/^blocks=/, "", nb); nb += 0
	sense = $4; sub(/^sense=/, "", sense)
	good = sense == "00/00/00"
	if (!isread(op)) {
		t += good ? 1 : 1
		next
	}
	reads++
	if (!good) {
		fails++
		t += fail_ms
		next
	}
	t += 1 + ok_us * nb / 1000
	for (b = lba; b < lba + nb && b < n; b++) {
		if (!(b in got)) {
			got[b] = 1
			have++
			for (i = 1; i <= 3; i++)
				if (!(i in at) && have >= need[i])
					at[i] = t
		}
	}
}
BEGIN {
	need[1] = int(recoverable * 0.99 + 0.999999)
	need[2] = int(recoverable * 0.999 + 0.999999)
	need[3] = recoverable
}
END {
	printf "%.1f %d %d %d", t, reads, fails, have
	for (i = 1; i <= 3; i++)
		if (i in at)
			printf " %.1f", at[i]
		else
			printf " never"
	printf "\n"
}
