//! From a `--variant` name to a tunable game type: the one place that
//! lists which games the tuner and the data generator know.

/// Runs `$body` with `$G` bound to the position type of `$variant`, or
/// returns `Err` naming the variant when its evaluation is not tunable yet.
/// Evaluates to `Result<_, String>`.
#[macro_export]
macro_rules! with_tunable {
    ($variant:expr, $G:ident => $body:expr) => {{
        use crown::game::Variant;
        #[allow(unreachable_patterns)]
        match $variant {
            Variant::Chess | Variant::Chess960 => {
                type $G = crown::chess::Position;
                Ok($body)
            }
            Variant::International => {
                type $G = crown::draughts::International;
                Ok($body)
            }
            Variant::Brazilian => {
                type $G = crown::draughts::Brazilian;
                Ok($body)
            }
            Variant::Russian => {
                type $G = crown::draughts::Russian;
                Ok($body)
            }
            Variant::English => {
                type $G = crown::draughts::English;
                Ok($body)
            }
            Variant::Italian => {
                type $G = crown::draughts::Italian;
                Ok($body)
            }
            Variant::Turkish => {
                type $G = crown::draughts::Turkish;
                Ok($body)
            }
            Variant::Antidraughts => {
                type $G = crown::draughts::Antidraughts;
                Ok($body)
            }
            other => Err(format!("the {} evaluation does not implement Tunable yet", other.name())),
        }
    }};
}
