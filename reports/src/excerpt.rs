//! A long text value cut to a window, so that no finding takes more than a
//! few KB anywhere: on the terminal, in a results file, in `report.md` or
//! `index.html`.
//!
//! A wrong answer on a megabyte buffer formats as megabytes of input and
//! answers; what a reader needs is where the answers part, a little of
//! each side there, and how long each is. [`excerpt`] is the one place a
//! value is cut: every finding's text (the harness's wrong answers, crashes
//! and hangs, `ab`'s broken answers) and the pages' reasons pass through
//! it. Positions count characters from 0, never bytes, so a cut never
//! falls inside a UTF-8 sequence.

/// How many characters of a value [`around`] keeps: enough to see the
/// difference in context, little enough that three values and their
/// labels stay near a kilobyte.
pub const WIDTH: usize = 200;

/// How many characters of a whole finding's text (a record's reason) a
/// page keeps: one this build writes fits (three values of [`WIDTH`] and
/// their words), a reason in an older file may not.
pub const FINDING_WIDTH: usize = 2_000;

/// `text` whole when it has at most `width` characters; else a window of
/// `width` characters placed so that character `at` sits in its middle
/// (or as near as the text's ends allow), `…` where it was cut, and
/// `[chars START..END of LEN]` after it.
///
/// ```
/// use bitbench_reports::excerpt::excerpt;
///
/// assert_eq!(excerpt("short", 3, 10), "short");
/// assert_eq!(
///     excerpt("0123456789abcdef", 8, 4),
///     "…6789… [chars 6..10 of 16]"
/// );
/// assert_eq!(excerpt("0123456789", 0, 4), "0123… [chars 0..4 of 10]");
/// ```
pub fn excerpt(text: &str, at: usize, width: usize) -> String {
    let len = text.chars().count();
    if len <= width {
        return text.to_owned();
    }
    let start = at.saturating_sub(width / 2).min(len - width);
    let end = start + width;
    let window: String = text.chars().skip(start).take(width).collect();
    let before = if start > 0 { "…" } else { "" };
    let after = if end < len { "…" } else { "" };
    format!("{before}{window}{after} [chars {start}..{end} of {len}]")
}

/// [`excerpt`] at the usual [`WIDTH`].
pub fn around(text: &str, at: usize) -> String {
    excerpt(text, at, WIDTH)
}

/// The first character position at which `a` and `b` differ (the shorter
/// one's length when one is a prefix of the other); `None` when they are
/// equal.
///
/// ```
/// use bitbench_reports::excerpt::first_difference;
///
/// assert_eq!(first_difference("abcd", "abxd"), Some(2));
/// assert_eq!(first_difference("ab", "abc"), Some(2));
/// assert_eq!(first_difference("é1", "é2"), Some(1));
/// assert_eq!(first_difference("same", "same"), None);
/// ```
pub fn first_difference(a: &str, b: &str) -> Option<usize> {
    let mut a_chars = a.chars();
    let mut b_chars = b.chars();
    let mut at = 0;
    loop {
        match (a_chars.next(), b_chars.next()) {
            (None, None) => return None,
            (x, y) if x != y => return Some(at),
            _ => at += 1,
        }
    }
}

/// A disagreement's three values, each cut by [`around`].
#[derive(Clone, Debug, PartialEq)]
pub struct Disagreement {
    /// The input, around the place that made the first difference.
    pub input: String,
    /// The expected answer, around the first difference.
    pub expected: String,
    /// The answer given, around the first difference.
    pub got: String,
    /// Where the answers first differ, when a value was cut (else the
    /// values show it).
    pub differ_at: Option<usize>,
}

/// `input`, `expected` and `got` cut around the answers' first
/// difference; the input around the same fraction of its length
/// (`same_fraction`).
///
/// ```
/// use bitbench_reports::excerpt::disagreement;
///
/// let d = disagreement("12", "3", "4");
/// assert_eq!((d.input.as_str(), d.got.as_str(), d.differ_at), ("12", "4", None));
/// let long = "5".repeat(1000);
/// let d = disagreement(&long, &long, &(long[..600].to_owned() + "6"));
/// assert_eq!(d.differ_at, Some(600));
/// assert!(d.got.starts_with("…") && d.got.ends_with(" [chars 401..601 of 601]"));
/// ```
pub fn disagreement(input: &str, expected: &str, got: &str) -> Disagreement {
    let at = first_difference(expected, got);
    let position = at.unwrap_or(0);
    let chars = |text: &str| text.chars().count();
    let input_at = same_fraction(position, chars(expected), chars(input));
    let cut = [input, expected, got]
        .iter()
        .any(|text| chars(text) > WIDTH);
    Disagreement {
        input: around(input, input_at),
        expected: around(expected, position),
        got: around(got, position),
        differ_at: at.filter(|_| cut),
    }
}

