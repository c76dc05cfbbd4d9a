//! The Hub v2 client: the runner's side of the draughts Hub protocol.
//!
//! Start-up: `hub`, the engine's `id`/`param` lines until `wait`, the
//! configured `set-param`s (and `variant` when the engine offers that param
//! and the match is not international draughts), `init` → `ready`. Each game
//! starts with `new-game` and a `ping` → `pong`. A search sends the position
//! after the last irreversible move (`pos pos=... moves="..."`), one `level`
//! line and `go think`, and reads `info` lines until `done move=M`.
//!
//! Positions and moves arrive in Hub's own text, made by the game loop
//! (`hub_text.rs`).
//!
//! Invariants: unknown lines and arguments are ignored; `done` without a
//! `move=` or a non-UTF-8 line is malformed; no wait past the deadline.

use super::client::{
    Client, Fault, Reply, Score, SearchRequest, HANDSHAKE_TIMEOUT, STARTUP_TIMEOUT,
};
use super::engine_config::EngineConfig;
use super::process::{EngineProcess, Line, ReadError, TrafficLog};
use crate::game::Variant;
use crate::protocol::hub_parse::{quote, scan};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// A running Hub engine.
pub struct HubClient {
    process: EngineProcess,
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

impl Client for HubClient {
    /// `hub`, the engine's `id`/`param` lines until `wait`, the params,
    /// `init` → `ready`.
    fn start(
        config: &EngineConfig,
        variant: Variant,
        log: &TrafficLog,
        label: &str,
    ) -> Result<HubClient, Fault> {
        let process = EngineProcess::spawn(label, &config.launch, log).map_err(Fault::CannotRun)?;
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
    fn new_game(&mut self) -> Result<(), Fault> {
        self.process.send("new-game").map_err(Fault::from)?;
        self.process.send("ping").map_err(Fault::from)?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.process
            .wait_for(deadline, |l| split_command(l).0 == "pong")
            .map(|_| ())
            .map_err(Fault::from)
    }

    /// `pos`, `level`, `go think`, then the `done` line.
    fn search(&mut self, request: &SearchRequest<'_>) -> Result<Reply, Fault> {
        let pos = request.recent_hub;
        if pos.is_empty() {
            return Err(Fault::Start("the position has no Hub form".to_string()));
        }
        let mut line = format!("pos pos={pos}");
        if !request.recent_moves.is_empty() {
            let _ = write!(line, " moves=\"{}\"", request.recent_moves.join(" "));
        }
        let _ = self.process.take_info(); // drop anything left from before
        self.process.send(&line).map_err(Fault::from)?;
        self.process.send(&level_command(request)).map_err(Fault::from)?;
        self.process.send("go think").map_err(Fault::from)?;
        let start = Instant::now();
        loop {
            let line = match self.process.recv(request.deadline).map_err(Fault::from)? {
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

    fn note(&self, text: &str) {
        self.process.note(text);
    }

    /// `quit`, then a kill after a short grace period.
    fn quit(self: Box<Self>) {
        self.process.shutdown("quit", Duration::from_millis(500));
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

/// Splits a Hub line into its command and the rest.
pub fn split_command(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((c, rest)) => (c, rest),
        None => (line, ""),
    }
}

/// The value of `key=` in Hub arguments (quotes removed; a flag's is
/// empty), if present. Read by the engine side's scanner, so both sides
/// share one grammar; a line that does not scan (an unterminated quote)
/// has no values.
pub fn value_of(args: &str, key: &str) -> Option<String> {
    let args = scan(args).ok()?;
    args.into_iter().find(|(k, _)| *k == key).map(|(_, v)| v.unwrap_or("").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
