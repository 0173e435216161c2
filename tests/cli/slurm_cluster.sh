# A one-node Slurm cluster on localhost, in a directory of its own: sourced by the Slurm tests.
# slurm_cluster_start DIR starts munged, slurmctld and slurmd there and exports SLURM_CONF;
# slurm_cluster_stop stops them (call it from a trap). Needs Debian's slurmctld, slurmd,
# slurm-client and munge, and root (slurmd runs jobs as their users).

# A port nothing listens on: a random one above the ephemeral range's usual start that refuses a
# connection.
slurm_free_port() {
    local port
    while :; do
        port=$((20000 + RANDOM % 12000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
}

slurm_cluster_start() {
    local dir=$1
    SLURM_CLUSTER_DIR=$dir
    mkdir -p "$dir"/munge "$dir"/state "$dir"/spool "$dir"/log
    chmod 700 "$dir"/munge
    # A key of the cluster's own, so it cannot talk to a munged of the host.
    head -c 1024 /dev/urandom >"$dir"/munge/munge.key
    chmod 400 "$dir"/munge/munge.key
    local munge_user
    munge_user=$(id -un)
    munged --force --key-file="$dir"/munge/munge.key --socket="$dir"/munge/munge.socket \
        --pid-file="$dir"/munge/munged.pid --log-file="$dir"/log/munged.log \
        --seed-file="$dir"/munge/munged.seed || return 1

    local ctld_port slurmd_port cpus mem
    ctld_port=$(slurm_free_port)
    slurmd_port=$(slurm_free_port)
    cpus=$(nproc)
    mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
    cat >"$dir"/slurm.conf <<CONF
ClusterName=memwalltest
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$munge_user
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket,cred_expire=5
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SwitchType=switch/none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
MinJobAge=300
KillWait=5
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
JobRequeue=1
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -f "$SLURM_CONF" -i || return 1
    slurmd -f "$SLURM_CONF" -N localhost || return 1
    local i
    for i in $(seq 1 100); do
        if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then return 0; fi
        sleep 0.2
    done
    echo "slurm: the node did not come up" >&2
    sinfo >&2 || true
    tail -20 "$dir"/log/slurmctld.log "$dir"/log/slurmd.log >&2 || true
    return 1
}

# Stops what slurm_cluster_start started: its jobs first, then the daemons by the ids in their
# pid files, then any job step daemon (slurmstepd) still holding a file of the cluster's directory,
# which outlives slurmd.
slurm_cluster_stop() {
    local dir=${SLURM_CLUSTER_DIR:-}
    [ -n "$dir" ] || return 0
    local f pid
    if [ -n "$(squeue -h 2>/dev/null)" ]; then
        scancel --quiet --user="$(id -un)" 2>/dev/null || true
        for _ in $(seq 1 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
    fi
    for f in "$dir"/slurmd-*.pid "$dir"/slurmctld.pid "$dir"/munge/munged.pid; do
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    for pid in $(pgrep -x slurmstepd || true); do
        if ls -l "/proc/$pid/cwd" "/proc/$pid/fd" 2>/dev/null | grep -q -- "$dir/"; then
            kill -9 "$pid" 2>/dev/null || true
        fi
    done
}
