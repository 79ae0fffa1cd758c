# Harness self-test: the guest hangs (run.sh --selftest expects a timeout).
note "hanging"
sleep 600
