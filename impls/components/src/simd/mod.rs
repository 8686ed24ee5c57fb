//! SIMD variants (x86-64 only, runtime-detected).

use crate::Variant;

/// The SIMD variants, in order sse, avx2, avx512.
pub(crate) fn variants() -> Vec<Variant> {
    Vec::new()
}
