# The benchmarks (bench/README.md), included by the top Makefile.
# `make bench` prints one report on stdout; it is not part of `make test`
# and never fails on a timing.
BENCH_BIN = $(B)/bench/refstrat

$(BENCH_BIN): bench/refstrat.c $(LIBA) include/cdtail.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ bench/refstrat.c $(LIBA) $(LDLIBS_LIB) $(LDLIBS_CLI)

DDSHIM_SO = $(B)/bench/ddshim.so

# ddrescue's input through a shim that fails the emulated drive's bad reads
$(DDSHIM_SO): bench/ddshim.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -Werror -shared -fPIC -o $@ $< -ldl

bench: $(BIN) $(BENCH_BIN) $(DDSHIM_SO)
	CDTAIL=$(abspath $(BIN)) REFSTRAT=$(abspath $(BENCH_BIN)) \
		DDSHIM=$(abspath $(DDSHIM_SO)) bash bench/run.sh

.PHONY: bench
