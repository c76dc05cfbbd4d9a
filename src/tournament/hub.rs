//! The Hub v2 client: the runner's side of the draughts Hub protocol.
//!
//! Start-up: `hub`, the engine's `id`/`param` lines until `wait`, the
//! configured `set-param`s (and `variant` when the engine offers that param
//! and the match is not international draughts), `init` → `ready`. Each game
//! starts with `new-game` and a `ping` → `pong`. A search sends the position
//! after the last irreversible move (`pos pos=... moves="..."`), one `level`
//! line and `go think`, and reads `info` lines until `done move=M`.
//!
//! Positions: the game's PDN FEN (`W:W31-50:B1-20`, `K` prefix for kings) is
//! turned into Hub's string: side `W`/`B`, then one of `w b W B e` per square.
//!
//! Invariants: unknown lines and arguments are ignored; `done` without a
//! `move=` or a non-UTF-8 line is malformed; no wait past the deadline.

use super::engine::{
    EngineConfig, Fault, Reply, Score, SearchRequest, HANDSHAKE_TIMEOUT, STARTUP_TIMEOUT,
};
use super::process::{EngineProcess, Line, ReadError, TrafficLog};
use crate::game::Variant;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// Move text in Hub notation: quiet `32-28`, captures with every captured
/// square (`28x19x23`). The game's own text ([`crate::game::Game::move_text`]) is PDN,
/// which may omit captured squares, so the runner sends this to Hub engines.
/// Games without a Hub notation (chess) keep the default.
pub trait HubText: crate::tournament::openings::Balance {
    /// The Hub text of a legal move.
    fn hub_text(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }

    /// The Hub position string (side to move, then one letter per square).
    /// The default reads the PDN FEN with [`hub_position`].
    fn hub_position(&self) -> Option<String> {
        hub_position(&self.to_fen(), self.variant())
    }
}

impl HubText for crate::chess::Position {}

impl<R: crate::draughts::rules::Rules> HubText for crate::draughts::Position<R> {
    fn hub_text(&self, mv: Self::Move) -> String {
        crate::draughts::notation::hub_text::<R>(mv)
    }

    fn hub_position(&self) -> Option<String> {
        Some(crate::draughts::fen::write_hub::<R>(self))
    }
}

/// A running Hub engine.
pub struct HubClient {
    process: EngineProcess,
}

fn fault(e: ReadError) -> Fault {
    match e {
        ReadError::Timeout => Fault::Timeout,
        ReadError::Closed => Fault::Crash,
    }
}

/// The `variant` param value Hub engines (Scan) use, if any.
pub fn hub_variant_name(variant: Variant) -> Option<&'static str> {
    match variant {
        Variant::International => Some("normal"),
        Variant::Antidraughts => Some("losing"),
        Variant::Killer => Some("killer"),
        Variant::Breakthrough => Some("bt"),
        // Scan plays frysk! as frisian from the position it is given.
        Variant::Frisian | Variant::Frysk => Some("frisian"),
        _ => None,
    }
}

impl HubClient {
    /// Starts the engine and completes the handshake.
    pub fn start(
        config: &EngineConfig,
        variant: Variant,
        log: &TrafficLog,
        label: &str,
    ) -> Result<HubClient, Fault> {
        let process = EngineProcess::spawn(label, &config.launch, log).map_err(Fault::Start)?;
        let mut client = HubClient { process };
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        let start_fault = |e: ReadError| Fault::Start(format!("Hub handshake failed ({e:?})"));
        client.process.send("hub").map_err(start_fault)?;
        let mut has_variant = false;
        let mut has_numbering = false;
        loop {
            let line = client.process.wait_for(deadline, |_| true).map_err(start_fault)?;
            let (command, args) = split_command(&line);
            if command == "wait" {
                break;
            }
            if command == "param" && value_of(args, "name").as_deref() == Some("variant") {
                has_variant = true;
            }
            if command == "param" && value_of(args, "name").as_deref() == Some("numbering") {
                has_numbering = true;
            }
        }
        // The runner writes positions and moves in the variant's own
        // numbering; an engine that offers Crown's `numbering` is told so.
        if has_numbering {
            client.process.send("set-param name=numbering value=variant").map_err(start_fault)?;
        }
        let user_variant = config.options.iter().any(|(n, _)| n == "variant");
        if has_variant && !user_variant && variant != Variant::International {
            let value = hub_variant_name(variant).unwrap_or(variant.name());
            client
                .process
                .send(&format!("set-param name=variant value={value}"))
                .map_err(start_fault)?;
        }
        for (name, value) in &config.options {
            client
                .process
                .send(&format!("set-param name={} value={}", quote(name), quote(value)))
                .map_err(start_fault)?;
        }
        client.process.send("init").map_err(start_fault)?;
        client
            .process
            .wait_for(deadline, |l| split_command(l).0 == "ready")
            .map_err(start_fault)?;
        Ok(client)
    }

