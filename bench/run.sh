#!/bin/bash
# make bench: the cdtail benchmark.  Prints one report (Markdown tables) on
# stdout; bench/README.md says how to read it.  Never fails on a timing: the
# exit status is 0 unless the bench itself could not run.
#
#   CDTAIL=./cdtail REFSTRAT=build/bench/refstrat bash bench/run.sh
#
# Environment:
#   CDTAIL        the cdtail binary (default ./cdtail)
#   REFSTRAT      the reference-strategy driver built from bench/refstrat.c
#   BENCH_TMP     where scratch images go (default /tmp); all removed at exit
#   BENCH_PARTS   which parts to run, default "a b c d e f g h i"
#   BENCH_RAW_MB  the raw image of part f in MiB of 2352-byte sectors (default 200)
#   DDSHIM        the LD_PRELOAD shim built from bench/ddshim.c (part e)
#   BENCH_BIG_MB  the throughput image in MiB (default 700)
set -u

CDTAIL=${CDTAIL:-./cdtail}
REFSTRAT=${REFSTRAT:-build/bench/refstrat}
BENCH_PARTS=${BENCH_PARTS:-a b c d e f g h i}
DDSHIM=${DDSHIM:-build/bench/ddshim.so}
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
BENCH_BIG_MB=${BENCH_BIG_MB:-700}
BS=2048

die() {
	echo "bench: $*" >&2
	exit 2
}

for t in "$CDTAIL" "$REFSTRAT"; do
	[ -x "$t" ] || die "$t is not built (run make bench)"
done

TMP=$(mktemp -d "${BENCH_TMP:-/tmp}/cdtail-bench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

# Private copies: a rebuild of the work tree during the run must not swap
# the binaries under the bench.
cp "$CDTAIL" "$TMP/cdtail" && cp "$REFSTRAT" "$TMP/refstrat" || die "cannot copy the binaries"
CDTAIL=$TMP/cdtail
REFSTRAT=$TMP/refstrat
if [ -f "$DDSHIM" ]; then
	cp "$DDSHIM" "$TMP/ddshim.so" && DDSHIM=$TMP/ddshim.so
fi

has_part() {
	case " $BENCH_PARTS " in *" $1 "*) return 0 ;; esac
	return 1
}

# Is `cdtail image` implemented?  The placeholder refuses every call.
image_ready() {
	local img=$TMP/probe-image.img
	"$REFSTRAT" mkimg "$img" 64 || return 1
	"$CDTAIL" image "sim:$img,cost=0/0" "$TMP/probe-image.out" >/dev/null 2>"$TMP/probe-image.err"
	local rc=$?
	rm -f "$img" "$TMP/probe-image.out" "$TMP/probe-image.out".*
	[ "$rc" -eq 0 ]
}

# random bytes, fast: N MiB into FILE
make_random() {
	head -c $(($1 * 1048576)) /dev/urandom >"$2"
}

