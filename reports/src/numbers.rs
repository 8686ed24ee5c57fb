//! Numbers as tables print them: three significant digits in a scaled
//! unit, whatever the magnitude.
//!
//! A byte kernel takes a few hundredths of a nanosecond per byte; printed
//! with two decimals, two variants 40 % apart read the same. Every table
//! (`bench`, `count`, `compare`, the report) formats through here so they
//! agree, and a time per byte also reads as a rate (GB/s), the unit such
//! kernels are quoted in.

/// `value` with three significant digits and no exponent: `123`, `12.3`,
/// `1.23`, `0.0123`; zero as `0.00`.
pub fn sig3(value: f64) -> String {
    let a = value.abs();
    let decimals = if !a.is_finite() || a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 1.0 || a == 0.0 {
        2
    } else {
        // 0.0123: the first digit two places after the point, so 4 decimals.
        (2 - a.log10().floor() as i32).clamp(2, 15) as usize
    };
    format!("{value:.decimals$}")
}

/// A ratio (a speedup, an interval's bound) with two significant figures,
/// more only where its whole part has more digits: `53`, `7.0`, `1.1`,
/// `0.032`. A tenth or a hundredth would print a 0.032× speedup as
/// `0.0×`.
pub fn ratio(value: f64) -> String {
    let a = value.abs();
    let decimals = if !a.is_finite() || a >= 10.0 {
        0
    } else if a >= 1.0 || a == 0.0 {
        1
    } else {
        // 0.032: the first digit two places after the point, so 3 decimals.
        (1 - a.log10().floor() as i32).clamp(1, 15) as usize
    };
    format!("{value:.decimals$}")
}

/// The unit that reads best for `ns` nanoseconds: its size in
/// nanoseconds and its symbol (picoseconds below 1 ns).
pub fn time_unit(ns: f64) -> (f64, &'static str) {
    const UNITS: [(f64, &str); 5] = [
        (1e9, "s"),
        (1e6, "ms"),
        (1e3, "µs"),
        (1.0, "ns"),
        (1e-3, "ps"),
    ];
    UNITS
        .into_iter()
        .find(|(scale, _)| ns.abs() >= *scale)
        .unwrap_or(if ns == 0.0 { UNITS[3] } else { UNITS[4] })
}

/// Nanoseconds with three significant digits in the unit that fits:
/// `4.57ns`, `20.7ps`, `12.3µs`.
pub fn time(ns: f64) -> String {
    let (scale, unit) = time_unit(ns);
    format!("{}{unit}", sig3(ns / scale))
}

/// Whether an element name counts bytes (`byte`, `bytes`, `B`), so its
/// times also read as a rate.
pub fn is_bytes(element: &str) -> bool {
    matches!(element.trim(), "byte" | "bytes" | "B")
}

/// The rate of `ns_per_byte` nanoseconds per byte in GB/s, or MB/s below
/// 1 GB/s (decimal units, as bandwidths are quoted): `48.3 GB/s`.
pub fn byte_rate(ns_per_byte: f64) -> String {
    if ns_per_byte <= 0.0 || !ns_per_byte.is_finite() {
        return "-".to_owned();
    }
    let per_second = 1e9 / ns_per_byte;
    if per_second >= 1e9 {
        format!("{} GB/s", sig3(per_second / 1e9))
    } else {
        format!("{} MB/s", sig3(per_second / 1e6))
    }
}

/// A count as a reader writes it: whole numbers whole (`3`, `1024`),
/// fractions with three significant digits (`0.00391`).
pub fn count(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        sig3(value)
    }
}

/// A size in bytes in binary units, three significant digits: `24 B`,
/// `4.10 KiB`, `1.00 MiB`.
pub fn bytes(value: f64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if value.abs() < 1024.0 {
        return format!("{} B", count(value));
    }
    let mut scaled = value / 1024.0;
    let mut unit = UNITS[0];
    for next in &UNITS[1..] {
        if scaled.abs() < 1024.0 {
            break;
        }
        scaled /= 1024.0;
        unit = next;
    }
    format!("{} {unit}", sig3(scaled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_sizes_read_as_written() {
        assert_eq!(count(3.0), "3");
        assert_eq!(count(0.00390625), "0.00391");
        assert_eq!(bytes(24.0), "24 B");
        assert_eq!(bytes(4200.0), "4.10 KiB");
        assert_eq!(bytes(1048576.0), "1.00 MiB");
        assert_eq!(bytes(0.5), "0.500 B");
    }

    #[test]
    fn ratios_keep_two_significant_figures() {
        let cases = [
            (0.032, "0.032"),
            (0.5, "0.50"),
            (1.06, "1.1"),
            (7.0, "7.0"),
            (53.3, "53"),
            (123.4, "123"),
            (0.0, "0.0"),
        ];
        for (v, want) in cases {
            assert_eq!(ratio(v), want, "{v}");
        }
    }

    #[test]
    fn three_significant_digits_at_any_size() {
        let cases = [
            (0.0, "0.00"),
            (4.567, "4.57"),
            (12.34, "12.3"),
            (469.0, "469"),
            (0.0207, "0.0207"),
            (0.029, "0.0290"),
            (0.5, "0.500"),
            (0.000_123_4, "0.000123"),
        ];
        for (v, want) in cases {
            assert_eq!(sig3(v), want, "{v}");
        }
    }

    #[test]
    fn times_below_a_nanosecond_keep_their_digits() {
        // POPCNT and an AVX2 lookup per byte: they must not print alike.
        assert_eq!(time(0.0207), "20.7ps");
        assert_eq!(time(0.0290), "29.0ps");
        assert_eq!(time(0.72), "720ps");
        assert_eq!(time(4.567), "4.57ns");
        assert_eq!(time(12_345.0), "12.3µs");
        assert_eq!(time(2.5e9), "2.50s");
        assert_eq!(time(0.0), "0.00ns");
    }

    #[test]
    fn byte_times_read_as_bandwidth() {
        assert!(is_bytes("byte") && is_bytes("bytes") && !is_bytes("board"));
        assert_eq!(byte_rate(0.0207), "48.3 GB/s");
        assert_eq!(byte_rate(1.0), "1.00 GB/s");
        assert_eq!(byte_rate(2.0), "500 MB/s");
        assert_eq!(byte_rate(0.0), "-");
    }
}
