# The benchmarks (bench/README.md), included by the top Makefile.
# `make bench` prints one report on stdout; it is not part of `make test`
# and never fails on a timing.
BENCH_BIN = $(B)/bench/refstrat

$(BENCH_BIN): bench/refstrat.c $(LIBA) include/cdtail.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ bench/refstrat.c $(LIBA) $(LDLIBS_LIB)

bench: $(BIN) $(BENCH_BIN)
	CDTAIL=$(abspath $(BIN)) REFSTRAT=$(abspath $(BENCH_BIN)) bash bench/run.sh

.PHONY: bench