now_ns() {
	date +%s%N
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "# cdtail bench"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores, ${cpu:-unknown CPU};" \
	"cdtail $("$CDTAIL" --version 2>/dev/null | head -n 1 | sed 's/^cdtail //')" \
	"($(git rev-parse --short HEAD 2>/dev/null || echo 'no git'))." \
	"One run on a shared machine."
echo

IMAGE_OK=0
if image_ready; then
	IMAGE_OK=1
else
	echo "Note: \`cdtail image\` is not implemented in this build" \
		"($(head -n 1 "$TMP/probe-image.err")): its columns say n/a."
	echo
fi

# ---- a. end search -----------------------------------------------------------

part_a() {
	local n=40000 cost fs info k img addr j r rc
	local c_r c_f c_ms c_end
	local cost_list="50/8000 50/1000 50/1" k_list="0 1 2 7 150 512 513 1000 3000 7000 8191 12000 16384"

	: >"$TMP/miss"
	"$REFSTRAT" mkimg "$TMP/plain.img" $n || die "mkimg failed"
	"$REFSTRAT" mkimg "$TMP/iso.img" $n iso || die "mkimg failed"

	echo "## a. End search: reads / failed reads / virtual ms"
	echo
	echo "Disc of $n blocks of $BS bytes; the drive hides the last k; cdtail probe" \
		"--max-extra 20000 (so that k = 16384 lies inside the window). fs: an ISO 9660" \
		"volume descriptor declares the true size. info: failing reads name the" \
		"first unreadable LBA. knows-cost = the cheaper of linear and the least" \
		"any two-failure search pays (2 failures + the good read of e-1): the" \
		"best a search that knew the failure cost could do. Targets (issue 13):" \
		"failures of 1 s or more: 1 failed read for k <= 512, at most 2 beyond," \
		"cdtail <= 2.0 x knows-cost; 50/1: <= 1000 ms; a right size source (fs)" \
		"or INFORMATION: 1 failed read."
	echo
	echo "| cost | fs | info | k | cdtail | linear | gallop | oracle | knows-cost ms | cdtail/knows-cost | targets |"
	echo "|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|"
	for cost in $cost_list; do
		for fs in no yes; do
			for info in 0 1; do
				for k in $k_list; do
					if [ $fs = yes ]; then img=$TMP/iso.img; else img=$TMP/plain.img; fi
					addr="sim:$img,hide=$k,cost=$cost"
					[ $info = 1 ] && addr="$addr,info=1"
					j=$TMP/probe.json
					"$CDTAIL" probe --json --max-extra 20000 "$addr" >"$j" 2>"$TMP/probe.err"
					rc=$?
					if [ $rc -ne 0 ] && [ $rc -ne 10 ]; then
						echo "| $cost | $fs | $info | $k | probe failed (exit $rc: $(head -n 1 "$TMP/probe.err")) | | | | | | |"
						continue
					fi
					read -r c_r c_f c_ms c_end <<<"$("$REFSTRAT" jget "$j" reads failed_reads virtual_ms true_blocks | tr '\n' ' ')"
					r=$("$REFSTRAT" run "$addr" $n 2>"$TMP/ref.err")
					rc=$?
					if [ $rc -ne 0 ]; then
						echo "| $cost | $fs | $info | $k | reference failed: $(head -n 1 "$TMP/ref.err") | | | | | | |"
						continue
					fi
					awk -v cost="$cost" -v fs="$fs" -v info="$info" -v k="$k" \
						-v cr="$c_r" -v cf="$c_f" -v cms="$c_ms" -v cend="$c_end" -v n=$n \
						-v missf="$TMP/miss" '
					function miss(what) { print what >> missf; return " MISS" }
					{ rr[$1] = $2; rf[$1] = $3; rms[$1] = $4 }
					END {
						split(cost, c, "/")
						fail = c[2] + 0
						good = 1 + c[1] / 1000
						two = 2 * fail + good
						best = rms["linear"] < two ? rms["linear"] : two
						t = ""
						if (cend != n)
							t = "WRONG END " cend "; " miss("end")
						ratio = cms / best
						if (fail >= 1000) {
							if (k <= 512)
								t = t "1 fail" (cf == 1 ? " ok" : miss("fail1"))
							else
								t = t "<= 2 fails" (cf <= 2 ? " ok" : miss("fail2"))
							t = t "; 2.0x" (ratio <= 2.0 + 1e-9 ? " ok" : miss("ratio"))
						} else {
							t = t "<= 1000 ms" (cms <= 1000 ? " ok" : miss("fast"))
						}
						if (fs == "yes" || info == 1)
							t = t "; source/info: 1 fail" (cf == 1 ? " ok" : miss("one"))
						printf "| %s | %s | %s | %s | %s/%s/%.1f | %s/%s/%.1f | %s/%s/%.1f | %s/%s/%.1f | %.1f | %.3f | %s |\n",
							cost, fs, info, k, cr, cf, cms,
							rr["linear"], rf["linear"], rms["linear"],
							rr["gallop"], rf["gallop"], rms["gallop"],
							rr["oracle"], rf["oracle"], rms["oracle"],
							best, ratio, t
					}' <<<"$r"
				done
			done
		done
	done
	echo
	echo "Misses: one failure for k <= 512 (slow): $(grep -c '^fail1' "$TMP/miss");" \
		"more than 2 failures (slow): $(grep -c '^fail2' "$TMP/miss");" \
		"over 2.0 x knows-cost (slow): $(grep -c '^ratio' "$TMP/miss");" \
		"over 1000 ms (fast): $(grep -c '^fast' "$TMP/miss");" \
		"not 1 failure with fs or INFORMATION: $(grep -c '^one' "$TMP/miss");" \
		"wrong end: $(grep -c '^end' "$TMP/miss")."
	echo
	rm -f "$TMP/plain.img" "$TMP/iso.img" "$TMP/miss"
}

# ---- b. blocks recovered -------------------------------------------------------

# 512-byte blocks of OUT that match the start of REF (0 when OUT is missing)
held_512() {
	local out=$1 ref=$2 size
	[ -f "$out" ] || { echo 0; return; }
	size=$(stat -c %s "$out")
	if cmp -s -n "$size" "$out" "$ref"; then
		echo $((size / 512))
	else
		# first differing byte, counted in whole 512-byte blocks before it
		local at
		at=$(cmp "$out" "$ref" 2>/dev/null | sed -n 's/.* byte \([0-9]*\),.*/\1/p')
		echo $(((${at:-1} - 1) / 512))
	fi
}

part_b() {
	local n=20480 k rep dd_held img=$TMP/disc.img view=$TMP/view.img out held dd_lost c_lost c_true
	local k_list="0 1 2 7 150 3000 16000"

	make_random $((n * BS / 1048576)) "$img" || die "cannot make $img"
	echo "## b. Blocks recovered"
	echo
	echo "Disc of $n blocks of $BS bytes (random data) whose drive hides the last k." \
		"dd reads a plain file cut to the reported length, as the kernel node would" \
		"give it; cdtail image reads sim:. Lost = 512-byte blocks of the disc that" \
		"the image does not hold (cdtail must lose 0)."
	echo
	echo "| k | reported | true | dd holds | dd lost (512 B) | cdtail probe: true end | cdtail image holds | cdtail lost (512 B) |"
	echo "|--:|--:|--:|--:|--:|--:|--:|--:|"
	for k in $k_list; do
		rep=$((n - k))
		head -c $((rep * BS)) "$img" >"$view"
		dd if="$view" of="$TMP/dd.out" bs=64K 2>/dev/null
		held=$(held_512 "$TMP/dd.out" "$img")
		dd_lost=$((n * 4 - held))
		dd_held=$((held / 4))
		rm -f "$view" "$TMP/dd.out"
		"$CDTAIL" probe --json "sim:$img,hide=$k" >"$TMP/p.json" 2>/dev/null
		c_true=$("$REFSTRAT" jget "$TMP/p.json" true_blocks)
		if [ $IMAGE_OK = 1 ]; then
			out=$TMP/cdtail.out
			if "$CDTAIL" image "sim:$img,hide=$k,cost=0/0" "$out" >/dev/null 2>"$TMP/image.err"; then
				held=$(held_512 "$out" "$img")
				c_lost=$((n * 4 - held))
				held="$((held / 4)) blocks"
			else
				held="failed: $(head -n 1 "$TMP/image.err")"
				c_lost=n/a
			fi
			rm -f "$out" "$out".*
		else
			held=n/a
			c_lost=n/a
		fi
		echo "| $k | $rep | $n | $dd_held blocks | $dd_lost | $c_true | $held | $c_lost |"
	done
	echo
	rm -f "$img"
}

# ---- c. imaging throughput -----------------------------------------------------

# run_timed OUT CMD...: best wall time of 3 runs, the peak RSS and the user +
# system CPU seconds (/usr/bin/time -v) of that run; prints
# "NANOSECONDS RSS_KIB CPU_S" or "fail ..."
run_timed() {
	local out=$1 best="" best_rss="" best_cpu="" i t0 t1 ns rss cpu
	shift
	for i in 1 2 3; do
		rm -f "$out" "$out".* "$TMP/map"
		t0=$(now_ns)
		if ! /usr/bin/time -v -o "$TMP/time.txt" "$@" >/dev/null 2>"$TMP/run.err"; then
			echo "fail $(head -n 1 "$TMP/run.err")"
			rm -f "$out" "$out".* "$TMP/map"
			return
		fi
		t1=$(now_ns)
		ns=$((t1 - t0))
		rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$TMP/time.txt")
		cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s + 0 }' "$TMP/time.txt")
		if [ -z "$best" ] || [ $ns -lt $best ]; then
			best=$ns
			best_rss=$rss
			best_cpu=$cpu
		fi
	done
	rm -f "$out" "$out".* "$TMP/map"
	echo "$best $best_rss $best_cpu"
}

