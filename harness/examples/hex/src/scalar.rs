//! The oracle: each byte looked up as two digits, high nibble first.
//! Obviously right, and one byte a step.

/// The sixteen lowercase hex digits.
const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// The lowercase hex digits of `bytes`, two a byte.
pub fn encode(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        text.push(char::from(DIGITS[usize::from(b >> 4)]));
        text.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    text
}

/// The bytes of `text`, hex digits two a byte in either case, white space
/// between pairs allowed: how inputs are written on the command line.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() % 2 == 1 {
        return Err(format!("{} hex digits, not two a byte", digits.len()));
    }
    let digit = |c: char| {
        c.to_digit(16)
            .map(|d| d as u8)
            .ok_or_else(|| format!("'{c}' is not a hex digit"))
    };
    digits
        .chunks_exact(2)
        .map(|pair| Ok(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_is_its_two_digits_and_reads_back() {
        let all: Vec<u8> = (0..=255).collect();
        let text = encode(&all);
        assert_eq!(&text[..8], "00010203");
        assert_eq!(&text[text.len() - 4..], "feff");
        for (b, pair) in all.iter().zip(text.as_bytes().chunks(2)) {
            assert_eq!(std::str::from_utf8(pair).unwrap(), format!("{b:02x}"));
        }
        assert_eq!(decode(&text), Ok(all));
        assert_eq!(decode("0A ff\n10"), Ok(vec![0x0a, 0xff, 0x10]));
        assert_eq!(decode(""), Ok(vec![]));
        assert!(decode("abc").unwrap_err().contains("3 hex digits"));
        assert!(decode("0g").unwrap_err().contains("'g'"));
    }
}
