#!/bin/bash
# A one-node Slurm cluster on loopback for the Slurm executor's tests, everything under DIR:
#   slurm_cluster.sh start DIR [GPUS]   writes DIR/etc/slurm.conf, starts munged, slurmctld and
#                                       slurmd (pid files under DIR), waits for the node to be idle
#                                       and prints SLURM_CONF=DIR/etc/slurm.conf
#   slurm_cluster.sh stop DIR           cancels the jobs, stops exactly the daemons it started
#                                       (by their pid files), then any job process still carrying
#                                       this DIR's SLURM_CONF
#   slurm_cluster.sh available          exit 0 where the Slurm and munge programs are installed
# The node gets GPUS fake GPUs (character devices under DIR/dev) for --gres=gpu scheduling.
set -u
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

need=(munged slurmctld slurmd sbatch squeue scontrol scancel sinfo mknod)

available() {
  local p
  for p in "${need[@]}"; do
    command -v "$p" >/dev/null 2>&1 || { echo "missing: $p"; return 1; }
  done
  [ "$(id -u)" -eq 0 ] || { echo "not root: slurmd must run as root here"; return 1; }
  return 0
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  local dir=$1 gpus=${2:-2}
  available >&2 || exit 3
  mkdir -p "$dir"/{etc,munge,state,spool,log,run,dev} || exit 1
  dir=$(cd "$dir" && pwd)
  local conf=$dir/etc/slurm.conf host cpus mem p1 p2 first
  host=$(hostname -s)
  # More CPUs than the machine has (config_overrides): the tests' jobs queue on GPUs, not cores.
  cpus=8
  mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -1)
  mem=$((mem * 9 / 10))
  # Ports of its own: two free ones drawn at random.
  for _ in $(seq 50); do
    p1=$((20000 + RANDOM % 30000)); p2=$((p1 + 1))
    port_free "$p1" && port_free "$p2" && break
  done
  first=$(( (p1 % 600) * 100000 + 1000 ))  # job ids (and their cgroups) apart from another cluster's
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 0400 "$dir/munge/munge.key"
  local gres_line=""
  : > "$dir/etc/gres.conf"
  if [ "$gpus" -gt 0 ]; then
    gres_line="Gres=gpu:$gpus"
    for i in $(seq 0 $((gpus - 1))); do
      mknod "$dir/dev/nvidia$i" c 1 3 || exit 1
    done
    echo "NodeName=$host Name=gpu File=$dir/dev/nvidia[0-$((gpus - 1))]" > "$dir/etc/gres.conf"
  fi
  cat > "$dir/etc/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v1
ConstrainCores=no
ConstrainRAMSpace=no
ConstrainDevices=no
EOF
  cat > "$conf" <<EOF
ClusterName=jbtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$p1
SlurmdPort=$p2
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
ProctrackType=proctrack/cgroup
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=256
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
SchedulerParameters=batch_sched_delay=0
KillWait=2
MinJobAge=3600
FirstJobId=$first
GresTypes=gpu
MailProg=/bin/true
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem $gres_line State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$conf
  munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed" || exit 1
  slurmctld -i -f "$conf" || { stop "$dir"; exit 1; }
  slurmd -f "$conf" || { stop "$dir"; exit 1; }
  for _ in $(seq 200); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
      echo "SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.05
  done
  echo "the node did not become idle; sinfo says: $(sinfo -h -o '%T %E' 2>&1)" >&2
  stop "$dir"
  exit 1
}

stop_pidfile() {
  local f=$1 pid
  [ -s "$f" ] || return 0
  pid=$(cat "$f")
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null
}

stop() {
  local dir
  dir=$(cd "$1" 2>/dev/null && pwd) || return 0
  export SLURM_CONF=$dir/etc/slurm.conf
  if [ -s "$dir/run/slurmctld.pid" ] && kill -0 "$(cat "$dir/run/slurmctld.pid")" 2>/dev/null; then
    timeout 5 scancel --user=root >/dev/null 2>&1
  fi
  # slurmd first: with slurmctld gone it ignores SIGTERM for a long while.
  stop_pidfile "$dir/run/slurmd.pid"
  stop_pidfile "$dir/run/slurmctld.pid"
  # slurmstepd and job processes of this cluster only: they carry its SLURM_CONF (slurmd's
  # environment, and the submitter's exported into the job).
  local p
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = "$$" ] && continue
    if tr '\0' '\n' 2>/dev/null < "$p/environ" | grep -qxF "SLURM_CONF=$SLURM_CONF"; then
      kill -KILL "${p#/proc/}" 2>/dev/null
    fi
  done
  stop_pidfile "$dir/run/munged.pid"
  return 0
}

case "${1:-}" in
  available) available ;;
  start) start "${2:?DIR}" "${3:-2}" ;;
  stop) stop "${2:?DIR}" ;;
  *) echo "usage: $0 start DIR [GPUS] | stop DIR | available" >&2; exit 2 ;;
esac