part_c() {
	local mib=$BENCH_BIG_MB img=$TMP/big.img out=$TMP/big.out bytes
	local dd_s md5_s res name s rss cpu

	bytes=$((mib * 1048576))
	make_random "$mib" "$img" || die "cannot make $img"
	cat "$img" >/dev/null	# the same warm page cache for every tool
	echo "## c. Imaging throughput"
	echo
	echo "$mib MiB random image in ${BENCH_TMP:-/tmp}, output beside it;" \
		"best wall time of 3 runs; MB = 10^6 bytes; RSS = peak resident set and CPU =" \
		"user + system seconds (/usr/bin/time -v) of that run, per GB (10^9 bytes);" \
		"BD 16x core share = the share of one core that CPU rate takes at a Blu-ray" \
		"16x media rate (72 MB/s). cdtail reads sim:IMAGE,cost=0/0; dd, ddrescue and" \
		"md5sum read the image file. Targets (issue 13): cdtail with its default" \
		"digests >= 0.85 x md5sum (MD5 is serial: one core's MD5 rate is the floor);" \
		"cdtail --digest none >= 0.9 x dd."
	echo
	echo "| tool | MB/s | vs dd | vs md5sum | CPU s/GB | BD 16x core share | peak RSS (MiB) | target |"
	echo "|---|--:|--:|--:|--:|--:|--:|---|"
	set -- $(run_timed "$out" dd if="$img" of="$out" bs=64K)
	dd_s=""
	[ "$1" != fail ] && dd_s=$1
	local dd_r="$*"
	set -- $(run_timed "$out" md5sum "$img")
	md5_s=""
	[ "$1" != fail ] && md5_s=$1
	local md5_r="$*"
	for name in cdtail cdtail-sha256 cdtail-none dd ddrescue md5sum; do
		case $name in
		cdtail*)
			if [ $IMAGE_OK = 0 ]; then
				echo "| $name image | n/a | n/a | n/a | n/a | n/a | n/a | |"
				continue
			fi
			digest=md5,sha256
			[ "$name" = cdtail-sha256 ] && digest=sha256
			[ "$name" = cdtail-none ] && digest=none
			res=$(run_timed "$out" "$CDTAIL" image --digest $digest "sim:$img,cost=0/0" "$out")
			;;
		dd) res=$dd_r ;;
		md5sum) res=$md5_r ;;
		ddrescue) res=$(run_timed "$out" ddrescue -q "$img" "$out" "$TMP/map") ;;
		esac
		set -- $res
		if [ "$1" = fail ]; then
			echo "| $name | failed: ${*:2} | | | | | | |"
			continue
		fi
		s=$1
		rss=$2
		cpu=$3
		awk -v name="$name" -v s="$s" -v d="$dd_s" -v m="$md5_s" -v b=$bytes -v rss="$rss" \
			-v cpu="$cpu" 'BEGIN {
			if (name == "cdtail") label = "cdtail image (MD5 + SHA-256, default)"
			else if (name == "cdtail-sha256") label = "cdtail image --digest sha256"
			else if (name == "cdtail-none") label = "cdtail image --digest none"
			else if (name == "dd") label = "dd bs=64K"
			else if (name == "md5sum") label = "md5sum"
			else label = "ddrescue"
			mbs = b / (s / 1e9) / 1e6
			vd = d == "" ? "n/a" : sprintf("%.2f", d / s)
			vm = m == "" ? "n/a" : sprintf("%.2f", m / s)
			cpg = cpu / (b / 1e9)
			t = ""
			if (name == "cdtail")
				t = ">= 0.85 x md5sum " (m != "" && m / s >= 0.85 ? "ok" : "MISS")
			if (name == "cdtail-none")
				t = ">= 0.9 x dd " (d != "" && d / s >= 0.9 ? "ok" : "MISS")
			printf "| %s | %.0f | %s | %s | %.2f | %.1f %% | %.1f | %s |\n", label, mbs, vd, vm,
				cpg, cpg * 0.072 * 100, rss / 1024, t
		}'
	done
	echo
	rm -f "$img" "$out" "$TMP/map"
}

# ---- d. CPU cost -----------------------------------------------------------------

callgrind_ir() {
	local f=$TMP/cg.out
	rm -f "$f"
	valgrind --tool=callgrind --callgrind-out-file="$f" "$@" >/dev/null 2>"$TMP/cg.err" || return 1
	sed -n 's/^summary: *\([0-9]*\).*/\1/p;s/^totals: *\([0-9]*\).*/\1/p' "$f" | head -n 1
}

# Ir of the last callgrind run spent in libcrypto (self cost), or empty
crypto_ir() {
	command -v callgrind_annotate >/dev/null || return 0
	callgrind_annotate --inclusive=no --threshold=100 "$TMP/cg.out" 2>/dev/null |
		awk '/libcrypto/ { gsub(",", "", $1); s += $1 } END { printf "%.0f\n", s }'
}

