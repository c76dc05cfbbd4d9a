//! One game between two engines, refereed with the core rules.
//!
//! Steps: start (or reuse) both engines and send the new-game handshake; play
//! the opening moves; then loop: stop if the rules end the game
//! ([`Game::outcome`] with the position history), ask the side to move for a
//! move under its limits, charge its clock, check the move against the legal
//! list, play it, and consult the adjudicator.
//!
//! Engines are [`Client`]s: the loop never knows their protocol. This file
//! is also where a configured protocol becomes a client ([`start_client`]).
//!
//! Invariants: every move played is a legal move found by the rules, never
//! the engine's text; any failure of an engine that runs ends the game as a
//! loss for that engine with a stated reason, and marks the engine for a
//! restart. An engine whose command cannot be executed at all ends the game
//! unscored ([`Played::cannot_run`]): the runner stops the match, as
//! cutechess-cli and fastchess do, rather than score forfeits.

use super::adjudication::{Adjudication, Adjudicator, Verdict};
use super::client::{Client, EndVerdict, Fault, SearchRequest};
use super::clock::{tc_text, GameClock};
use super::dxp_client::DxpClient;
use super::engine_config::{EngineConfig, Protocol};
use super::hub_client::HubClient;
use super::hub_text::HubText;
use super::openings::Opening;
use super::pgn_writer::{GameRecord, MoveRecord};
use super::process::TrafficLog;
use super::uci_client::UciClient;
use crate::chess::san::san;
use crate::game::{DrawReason, Game, GameResult, Outcome, Side, Variant};
use std::time::{Duration, Instant};

/// Match-wide settings a game needs.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The variant.
    pub variant: Variant,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Tolerance on the clock before a time loss.
    pub time_margin: Duration,
    /// How long to wait for a move when there is no clock or movetime.
    pub hang_timeout: Duration,
    /// The traffic log.
    pub log: TrafficLog,
}

/// A finished game and what the runner must do next.
#[derive(Debug)]
pub struct Played {
    /// The record (result, reason, moves).
    pub record: GameRecord,
    /// Sides whose engine failed and must be restarted: white, black.
    pub restart: [bool; 2],
    /// Engine moves played (the runner's overhead is per move).
    pub engine_moves: u64,
    /// Set when an engine's command could not be executed: the engine's
    /// name and why. The game is not a result and must not be scored.
    pub cannot_run: Option<String>,
}

struct Ending {
    result: GameResult,
    reason: String,
    termination: &'static str,
    fault: Option<Side>,
    /// Why the faulty side's command could not be executed (not a result).
    cannot_run: Option<String>,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// Starts the engine of `config` with the client of its protocol and
/// completes the handshake.
pub fn start_client(
    config: &EngineConfig,
    variant: Variant,
    log: &TrafficLog,
    label: &str,
) -> Result<Box<dyn Client>, Fault> {
    fn boxed<C: Client + 'static>(client: C) -> Box<dyn Client> {
        Box::new(client)
    }
    match config.protocol {
        Protocol::Uci => UciClient::start(config, variant, log, label).map(boxed),
        Protocol::Hub => HubClient::start(config, variant, log, label).map(boxed),
        Protocol::Dxp => DxpClient::start(config, variant, log, label).map(boxed),
    }
}

fn rules_ending<G: Game>(pos: &G, outcome: Outcome) -> Ending {
    let chess = pos.variant().is_chess();
    let (result, reason) = match outcome {
        Outcome::Win(winner) => {
            let reason = if chess {
                format!("{} mates", side_name(winner))
            } else if winner == pos.side_to_move() {
                format!("{} wins: no legal move left", side_name(winner))
            } else {
                format!("{} wins: {} cannot move", side_name(winner), side_name(winner.flip()))
            };
            (GameResult::win_for(winner), reason)
        }
        Outcome::Draw(why) => {
            let text = match why {
                DrawReason::Stalemate => "Draw by stalemate",
                DrawReason::Repetition => "Draw by 3-fold repetition",
                DrawReason::MoveRule if chess => "Draw by fifty moves rule",
                DrawReason::MoveRule => "Draw by the move-count rule",
                DrawReason::InsufficientMaterial => "Draw by insufficient mating material",
            };
            (GameResult::Draw, text.to_string())
        }
    };
    Ending { result, reason, termination: "normal", fault: None, cannot_run: None }
}

