//! The growth classes a sweep is fitted to, each a shape `g(n)` that a
//! law `t = a + b·g(n)` scales and shifts.

use crate::numbers::sig3;

/// A growth class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// `O(1)`: the size does not matter.
    Constant,
    /// `O(log n)`, in base 2.
    Log,
    /// `O(√n)`.
    Sqrt,
    /// `O(n)`.
    Linear,
    /// `O(n log n)`, the log in base 2.
    NLogN,
    /// `O(n²)`.
    Quadratic,
    /// `O(n³)`.
    Cubic,
    /// `O(cⁿ)`, `c` fitted: for depths, where each level multiplies the work.
    Exponential,
}

impl Class {
    /// The classes every size is tried against, the constant first.
    pub const POWERS: [Class; 7] = [
        Class::Constant,
        Class::Log,
        Class::Sqrt,
        Class::Linear,
        Class::NLogN,
        Class::Quadratic,
        Class::Cubic,
    ];

    /// Its shape at `n`; `c` is the exponential's base.
    pub fn g(self, n: f64, c: f64) -> f64 {
        match self {
            Class::Constant => 1.0,
            Class::Log => n.max(1.0).log2(),
            Class::Sqrt => n.sqrt(),
            Class::Linear => n,
            Class::NLogN => n * n.max(1.0).log2(),
            Class::Quadratic => n * n,
            Class::Cubic => n * n * n,
            Class::Exponential => c.powf(n),
        }
    }

    /// Its name: `O(n log n)`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Constant => "O(1)",
            Class::Log => "O(log n)",
            Class::Sqrt => "O(√n)",
            Class::Linear => "O(n)",
            Class::NLogN => "O(n log n)",
            Class::Quadratic => "O(n²)",
            Class::Cubic => "O(n³)",
            Class::Exponential => "O(cⁿ)",
        }
    }

    /// Its term with coefficient `b` in `unit`: `0.0201 ns·n`,
    /// `3.10 ns·log₂ n`, `1.20 ns·2.95ⁿ`.
    pub fn term(self, b: f64, c: f64, unit: &str) -> String {
        let shape = match self {
            Class::Constant => return format!("{} {unit}", sig3(b)),
            Class::Log => "log₂ n".to_owned(),
            Class::Sqrt => "√n".to_owned(),
            Class::Linear => "n".to_owned(),
            Class::NLogN => "n log₂ n".to_owned(),
            Class::Quadratic => "n²".to_owned(),
            Class::Cubic => "n³".to_owned(),
            Class::Exponential => format!("{}ⁿ", sig3(c)),
        };
        format!("{} {unit}·{shape}", sig3(b))
    }
}