part_d() {
	local mib=64 img=$TMP/cpu.img out=$TMP/cpu.out ir crypto md5_ir="" img_ir="" md5only_ir=""

	if ! command -v valgrind >/dev/null; then
		echo "## d. CPU cost: valgrind is not installed, skipped"
		echo
		return
	fi
	make_random $mib "$img" || die "cannot make $img"
	echo "## d. CPU cost"
	echo
	echo "Instructions executed in user space (valgrind --tool=callgrind, Ir) per MiB" \
		"imaged, $mib MiB random image; the kernel's copies are not counted." \
		"Every cdtail row writes its acquisition record (OUT.log, the default)."
	echo
	echo "| tool | instructions per MiB |"
	echo "|---|--:|"
	if [ $IMAGE_OK = 1 ]; then
		rm -f "$out" "$out".*
		if ir=$(callgrind_ir "$CDTAIL" image "sim:$img,cost=0/0" "$out"); then
			img_ir=$ir
			echo "| cdtail image (MD5 + SHA-256, with its record) | $((ir / mib)) |"
			crypto=$(crypto_ir)
			[ -n "$crypto" ] && [ "$crypto" -gt 0 ] &&
				echo "| of which in libcrypto (image and track digests) | $((crypto / mib)) |" &&
				echo "| of which elsewhere | $(((ir - crypto) / mib)) |"
		else
			echo "| cdtail image | failed: $(grep -v '^==' "$TMP/cg.err" | head -n 1) |"
		fi
		rm -f "$out" "$out".*
		if ir=$(callgrind_ir "$CDTAIL" image --digest md5 "sim:$img,cost=0/0" "$out"); then
			md5only_ir=$ir
			echo "| cdtail image --digest md5 (with its record) | $((ir / mib)) |"
		fi
		rm -f "$out" "$out".*
		if ir=$(callgrind_ir "$CDTAIL" image --digest none "sim:$img,cost=0/0" "$out"); then
			echo "| cdtail image --digest none (with its record) | $((ir / mib)) |"
			crypto=$(crypto_ir)
			echo "| of which in libcrypto | $(((${crypto:-0}) / mib)) |"
		fi
		rm -f "$out" "$out".*
	else
		echo "| cdtail image | n/a |"
	fi
	if ir=$(callgrind_ir md5sum "$img"); then
		md5_ir=$ir
		echo "| md5sum | $((ir / mib)) |"
	fi
	if ir=$(callgrind_ir sha256sum "$img"); then
		echo "| sha256sum | $((ir / mib)) |"
	fi
	if ir=$(callgrind_ir dd if="$img" of="$out" bs=64K); then
		echo "| dd bs=64K (for scale) | $((ir / mib)) |"
	fi
	echo
	if [ -n "$img_ir" ] && [ -n "$md5_ir" ]; then
		awk -v a="$img_ir" -v m="$md5_ir" -v o="${md5only_ir:-0}" 'BEGIN {
			printf "cdtail image with its record over md5sum of the same data: default (MD5 +" \
				" SHA-256) %.2f x the instructions (SHA-256 besides MD5, on a thread of" \
				" its own); --digest md5 %.2f x (the record itself hashes nothing)\n", a / m, o / m }'
		echo
	fi
	rm -f "$img" "$out"
}

# ---- e. rescue engine against GNU ddrescue -------------------------------------

# the scenarios: NAME|BAD (sim bad= syntax, or -)|FLAKY (A-B:T, or -)
rescue_scenarios() {
	local i b=""
	echo "small scratch|20000-20009|-"
	echo "5000-block scratch|15000-19999|-"
	# many small defects: 40 of 1 to 4 blocks, spread over the disc
	for i in $(seq 0 39); do b="$b:$((i * 997 + 311))-$((i * 997 + 311 + i % 4))"; done
	echo "many small defects|${b#:}|-"
	b=""
	for i in $(seq 0 19); do b="$b:$((i * 2000 + 1000))-$((i * 2000 + 1002))"; done
	echo "radial scratch (3 every 2000)|${b#:}|-"
	echo "flaky region (64 blocks fail twice)|-|25000-25063:2"
	echo "undamaged|-|-"
}

# bad_blocks BAD: how many blocks the bad= list names
bad_blocks() {
	[ "$1" = - ] && { echo 0; return; }
	echo "$1" | tr ':' '\n' | awk -F- '{ s += $2 - $1 + 1 } END { print s + 0 }'
}

# rescue_tool TOOL IMG BAD FLAKY TRACE: run one tool over the disc
rescue_tool() {
	local tool=$1 img=$2 bad=$3 flaky=$4 tr=$5 addr out=$TMP/e.out map=$TMP/e.map
	rm -f "$out" "$out".* "$map" "$map".* "$tr" "$TMP/e.state"
	addr="sim:$img,cost=$E_COST,trace=$tr"
	[ "$bad" != - ] && addr="$addr,bad=$bad"
	[ "$flaky" != - ] && addr="$addr,flaky=$flaky"
	local shim="DDSHIM_FILE=$img DDSHIM_TRACE=$tr DDSHIM_STATE=$TMP/e.state"
	[ "$bad" != - ] && shim="$shim DDSHIM_BAD=$bad"
	[ "$flaky" != - ] && shim="$shim DDSHIM_FLAKY=$flaky"
	case $tool in
	cdtail) "$CDTAIL" image --map "$map" "$addr" "$out" ;;
	cdtail-r0) "$CDTAIL" image --retries 0 --map "$map" "$addr" "$out" ;;
	ddrescue) env LD_PRELOAD="$DDSHIM" $shim ddrescue -q -b2048 "$img" "$out" "$map" ;;
	ddrescue-r2) env LD_PRELOAD="$DDSHIM" $shim ddrescue -q -b2048 -r2 "$img" "$out" "$map" ;;
	ddrescue-recipe)
		env LD_PRELOAD="$DDSHIM" $shim ddrescue -q -b2048 -n "$img" "$out" "$map" &&
			env LD_PRELOAD="$DDSHIM" $shim ddrescue -q -b2048 -d -r1 "$img" "$out" "$map" ;;
	esac >/dev/null 2>"$TMP/e.err"
	rm -f "$out" "$out".* "$map" "$map".*
}