fn fault_ending(side: Side, fault: &Fault, waited: Duration, clocked: bool) -> Ending {
    let who = side_name(side);
    let (reason, termination) = match fault {
        Fault::Timeout if clocked => (
            format!("{who} loses on time (no move after {:.3}s)", waited.as_secs_f64()),
            "time forfeit",
        ),
        Fault::Timeout => (
            format!("{who}'s connection stalls (no move after {:.1}s)", waited.as_secs_f64()),
            "abandoned",
        ),
        Fault::Crash => (format!("{who} disconnects (engine exited)"), "abandoned"),
        Fault::Malformed(line) => {
            let mut line = line.clone();
            line.truncate(60);
            (format!("{who} sends a malformed line: '{line}'"), "abandoned")
        }
        Fault::CannotRun(why) => (format!("{who} cannot be run: {why}"), "abandoned"),
        Fault::Start(why) => (format!("{who} fails to start: {why}"), "abandoned"),
        Fault::Refused(why) => (format!("{who} refused game ({why})"), "abandoned"),
        Fault::Ended(verdict) => return ended_ending(side, verdict),
    };
    let cannot_run = match fault {
        Fault::CannotRun(why) => Some(why.clone()),
        _ => None,
    };
    Ending {
        result: GameResult::win_for(side.flip()),
        reason,
        termination,
        fault: Some(side),
        cannot_run,
    }
}

/// A game that the engine playing `side` ended itself, as the runner
/// judged it; the engine is sound and is not restarted.
fn ended_ending(side: Side, verdict: &EndVerdict) -> Ending {
    let result = match verdict.won {
        Some(true) => GameResult::win_for(side),
        Some(false) => GameResult::win_for(side.flip()),
        None => GameResult::Draw,
    };
    let reason = format!("{} {}", side_name(side), verdict.reason);
    Ending { result, reason, termination: verdict.termination, fault: None, cannot_run: None }
}

/// Plays one game. `players` are white's and black's slots: a `None` slot is
/// started first; a failed engine is left in its slot (the caller restarts it
/// as `Played::restart` says).
#[allow(clippy::too_many_arguments)]
pub fn play_game<G: HubText>(
    settings: &GameSettings,
    configs: [&EngineConfig; 2],
    players: [&mut Option<Box<dyn Client>>; 2],
    opening: &Opening<G>,
    number: u64,
    round: u32,
) -> Played {
    let [white_slot, black_slot] = players;
    let mut slots = [white_slot, black_slot];
    let start = &opening.start;
    let mut record = GameRecord {
        number,
        round,
        white: configs[0].name.clone(),
        black: configs[1].name.clone(),
        variant: settings.variant,
        fen: (!opening.standard_start).then(|| start.to_fen()),
        first_move_number: first_move_number(start),
        black_first: start.side_to_move() == Side::Black,
        moves: Vec::new(),
        result: GameResult::Draw,
        reason: String::new(),
        termination: "normal",
        time_control: configs[0].limits.tc.map(|tc| tc_text(&tc)),
    };
    let mut engine_moves = 0;
    let ending = run(settings, configs, &mut slots, opening, &mut record, &mut engine_moves);
    let cannot_run = match (ending.fault, &ending.cannot_run) {
        (Some(side), Some(why)) => {
            Some(format!("engine {} cannot be run: {why}", configs[side.index()].name))
        }
        _ => None,
    };
    record.result = ending.result;
    record.reason = ending.reason;
    record.termination = ending.termination;
    for side in Side::BOTH {
        if ending.fault != Some(side) {
            if let Some(p) = slots[side.index()].as_mut() {
                p.end_game(record.result);
            }
        }
    }
    let mut restart = [false; 2];
    if let Some(side) = ending.fault {
        restart[side.index()] = true;
        if let Some(p) = slots[side.index()].as_ref() {
            p.note(&format!("game {number}: {}; restarting", record.reason));
        }
    }
    Played { record, restart, engine_moves, cannot_run }
}

