#!/usr/bin/env bash
# One call on a lent GPU machine (the `device` tool; nothing there can be downloaded): make fresh
# synthetic scenes on its cores, then train the corner detector and the classifier side by side from
# checkpoints, each for a fixed time, and leave the weights and logs in $OUT.
#
#   bash vision/gpu_train.sh [DET_MINUTES] [CLS_MINUTES]
#
# Needs the rendered decks (data/decks, or data/decks_webp from `python -m vision.decks --pack`, a
# quarter of the size: the call carries 64 MiB at most), the real photos' train split (data/real, or
# data/real_src/train with data/real_src/data.yaml beside it, to prepare there) and ultralytics' wheels in .whl/ where the machine lacks it.
# Environment: JOBS (scene writers, default 14), SCENES (scenes per writer, default 500), BACKS (share
# of scenes with made-up backs, default 0.33), REAL_REPEAT (the real photos listed this many times for
# the detector, default 3), DET_INIT and CLS_INIT (checkpoints to start from, default the first GPU
# run's), DEVICE (default 0), OUT (default runs/gpu_out). The first run (models/MODEL_CARD.md) used
# half the writers at 0.6 made-up backs, the photos once, and started from the shipped checkpoints.
# The time budgets are the trainings' own, so the outputs are copied even when a stage fails; a copy
# loop keeps the latest weights in $OUT in case the call is cut off.
set -u
DET_MIN=${1:-6}
CLS_MIN=${2:-5.5}
JOBS=${JOBS:-14}
SCENES=${SCENES:-500}
BACKS=${BACKS:-0.33}
REAL_REPEAT=${REAL_REPEAT:-3}
DET_INIT=${DET_INIT:-models/checkpoints/corner_detector_gpu1.pt}
CLS_INIT=${CLS_INIT:-models/checkpoints/corner_classifier_gpu1.pt}
DEVICE=${DEVICE:-0}
OUT=${OUT:-runs/gpu_out}
mkdir -p "$OUT" logs
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/gpu_train.log"; }

if ! python3 -c "import ultralytics" 2>/dev/null && ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
    export PYTHONPATH=$PYTHONPATH:/tmp/site
fi
python3 -c "import torch, ultralytics; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'ultralytics', ultralytics.__version__)" \
    2>&1 | tee -a "$OUT/gpu_train.log"

[ -d data/decks ] || python3 -m vision.decks --root data/decks --unpack data/decks_webp
[ -d data/real ] || python3 -m vision.real_prep data/real_src/train --out data/real > logs/real_prep.log 2>&1
if ! ls data/real/det/train/images/*.jpg >/dev/null 2>&1; then
    # the first GPU run trained without them, unnoticed (data.yaml was not carried): say it loudly
    log "WARNING: no real photos to train on: $(tail -1 logs/real_prep.log 2>/dev/null)"
fi
log "real photos: $(ls data/real/det/train/images 2>/dev/null | wc -l)"
log "decks: $(ls data/decks | tr '\n' ' ')"
log "writing scenes: $JOBS x $SCENES training ($BACKS with made-up backs), 200 validation"
for k in $(seq 1 "$JOBS"); do
    python3 -m vision.synth --split train -n "$SCENES" --seed $((100 + k)) --crops 12 --made-up-backs "$BACKS" \
        --out "data/g/s$k" > "logs/synth_$k.log" 2>&1 &
done
python3 -m vision.synth --split val -n 200 --seed 21 --crops 12 --out data/synth > logs/synth_val.log 2>&1 &
wait
n_img=$(find data/g -name '*.jpg' -path '*det/train/images*' | wc -l)
log "scenes written: $n_img training images; $(find data/g -name '*.png' | wc -l) classifier crops"

( while sleep 20; do
    cp -f runs/det/gpu/weights/last.pt "$OUT/det_last.pt" 2>/dev/null
    cp -f runs/cls/gpu/best.pt "$OUT/cls_best.pt" 2>/dev/null
  done ) &
copier=$!

log "training: detector ${DET_MIN} min, classifier ${CLS_MIN} min"
timeout $(python3 -c "print(int($CLS_MIN * 60 + 120))") python3 -m vision.train_classifier --name gpu --arch f40 \
    --init "$CLS_INIT" --minutes "$CLS_MIN" --lr 2e-3 --batch 256 --lowres 0.15 \
    --real-repeat 3 --workers 3 --device "$([ "$DEVICE" = cpu ] && echo cpu || echo cuda)" --threads 2 --data data/g/s*/cls/train > logs/cls.log 2>&1 &
cls=$!
timeout $(python3 -c "print(int($DET_MIN * 60 + 150))") python3 -m vision.train_detector --name gpu \
    --init "$DET_INIT" --hours $(python3 -c "print($DET_MIN / 60)") --imgsz 640 --batch 64 \
    --device "$DEVICE" --workers 10 --cache ram --close-mosaic 2 --warmup 1 --lr0 0.001 --save-period -1 \
    --real-repeat "$REAL_REPEAT" --synth-n 0 --extra data/g/s*/det/train/images > logs/det.log 2>&1
log "detector done: $?"
wait $cls
log "classifier done: $?"
kill $copier 2>/dev/null

cp -f runs/det/gpu/weights/best.pt "$OUT/det_best.pt" 2>/dev/null
cp -f runs/det/gpu/weights/last.pt "$OUT/det_last.pt" 2>/dev/null
cp -f runs/det/gpu/results.csv "$OUT/det_results.csv" 2>/dev/null
cp -f runs/cls/gpu/best.pt "$OUT/cls_best.pt" 2>/dev/null
cp -f runs/cls/gpu/last.pt "$OUT/cls_last.pt" 2>/dev/null
{ grep -v "step .*/" logs/cls.log | tail -60; tr '\r' '\n' < logs/det.log | grep -v "^ *[0-9]*/[0-9]* .*it/s\]$" | tail -150; } > "$OUT/train_logs.txt"
log "outputs: $(ls "$OUT" | tr '\n' ' ')"
