//! The square layout of lidraughts' and pydraughts' Hub traffic and its
//! translation to and from the variant's own numbering (`rules.rs`,
//! [`HubLayout`]). Pure text rewriting: a Hub position string is permuted
//! (and its colours swapped for English); in move text every number is
//! mapped and everything else (separators, algebraic names) kept.
//!
//! Invariant: `to_variant` and `to_layout` are inverse permutations of
//! 1..=SQUARES, so translating there and back is the identity.

use super::geometry::Geometry;
use super::notation::{index_of_number, number_of_bit};
use super::rules::{HubLayout, Rules};

/// A translation between the Hub layout and the variant's numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `to_variant[n]`: the variant's number of layout square `n` (index 0 unused).
    to_variant: Vec<u32>,
    /// `to_layout[n]`: the layout number of the variant's square `n`.
    to_layout: Vec<u32>,
    /// White and black trade names (English).
    swap_colours: bool,
}

impl Layout {
    /// The translation of rules `R`; `None` when the layout is the
    /// variant's own numbering.
    pub fn of<R: Rules>() -> Option<Layout> {
        let squares = <R::Board as Geometry>::SQUARES as u32;
        let layout_to_variant = |n: u32| -> u32 {
            // Layout number n names internal index n - 1 (TopLeft) or, turned,
            // the variant's square SQUARES + 1 - n.
            match R::HUB_LAYOUT {
                HubLayout::Same => n,
                HubLayout::TopLeft => {
                    number_of_bit::<R>(<R::Board as Geometry>::BIT[n as usize - 1])
                }
                HubLayout::Turned => squares + 1 - n,
            }
        };
        if R::HUB_LAYOUT == HubLayout::Same {
            return None;
        }
        let mut to_variant = vec![0; squares as usize + 1];
        let mut to_layout = vec![0; squares as usize + 1];
        for n in 1..=squares {
            let v = layout_to_variant(n);
            debug_assert!(index_of_number::<R>(v).is_some());
            to_variant[n as usize] = v;
            to_layout[v as usize] = n;
        }
        Some(Layout { to_variant, to_layout, swap_colours: R::HUB_LAYOUT == HubLayout::Turned })
    }

    /// A Hub position string in the layout, rewritten in the variant's
    /// numbering. Text of the wrong length (or a PDN FEN) is returned as it
    /// is, for the position parser to judge.
    pub fn position_to_variant(&self, text: &str) -> String {
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != self.to_variant.len() || text.contains(':') {
            return text.to_string();
        }
        let mut out = vec!['e'; chars.len()];
        out[0] = self.colour(chars[0]);
        for (n, &c) in chars.iter().enumerate().skip(1) {
            out[self.to_variant[n] as usize] = self.colour(c);
        }
        out.into_iter().collect()
    }

    /// Move text in the layout's numbers, in the variant's numbers.
    pub fn move_to_variant(&self, text: &str) -> String {
        map_numbers(text, &self.to_variant)
    }

    /// Move text in the variant's numbers, in the layout's numbers.
    pub fn move_to_layout(&self, text: &str) -> String {
        map_numbers(text, &self.to_layout)
    }

    fn colour(&self, c: char) -> char {
        if !self.swap_colours {
            return c;
        }
        match c {
            'w' => 'b',
            'b' => 'w',
            'W' => 'B',
            'B' => 'W',
            other => other,
        }
    }
}

/// Replaces every run of digits that names a square (1..len) by `table[n]`.
fn map_numbers(text: &str, table: &[u32]) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if digits.is_empty() {
            return;
        }
        match digits.parse::<usize>() {
            Ok(n) if n >= 1 && n < table.len() => out.push_str(&table[n].to_string()),
            _ => out.push_str(digits),
        }
        digits.clear();
    };
    let mut after_letter = false;
    for c in text.chars() {
        if c.is_ascii_digit() && !after_letter {
            digits.push(c);
            continue;
        }
        flush(&mut digits, &mut out);
        // The rank of an algebraic name (`c3`) is not a square number.
        after_letter = c.is_ascii_alphabetic() && !matches!(c, 'x' | 'X')
            || (after_letter && c.is_ascii_digit());
        out.push(c);
    }
    flush(&mut digits, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::fen::{parse_hub, write_hub};
    use crate::draughts::rules::{EnglishRules, InternationalRules, RussianRules, TurkishRules};
    use crate::draughts::{English, Russian, Turkish};
    use crate::game::{Game, Variant};

    #[test]
    fn lidraughts_start_positions_read_as_the_variants_start() {
        // What pydraughts 0.5.7 and 0.6.7 send for the start position.
        let eight = format!("W{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
        let russian = Layout::of::<RussianRules>().expect("layout");
        let pos = parse_hub::<RussianRules>(&russian.position_to_variant(&eight)).expect("pos");
        assert_eq!(write_hub(&pos), write_hub(&Russian::start(Variant::Russian)));
        let english = Layout::of::<EnglishRules>().expect("layout");
        let pos = parse_hub::<EnglishRules>(&english.position_to_variant(&eight)).expect("pos");
        assert_eq!(write_hub(&pos), write_hub(&English::start(Variant::English)));
        let turkish_text = format!(
            "W{}{}{}{}{}",
            "e".repeat(8),
            "b".repeat(16),
            "e".repeat(16),
            "w".repeat(16),
            "e".repeat(8)
        );
        let turkish = Layout::of::<TurkishRules>().expect("layout");
        let pos =
            parse_hub::<TurkishRules>(&turkish.position_to_variant(&turkish_text)).expect("pos");
        assert_eq!(write_hub(&pos), write_hub(&Turkish::start(Variant::Turkish)));
        assert!(Layout::of::<InternationalRules>().is_none());
    }

    #[test]
    fn moves_as_pydraughts_sends_them() {
        // Measured: pydraughts 0.5.7 sends Russian a3-b4 as 21-17, 0.6.7 as
        // 9-13 (the variant's numbers, 1 = a1); English 0.5.7 `21-17` is the
        // PDN opening 12-16; Turkish 0.5.7 `41-33` is a3-a4 (17-25).
        let russian = Layout::of::<RussianRules>().expect("layout");
        assert_eq!(russian.move_to_variant("21-17"), "9-13");
        assert_eq!(russian.move_to_layout("9-13"), "21-17");
        assert_eq!(russian.move_to_variant("c3-d4"), "c3-d4");
        let english = Layout::of::<EnglishRules>().expect("layout");
        assert_eq!(english.move_to_variant("21-17"), "12-16");
        let turkish = Layout::of::<TurkishRules>().expect("layout");
        assert_eq!(turkish.move_to_variant("41-33"), "17-25");
        assert_eq!(turkish.move_to_variant("33x1x9x25"), "25x57x49x33");
        for n in 1..=64u32 {
            let t = n.to_string();
            assert_eq!(turkish.move_to_layout(&turkish.move_to_variant(&t)), t);
        }
    }
}
