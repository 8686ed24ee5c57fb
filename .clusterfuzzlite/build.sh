#!/bin/bash -eu
# Builds the differential fuzz targets (fuzz/, one per workload) for
# ClusterFuzzLite and copies each into $OUT with its seed corpus.
#
# The image runs this as $SRC/build.sh with the repository at $SRC/bitbench
# and $OUT, $SANITIZER and RUSTUP_TOOLCHAIN set; .ci/cflite-build-check runs
# it the same way outside Docker.

cd "$SRC/bitbench/fuzz"

# Rust has AddressSanitizer, MemorySanitizer and ThreadSanitizer; for the
# other builds (undefined, coverage, none) the targets get no sanitizer,
# as OSS-Fuzz's own RUSTFLAGS do.
case "$SANITIZER" in
    address | memory | thread) sanitizer="$SANITIZER" ;;
    *) sanitizer=none ;;
esac

# Optimised (-O) with debug assertions and overflow checks kept (-a): an
# overflow in a kernel is a finding. No comparison tracing: it costs 2-5x in
# runs per second and the decoders have no magic constants to guess. These
# are the flags `bitbench fuzz` (.ci/fuzz-smoke) builds with, so cargo
# reuses that build.
cargo fuzz build -O -a -s "$sanitizer" --no-trace-compares

triple=$(rustc -vV | sed -n 's/^host: //p')
release="${CARGO_TARGET_DIR:-target}/$triple/release"
for target in $(cargo fuzz list); do
    cp "$release/$target" "$OUT/"
    # ClusterFuzzLite starts each target's corpus from TARGET_seed_corpus.zip.
    seeds=(corpus/"$target"/seed-*)
    if [ -e "${seeds[0]}" ]; then
        rm -f "$OUT/${target}_seed_corpus.zip"
        zip -q -j "$OUT/${target}_seed_corpus.zip" "${seeds[@]}"
    fi
done
