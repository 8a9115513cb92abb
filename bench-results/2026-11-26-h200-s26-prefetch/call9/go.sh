#!/usr/bin/env bash
# Session 26 call 9 (diagnostic, main's kernels at 030f37c): the scatter in bins' two
# kernels apart. DIAG_SCATTER=1 skips `scatter_fine` (results wrong by design); profiles
# of BN254 G1 2^20, 2^22, 2^24 all resident, two rounds.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
B=$G/bin/diags
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
for r in 1 2; do
  timeout 60 $B bench --sizes 20,22,24 --repeat 3 --ark-max 0 --profile > $R/full-$r.txt 2>&1; echo "full $r rc=$?" >> $S
  DIAG_SCATTER=1 timeout 60 $B bench --sizes 20,22,24 --repeat 3 --ark-max 0 --profile > $R/bins-$r.txt 2>&1; echo "bins $r rc=$?" >> $S
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/*.txt; do grep "NVIDIA H200  .* device  *2[024] " $f | awk -v k=$(basename $f .txt) '{print k,$4,$9,$10,$11,$12,$13,$14,$15,$16,$17}'; done
