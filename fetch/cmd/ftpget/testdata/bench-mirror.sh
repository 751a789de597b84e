#!/bin/sh
# bench-mirror.sh: ftpget --mirror -P 8 against lftp mirror --parallel=8
# and wget -m, interleaved, on a 1,000-file tree (20 directories of 50
# files, 1-64 KiB) served by vsftpd (LIST) and ProFTPD (MLSD) at 20 ms
# RTT; and fetch.Client.Walk against lftp's find (issue 26, point 5).
# Not part of go test: run it by hand, as root (the servers need it),
# from fetch/cmd/ftpget:
#
#	sh testdata/bench-mirror.sh            # ROUNDS=3 by default
#
# The servers are the Debian packages that fetch/testdata/
# install-servers.sh unpacks under $FTPURL_SERVERS (/opt/ftpurl-servers).
#
# The delay: tc netem in a network namespace where the kernel has netem
# (sch_netem); else (this script says which) testdata/benchtool's proxy,
# which holds every chunk of every connection, control and data, 10 ms
# each way, and opens each connection to the server 10 ms late. Each
# tool reaches the server through the same path.
set -eu
ROUNDS=${ROUNDS:-3}
SERVERS=${FTPURL_SERVERS:-/opt/ftpurl-servers}
HERE=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/ftpget-bench.XXXXXX)
chmod 755 "$WORK"
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT INT TERM

command -v lftp >/dev/null || { echo "lftp is missing (apt-get install lftp)" >&2; exit 1; }
(cd "$HERE" && go build -o "$WORK/ftpget" . && go build -o "$WORK/benchtool" ./testdata/benchtool)

# The tree: 20 directories of 50 files, 1-64 KiB, the same every run.
python3 - "$WORK/tree" <<'PY'
import os, random, sys
root = sys.argv[1]
rnd = random.Random(26)
for d in range(20):
    p = os.path.join(root, "d%02d" % d)
    os.makedirs(p)
    for f in range(50):
        with open(os.path.join(p, "f%02d.bin" % f), "wb") as out:
            out.write(rnd.randbytes(rnd.randint(1, 64) * 1024))
PY
chmod -R a+rX "$WORK/tree"

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

VSFTPD_PORT=$(port)
mkdir "$WORK/empty"
cat > "$WORK/vsftpd.conf" <<CONF
listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port=$VSFTPD_PORT
background=NO
seccomp_sandbox=NO
anonymous_enable=YES
no_anon_password=YES
anon_root=$WORK/tree
local_enable=NO
write_enable=NO
secure_chroot_dir=$WORK/empty
pasv_enable=YES
pasv_address=127.0.0.1
pasv_min_port=41000
pasv_max_port=41999
dirmessage_enable=NO
max_per_ip=0
max_clients=0
xferlog_enable=NO
CONF
"$SERVERS/root/usr/sbin/vsftpd" "$WORK/vsftpd.conf" </dev/null >"$WORK/vsftpd.log" 2>&1 &
pids="$pids $!"

PROFTPD_PORT=$(port)
cat > "$WORK/proftpd.conf" <<CONF
ServerName "bench"
ServerType standalone
DefaultServer on
Port $PROFTPD_PORT
DefaultAddress 127.0.0.1
SocketBindTight on
UseIPv6 off
User nobody
Group nogroup
PidFile $WORK/proftpd.pid
ScoreboardFile $WORK/proftpd.scoreboard
DelayTable none
WtmpLog off
AuthPAM off
AuthOrder mod_auth_unix.c
RequireValidShell off
UseReverseDNS off
PassivePorts 42000 42999
MaxInstances 100
<Anonymous $WORK/tree>
  User ftp
  Group nogroup
  UserAlias anonymous ftp
  RequireValidShell off
  MaxClients 100
</Anonymous>
CONF
"$SERVERS/root/usr/sbin/proftpd" -n -q -c "$WORK/proftpd.conf" >"$WORK/proftpd.log" 2>&1 &
pids="$pids $!"
sleep 1

# 20 ms RTT: netem if the kernel has it, else the proxy.
if ip netns add ftpget-bench-probe 2>/dev/null; then
	if ip netns exec ftpget-bench-probe tc qdisc add dev lo root netem delay 10ms 2>/dev/null; then
		echo "note: this kernel has netem; this script still uses the proxy so that its figures compare" >&2
	fi
	ip netns del ftpget-bench-probe
