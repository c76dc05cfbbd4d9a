//! Small text helpers shared by every layer: the home of what protocol
//! messages need when they quote what a client sent.
//!
//! Invariant: nothing here panics on any input (any UTF-8, any length).

/// A prefix of `text` for messages, cut on a character boundary, with
/// control characters replaced so a message never breaks a client's line
/// reader: the one function for cutting long lines.
pub fn cut(text: &str, chars: usize) -> String {
    let mut out: String =
        text.chars().take(chars).map(|c| if c.is_control() { '?' } else { c }).collect();
    if text.chars().count() > chars {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::cut;

    #[test]
    fn cut_keeps_whole_characters_and_hides_control_ones() {
        assert_eq!(cut("e2e4", 10), "e2e4");
        assert_eq!(cut("abcdef", 3), "abc...");
        assert_eq!(cut("é\u{1}ü", 2), "é?...");
        assert_eq!(cut("a\nb", 5), "a?b");
    }
}
