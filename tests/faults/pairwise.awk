# Deterministic all-pairs table.  -v levels="3 2 2 ..." gives the number of
# values of each factor; prints one row per line, the value index of each
# factor separated by spaces.  Greedy: each row starts from the first pair
# not yet covered (in a fixed order) and fills the other factors, in order,
# with the value that covers most new pairs (ties: rotate with the row
# number, so values are spread).  No randomness, no dependence on awk's
# array order: the same table on mawk, gawk and busybox awk.
BEGIN {
	np = split(levels, L, " ")
	left = 0
	for (i = 1; i <= np; i++)
		for (j = i + 1; j <= np; j++)
			for (a = 0; a < L[i]; a++)
				for (b = 0; b < L[j]; b++) {
					U[i, j, a, b] = 1
					left++
				}
	rows = 0
	while (left > 0) {
		found = 0
		for (i = 1; i <= np && !found; i++)
			for (j = i + 1; j <= np && !found; j++)
				for (a = 0; a < L[i] && !found; a++)
					for (b = 0; b < L[j] && !found; b++)
						if (U[i, j, a, b] == 1) {
							si = i; sj = j; sa = a; sb = b; found = 1
						}
		for (k = 1; k <= np; k++)
			S[k] = 0
		R[si] = sa; S[si] = 1
		R[sj] = sb; S[sj] = 1
		for (k = 1; k <= np; k++) {
			if (S[k])
				continue
			best = -1
			for (o = 0; o < L[k]; o++) {
				v = (o + rows) % L[k]
				g = 0
				for (m = 1; m <= np; m++) {
					if (!S[m])
						continue
					if (m < k)
						g += (U[m, k, R[m], v] == 1)
					else
						g += (U[k, m, v, R[m]] == 1)
				}
				if (g > best) {
					best = g
					bv = v
				}
			}
			R[k] = bv
			S[k] = 1
		}
		for (i = 1; i <= np; i++)
			for (j = i + 1; j <= np; j++)
				if (U[i, j, R[i], R[j]] == 1) {
					U[i, j, R[i], R[j]] = 0
					left--
				}
		rows++
		line = R[1]
		for (k = 2; k <= np; k++)
			line = line " " R[k]
		print line
	}
}