/// Where in a text of `len` characters the place that corresponds to
/// character `at` of a text of `of` characters lies, at the same fraction
/// of its length: an encoder writes its output in its input's order, so
/// the input that made the first differing character of an answer lies
/// about there; for a short answer (a count, a verdict) it is the start.
fn same_fraction(at: usize, of: usize, len: usize) -> usize {
    if of <= WIDTH {
        return 0;
    }
    (at as u128 * len as u128 / of as u128) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_value_is_kept_whole() {
        assert_eq!(around("", 0), "");
        let exactly = "x".repeat(WIDTH);
        assert_eq!(around(&exactly, WIDTH), exactly);
    }

    #[test]
    fn the_window_is_centred_on_the_position_and_kept_inside_the_text() {
        let text: String = (0..1000)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let cut = excerpt(&text, 500, 10);
        assert_eq!(
            cut,
            format!("…{}… [chars 495..505 of 1000]", &text[495..505])
        );
        // Near either end the window stops at the end, with no `…` there.
        assert_eq!(
            excerpt(&text, 2, 10),
            format!("{}… [chars 0..10 of 1000]", &text[..10])
        );
        assert_eq!(
            excerpt(&text, 998, 10),
            format!("…{} [chars 990..1000 of 1000]", &text[990..])
        );
        // Past the end, as after a longer answer's last shared character.
        assert_eq!(excerpt(&text, 5000, 10), excerpt(&text, 999, 10));
    }

    #[test]
    fn a_cut_never_splits_a_character() {
        // Two-, three- and four-byte characters, cut at every position.
        let text = "é€😀".repeat(100);
        for at in 0..300 {
            let cut = excerpt(&text, at, 7);
            let window = cut
                .trim_start_matches('…')
                .split('…')
                .next()
                .unwrap()
                .split(" [")
                .next()
                .unwrap();
            assert_eq!(window.chars().count(), 7, "{at}: {cut}");
            assert!(text.contains(window), "{at}: {cut}");
        }
        let cut = excerpt(&text, 150, 7);
        assert!(cut.ends_with(" [chars 147..154 of 300]"), "{cut}");
    }

    #[test]
    fn the_input_is_cut_where_a_long_answer_first_differs() {
        assert_eq!(same_fraction(500, 1000, 2000), 1000);
        assert_eq!(same_fraction(500, 1000, 250), 125);
        // A short answer (a count) says nothing of where: the start.
        assert_eq!(same_fraction(3, 4, 1_000_000), 0);
        assert_eq!(same_fraction(7, 0, 10), 0);
        // A hex encoding: the input's bytes are half its answer's length.
        let input = "x".repeat(5000);
        let expected = "y".repeat(10_000);
        let got = expected[..8000].to_owned() + "z";
        let d = disagreement(&input, &expected, &got);
        assert_eq!(d.differ_at, Some(8000));
        assert!(
            d.input.ends_with(" [chars 3900..4100 of 5000]"),
            "{}",
            d.input
        );
        assert!(d.got.ends_with("z [chars 7801..8001 of 8001]"), "{}", d.got);
    }

    #[test]
    fn the_first_difference_counts_characters_not_bytes() {
        assert_eq!(first_difference("", ""), None);
        assert_eq!(first_difference("", "a"), Some(0));
        assert_eq!(first_difference("€€x", "€€y"), Some(2));
        assert_eq!(first_difference("😀a", "😀"), Some(1));
    }

    #[test]
    fn a_megabyte_value_becomes_a_few_hundred_bytes() {
        let text = "0123456789abcdef".repeat(1 << 16);
        let mut changed = text.clone();
        changed.replace_range(999 * 16 + 12..999 * 16 + 13, "x");
        let at = first_difference(&text, &changed).unwrap();
        assert_eq!(at, 999 * 16 + 12);
        let cut = around(&text, at);
        assert!(cut.len() < WIDTH + 50, "{}", cut.len());
        assert!(cut.contains(&format!(
            "[chars {}..{} of {}]",
            at - 100,
            at + 100,
            1 << 20
        )));
    }
}
