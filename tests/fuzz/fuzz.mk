# Fuzzing: included by the top Makefile.
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="fuzz_toc fuzz_sense"]
#	builds every target with clang and libFuzzer (ASan+UBSan) against the
#	library compiled the same way, and runs each for FUZZ_SECONDS on a
#	copy of its seed corpus (tests/fuzz/corpus/T, and tests/fuzz/seeds/NAME
#	for T = fuzz_NAME: the emulated drive's answers) and its regression inputs
#	(tests/fuzz/regress/T) under $(B)/fuzz/run/T.  A crash fails it; the
#	input is left as $(B)/fuzz/run/T/crash-* (copy it to regress/T once
#	fixed).  Statistics of each run: $(B)/fuzz/stats/T.txt.  make -j2 fuzz
#	runs two at a time.
#
#   make fuzz-regress
#	builds the same targets without libFuzzer, with $(CC) and ASan+UBSan,
#	and replays every file of corpus/T and regress/T once.

FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_ALL = $(patsubst tests/fuzz/%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
# the mapfile target needs the mapfile reader
ifeq ($(wildcard src/lib/book/mapfile.h),)
FUZZ_ALL := $(filter-out fuzz_mapfile,$(FUZZ_ALL))
endif
FUZZ_TARGETS ?= $(FUZZ_ALL)
# a target of a CLI parser: its source and the libraries it needs
FUZZ_CLI_fuzz_acqread = src/cli/acqread.c $(shell pkg-config --libs json-c)

FUZZ_DIR = $(B)/fuzz
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
# the build's flags, at -O1 and without -fPIC/-O; -Werror stays
FUZZ_BASE_CFLAGS = -O1 -g $(filter-out -O% -g -fPIC,$(CFLAGS))
FUZZ_LF_CFLAGS = $(FUZZ_BASE_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_RG_CFLAGS = $(FUZZ_BASE_CFLAGS) $(FUZZ_SAN)
FUZZ_HELPERS = tests/fuzz/util.c
FUZZ_HDRS = $(wildcard include/*.h $(shell find src/lib -name '*.h') tests/fuzz/*.h)

# libFuzzer build: clang objects under lf/, regress build: $(CC) under rg/
FUZZ_LF_OBJ = $(LIB_SRC:%.c=$(FUZZ_DIR)/lf/%.o)
FUZZ_RG_OBJ = $(LIB_SRC:%.c=$(FUZZ_DIR)/rg/%.o)

$(FUZZ_DIR)/lf/%.o: %.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_LF_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/rg/%.o: %.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_RG_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/lf/libcdtail.a: $(FUZZ_LF_OBJ)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_DIR)/rg/libcdtail.a: $(FUZZ_RG_OBJ)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_DIR)/lf/bin/%: tests/fuzz/%.c $(FUZZ_HELPERS) $(FUZZ_DIR)/lf/libcdtail.a $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_LF_CFLAGS) -Itests/fuzz -fsanitize=fuzzer -o $@ \
		$< $(FUZZ_HELPERS) $(FUZZ_DIR)/lf/libcdtail.a $(LDLIBS_LIB) $(FUZZ_CLI_$*)

$(FUZZ_DIR)/rg/bin/%: tests/fuzz/%.c tests/fuzz/driver.c $(FUZZ_HELPERS) $(FUZZ_DIR)/rg/libcdtail.a $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_RG_CFLAGS) -Itests/fuzz -o $@ $< tests/fuzz/driver.c \
		$(FUZZ_HELPERS) $(FUZZ_DIR)/rg/libcdtail.a $(LDLIBS_LIB) $(FUZZ_CLI_$*)

$(FUZZ_DIR)/lf/bin/fuzz_acqread $(FUZZ_DIR)/rg/bin/fuzz_acqread: src/cli/acqread.c src/cli/acqread.h

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/lf/bin/%)

# One run: a fresh copy of the corpus, the regression inputs as seeds too.
# libFuzzer exits non-zero on a crash, a leak, a timeout or an OOM.
fuzz-run-%: $(FUZZ_DIR)/lf/bin/%
	@rm -rf $(FUZZ_DIR)/run/$* && mkdir -p $(FUZZ_DIR)/run/$*/corpus $(FUZZ_DIR)/stats
	@cp -r tests/fuzz/corpus/$*/. $(FUZZ_DIR)/run/$*/corpus/ 2>/dev/null || true
	@cp -r tests/fuzz/regress/$*/. $(FUZZ_DIR)/run/$*/corpus/ 2>/dev/null || true
	@cp -r tests/fuzz/seeds/$(patsubst fuzz_%,%,$*)/. $(FUZZ_DIR)/run/$*/corpus/ 2>/dev/null || true
	@echo "fuzz: $* for $(FUZZ_SECONDS) s"
	@cd $(FUZZ_DIR)/run/$* && $(abspath $<) -max_total_time=$(FUZZ_SECONDS) \
		-print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=$(abspath $(FUZZ_DIR)/run/$*)/ \
		$(if $(wildcard tests/fuzz/$*.dict),-dict=$(abspath tests/fuzz/$*.dict)) \
		$(abspath $(FUZZ_DIR)/run/$*/corpus) >log 2>&1; rc=$$?; \
	grep '^stat::' log >$(abspath $(FUZZ_DIR)/stats)/$*.txt; \
	echo "seconds: $(FUZZ_SECONDS)" >>$(abspath $(FUZZ_DIR)/stats)/$*.txt; \
	if [ $$rc -ne 0 ]; then \
		echo "fuzz: $* FAILED (exit $$rc), see $(FUZZ_DIR)/run/$*/log:"; \
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' log | head -20; \
		exit 1; \
	fi

fuzz: $(FUZZ_TARGETS:%=fuzz-run-%)
	@printf '%-22s %12s %8s %8s\n' target executions seconds corpus
	@for t in $(FUZZ_TARGETS); do \
		f=$(FUZZ_DIR)/stats/$$t.txt; \
		printf '%-22s %12s %8s %8s\n' $$t \
			"$$(sed -n 's/^stat::number_of_executed_units: *//p' $$f)" \
			"$$(sed -n 's/^seconds: *//p' $$f)" \
			"$$(ls $(FUZZ_DIR)/run/$$t/corpus | wc -l)"; \
	done

fuzz-regress: $(FUZZ_ALL:%=$(FUZZ_DIR)/rg/bin/%)
	@fail=0; for t in $(FUZZ_ALL); do \
		ASAN_OPTIONS=detect_leaks=1:exitcode=99 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98 \
		$(FUZZ_DIR)/rg/bin/$$t $(abspath tests/fuzz/corpus/$$t) \
			$(abspath tests/fuzz/regress/$$t) \
			$(abspath tests/fuzz/seeds)/$${t#fuzz_} || { \
			echo "fuzz-regress: $$t FAILED"; fail=1; }; \
	done; exit $$fail

.PHONY: fuzz fuzz-build fuzz-regress fuzz-seeds-layout
.PRECIOUS: $(FUZZ_DIR)/lf/bin/% $(FUZZ_DIR)/rg/bin/%

# Regenerate the seeds taken from the emulated drive's answers and the
# fixture images (the sim: spec and sysfs value seeds are written by hand).
# Identical answers are kept once.
$(FUZZ_DIR)/gen_corpus: tests/fuzz/gen_corpus.c $(FUZZ_HELPERS) $(LIBA) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/fuzz -o $@ $< $(FUZZ_HELPERS) $(LIBA) $(LDLIBS_LIB)

# The disc kinds' answers (layout=, open=, tao=, formatted=, with hide= and
# extra=): format 0/1 TOC and disc information into corpus/, the full TOC
# into seeds/full_toc (fuzz_full_toc), track information into
# seeds/track_info (fuzz_track_info).  Identical answers are kept once in
# each folder (the first name in order).
$(FUZZ_DIR)/gen_sim_seeds: tests/fuzz/gen_sim_seeds.c $(FUZZ_HELPERS) $(LIBA) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/fuzz -o $@ $< $(FUZZ_HELPERS) $(LIBA) $(LDLIBS_LIB)

fuzz-seeds-layout: $(FUZZ_DIR)/gen_sim_seeds
	mkdir -p tests/fuzz/seeds
	$(FUZZ_DIR)/gen_sim_seeds tests/fuzz
	cd tests/fuzz && for d in corpus/fuzz_toc corpus/fuzz_discinfo seeds/full_toc seeds/track_info; do \
		md5sum $$d/* | sort -k1,1 -k2,2 | awk 'seen[$$1]++ { print $$2 }' | xargs -r rm -f; \
	done

fuzz-corpus: $(FUZZ_DIR)/gen_corpus $(FIXTURES)
	mkdir -p tests/fuzz/corpus
	$(FUZZ_DIR)/gen_corpus tests/fuzz/corpus fixtures/iso9660.iso fixtures/udf.img
	mkdir -p tests/fuzz/corpus/fuzz_iso
	cp fixtures/iso9660.iso tests/fuzz/corpus/fuzz_iso/iso9660
	head -c 36864 fixtures/iso9660.iso >tests/fuzz/corpus/fuzz_iso/iso9660-pvd-only
	head -c 532480 fixtures/udf.img >tests/fuzz/corpus/fuzz_iso/udf-first-260
	cd tests/fuzz/corpus && md5sum */* | sort -k1,1 -k2,2 | \
		awk 'seen[$$1]++ { print $$2 }' | xargs -r rm -f

.PHONY: fuzz-corpus