part_e() {
	local n=40000 img=$TMP/e.img tr=$TMP/e.trace name bad flaky nbad tool res rc
	E_COST=50/8000

	if ! command -v ddrescue >/dev/null || [ ! -f "$DDSHIM" ]; then
		echo "## e. Rescue engine against GNU ddrescue: ddrescue or the shim is missing, skipped"
		echo
		return
	fi
	truncate -s $((n * BS)) "$img" || die "cannot make $img"
	echo "## e. Rescue engine against GNU ddrescue"
	echo
	echo "Disc of $n blocks of $BS bytes, cost=$E_COST (good read 1 ms + 50 us a block," \
		"failing read 8 s). cdtail images sim: with bad=/flaky=; $(ddrescue --version | head -n 1)" \
		"reads the image file through bench/ddshim.c (LD_PRELOAD), which fails the same" \
		"reads with EIO; both traces are costed by bench/rescue.awk with the same model." \
		"Columns: total virtual time (h), reads, failed reads, blocks recovered (of the" \
		"recoverable: every block not in a bad range), and the virtual time (s) at which" \
		"99 %, 99.9 % and 100 % of them were in hand. Targets: cdtail's 99 % and 99.9 %" \
		"<= 1.1 x ddrescue -b2048's; cdtail's total <= 1.2 x ddrescue -b2048's where the" \
		"damage is permanent; cdtail recovers every block ddrescue -r2 recovers."
	echo
	echo "| scenario | tool | total (h) | reads | failed | recovered | 99 % (s) | 99.9 % (s) | 100 % (s) | targets |"
	echo "|---|---|--:|--:|--:|--:|--:|--:|--:|---|"
	: >"$TMP/e.miss"
	rescue_scenarios | while IFS='|' read -r name bad flaky; do
		nbad=$(bad_blocks "$bad")
		: >"$TMP/e.rows"
		for tool in cdtail cdtail-r0 ddrescue ddrescue-r2 ddrescue-recipe; do
			rescue_tool $tool "$img" "$bad" "$flaky" "$tr"
			res=$(awk -v n=$n -v ok_us=${E_COST%/*} -v fail_ms=${E_COST#*/} \
				-v recoverable=$((n - nbad)) -f "$BENCH_DIR/rescue.awk" "$tr" 2>/dev/null)
			echo "$tool $res" >>"$TMP/e.rows"
		done
		# the 1.2x total applies where there is damage and it is permanent
		awk -v name="$name" -v permanent="$([ "$flaky" = - ] && [ "$bad" != - ] && echo 1 || echo 0)" \
			-v missf="$TMP/e.miss" '
		function label(t) {
			if (t == "cdtail") return "cdtail (defaults)"
			if (t == "cdtail-r0") return "cdtail --retries 0"
			if (t == "ddrescue") return "ddrescue -b2048"
			if (t == "ddrescue-r2") return "ddrescue -b2048 -r2"
			return "ddrescue -b2048 -n, then -d -r1"
		}
		function sec(v) { return v == "never" ? "never" : sprintf("%.1f", v / 1000) }
		function le(a, b, f) { return a != "never" && (b == "never" || a <= b * f + 1e-6) }
		function miss(w) { print w >> missf; return " MISS" }
		{ tool[NR] = $1; for (i = 2; i <= 8; i++) v[$1, i] = $i }
		END {
			for (r = 1; r <= NR; r++) {
				t = tool[r]; tg = ""
				if (t == "cdtail") {
					tg = "99 %" (le(v[t, 6], v["ddrescue", 6], 1.1) ? " ok" : miss("t99"))
					tg = tg "; 99.9 %" (le(v[t, 7], v["ddrescue", 7], 1.1) ? " ok" : miss("t999"))
					if (permanent)
						tg = tg sprintf("; total %.2fx", v[t, 2] / v["ddrescue", 2]) \
							(v[t, 2] <= 1.2 * v["ddrescue", 2] + 1e-6 ? " ok" : miss("total"))
					tg = tg "; recovers -r2" (v[t, 5] >= v["ddrescue-r2", 5] ? " ok" : miss("flaky"))
				}
				printf "| %s | %s | %.2f | %d | %d | %d | %s | %s | %s | %s |\n", \
					name, label(t), v[t, 2] / 3600000, v[t, 3], v[t, 4], v[t, 5], \
					sec(v[t, 6]), sec(v[t, 7]), sec(v[t, 8]), tg
			}
		}' "$TMP/e.rows"
	done
	echo
	echo "Misses: 99 %: $(grep -c '^t99$' "$TMP/e.miss"); 99.9 %: $(grep -c '^t999$' "$TMP/e.miss");" \
		"total over 1.2x: $(grep -c '^total$' "$TMP/e.miss"); flaky blocks -r2 gets but cdtail not:" \
		"$(grep -c '^flaky$' "$TMP/e.miss")."
	echo
	rm -f "$img" "$tr" "$TMP/e.rows" "$TMP/e.miss" "$TMP/e.state"
}

# ---- f. raw imaging throughput (image --raw, issue 26) ---------------------------

# The fastest CD drive's media rate: 52x of 75 sectors a second, 2352 bytes each.
CD52_MBS=7.8

