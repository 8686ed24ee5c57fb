//! Hex encoding with three published crates, measured with bitbench over a
//! sweep of buffer sizes: the worked example the gate measurements in the
//! guide (`docs/ab-and-gate.md`) are taken on.
//!
//! Every variant turns a buffer of bytes into its lowercase hex string, two
//! digits a byte: `hex` (the most used, an iterator of digit pairs),
//! `faster-hex` and `const-hex` (both SIMD, chosen at run time), checked
//! against [`scalar`], a plain loop of our own. The crates all read a byte
//! slice and return a `String`, so no variant needs a preparation step: the
//! times compare the encoders as a caller holding bytes uses them, each
//! allocating its own output. [`workload`] tells bitbench about them;
//! `main.rs` is one line.

pub mod inputs;
pub mod scalar;
pub mod workload;

pub use workload::HEX;

/// One encoder in the registry.
pub struct Variant {
    /// Short name, as used on the command line.
    pub name: &'static str,
    /// One line on what it runs.
    pub description: &'static str,
    /// The lowercase hex digits of a buffer, two a byte.
    pub encode: fn(&[u8]) -> String,
}

/// Every variant, the oracle first.
pub fn variants() -> Vec<Variant> {
    vec![
        Variant {
            name: "scalar",
            description: "a byte at a time, two digits from a 16-entry table (the oracle)",
            encode: scalar::encode,
        },
        Variant {
            name: "hex",
            description: "hex::encode: an iterator of digit pairs collected into a String",
            encode: |bytes| hex::encode(bytes),
        },
        Variant {
            name: "faster-hex",
            description: "faster_hex::hex_string: SSE4.1, AVX2 or AVX-512 chosen at run time",
            encode: faster_hex::hex_string,
        },
        Variant {
            name: "const-hex",
            description: "const_hex::encode: SSSE3 or AVX2 chosen at run time",
            encode: |bytes| const_hex::encode(bytes),
        },
    ]
}
