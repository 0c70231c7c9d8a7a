#!/usr/bin/env bash
# A SLURM cluster on this one machine, for the SLURM tests and benchmark: Debian's slurm-wlm 22.05 with
# slurmdbd on a MariaDB of its own, munged with its own key, all under one state folder this script owns.
#
#   scripts/slurm_cluster.sh up       install what is missing (apt-get), configure, start, wait until ready
#   scripts/slurm_cluster.sh down     stop exactly the processes `up` started (by pid), remove the state folder
#   scripts/slurm_cluster.sh status   one line: up (with SLURM_CONF and the partition) or not
#   scripts/slurm_cluster.sh run CMD  `up` if not up, CMD with SLURM_CONF set, then `down` if it brought it up
#                                     (also when CMD or `up` fails: a trap); exits with CMD's status
#
# Knobs (environment): SLURM_STATE_DIR (default /tmp/outcome-monitors-slurm), SLURM_PORT_BASE (default 16817:
# slurmctld, slurmd, slurmdbd and MariaDB take it and the next three), SLURM_PARTITION (default local).
# No systemd and no cgroups are needed: process tracking is proctrack/linuxproc and every daemon runs as root
# in the foreground of a process of its own. Every failure is one line naming what failed and its log.
set -Eeuo pipefail

STATE=${SLURM_STATE_DIR:-/tmp/outcome-monitors-slurm}
PORT_BASE=${SLURM_PORT_BASE:-16817}
PARTITION=${SLURM_PARTITION:-local}
CLUSTER=omlocal # becomes MariaDB table names: lower case letters only
CONF=$STATE/etc/slurm.conf
LOG=$STATE/log
RUN=$STATE/run
PORT_CTLD=$PORT_BASE
PORT_SLURMD=$((PORT_BASE + 1))
PORT_DBD=$((PORT_BASE + 2))
PORT_DB=$((PORT_BASE + 3))
DAEMONS=(mariadb munged slurmdbd slurmctld slurmd) # start order; stopped in reverse
PACKAGES=(slurm-wlm slurmdbd munge mariadb-server)
WAIT_S=${SLURM_WAIT_S:-90}
ME="slurm-${1:-}"

die() {
	echo "$ME: $*" >&2
	exit 1
}

usage() {
	echo "usage: $0 up | down | status | run CMD [ARGS...]" >&2
	exit 2
}

# The binary a daemon runs as, to check that a recorded pid is still that daemon before signalling it.
# Debian's slurmctld, slurmd and slurmstepd are alternatives symlinks (to slurmctld-wlm...): compare the real file.
binary() {
	case $1 in
	mariadb) readlink -f /usr/sbin/mariadbd ;;
	*) readlink -f "/usr/sbin/$1" ;;
	esac
}

# The pid `up` recorded for a daemon, if that process is alive and still runs that daemon's binary.
live_pid() {
	local pid
	pid=$(cat "$RUN/$1.pid" 2>/dev/null) || return 1
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	[[ $(readlink "/proc/$pid/exe" 2>/dev/null) == "$(binary "$1")" ]] || return 1
	echo "$pid"
}

all_alive() {
	local d
	for d in "${DAEMONS[@]}"; do live_pid "$d" >/dev/null || return 1; done
}

