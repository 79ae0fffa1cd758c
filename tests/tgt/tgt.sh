# A private tgtd on 127.0.0.1 for tests; source it (POSIX sh).
#
#   tgt_start DIR      start tgtd, its IPC socket and log in DIR, on a free
#                      port; sets TGT_PID, TGT_PORT, exports TGT_IPC_SOCKET
#   tgt_lun TID FILE   a new target (IQN in TGT_IQN) with FILE as CD LUN 1,
#                      open to 127.0.0.1; sets TGT_IQN and TGT_URL
#   tgt_del TID        take the target offline and delete it
#   tgt_stop           shut tgtd down and reap it (safe to call twice)
#
# Every function returns non-zero with a message on stderr when tgt does
# not do what was asked.  tgtd ignores SIGTERM: only SIGINT/SIGKILL or
# "tgtadm --op delete --mode system" stop it.

TGT_PID=
TGT_PORT=

# A port that nothing listens on right now, below the kernel's ephemeral
# range: a connect to 127.0.0.1 on a port in that range can pick the same
# port as its own source and connect to itself (TCP simultaneous open), so
# "nothing listening" answered a login instead of "Connection refused"
# (test_iscsi_tgt, seen once in CI's run of it).
tgt_pick_port() {
	low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
	[ "${low:-0}" -gt 11000 ] 2>/dev/null || low=32768
	while :; do
		n=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
		p=$((10000 + n % (low - 10000)))
		if [ -z "$(ss -ltnH "sport = :$p" 2>/dev/null)" ]; then
			echo "$p"
			return 0
		fi
	done
}

# tgt_wait_ready: up to 5 s for tgtadm to answer and the portal to listen.
tgt_wait_ready() {
	i=0
	while [ $i -lt 50 ]; do
		if ! tgt_alive; then
			return 1
		fi
		if tgtadm --op show --mode sys >/dev/null 2>&1 &&
		   ss -ltnpH "sport = :$TGT_PORT" 2>/dev/null | grep -q "pid=$TGT_PID,"; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# tgt_alive: tgtd runs (a zombie, exited but not reaped yet, does not)
tgt_alive() {
	[ -n "$TGT_PID" ] && [ -r "/proc/$TGT_PID/stat" ] &&
		! grep -q '^[0-9]* ([^)]*) Z' "/proc/$TGT_PID/stat" 2>/dev/null
}

tgt_kill() {
	[ -n "$TGT_PID" ] || return 0
	kill -INT "$TGT_PID" 2>/dev/null
	i=0
	while tgt_alive && [ $i -lt 20 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -KILL "$TGT_PID" 2>/dev/null
	wait "$TGT_PID" 2>/dev/null
	TGT_PID=
}

tgt_start() {
	if ! command -v tgtd >/dev/null 2>&1 || ! command -v tgtadm >/dev/null 2>&1; then
		echo "tgtd/tgtadm not found: install Debian's tgt (make test-deps)" >&2
		return 1
	fi
	export TGT_IPC_SOCKET="$1/tgtd.sock"
	for try in 1 2 3 4 5; do
		TGT_PORT=$(tgt_pick_port)
		# a port taken meanwhile makes tgtd log a bind error and go on
		# running without a portal: check the listener is ours
		tgtd -f --iscsi portal=127.0.0.1:"$TGT_PORT" >"$1/tgtd.log" 2>&1 &
		TGT_PID=$!
		if tgt_wait_ready; then
			return 0
		fi
		tgt_kill
	done
	echo "tgtd did not start; its log:" >&2
	cat "$1/tgtd.log" >&2
	return 1
}

tgt_lun() {
	TGT_IQN="iqn.2026-12.org.cdtail:test$1"
	TGT_URL="iscsi://127.0.0.1:$TGT_PORT/$TGT_IQN/1"
	tgtadm --lld iscsi --op new --mode target --tid "$1" \
		--targetname "$TGT_IQN" >&2 &&
	tgtadm --lld iscsi --op new --mode logicalunit --tid "$1" --lun 1 \
		--backing-store "$2" --device-type cd >&2 &&
	tgtadm --lld iscsi --op bind --mode target --tid "$1" \
		--initiator-address 127.0.0.1 >&2
}

tgt_del() {
	tgtadm --lld iscsi --op update --mode target --tid "$1" \
		--name State --value offline >/dev/null 2>&1
	tgtadm --lld iscsi --op delete --mode target --tid "$1" --force >&2
}

tgt_stop() {
	[ -n "$TGT_PID" ] || return 0
	# tgtd refuses to shut down (and ignores SIGINT) while targets exist
	for tid in $(tgtadm --lld iscsi --op show --mode target 2>/dev/null |
		     sed -n 's/^Target \([0-9]*\):.*/\1/p'); do
		tgt_del "$tid" 2>/dev/null
	done
	tgtadm --op delete --mode system >/dev/null 2>&1
	i=0
	while tgt_alive && [ $i -lt 20 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	tgt_kill
}