/// Plays `mv` on the game's position and records it (protocol text, Hub
/// text when a Hub engine plays, the key for repetitions). Returns whether
/// the move was irreversible, so the caller can restart the reversible tail
/// that Hub engines are sent.
fn advance<G: HubText>(
    pos: &mut G,
    mv: G::Move,
    hub: bool,
    history: &mut Vec<u64>,
    texts: &mut Vec<String>,
    hub_texts: &mut Vec<String>,
) -> bool {
    texts.push(pos.move_text(mv));
    if hub {
        hub_texts.push(pos.hub_text(mv));
    }
    history.push(pos.hash());
    pos.play(mv);
    pos.reversible_plies() == 0
}

fn first_move_number<G: Game>(pos: &G) -> u32 {
    if pos.variant().is_chess() {
        pos.to_fen().split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1).max(1)
    } else {
        1
    }
}

fn run<G: HubText>(
    settings: &GameSettings,
    configs: [&EngineConfig; 2],
    slots: &mut [&mut Option<Box<dyn Client>>; 2],
    opening: &Opening<G>,
    record: &mut GameRecord,
    engine_moves: &mut u64,
) -> Ending {
    // Step 1: engines up and ready. White first, as a GUI would. A process
    // kept from the last game that fails the new-game handshake (it may have
    // died after its last move) is replaced once before the game is lost.
    for side in Side::BOTH {
        let i = side.index();
        let mut fresh = false;
        let ready = loop {
            if slots[i].is_none() {
                let label = configs[i].name.clone();
                match start_client(configs[i], settings.variant, &settings.log, &label) {
                    Ok(p) => *slots[i] = Some(p),
                    Err(f) => break Err(f),
                }
                fresh = true;
            }
            let Some(p) = slots[i].as_mut() else { break Err(Fault::Crash) };
            match p.new_game() {
                Ok(()) => break Ok(()),
                Err(_) if !fresh => {
                    p.note("no answer to the new-game handshake; restarting");
                    *slots[i] = None;
                }
                Err(Fault::Timeout) => {
                    break Err(Fault::Start("no answer to the new-game handshake".into()))
                }
                Err(f) => break Err(f),
            }
        };
        if let Err(f) = ready {
            return fault_ending(side, &f, Duration::ZERO, false);
        }
    }

    // Step 2: the opening.
    let mut pos = opening.start.clone();
    let mut history: Vec<u64> = Vec::with_capacity(256);
    let mut texts: Vec<String> = Vec::with_capacity(256);
    // Hub wants its own notation (all captured squares); kept only for Hub games.
    let hub = configs.iter().any(|c| c.protocol == Protocol::Hub);
    let mut hub_texts: Vec<String> = Vec::new();
    let mut recent = (0usize, pos.clone());
    let game_fen = pos.to_fen();
    for &mv in &opening.moves {
        record.moves.push(MoveRecord {
            text: san(&pos, mv),
            book: true,
            score: None,
            depth: None,
            time: Duration::ZERO,
        });
        if advance(&mut pos, mv, hub, &mut history, &mut texts, &mut hub_texts) {
            recent = (texts.len(), pos.clone());
        }
    }

    // Step 3: the game.
    let mut clocks: [Option<GameClock>; 2] = [
        configs[0].limits.tc.map(|t| GameClock::new(&t)),
        configs[1].limits.tc.map(|t| GameClock::new(&t)),
    ];
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    let hub_pos = |p: &G| if hub { p.hub_position().unwrap_or_default() } else { String::new() };
    let mut recent_hub = hub_pos(&recent.1);
    loop {
        if let Some(outcome) = pos.outcome(&history) {
            return rules_ending(&pos, outcome);
        }
        let side = pos.side_to_move();
        let i = side.index();
        let limits = configs[i].limits;
        let own_clock = clocks[i];
        let waited_limit = match (own_clock, limits.movetime) {
            (Some(c), _) => c.remaining + settings.time_margin,
            (None, Some(mt)) => mt + settings.time_margin,
            (None, None) => settings.hang_timeout,
        };
        let clocked = own_clock.is_some() || limits.movetime.is_some();
        let request = SearchRequest {
            variant: settings.variant,
            game_fen: &game_fen,
            game_startpos: opening.standard_start,
            game_moves: &texts,
            recent_hub: &recent_hub,
            recent_moves: if hub { &hub_texts[recent.0..] } else { &[] },
            white_to_move: side == Side::White,
            clocks: own_clock.map(|own| [clocks[0].unwrap_or(own), clocks[1].unwrap_or(own)]),
            tc: limits.tc,
            limits,
            deadline: Instant::now() + waited_limit + Duration::from_millis(1),
        };
        let Some(player) = slots[i].as_mut() else {
            return fault_ending(side, &Fault::Crash, Duration::ZERO, false);
        };
        let reply = match player.search(&request) {
            Ok(r) => r,
            Err(f) => return fault_ending(side, &f, waited_limit, clocked),
        };
        *engine_moves += 1;
        // Time: the runner's measurement, never the engine's claim.
        if let (Some(clock), Some(tc)) = (clocks[i].as_mut(), limits.tc) {
            if !clock.charge(&tc, reply.elapsed, settings.time_margin) {
                return fault_ending(side, &Fault::Timeout, reply.elapsed, true);
            }
        } else if let Some(mt) = limits.movetime {
            if reply.elapsed > mt + settings.time_margin {
                return fault_ending(side, &Fault::Timeout, reply.elapsed, true);
            }
        }
        let mv = match pos.parse_move(&reply.mv) {
            Ok(mv) => mv,
            Err(_) => {
                let mut text = reply.mv.clone();
                text.truncate(40);
                return Ending {
                    result: GameResult::win_for(side.flip()),
                    reason: format!("{} makes an illegal move: {text}", side_name(side)),
                    termination: "rules infraction",
                    fault: Some(side),
                    cannot_run: None,
                };
            }
        };
        record.moves.push(MoveRecord {
            text: san(&pos, mv),
            book: false,
            score: reply.score,
            depth: reply.depth,
            time: reply.elapsed,
        });
        if advance(&mut pos, mv, hub, &mut history, &mut texts, &mut hub_texts) {
            recent = (texts.len(), pos.clone());
            recent_hub = hub_pos(&recent.1);
        }
        let plies = record.moves.len() as u32;
        match adjudicator.record(side, reply.score, plies) {
            Some(Verdict::Draw) => {
                return Ending {
                    result: GameResult::Draw,
                    reason: "Draw by adjudication".into(),
                    termination: "adjudication",
                    fault: None,
                    cannot_run: None,
                }
            }
            Some(Verdict::MaxMoves) => {
                return Ending {
                    result: GameResult::Draw,
                    reason: "Draw by adjudication: maximum game length".into(),
                    termination: "adjudication",
                    fault: None,
                    cannot_run: None,
                }
            }
            Some(Verdict::Resign(loser)) => {
                return Ending {
                    result: GameResult::win_for(loser.flip()),
                    reason: format!("{} wins by adjudication", side_name(loser.flip())),
                    termination: "adjudication",
                    fault: None,
                    cannot_run: None,
                }
            }
            None => {}
        }
    }
}
