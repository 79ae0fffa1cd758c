# The real-kernel harness (issue 5, part 3); included by the Makefile.
#   make check-vm        boot the Debian kernel in QEMU and run cdtail inside
#   make check-vm-auto   the same when qemu-system-x86_64 is installed, else a note;
#                        also a note under TEST_WRAPPER (check-valgrind: the guest
#                        has no valgrind), so `make test` can always call it
# VM_CASES picks cases (default all), e.g. make check-vm VM_CASES="iscsi".
VM_CASES ?=
check-vm: $(BIN)
	CDTAIL=$(abspath $(BIN)) sh tests/vm/run.sh $(VM_CASES)

check-vm-auto: $(BIN)
	@if [ -n "$(TEST_WRAPPER)" ]; then \
		echo "vm: skipped under TEST_WRAPPER (run make check-vm)"; \
	elif command -v qemu-system-x86_64 >/dev/null 2>&1; then \
		CDTAIL=$(abspath $(BIN)) sh tests/vm/run.sh $(VM_CASES); \
	else echo "vm: skipped, qemu-system-x86_64 is not installed (make test-deps)"; fi

.PHONY: check-vm check-vm-auto
