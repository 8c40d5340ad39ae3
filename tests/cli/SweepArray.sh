#!/bin/sh
# scripts/sweep.sbatch run as Slurm would run a 3-task array (the variables Slurm sets),
# then merged: the result must be the unsharded sweep, byte for byte.
# Arguments: CLI SOURCE_DIR WORK_DIR
set -eu
cli=$1
source=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
design="$source/samples/article000-64gpu-ib-ndr.fabric.json"
for task in 1 2 3; do
  DESIGN=$design SERVERS=4,8,16 FABRICS=ib-ndr,roce-v2 FABRICLAB_CLI=$cli OUT=out \
    SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=3 \
    SLURM_ARRAY_TASK_COUNT=3 bash "$source/scripts/sweep.sbatch"
done
"$cli" sweep --merge out/shard-*.jsonl --json > merged.json
"$cli" sweep "$design" --servers 4,8,16 --fabrics ib-ndr,roce-v2 --json > whole.json
cmp whole.json merged.json