    /// `new-game`, then `ping` → `pong`.
    pub fn new_game(&mut self) -> Result<(), Fault> {
        self.process.send("new-game").map_err(fault)?;
        self.process.send("ping").map_err(fault)?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.process.wait_for(deadline, |l| split_command(l).0 == "pong").map(|_| ()).map_err(fault)
    }

    /// Runs one search.
    pub fn search(&mut self, request: &SearchRequest<'_>) -> Result<Reply, Fault> {
        let pos = request.recent_hub;
        if pos.is_empty() {
            return Err(Fault::Start("the position has no Hub form".to_string()));
        }
        let mut line = format!("pos pos={pos}");
        if !request.recent_moves.is_empty() {
            let _ = write!(line, " moves=\"{}\"", request.recent_moves.join(" "));
        }
        let _ = self.process.take_info(); // drop anything left from before
        self.process.send(&line).map_err(fault)?;
        self.process.send(&level_command(request)).map_err(fault)?;
        self.process.send("go think").map_err(fault)?;
        let start = Instant::now();
        loop {
            let line = match self.process.recv(request.deadline).map_err(fault)? {
                Line::Text(text) => text,
                Line::Malformed(text) => return Err(Fault::Malformed(text)),
            };
            let (command, args) = split_command(&line);
            if command == "done" {
                let elapsed = start.elapsed();
                let (mut score, mut depth) = (None, None);
                if let Some(info) = self.process.take_info() {
                    let args = split_command(&info).1;
                    if let Some(s) = value_of(args, "score").and_then(|v| v.parse::<f64>().ok()) {
                        // Hub scores are in pieces (Scan prints e.g. 0.12); keep centi-units.
                        score = Some(Score::Cp((s * 100.0).round() as i32));
                    }
                    depth = value_of(args, "depth").and_then(|v| v.parse::<u32>().ok());
                }
                return match value_of(args, "move") {
                    Some(mv) if !mv.is_empty() => Ok(Reply { mv, score, depth, elapsed }),
                    _ => Err(Fault::Malformed(line)),
                };
            }
        }
    }

    /// `quit`, then a kill after a short grace period.
    pub fn quit(self) {
        self.process.shutdown("quit", Duration::from_millis(500));
    }

    /// Writes a runner note into the traffic log.
    pub fn note(&self, text: &str) {
        self.process.note(text);
    }
}

/// The `level` line for a request.
pub fn level_command(request: &SearchRequest<'_>) -> String {
    if let (Some(clocks), Some(tc)) = (request.clocks, request.tc) {
        let clock = clocks[if request.white_to_move { 0 } else { 1 }];
        let mut line = String::from("level");
        if let Some(m) = clock.moves_to_go {
            let _ = write!(line, " moves={m}");
        }
        let _ = write!(line, " time={:.3}", clock.remaining.as_secs_f64());
        if !tc.increment.is_zero() {
            let _ = write!(line, " inc={:.3}", tc.increment.as_secs_f64());
        }
        return line;
    }
    if let Some(mt) = request.limits.movetime {
        return format!("level move-time={:.3}", mt.as_secs_f64());
    }
    if let Some(d) = request.limits.depth {
        return format!("level depth={d}");
    }
    if let Some(n) = request.limits.nodes {
        return format!("level nodes={n}");
    }
    "level infinite".to_string()
}

/// Quotes a Hub value when it has spaces, `=` or is empty.
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains([' ', '=', '"']) {
        format!("\"{}\"", value.replace('"', ""))
    } else {
        value.to_string()
    }
}

