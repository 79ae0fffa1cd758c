# Harness self-test: the guest panics (run.sh --selftest expects a failure).
note "crashing the kernel"
echo c >/proc/sysrq-trigger
sleep 30