part_f() {
	local mib=${BENCH_RAW_MB:-200} iso=$TMP/raw.iso raw=$TMP/raw-src.bin out=$TMP/raw-out.cue
	local sectors res s cpu mbs cpu_mbs

	sectors=$((mib * 1048576 / 2352))
	make_random $(((sectors * 2048 + 1048575) / 1048576)) "$iso" || die "cannot make $iso"
	truncate -s $((sectors * 2048)) "$iso"
	# the raw source: the ISO as Mode 1 sectors, EDC/ECC made once by the
	# emulated drive (a MODE1/2048 sheet imaged raw), so the timed runs read
	# stored sectors and cdtail's checks are the work measured
	printf 'FILE "raw.iso" BINARY\n  TRACK 01 MODE1/2048\n    INDEX 01 00:00:00\n' >"$TMP/iso.cue"
	"$CDTAIL" image --raw -q "sim:$TMP/iso.cue,cost=0/0" "$TMP/raw-src.cue" >/dev/null ||
		die "cannot make the raw source"
	printf 'FILE "raw-src.bin" BINARY\n  TRACK 01 MODE1/2352\n    INDEX 01 00:00:00\n' >"$TMP/raw.cue"
	rm -f "$iso"
	cat "$raw" >/dev/null
	echo "## f. Raw imaging throughput (image --raw)"
	echo
	echo "$sectors Mode 1 sectors ($((sectors * 2352 / 1000000)) MB of 2352-byte sectors) read with" \
		"READ CD from sim:FILE.cue,cost=0/0 (stored raw sectors), every sector's header, EDC" \
		"and ECC checked and its C2 pointers looked at, written to one BIN file; best wall" \
		"time of 3 runs; MB = 10^6 bytes of 2352-byte sectors. CPU MB/s = MB per CPU second" \
		"(user + system, one process). Target (issue 26): at least 10 x the fastest CD" \
		"drive's media rate, 52x = $CD52_MBS MB/s, on one core: 78 MB/s per CPU second."
	echo
	echo "| run | MB/s | CPU s | CPU MB/s | x 52x media rate | target |"
	echo "|---|--:|--:|--:|--:|---|"
	set -- $(run_timed "$out" "$CDTAIL" image --raw -q --force "sim:$TMP/raw.cue,cost=0/0" "$out")
	if [ "$1" = fail ]; then
		echo "| image --raw | fail: ${*:2} | | | | |"
	else
		s=$1 cpu=$3
		awk -v b=$((sectors * 2352)) -v s="$s" -v c="$cpu" -v m=$CD52_MBS 'BEGIN {
			mbs = b / (s / 1e9) / 1e6; cm = c > 0 ? b / c / 1e6 : 0
			printf "| image --raw | %.1f | %.2f | %.1f | %.1f | %s |\n", mbs, c, cm, cm / m,
				(cm >= 10 * m ? "ok (>= 10x)" : "MISS (< 10x)") }'
	fi
	echo
	rm -f "$raw" "$TMP"/raw* "$TMP/iso.cue" "$out"
}

# ---- g. pregaps and index marks from Q (issue 33) ----------------------------

# The Q searches' drive time on a disc of 20 tracks, default cost model.
Q_TARGET_MS=2000

# A 20-track sheet: a Mode 1 track, then 19 audio tracks of 5 minutes, each
# with a 2-second INDEX 00; every fifth with INDEX 02 and 03 (sparse files:
# the searches read Q, and Q is the layout's, whatever the samples hold).
q_disc() {
	local dir=$1 n
	truncate -s $((3000 * 2048)) "$dir/q01.iso"
	printf 'FILE "q01.iso" BINARY\n  TRACK 01 MODE1/2048\n    INDEX 01 00:00:00\n' >"$dir/q.cue"
	for n in $(seq 2 20); do
		truncate -s $(((150 + 22500) * 2352)) "$dir/q$n.bin"
		printf 'FILE "q%d.bin" BINARY\n  TRACK %02d AUDIO\n    INDEX 00 00:00:00\n    INDEX 01 00:02:00\n' \
			"$n" "$n" >>"$dir/q.cue"
		[ $((n % 5)) -eq 0 ] &&
			printf '    INDEX 02 01:12:00\n    INDEX 03 03:40:33\n' >>"$dir/q.cue"
	done
}

part_g() {
	local dir=$TMP/q with without marks reads
	mkdir -p "$dir" && q_disc "$dir"
	echo "## g. Pregaps and index marks from subchannel Q (probe, image --raw)"
	echo
	echo "A disc of 20 tracks (a Mode 1 track, then 19 audio tracks of 5 minutes with" \
		"2-second pregaps, every fifth with INDEX 02 and 03) on the emulated drive's" \
		"default drive (trackinfo=index1, cost=50/8000): cdtail probe --json. Q drive ms:" \
		"the virtual time of the probe minus that of the same probe on a drive without" \
		"subchannel (subchannel=none, no Q search). Target (issue 33): under" \
		"$Q_TARGET_MS ms."
	echo
	echo "| disc | tracks | pregaps found | marks found | Q reads | Q drive ms | target |"
	echo "|---|--:|--:|--:|--:|--:|---|"
	"$CDTAIL" probe --json "sim:$dir/q.cue" >"$TMP/g.with" 2>/dev/null
	"$CDTAIL" probe --json "sim:$dir/q.cue,subchannel=none" >"$TMP/g.without" 2>/dev/null
	with=$(jq '.total.virtual_ms' "$TMP/g.with")
	without=$(jq '.total.virtual_ms' "$TMP/g.without")
	reads=$(jq '.q_reads' "$TMP/g.with")
	marks=$(jq '[.tracks[].indexes[] | select(.number > 1)] | length' "$TMP/g.with")
	jq -r --argjson w "$with" --argjson wo "$without" --argjson m "$marks" \
		--argjson t "$Q_TARGET_MS" '"| 20 tracks | \(.tracks | length) |" +
		" \([.tracks[] | select(.pregap == 150)] | length) | \($m) | \(.q_reads) |" +
		" \(($w - $wo) * 10 | round / 10) | \(if $w - $wo < $t then "ok" else "MISS" end) |"' \
		"$TMP/g.with"
	echo
	rm -rf "$dir" "$TMP/g.with" "$TMP/g.without"
}

# ---- h. DVD-shaped damage: ECC blocks (issue 36) ----------------------------------

# DVD-shaped damage: each defect fails its whole ECC block (sim ecc=16) or BD
# cluster (ecc=32), as the medium does; the same disc and damage read with a
# CD profile (the engine's single-block trim, scrape and retries) and with a
# DVD or BD profile (whole units).
dvd_scenarios() {
	local i b=""
	echo "one defect|20005-20005"
	for i in $(seq 0 19); do b="$b:$((i * 2000 + 1000))-$((i * 2000 + 1002))"; done
	echo "radial scratch (3 every 2000)|${b#:}"
	b=""
	for i in $(seq 0 39); do b="$b:$((i * 997 + 311))-$((i * 997 + 311 + i % 4))"; done
	echo "many small defects|${b#:}"
	echo "2000-block scratch|15000-16999"
}