/// Splits a Hub line into its command and the rest.
pub fn split_command(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((c, rest)) => (c, rest),
        None => (line, ""),
    }
}

/// The value of `key=` in Hub arguments (quotes removed), if present.
pub fn value_of(args: &str, key: &str) -> Option<String> {
    let mut rest = args.trim_start();
    while !rest.is_empty() {
        let end_key = rest.find(|c: char| c == '=' || c.is_whitespace()).unwrap_or(rest.len());
        let name = &rest[..end_key];
        rest = &rest[end_key..];
        let value = if let Some(after) = rest.strip_prefix('=') {
            if let Some(quoted) = after.strip_prefix('"') {
                let close = quoted.find('"').unwrap_or(quoted.len());
                rest = quoted.get(close + 1..).unwrap_or("");
                Some(&quoted[..close])
            } else {
                let end = after.find(char::is_whitespace).unwrap_or(after.len());
                rest = &after[end..];
                Some(&after[..end])
            }
        } else {
            None
        };
        if name == key {
            return Some(value.unwrap_or("").to_string());
        }
        rest = rest.trim_start();
    }
    None
}

/// Number of playable squares of a draughts variant's board.
pub fn square_count(variant: Variant) -> usize {
    match variant {
        Variant::International
        | Variant::Antidraughts
        | Variant::Killer
        | Variant::Breakthrough
        | Variant::Frisian
        | Variant::Frysk => 50,
        Variant::Turkish => 64,
        _ => 32,
    }
}

/// Converts a PDN FEN (`W:W31-50:B1-20`, `K` for kings, ranges allowed) into
/// a Hub position string. `None` when the FEN cannot be read.
pub fn hub_position(fen: &str, variant: Variant) -> Option<String> {
    let squares = square_count(variant);
    let mut board = vec!['e'; squares];
    let mut fields = fen.trim().trim_end_matches('.').split(':');
    let side = match fields.next()?.trim() {
        "W" => 'W',
        "B" => 'B',
        _ => return None,
    };
    for field in fields {
        let field = field.trim();
        let (colour, list) = match field.chars().next()? {
            'W' => ('w', &field[1..]),
            'B' => ('b', &field[1..]),
            _ => continue, // move numbers and other tags
        };
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (king, item) = match item.strip_prefix('K') {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let piece = if king { colour.to_ascii_uppercase() } else { colour };
            let (a, b) = match item.split_once('-') {
                Some((a, b)) => (a.parse::<usize>().ok()?, b.parse::<usize>().ok()?),
                None => {
                    let n = item.parse::<usize>().ok()?;
                    (n, n)
                }
            };
            if a == 0 || b > squares || a > b {
                return None;
            }
            for sq in a..=b {
                board[sq - 1] = piece;
            }
        }
    }
    let mut out = String::with_capacity(squares + 1);
    out.push(side);
    out.extend(board);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let start = hub_position("W:W31-50:B1-20", Variant::International).unwrap();
        assert_eq!(start, format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20)));
        let p = hub_position("B:WK3,28:B17,K45", Variant::International).unwrap();
        assert_eq!(&p[..1], "B");
        assert_eq!(p.chars().nth(3), Some('W'));
        assert_eq!(p.chars().nth(28), Some('w'));
        assert_eq!(p.chars().nth(45), Some('B'));
        assert!(hub_position("X:W1", Variant::International).is_none());
        assert!(hub_position("W:W51", Variant::International).is_none());
    }

    #[test]
    fn arguments() {
        let args = "name=Scan version=3.1 author=\"Fabien Letouzey\" flag country=France";
        assert_eq!(value_of(args, "author").as_deref(), Some("Fabien Letouzey"));
        assert_eq!(value_of(args, "country").as_deref(), Some("France"));
        assert_eq!(value_of(args, "flag").as_deref(), Some(""));
        assert_eq!(value_of(args, "missing"), None);
        assert_eq!(
            split_command("done move=32-28 ponder=19-23"),
            ("done", "move=32-28 ponder=19-23")
        );
        assert_eq!(quote("a b"), "\"a b\"");
        assert_eq!(quote("x"), "x");
    }
}
