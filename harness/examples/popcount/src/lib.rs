//! Population count of a buffer of `u64` words, eight ways, measured with
//! bitbench: the worked example of bringing your own kernel.
//!
//! The variants retrace a published comparison (Muła, Kurz and Lemire,
//! "Faster Population Counts Using AVX2 Instructions", The Computer
//! Journal, 2018): from a bit-by-bit loop and the classic scalar tricks to
//! the POPCNT instruction, AVX2 nibble lookups, the AVX2 Harley–Seal carry-
//! save adder and AVX-512's `vpopcntq`. [`workload`] tells bitbench about
//! them; `main.rs` is one line.

mod avx2;
mod avx512;
mod bit_loop;
pub mod dispatch;
pub mod inputs;
mod kernighan;
mod lut8;
mod popcnt;
mod swar;
pub mod workload;

pub use workload::POPCOUNT;

/// A population count of a whole buffer.
pub trait Popcount: Send + Sync {
    /// The number of set bits in `words`.
    fn count(&self, words: &[u64]) -> u64;
}

/// One implementation in the registry.
pub struct Variant {
    /// Short name, as used on the command line.
    pub name: &'static str,
    /// One line on the idea.
    pub description: &'static str,
    /// CPU features it needs (empty for portable code).
    pub features: &'static [&'static str],
    /// Builds it, or `None` when this CPU lacks `features`.
    pub make: fn() -> Option<Box<dyn Popcount>>,
}

fn boxed<P: Popcount + 'static>(p: Option<P>) -> Option<Box<dyn Popcount>> {
    p.map(|p| Box::new(p) as Box<dyn Popcount>)
}

/// Every variant, the oracle first.
pub fn variants() -> Vec<Variant> {
    vec![
        Variant {
            name: "bit-loop",
            description: "every bit of every word, one at a time (the oracle)",
            features: &[],
            make: || boxed(Some(bit_loop::BitLoop)),
        },
        Variant {
            name: "kernighan",
            description: "clear the lowest set bit until none is left",
            features: &[],
            make: || boxed(Some(kernighan::Kernighan)),
        },
        Variant {
            name: "lut8",
            description: "a 256-entry table of byte counts, eight look-ups a word",
            features: &[],
            make: || boxed(Some(lut8::Lut8)),
        },
        Variant {
            name: "swar",
            description: "Wilkes–Wheeler–Gill: bit fields summed in parallel inside the word",
            features: &[],
            make: || boxed(Some(swar::Swar)),
        },
        Variant {
            name: "popcnt",
            description: "u64::count_ones compiled for the POPCNT instruction",
            features: &["popcnt"],
            make: || boxed(popcnt::Popcnt::new()),
        },
        Variant {
            name: "avx2-lookup",
            description: "AVX2: nibble counts by vpshufb, summed by vpsadbw (Muła)",
            features: &["avx2"],
            make: || boxed(avx2::Lookup::new()),
        },
        Variant {
            name: "avx2-harley-seal",
            description: "AVX2: a carry-save adder over 16 vectors, nibble lookup on the carries",
            features: &["avx2"],
            make: || boxed(avx2::HarleySeal::new()),
        },
        Variant {
            name: "avx512-vpopcntq",
            description: "AVX-512: vpopcntq on eight words at once",
            features: &["avx512f", "avx512vpopcntdq"],
            make: || boxed(avx512::Vpopcntq::new()),
        },
    ]
}
