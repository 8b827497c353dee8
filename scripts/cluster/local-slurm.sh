#!/usr/bin/env bash
# Starts a one-node Slurm cluster on this machine for the cluster tests (tests/cluster): munged,
# slurmctld and slurmd on localhost, one CPU-only partition "strata" holding this node.
# Debian 12, as root, no systemd needed: the daemons are started directly. Idempotent: packages
# already installed, a key already made and daemons already answering are left as they are.
#   bash scripts/cluster/local-slurm.sh          install if needed, configure, start, wait until idle
#   bash scripts/cluster/local-slurm.sh --check  exit 0 when the cluster answers, else 1 (no changes)
#   bash scripts/cluster/local-slurm.sh --for-tests  as the first, but not as root it only says that
#                                                    the Slurm test will skip (scripts/test.sh)
set -euo pipefail

node="$(hostname -s)"
conf=/etc/slurm/slurm.conf

cluster_answers() {
  command -v sinfo >/dev/null && timeout 10 sinfo -h -n "$node" -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated|completing)'
}

if [ "${1:-}" = "--check" ]; then
  cluster_answers
  exit
fi
if [ "${1:-}" = "--for-tests" ] && [ "$(id -u)" != 0 ]; then
  echo "local-slurm: not root: no local Slurm cluster is started, the cluster_slurm test will skip"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "local-slurm: run as root (it installs packages and starts daemons)" >&2
  exit 1
fi

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  echo "local-slurm: installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # The packages' postinst scripts try to start services; without systemd that fails harmlessly.
  apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

# munge: a key (once), its folders, the daemon (it refuses to run as root: run it as munge).
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  echo "local-slurm: starting munged"
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.2; done
fi

# slurm.conf for this node alone. No accounting database (sacct has nothing to read: strata-cli
# then judges finished elements by their stores), no cgroups (containers rarely allow them).
install -d /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > "$conf.new" <<CONF
# Written by scripts/cluster/local-slurm.sh: a one-node test cluster.
ClusterName=strata-local
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
KillWait=10
MaxArraySize=1001
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=strata Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
if ! cmp -s "$conf.new" "$conf"; then
  mv "$conf.new" "$conf"
  echo "local-slurm: wrote $conf"
  if cluster_answers; then scontrol reconfigure; fi
else
  rm -f "$conf.new"
fi

if ! timeout 10 scontrol ping 2>/dev/null | grep -q 'is UP'; then
  echo "local-slurm: starting slurmctld"
  /usr/sbin/slurmctld
fi
if [ ! -s /run/slurmd.pid ] || ! kill -0 "$(cat /run/slurmd.pid)" 2>/dev/null; then
  echo "local-slurm: starting slurmd"
  /usr/sbin/slurmd
fi

for _ in $(seq 60); do
  cluster_answers && break
  # A node that was down when slurmctld last saw it stays down until told otherwise.
  if timeout 10 sinfo -h -n "$node" -o '%T' 2>/dev/null | grep -Eq '^(down|drain)'; then
    scontrol update nodename="$node" state=resume 2>/dev/null || true
  fi
  sleep 1
done
if ! cluster_answers; then
  echo "local-slurm: the node did not come up; see /var/log/slurm/slurmctld.log and slurmd.log" >&2
  sinfo >&2 || true
  exit 1
fi
echo "local-slurm: cluster up: $(sinfo -h -o '%P %D %T %C')"