fi
echo "delay: no tc netem in this kernel (\"Specified qdisc kind is unknown\"): benchtool proxy, 10 ms each way on control and data connections"
VSFTPD_PROXY=$(port)
"$WORK/benchtool" proxy 127.0.0.1:$VSFTPD_PROXY 127.0.0.1:$VSFTPD_PORT 10ms &
pids="$pids $!"
PROFTPD_PROXY=$(port)
"$WORK/benchtool" proxy 127.0.0.1:$PROFTPD_PROXY 127.0.0.1:$PROFTPD_PORT 10ms &
pids="$pids $!"
sleep 0.5

if [ "${BENCH_SERVE_ONLY:-}" = 1 ]; then
	# For experiments: the delayed servers, until interrupted.
	echo "vsftpd ftp://127.0.0.1:$VSFTPD_PROXY/ proftpd ftp://127.0.0.1:$PROFTPD_PROXY/ ftpget $WORK/ftpget"
	sleep 100000
fi

now() { date +%s.%N; }
# run TOOL SERVER PORT: one timed mirror into a fresh directory; prints
# the seconds, after checking that 1,000 files came, byte for byte.
run() {
	out="$WORK/out"
	rm -rf "$out"
	mkdir "$out"
	url="ftp://127.0.0.1:$3/"
	t0=$(now)
	case $1 in
	ftpget) "$WORK/ftpget" --mirror "$out" -P 8 "$url" 2>"$WORK/ftpget.err" ;;
	lftp) lftp -c "set net:max-retries 2; set cmd:fail-exit yes; open -u anonymous,bench@ $url; mirror --parallel=8 / $out" >/dev/null 2>&1 ;;
	wget) (cd "$out" && wget -m -nH -q "$url") ;;
	esac
	t1=$(now)
	rm -f "$out/.listing" "$out"/*/.listing
	n=$(find "$out" -type f | wc -l)
	if [ "$n" -ne 1000 ] || ! diff -r -q "$WORK/tree" "$out" >/dev/null; then
		echo "$1 on $2: $n files, or they differ from the tree" >&2
		exit 1
	fi
	echo "$t1 - $t0" | bc
}

results="$WORK/results"
: >"$results"
for round in $(seq "$ROUNDS"); do
	for server in vsftpd proftpd; do
		p=$VSFTPD_PROXY
		[ $server = proftpd ] && p=$PROFTPD_PROXY
		for tool in ftpget lftp wget; do
			s=$(run $tool $server $p)
			echo "$server $tool $s" >>"$results"
			echo "round $round: $server $tool ${s}s"
		done
		w=$("$WORK/benchtool" walk "ftp://127.0.0.1:$p/" | awk '{print $3}')
		t0=$(now)
		lftp -c "open -u anonymous,bench@ ftp://127.0.0.1:$p/; find /" >/dev/null
		f=$(echo "$(now) - $t0" | bc)
		echo "$server walk $w" >>"$results"
		echo "$server find $f" >>"$results"
		echo "round $round: $server Walk ${w}s, lftp find ${f}s"
	done
done

echo
echo "median of $ROUNDS rounds, 1,000 files (20 directories), 20 ms RTT:"
for server in vsftpd proftpd; do
	med() { grep "^$server $1 " "$results" | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
	g=$(med ftpget); l=$(med lftp); w=$(med wget); wk=$(med walk); fd=$(med find)
	printf '%-8s ftpget --mirror -P 8 %6.2fs %6.1f files/s; lftp mirror --parallel=8 %6.2fs %6.1f files/s (ftpget %.2fx); wget -m %6.2fs %6.1f files/s (ftpget %.2fx)\n' \
		$server "$g" "$(echo "1000/$g" | bc -l)" "$l" "$(echo "1000/$l" | bc -l)" "$(echo "$l/$g" | bc -l)" "$w" "$(echo "1000/$w" | bc -l)" "$(echo "$w/$g" | bc -l)"
	printf '%-8s Walk %.2fs, lftp find %.2fs (Walk %.2fx)\n' $server "$wk" "$fd" "$(echo "$fd/$wk" | bc -l)"
done
