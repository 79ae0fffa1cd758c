# cdtail build.  `make deps` installs what the build needs on Debian 12,
# `make test-deps` the test tools too; `make` builds the library and the
# CLI; `make test` runs every test.  Source files are picked up by
# wildcard: add a file, not a rule.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
LIBDIR = $(PREFIX)/lib
INCDIR = $(PREFIX)/include
MANDIR = $(PREFIX)/share/man
# the sample images the pages' EXAMPLES run on (cp -R DATADIR/fixtures .),
# and disc-kinds.md, which the pages cite
DATADIR = $(PREFIX)/share/cdtail
DOCDIR = $(PREFIX)/share/doc/cdtail
PCDIR = $(LIBDIR)/pkgconfig
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions

# VERSION is the release; SONAME changes when a program built against the
# older headers could stop working (libcdtail(3), ABI).  Before 1.0 the
# minor number may change it: 0.2.0 is the first libcdtail.so.1.  Its
# version node in libcdtail.map is CDTAIL_0.2; a later release that only
# adds functions adds a node of its own (0.3.0: CDTAIL_0.3).
VERSION = 0.3.0
SONAME = libcdtail.so.1
# the public headers: the disc library (cdtail.h), the hazards scan
# (cdtail-hazards.h), the command line's helpers (cdtail-tools.h)
PUB_HEADERS = $(sort $(wildcard include/*.h))

CC ?= cc
# the library's dependencies, and the CLI's own (json-c and libewf are never
# the library's; the CLI's export digests with libcrypto itself)
LIB_PKGS = blkid libcrypto libiscsi
CLI_PKGS = json-c libewf libcrypto
PKGS = $(LIB_PKGS) $(CLI_PKGS)
EXTRA_CFLAGS ?=
EXTRA_LDFLAGS ?=
# WERROR=0: warnings stay warnings (for packagers building with a newer compiler)
WERROR ?= 1
ifeq ($(WERROR),0)
W_ERROR =
else
W_ERROR = -Werror
endif

# A missing dependency is named once, with the way to get it.
ifeq ($(filter deps test-deps clean uninstall,$(MAKECMDGOALS)),)
PKG_MISSING := $(strip $(foreach p,$(PKGS),$(if $(shell pkg-config --exists $(p) && echo y),,$(p))))
ifneq ($(PKG_MISSING),)
$(error $(PKG_MISSING) not found by pkg-config: run make deps)
endif
endif

CFLAGS ?= -O2 -g
override CFLAGS += -Wall -Wextra $(W_ERROR) -std=gnu11 -fPIC -D_GNU_SOURCE \
	-Iinclude -Isrc/lib $(shell pkg-config --cflags $(PKGS)) $(EXTRA_CFLAGS)
LDLIBS_LIB = -lsgutils2 $(shell pkg-config --libs $(LIB_PKGS)) -lm
LDLIBS_CLI = $(shell pkg-config --libs $(CLI_PKGS)) -lm
override LDFLAGS += $(EXTRA_LDFLAGS)

# O: where artefacts go (check-asan builds a second copy under build/asan)
O ?= .
ifeq ($(O),.)
P =
else
P = $(O)/
endif
B = $(P)build
LIB_SRC = $(sort $(shell find src/lib -name '*.c'))
CLI_SRC = $(sort $(wildcard src/cli/*.c))
LIB_OBJ = $(LIB_SRC:%.c=$(B)/%.o)
CLI_OBJ = $(CLI_SRC:%.c=$(B)/%.o)
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
UNIT_HELPERS = $(filter-out $(UNIT_SRC),$(wildcard tests/unit/*.c))

LIBA = $(P)libcdtail.a
LIBSO = $(P)libcdtail.so
BIN = $(P)cdtail
# the CLI linked against libcdtail.so: the one the CLI tests run
BIN_SHARED = $(B)/cdtail-shared

all: $(LIBA) $(LIBSO) $(BIN) $(BIN_SHARED) cdtail.pc

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(LIBA): $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

# Only what the public headers declare is exported: the objects are built
# hidden, the headers push default visibility, the version script names
# each exported function and makes the rest local (libcdtail(3), ABI;
# tests/abi checks that its list is the headers' functions).
$(LIB_OBJ): override CFLAGS += -fvisibility=hidden

$(LIBSO): $(LIB_OBJ) libcdtail.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=libcdtail.map \
		-Wl,--no-undefined $(LDFLAGS) -o $@ $(LIB_OBJ) $(LDLIBS_LIB)

# CLI_LINK=shared: cdtail itself needs libcdtail.so.1 (found where the
# system keeps libraries: no rpath), as a distribution links it, so that a
# fix to the library reaches the tool (debian/rules); the default links
# libcdtail.a in, a binary that runs from anywhere.
CLI_LINK ?= static
ifeq ($(CLI_LINK),shared)
$(BIN): $(CLI_OBJ) $(LIBSO)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) -L$(dir $(LIBSO)) -l:$(notdir $(LIBSO)) $(LDLIBS_CLI)
else
$(BIN): $(CLI_OBJ) $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LDLIBS_LIB) $(LDLIBS_CLI)
endif

# Runs from the build tree: libcdtail.so.1 is found beside it by its rpath.
$(BIN_SHARED): $(CLI_OBJ) $(LIBSO)
	@mkdir -p $(B)/shlib
	ln -sf $(abspath $(LIBSO)) $(B)/shlib/$(SONAME)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) -L$(B)/shlib -l:$(SONAME) \
		-Wl,-rpath,'$$ORIGIN/shlib' $(LDLIBS_CLI)

cdtail.pc: cdtail.pc.in Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(VERSION)|' $< > $@

$(B)/tests/%: tests/unit/%.c $(UNIT_HELPERS) $(wildcard tests/unit/*.h) $(LIBA)
	@mkdir -p $(dir $@)
	@pkg-config --exists cmocka || { echo "cmocka not found by pkg-config: run make test-deps" >&2; exit 1; }
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(UNIT_HELPERS) \
		$(LIBA) $(LDLIBS_LIB) $(shell pkg-config --libs cmocka)
# test_sumfile builds the CLI's checksum-line reader in (it is not in the library)
$(B)/tests/test_sumfile: src/cli/sumfile.c src/cli/sumfile.h

# Fixture images, made from a fixed file tree; never checked in.
FIXTURES = fixtures/iso9660.iso fixtures/udf.img fixtures/udfbridge.img
fixtures: $(FIXTURES)
fixtures/iso9660.iso: fixtures/make-fixtures.sh $(shell find fixtures/tree -type f 2>/dev/null)
	sh fixtures/make-fixtures.sh iso $@
fixtures/udf.img: fixtures/make-fixtures.sh
	sh fixtures/make-fixtures.sh udf $@
fixtures/udfbridge.img: fixtures/make-fixtures.sh fixtures/udfbridge.py
	sh fixtures/make-fixtures.sh bridge $@

# The unit run also checks that libcdtail(3) documents every public field
# (a new field goes in its STRUCT FIELDS section) and names every public
# function, that the embedded structs are as recorded for the soname
# (tests/abi/embedded.txt), that cdtail-errors(7)'s
# table is the library's (scripts/answer-table.py), and the layer rule.
unit: $(UNIT_BIN) $(FIXTURES)
	@fail=0; for t in $(UNIT_BIN); do \
		CDT_FIXTURES=$(CURDIR)/fixtures $(TEST_WRAPPER) ./$$t || fail=1; \
	done; \
	python3 tests/abi/check-man-fields.py --embedded tests/abi/embedded.txt man/libcdtail.3 $(PUB_HEADERS) || fail=1; \
	python3 scripts/answer-table.py --check man/cdtail-errors.7 || fail=1; \
	python3 scripts/crc-tables.py --check src/lib/cd/crc_tables.h || fail=1; \
	sh tests/abi/check-layers.sh || fail=1; \
	exit $$fail

# The CLI suite runs the CLI linked against libcdtail.so (check-abi makes
# sure it is), so the shared library is what the tests exercise.
cli: $(BIN_SHARED) $(FIXTURES)
	CDTAIL=$(abspath $(BIN_SHARED)) TEST_WRAPPER="$(TEST_WRAPPER)" sh tests/cli/run.sh

# Exported symbols are exactly the headers' functions, each named in
# libcdtail.map's one version node; the shared CLI uses
# libcdtail.so.1 and no internal symbol; libcdtail(3) documents every field
# of every public struct; a struct embedded in another has the fields
# recorded for this soname (tests/abi/embedded.txt: it cannot grow); no
# file includes a header of a layer above it; debian/libcdtail1.symbols is
# the map's (scripts/deb-symbols.sh writes it).
check-abi: $(LIBSO) $(BIN_SHARED)
	sh tests/abi/check-symbols.sh $(LIBSO) libcdtail.map $(BIN_SHARED) -- $(PUB_HEADERS)
	python3 tests/abi/check-man-fields.py --embedded tests/abi/embedded.txt man/libcdtail.3 $(PUB_HEADERS)
	sh tests/abi/check-layers.sh
	sh scripts/deb-symbols.sh --check

test: all $(FIXTURES)
	@$(MAKE) --no-print-directory check-abi
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory cli
	@$(MAKE) --no-print-directory fuzz-regress
ifeq ($(O),.)
	@$(MAKE) --no-print-directory check-install
	@$(MAKE) --no-print-directory check-vm-auto
endif

# Install into a scratch root and build and run a program against the
# installed header, library and pkg-config file.
check-install: all
	@rm -rf $(B)/inst && mkdir -p $(B)/inst
	@$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(B)/inst PREFIX=/opt/cdtail >/dev/null
	@PKG_CONFIG_SYSROOT_DIR=$(CURDIR)/$(B)/inst \
	PKG_CONFIG_PATH=$(CURDIR)/$(B)/inst/opt/cdtail/lib/pkgconfig \
		sh tests/install/check.sh $(CURDIR)/$(B)/inst /opt/cdtail $(CURDIR)/fixtures/iso9660.iso
	@$(MAKE) --no-print-directory uninstall DESTDIR=$(CURDIR)/$(B)/inst PREFIX=/opt/cdtail >/dev/null
	@left=$$(find $(B)/inst ! -type d); if [ -n "$$left" ]; then \
		echo "not ok - uninstall left: $$left"; exit 1; \
	else echo "uninstall: nothing left"; fi

# The Debian package from a clean export of HEAD, lintian, installed for
# real and purged again (root; scripts/check-deb.sh)
check-deb:
	sh scripts/check-deb.sh

deps:
	sh scripts/install-deps.sh build

# the test tools too; leaves no service enabled (scripts/install-deps.sh)
test-deps:
	sh scripts/install-deps.sh build test

# The whole unit and CLI suite under ASan+UBSan, in a separate build; the
# random and matrix tests in their small sets (CDT_SMALL: tests/cli/lib.sh),
# as under valgrind: the plain make test runs their thousands of cases.
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
check-asan:
	$(MAKE) --no-print-directory O=build/asan CFLAGS="-O1 -g" \
		EXTRA_CFLAGS="$(SAN_FLAGS)" EXTRA_LDFLAGS="$(SAN_FLAGS)" all
	ASAN_OPTIONS=exitcode=99:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:exitcode=98 \
	CDT_SMALL=1 $(MAKE) --no-print-directory O=build/asan CFLAGS="-O1 -g" \
		EXTRA_CFLAGS="$(SAN_FLAGS)" EXTRA_LDFLAGS="$(SAN_FLAGS)" test

# The whole unit and CLI suite under valgrind: any error or leak fails it.
VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect --track-fds=no
check-valgrind: all $(FIXTURES)
	$(MAKE) --no-print-directory TEST_WRAPPER="$(VALGRIND)" test

# The sysfs trees the pages' examples use (hazards, probe --all).
SAMPLE_SYSFS = mpath-path-offline disk-flush-disabled rack-sim

# Every page in man/ goes to the section its suffix names: cdtail.1 and
# cdtail-probe.1 into man1, libcdtail.3 into man3, cdtail-sim.7 into man7.
MAN_PAGES = $(sort $(wildcard man/*.1 man/*.3 man/*.7))
man_dest = $(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(1)))/$(notdir $(1))

install: all fixtures/iso9660.iso
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
		$(DESTDIR)$(PCDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(MANDIR)/man7
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/cdtail
	install -m 644 $(LIBA) $(DESTDIR)$(LIBDIR)/libcdtail.a
	install -m 755 $(LIBSO) $(DESTDIR)$(LIBDIR)/libcdtail.so.$(VERSION)
	ln -sf libcdtail.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libcdtail.so
	install -m 644 $(PUB_HEADERS) $(DESTDIR)$(INCDIR)/
	install -d $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 scripts/cdtail-completion.bash $(DESTDIR)$(BASHCOMPDIR)/cdtail
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(VERSION)|' cdtail.pc.in \
		> $(DESTDIR)$(PCDIR)/cdtail.pc
	$(foreach p,$(MAN_PAGES),sed -e 's|/usr/share/cdtail/|$(DATADIR)/|g' \
		-e 's|/usr/share/doc/cdtail/|$(DOCDIR)/|g' $(p) \
		>$(call man_dest,$(p)) && chmod 644 $(call man_dest,$(p)) && ) true
	install -d $(DESTDIR)$(DATADIR)/fixtures/sysfs $(DESTDIR)$(DOCDIR)
	install -m 644 doc/disc-kinds.md $(DESTDIR)$(DOCDIR)/
	install -m 644 fixtures/iso9660.iso $(DESTDIR)$(DATADIR)/fixtures/
	cp -R $(addprefix fixtures/sysfs/,$(SAMPLE_SYSFS)) $(DESTDIR)$(DATADIR)/fixtures/sysfs/

# Removes exactly what install wrote (check-install tests that nothing is left).
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cdtail $(DESTDIR)$(LIBDIR)/libcdtail.a \
		$(DESTDIR)$(LIBDIR)/libcdtail.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/libcdtail.so \
		$(foreach h,$(PUB_HEADERS),$(DESTDIR)$(INCDIR)/$(notdir $(h))) \
		$(DESTDIR)$(BASHCOMPDIR)/cdtail \
		$(DESTDIR)$(PCDIR)/cdtail.pc \
		$(foreach p,$(MAN_PAGES),$(call man_dest,$(p)))
	rm -rf $(DESTDIR)$(DATADIR)/fixtures
	rm -f $(DESTDIR)$(DOCDIR)/disc-kinds.md
	-rmdir $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	rm -rf build libcdtail.a libcdtail.so cdtail cdtail.pc $(FIXTURES)

.PHONY: all test unit cli deps test-deps check-deb install uninstall clean fixtures check-asan check-valgrind check-install check-abi

# Targets that live beside their scripts: fuzzing (make fuzz), the
# real-kernel harness (make check-vm) and the benchmarks (make bench).
-include tests/fuzz/fuzz.mk
-include tests/vm/vm.mk
-include bench/bench.mk

# header dependencies written by -MMD -MP beside each object
-include $(shell find $(B) -name '*.d' 2>/dev/null)