part_h() {
	local n=40000 img=$TMP/h.img
	truncate -s $((n * BS)) "$img" || die "cannot make $img"
	echo "## h. DVD-shaped damage: ECC blocks"
	echo
	echo "Disc of $n blocks of $BS bytes, cost=50/8000; every defect fails its whole ECC" \
		"block (sim ecc=16, 16 sectors) or BD cluster (ecc=32), as the medium does." \
		"cdtail image with its defaults, with a CD profile (single-block trim, scrape" \
		"and retries: the CD behaviour) and with the medium's (whole units aligned to" \
		"them). Columns from image --json: total virtual time (h), reads, failed reads" \
		"and bad blocks (the same either way: the units the medium fails). Target" \
		"(issue 36): about one failing read per failed unit, fewer than the CD" \
		"behaviour's: at most 2 per failed unit (the chunk's and the unit's) and 4" \
		"retry samples where the drive names the first bad LBA in the sense's" \
		"INFORMATION field (info=1); where it names none (the sim's default), one" \
		"block more is read alone after the good blocks before a failed unit (a unit" \
		"can end a LUN or an image that is no whole number of units: its good blocks" \
		"are kept), so at most 3 per failed unit."
	echo
	h_table image "$img" "bad blocks" 3 2
	echo "Verify of the same discs against the image itself (verify --image), its" \
		"defaults (-r2: 3 tries of each failed unit or block). Target (issue 36):" \
		"fewer failing reads than the CD behaviour, at most 5 per failed unit" \
		"without INFORMATION (the failed chunk's read, the unit's three tries, the" \
		"good-side block) and 4 with info=1."
	echo
	h_table verify "$img" unreadable 5 4
	rm -f "$img" "$TMP/h.out" "$TMP/h.rows"
}

# One damaged disc read by image (into $TMP/h.out) or verify (--image of
# the disc itself): "virtual_ms reads failed_reads bad_count".
h_run() {
	local job=$1 img=$2 addr=$3
	if [ "$job" = image ]; then
		rm -f "$TMP/h.out"
		"$CDTAIL" image --json "$addr" "$TMP/h.out"
	else
		# the verify reads the same disc the image run does
		"$CDTAIL" verify --json --image "$img" "$addr"
	fi | jq -r '"\(.total.virtual_ms) \(.total.reads) \(.total.failed_reads) \(.bad_count)"'
}

# The table of one job over dvd_scenarios: each disc with a CD profile, the
# medium's, and the medium's with info=1; the target's failing reads per
# failed unit are at most $4 without INFORMATION and $5 with it.
h_table() {
	local job=$1 img=$2 label=$3 most=$4 most_info=$5 name bad ecc prof u
	echo "| scenario | ecc | profile | total (h) | reads | failed | $label | failed units | target |"
	echo "|---|--:|---|--:|--:|--:|--:|--:|---|"
	dvd_scenarios | while IFS='|' read -r name bad; do
		for ecc in 16 32; do
			: >"$TMP/h.rows"
			u=$([ $ecc = 16 ] && echo dvd-rom || echo bd-rom)
			for prof in cd-rom $u $u,info=1; do
				echo "$prof $(h_run "$job" "$img" \
					"sim:$img,cost=50/8000,profile=$prof,ecc=$ecc,bad=$bad")" >>"$TMP/h.rows"
			done
			awk -v name="$name" -v ecc=$ecc -v most=$most -v most_info=$most_info '
			{ p[NR] = $1; ms[NR] = $2; rd[NR] = $3; f[NR] = $4; bad[NR] = $5 }
			END {
				units = bad[2] / ecc
				for (r = 1; r <= NR; r++) {
					tg = ""
					if (r >= 2)
						tg = (f[r] <= (r == 2 ? most : most_info) * units + 4 && f[r] < f[1]) ? \
							sprintf("ok (%.1f x fewer)", f[1] / f[r]) : "MISS"
					printf "| %s | %d | %s | %.2f | %d | %d | %d | %d | %s |\n", \
						name, ecc, p[r], ms[r] / 3600000, rd[r], f[r], bad[r], bad[r] / ecc, tg
				}
			}' "$TMP/h.rows"
		done
	done
	echo
}

# ---- i. end search on DVD and BD ----------------------------------------------