# What is left of this cluster's jobs once its daemons are gone: slurmstepd processes and the jobs' own
# processes, both with SLURM_CONF naming this cluster's configuration in their environment (slurmd sets it).
our_leftovers() {
	local pid env stepd
	stepd=$(binary slurmstepd)
	for pid in $(ls /proc | grep -E '^[0-9]+$'); do
		((pid == $$)) && continue
		env=$(tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ") || continue
		grep -qxF "SLURM_CONF=$CONF" <<<"$env" || continue
		if [[ $(readlink "/proc/$pid/exe" 2>/dev/null) == "$stepd" ]] || grep -q '^SLURM_JOB_ID=' <<<"$env"; then
			echo "$pid"
		fi
	done
}

# A process that has exited but is not yet reaped (a zombie: `run` is the parent of what its `up` started)
# has no executable any more: that counts as gone.
running() { readlink "/proc/$1/exe" >/dev/null 2>&1; }

stop_pid() { # pid name: SIGTERM, up to 20 s, then SIGKILL
	local pid=$1 i
	kill -TERM "$pid" 2>/dev/null || return 0
	for ((i = 0; i < 200; i++)); do
		running "$pid" || break
		sleep 0.1
	done
	if ! running "$pid"; then
		wait "$pid" 2>/dev/null || true # reaped here when it is this shell's child
		return 0
	fi
	echo "$ME: $2 (pid $pid) ignored SIGTERM for 20 s; killed" >&2
	kill -KILL "$pid" 2>/dev/null || true
}

# Stops what `up` started: this cluster's jobs first (so their steps end), then the daemons in reverse order.
stop_all() {
	local pid d i
	if live_pid slurmctld >/dev/null && live_pid slurmd >/dev/null; then
		SLURM_CONF=$CONF scancel --quiet --partition="$PARTITION" 2>/dev/null || true
		for ((i = 0; i < 150; i++)); do
			[[ -z $(SLURM_CONF=$CONF squeue -h -o %i 2>/dev/null) ]] && break
			sleep 0.2
		done
	fi
	for ((i = ${#DAEMONS[@]} - 1; i >= 0; i--)); do
		d=${DAEMONS[i]}
		if pid=$(live_pid "$d"); then stop_pid "$pid" "$d"; fi
	done
	# a job step (or a job's process) that outlived its cancellation is this cluster's too
	for pid in $(our_leftovers); do stop_pid "$pid" "a job process of this cluster"; done
}

install_packages() {
	local missing=() b
	for b in slurmctld slurmd slurmdbd munged mariadbd mariadb-install-db sbatch sacct; do
		command -v "$b" >/dev/null 2>&1 || [[ -x /usr/sbin/$b ]] || missing+=("$b")
	done
	((${#missing[@]} == 0)) && return 0
	command -v apt-get >/dev/null || die "${missing[*]} missing and no apt-get here: install ${PACKAGES[*]}"
	[[ $(id -u) == 0 ]] || die "${missing[*]} missing and not root: install ${PACKAGES[*]} (apt-get)"
	mkdir -p "$STATE/log"
	echo "$ME: installing ${PACKAGES[*]} (apt-get; log $STATE/log/apt.log)"
	# Debian's postinst scripts would start the packages' own daemons: a policy forbids that for this install
	local policy=/usr/sbin/policy-rc.d ours=0
	if [[ ! -e $policy ]]; then
		printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && ours=1
	fi
	local ok=1
	{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${PACKAGES[@]}"; } >"$STATE/log/apt.log" 2>&1 || ok=0
	((ours)) && rm -f "$policy"
	((ok)) || die "apt-get install ${PACKAGES[*]} failed; its log: $STATE/log/apt.log"
}

port_free() { ! (: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start NAME LOGFILE CMD...: one daemon in the foreground of its own session, its pid recorded
start() {
	local name=$1 logfile=$2
	shift 2
	setsid "$@" </dev/null >>"$logfile" 2>&1 &
	echo $! >"$RUN/$name.pid"
}

# wait_for WHAT LOGFILE DAEMON CMD...: until CMD succeeds; fails (one line) if DAEMON died or after WAIT_S
wait_for() {
	local what=$1 logfile=$2 daemon=$3 t0=$SECONDS
	shift 3
	until "$@" >/dev/null 2>&1; do
		live_pid "$daemon" >/dev/null || fail "$daemon exited before $what" "$logfile"
		((SECONDS - t0 < WAIT_S)) || fail "$what: not within ${WAIT_S} s" "$logfile"
		sleep 0.2
	done
}

# A failure during `up`: stop what was started, keep the folder for its logs, say where to look.
fail() {
	trap - ERR
	stop_all
	die "$1; its log: $2 (the state folder stays for its logs; $0 down removes it)"
}

write_configs() {
	local node cpus mem margin pass
	node=$(hostname -s)
	# this machine as it is: slurmd -C prints the node line (CPUs, boards, sockets, cores, threads, memory)
	cpus=$(slurmd -C | head -1 | sed -E 's/^NodeName=[^ ]+ //; s/ RealMemory=[0-9]+//')
	mem=$(slurmd -C | head -1 | sed -E 's/.*RealMemory=([0-9]+).*/\1/')
	margin=$((mem / 10 > 1024 ? mem / 10 : 1024)) # the OS, the daemons and MariaDB keep this much
	pass=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	cat >"$CONF" <<EOF
# Written by scripts/slurm_cluster.sh: one machine as controller and compute node; no systemd, no cgroups.
ClusterName=$CLUSTER
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$STATE/munge/munge.socket
CredType=cred/munge
SlurmctldPort=$PORT_CTLD
SlurmdPort=$PORT_SLURMD
StateSaveLocation=$STATE/slurm/ctld
SlurmdSpoolDir=$STATE/slurm/spool
SlurmctldPidFile=$RUN/slurmctld.daemon.pid
SlurmdPidFile=$RUN/slurmd.daemon.pid
SlurmctldLogFile=$LOG/slurmctld.log
SlurmdLogFile=$LOG/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=$node
AccountingStoragePort=$PORT_DBD
# the munge socket for talking to slurmdbd (AuthInfo is not used there; without this, munge's default socket)
AccountingStoragePass=$STATE/munge/munge.socket
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
JobRequeue=1
KillWait=10
SchedulerType=sched/backfill
NodeName=$node NodeAddr=127.0.0.1 $cpus RealMemory=$((mem - margin)) State=UNKNOWN
PartitionName=$PARTITION Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
	cat >"$STATE/etc/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$STATE/munge/munge.socket
DbdHost=$node
DbdAddr=127.0.0.1
DbdPort=$PORT_DBD
SlurmUser=root
LogFile=$LOG/slurmdbd.log
PidFile=$RUN/slurmdbd.daemon.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$PORT_DB
StorageUser=slurm
StoragePass=$pass
StorageLoc=slurm_acct_db
EOF
	chmod 600 "$STATE/etc/slurmdbd.conf" # slurmdbd refuses a readable one: it holds the password
	echo "$pass" >"$STATE/etc/db.pass"
	chmod 600 "$STATE/etc/db.pass"
}

sql() { mariadb --no-defaults --socket="$STATE/mysql/mysqld.sock" -u root "$@"; }

up() {
	if [[ -d $STATE ]]; then
		if all_alive && SLURM_CONF=$CONF sinfo -h >/dev/null 2>&1; then
			echo "$ME: already up (SLURM_CONF=$CONF, partition $PARTITION)"
			return 0
		fi
		echo "$ME: $STATE holds a cluster that is not (all) running: stopping what is left and starting anew"
		stop_all
		rm -rf "$STATE"
	fi
	install_packages
	local p
	for p in "$PORT_CTLD" "$PORT_SLURMD" "$PORT_DBD" "$PORT_DB"; do
		port_free "$p" || die "port $p on 127.0.0.1 is taken: set SLURM_PORT_BASE to a free range of four ports"
	done
	mkdir -p "$STATE"/{etc,log,run,munge,mysql/data,mysql/tmp,slurm/ctld,slurm/spool}
	chmod 755 "$STATE"
	chmod 711 "$STATE/munge" # munged refuses a key folder others can write, and warns of one they cannot pass
	trap 'fail "\"$BASH_COMMAND\" failed (line $LINENO)" "$LOG"' ERR
	write_configs

	# MariaDB: a data folder, socket and TCP port of its own (loopback only)
	mariadb-install-db --no-defaults --user=root --datadir="$STATE/mysql/data" --auth-root-authentication-method=socket \
		--skip-test-db >"$LOG/mariadb-install.log" 2>&1 || fail "mariadb-install-db failed" "$LOG/mariadb-install.log"
	start mariadb "$LOG/mariadb.log" /usr/sbin/mariadbd --no-defaults --user=root --datadir="$STATE/mysql/data" \
		--tmpdir="$STATE/mysql/tmp" --socket="$STATE/mysql/mysqld.sock" --pid-file="$RUN/mariadb.daemon.pid" \
		--port="$PORT_DB" --bind-address=127.0.0.1 --skip-name-resolve --innodb-buffer-pool-size=128M \
		--innodb-log-file-size=64M --innodb-lock-wait-timeout=900 --log-error="$LOG/mariadb.log"
	wait_for "MariaDB answering" "$LOG/mariadb.log" mariadb sql -e "select 1"
	sql -e "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$(cat "$STATE/etc/db.pass")';
		GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" 2>>"$LOG/mariadb.log" ||
		fail "creating MariaDB's slurm user failed" "$LOG/mariadb.log"

	# munged: its own key, socket, pid, log and seed files
	dd if=/dev/urandom of="$STATE/munge/munge.key" bs=1024 count=1 status=none
	chmod 400 "$STATE/munge/munge.key"
	start munged "$LOG/munged.log" /usr/sbin/munged --foreground --force --socket="$STATE/munge/munge.socket" \
		--key-file="$STATE/munge/munge.key" --pid-file="$RUN/munged.daemon.pid" --log-file="$LOG/munged.log" \
		--seed-file="$STATE/munge/munged.seed"
	wait_for "munged answering" "$LOG/munged.log" munged \
		bash -c "munge -n -S '$STATE/munge/munge.socket' | unmunge -S '$STATE/munge/munge.socket'"

	# slurmdbd, then the cluster registered in it, then the controller and the node
	# slurmdbd has no -f: it reads slurmdbd.conf beside the slurm.conf that SLURM_CONF names
	start slurmdbd "$LOG/slurmdbd.log" env SLURM_CONF="$CONF" /usr/sbin/slurmdbd -D
	wait_for "slurmdbd answering" "$LOG/slurmdbd.log" slurmdbd env SLURM_CONF="$CONF" sacctmgr -n list cluster
	SLURM_CONF=$CONF sacctmgr -i add cluster "$CLUSTER" >>"$LOG/slurmdbd.log" 2>&1 ||
		fail "sacctmgr add cluster $CLUSTER failed" "$LOG/slurmdbd.log"
	start slurmctld "$LOG/slurmctld.log" /usr/sbin/slurmctld -D -i -f "$CONF"
	wait_for "slurmctld answering" "$LOG/slurmctld.log" slurmctld env SLURM_CONF="$CONF" scontrol ping
	start slurmd "$LOG/slurmd.log" /usr/sbin/slurmd -D -f "$CONF"
	wait_for "node $(hostname -s) idle in partition $PARTITION" "$LOG/slurmd.log" slurmd \
		bash -c "[[ \$(SLURM_CONF='$CONF' sinfo -h -p '$PARTITION' -o %t) == idle ]]"
	wait_for "sacct answering" "$LOG/slurmdbd.log" slurmdbd env SLURM_CONF="$CONF" sacct -n -X -S now-1minutes
	trap - ERR
	echo "$ME: up: export SLURM_CONF=$CONF; partition $PARTITION ($(hostname -s): $(nproc) CPUs); logs in $LOG"
}

down() {
	if [[ ! -d $STATE ]]; then
		echo "$ME: nothing to stop ($STATE does not exist)"
		return 0
	fi
	stop_all
	rm -rf "$STATE"
	echo "$ME: down ($STATE removed)"
}

status() {
	if [[ -d $STATE ]] && all_alive && SLURM_CONF=$CONF sinfo -h >/dev/null 2>&1; then
		echo "$ME: up: export SLURM_CONF=$CONF; partition $PARTITION"
	else
		echo "$ME: not up"
		return 1
	fi
}

run() {
	(($# > 0)) || usage
	local brought=0 code=0
	if ! status >/dev/null 2>&1; then brought=1; fi
	# taken down on every exit path (a failed `up` too) when this run brought it up; a cluster that was up stays up
	trap '((brought)) && ME=slurm-down down' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	ME=slurm-up up
	SLURM_CONF=$CONF SLURM_PARTITION=$PARTITION "$@" || code=$?
	exit "$code"
}

case ${1:-} in
up) up ;;
down) down ;;
status) status ;;
run)
	shift
	run "$@"
	;;
*) usage ;;
esac
