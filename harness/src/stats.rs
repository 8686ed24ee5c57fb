//! Sample statistics: median and median absolute deviation.
//!
//! Medians and MADs rather than means and standard deviations, because a
//! shared machine's samples have a long right tail (preemption, frequency
//! changes) that would otherwise dominate the figures.

/// Summary of a set of samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Median sample.
    pub median: f64,
    /// Median absolute deviation from the median.
    pub mad: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
}

/// Summarises `samples`; `None` when there are none.
pub fn summarize(samples: &[f64]) -> Option<Summary> {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = median_of_sorted(&sorted)?;
    let mut deviations: Vec<f64> = sorted.iter().map(|s| (s - median).abs()).collect();
    deviations.sort_by(f64::total_cmp);
    Some(Summary {
        median,
        mad: median_of_sorted(&deviations)?,
        min: sorted[0],
        max: sorted[sorted.len() - 1],
    })
}

fn median_of_sorted(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_mad_ignore_the_outlier() {
        let s = summarize(&[10.0, 11.0, 9.0, 10.0, 1000.0]).unwrap();
        assert_eq!(s.median, 10.0);
        assert_eq!(s.mad, 1.0);
        assert_eq!((s.min, s.max), (9.0, 1000.0));
    }

    #[test]
    fn even_counts_average_the_middle_pair() {
        let s = summarize(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(s.median, 2.5);
        assert_eq!(s.mad, 1.0);
        assert!(summarize(&[]).is_none());
    }
}