part_i() {
	local n k cost info prof u end rc cd un img
	local k_list="0 7 512 600 3000 7000 8191 12000"

	: >"$TMP/i.miss"
	"$REFSTRAT" mkimg "$TMP/ia.img" 40000 || die "mkimg failed"
	"$REFSTRAT" mkimg "$TMP/iu.img" 40011 || die "mkimg failed"
	echo "## i. End search on DVD and BD: the unit"
	echo
	echo "Discs of 40000 blocks (a whole number of DVD ECC blocks of 16 and BD clusters" \
		"of 32: a real DVD or BD ends so) and of 40011 (no whole number: a tgt LUN or" \
		"an image presented as a DVD); the drive hides the last k; cdtail probe" \
		"--max-extra 20000 with profile=cd-rom (the CD search) and with the medium's" \
		"profile (dvd-rom, bd-rom), on the same disc. Columns: reads/failed reads/virtual" \
		"ms of the end search. Targets (issue 36): the true end always; an end on a unit" \
		"boundary: 1 failed read for k < 8192 on a slow drive (50/8000) or with" \
		"INFORMATION (info=1), where the CD search pays 2 beyond 512 without" \
		"INFORMATION; any other end: the CD search's limits on a slow drive (1 for" \
		"k <= 512, at most 2 beyond) and, with INFORMATION, 1 for k <= 512 only: beyond," \
		"the units' first blocks are read alone where the CD reads runs, so such an end" \
		"costs 2 where the CD's run pays 1 (slow), and a fast drive a few 1 ms failures" \
		"more. 50/1: <= 1100 ms (the units' first blocks cost ~0.1 s more than the" \
		"CD's runs)."
	echo
	echo "| end | unit | cost | info | k | cd-rom | medium's | targets |"
	echo "|---|--:|---|--:|--:|--:|--:|---|"
	for n in 40000 40011; do
		img=$TMP/ia.img
		[ $n = 40011 ] && img=$TMP/iu.img
		for prof in dvd-rom bd-rom; do
			u=16
			[ $prof = bd-rom ] && u=32
			for cost in 50/8000 50/1; do
				for info in 0 1; do
					for k in $k_list; do
						cd=$("$CDTAIL" probe --json --max-extra 20000 \
							"sim:$img,hide=$k,cost=$cost,info=$info,profile=cd-rom" 2>/dev/null |
							jq -r '"\(.reads) \(.failed_reads) \(.virtual_ms) \(.true_blocks)"')
						un=$("$CDTAIL" probe --json --max-extra 20000 \
							"sim:$img,hide=$k,cost=$cost,info=$info,profile=$prof" 2>/dev/null |
							jq -r '"\(.reads) \(.failed_reads) \(.virtual_ms) \(.true_blocks)"')
						awk -v n=$n -v u=$u -v cost=$cost -v info=$info -v k=$k \
							-v cd="$cd" -v un="$un" -v missf="$TMP/i.miss" '
						function miss(what) { print what >> missf; return " MISS" }
						BEGIN {
							split(cd, c, " "); split(un, m, " ")
							al = n % u == 0
							slow = cost == "50/8000"
							t = ""
							if (c[4] != n || m[4] != n)
								t = "WRONG END " c[4] "/" m[4] "; " miss("end")
							if (al && k < 8192 && (slow || info == 1))
								t = t "1 fail" (m[2] == 1 ? " ok" : miss("aligned"))
							else if (slow || (info == 1 && k <= 512)) {
								lim = k <= 512 ? 1 : 2
								t = t "<= " lim " fail" (m[2] <= lim ? " ok" : miss("other"))
							}
							if (!slow)
								t = t (t == "" ? "" : "; ") "<= 1100 ms" \
									(m[3] <= 1100 ? " ok" : miss("fast"))
							printf "| %s | %d | %s | %d | %d | %d/%d/%.1f | %d/%d/%.1f | %s |\n",
								al ? "aligned" : "unaligned", u, cost, info, k,
								c[1], c[2], c[3], m[1], m[2], m[3], t
							print (al ? "a" : "u"), slow, c[2], m[2] >> (missf ".sum")
						}'
					done
				done
			done
		done
	done
	echo
	echo "Failed reads, CD search / the medium's, summed over the rows:" \
		"$(awk '{ k = $1 ($2 ? " slow" : " fast"); cd[k] += $3; un[k] += $4 }
		END {
			s = ""
			split("a slow,a fast,u slow,u fast", o, ",")
			for (i = 1; i <= 4; i++) {
				split(o[i], w, " ")
				s = s (i > 1 ? "; " : "") (w[1] == "a" ? "aligned" : "unaligned") " ends, " \
					(w[2] == "slow" ? "50/8000" : "50/1") ": " cd[o[i]] "/" un[o[i]]
			}
			print s "."
		}' "$TMP/i.miss.sum")"
	echo "Misses: aligned, not 1 failure: $(grep -c '^aligned' "$TMP/i.miss");" \
		"unaligned, over the CD's limits: $(grep -c '^other' "$TMP/i.miss");" \
		"over 1100 ms (fast): $(grep -c '^fast' "$TMP/i.miss"); wrong end: $(grep -c '^end' "$TMP/i.miss")."
	echo
	echo "MEDIUM ERROR past the end (past=medium: tgt answers so, and drives that fail" \
		"the lead-out as unreadable), 50/8000, no INFORMATION: the end is confirmed by" \
		"reads beyond it, 1, 2, 4 ... 32 blocks on a CD; on a DVD or BD, from an end on" \
		"a unit boundary, a unit away. Target: an aligned end, 3 failed reads on a DVD" \
		"and 2 on a BD for k < 8192 (the CD search: 7 or 8); any other end, no more" \
		"than the CD search."
	echo
	echo "| end | unit | k | cd-rom | medium's | targets |"
	echo "|---|--:|--:|--:|--:|---|"
	: >"$TMP/i.miss"
	for n in 40000 40011; do
		img=$TMP/ia.img
		[ $n = 40011 ] && img=$TMP/iu.img
		for prof in dvd-rom bd-rom; do
			u=16
			[ $prof = bd-rom ] && u=32
			for k in 0 512 3000; do
				cd=$("$CDTAIL" probe --json --max-extra 20000 \
					"sim:$img,hide=$k,cost=50/8000,past=medium,profile=cd-rom" 2>/dev/null |
					jq -r '"\(.reads) \(.failed_reads) \(.virtual_ms) \(.true_blocks)"')
				un=$("$CDTAIL" probe --json --max-extra 20000 \
					"sim:$img,hide=$k,cost=50/8000,past=medium,profile=$prof" 2>/dev/null |
					jq -r '"\(.reads) \(.failed_reads) \(.virtual_ms) \(.true_blocks)"')
				awk -v n=$n -v u=$u -v k=$k -v cd="$cd" -v un="$un" -v missf="$TMP/i.miss" '
				function miss(what) { print what >> missf; return " MISS" }
				BEGIN {
					split(cd, c, " "); split(un, m, " ")
					al = n % u == 0
					t = ""
					if (c[4] != n || m[4] != n)
						t = "WRONG END " c[4] "/" m[4] "; " miss("end")
					lim = al ? (u == 16 ? 3 : 2) : c[2]
					t = t "<= " lim " fail" (m[2] <= lim ? " ok" : miss("medium"))
					printf "| %s | %d | %d | %d/%d/%.1f | %d/%d/%.1f | %s |\n",
						al ? "aligned" : "unaligned", u, k,
						c[1], c[2], c[3], m[1], m[2], m[3], t
				}'
			done
		done
	done
	echo
	echo "Misses: over the failed reads: $(grep -c '^medium' "$TMP/i.miss"); wrong end: $(grep -c '^end' "$TMP/i.miss")."
	echo
	rm -f "$TMP/ia.img" "$TMP/iu.img" "$TMP/i.miss" "$TMP/i.miss.sum"
}

t_start=$(now_ns)
for p in a b c d e f g h i; do
	has_part $p && "part_$p"
done
echo "Bench time: $((($(now_ns) - t_start) / 1000000000)) s."
exit 0
