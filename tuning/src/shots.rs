//! Shots in international draughts (`crown-tune shots`): the positions
//! where a quiet sacrifice followed by a multiple capture decided a game
//! that an engine lost, collected from match records into a test suite, and
//! the count of them an engine finds at a fixed node budget (issue 20).
//!
//! A **shot** in a game the engine `loser` lost is a move of its opponent
//! that (1) captures nothing, (2) leaves the loser a capture, which the
//! rules make compulsory, and (3) within [`SETTLE_PLIES`] plies, once
//! neither side has a capture left, has won the opponent at least one man
//! of material (a king counts [`KING_MEN`] men), with a capture of two or
//! more pieces on the way, played where the shooter was not ahead in
//! material (so the shot, not what came before, decided the game). `find`
//! has a long search confirm it: the search must choose that very move and
//! score it at least [`CONFIRM_SCORE`]. Each confirmed shot is a `bm` (best
//! move) entry: the shot's position and the shot, to be found. When the
//! same search of the position one ply earlier scores the loser at least
//! [`HOLDABLE_SCORE`] with another move than the one played, that position
//! and the loser's move become an `am` (avoid move) entry: the game was
//! not lost before that move, and avoiding it is what a search fails at
//! when it prunes the opponent's sacrifice away.
//!
//! The suite is text, one entry a line: `FEN | bm MOVE | source` or `FEN |
//! am MOVE | source`, the FEN and the move in PDN notation as Crown writes
//! them, `source` free text (the file and game); `#` starts a comment line.
//! `solve` searches each position from a fresh table at each node budget
//! and counts the `bm` entries whose best move is the shot and the `am`
//! entries whose best move is another.
//!
//! Invariants: a suite entry parses and its move is legal; a `bm` move is
//! quiet and leaves the opponent a capture (checked by [`parse_suite`] and
//! by the test that reads the shipped suite).

use crate::pgn_reader::PgnReader;
use crown::draughts::International;
use crown::game::{Game, Side, Variant};
use crown::search::{search_once, Limits};
use crown::tournament::openings::{realise, Opening, OpeningText};
use std::io::BufReader;
use std::path::PathBuf;

/// Plies after the shot within which the exchange must have settled.
pub const SETTLE_PLIES: usize = 12;
/// A king's worth in men when counting what a shot won.
pub const KING_MEN: i32 = 3;
/// The least score (hundredths of a man, for the side making the shot) of
/// the confirming search.
pub const CONFIRM_SCORE: i32 = 70;
/// The least score (for the loser) of the position before the move that
/// allowed the shot: the game was still open.
pub const HOLDABLE_SCORE: i32 = -50;
/// Table size of every search here (MB).
const TABLE_MB: usize = 64;

/// `crown-tune shots` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Find or solve.
    #[command(subcommand)]
    pub command: ShotsCommand,
}

/// What `crown-tune shots` does.
#[derive(clap::Subcommand, Debug)]
pub enum ShotsCommand {
    /// Collects the confirmed shots that decided lost games into a suite
    /// (printed on stdout).
    Find {
        /// The engine whose lost games are searched (the PDN `White` or
        /// `Black` name).
        #[arg(long)]
        loser: String,
        /// Nodes of the confirming search.
        #[arg(long, default_value_t = 2_000_000)]
        nodes: u64,
        /// PDN files written by `crown match`.
        #[arg(required = true)]
        pdn: Vec<PathBuf>,
    },
    /// Counts the suite's shots the engine finds at each node budget.
    Solve {
        /// The suite file.
        #[arg(long)]
        suite: PathBuf,
        /// Node budgets, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "10000,100000,1000000")]
        nodes: Vec<u64>,
        /// Print every entry's result.
        #[arg(long)]
        verbose: bool,
    },
}

/// What a suite entry asks of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Play this move (the shot).
    Best,
    /// Play anything but this move (the one that allowed the shot).
    Avoid,
}

/// One suite entry.
#[derive(Clone, Debug)]
pub struct Shot {
    /// The position.
    pub position: International,
    /// Find it or avoid it.
    pub task: Task,
    /// The shot, or the move that allowed it.
    pub mv: <International as Game>::Move,
    /// Where it came from.
    pub source: String,
}

impl Shot {
    /// The entry as a suite line.
    pub fn line(&self) -> String {
        let task = match self.task {
            Task::Best => "bm",
            Task::Avoid => "am",
        };
        let mv = self.position.move_text(self.mv);
        format!("{} | {task} {mv} | {}", self.position.to_fen(), self.source)
    }

    /// Whether a search of `nodes` from a fresh table does what the entry
    /// asks.
    pub fn solved(&self, nodes: u64) -> bool {
        let limits = Limits { nodes: Some(nodes), ..Limits::default() };
        let best =
            search_once(&self.position, &limits, TABLE_MB).and_then(|f| f.pv.first().copied());
        match self.task {
            Task::Best => best == Some(self.mv),
            Task::Avoid => best.is_some_and(|mv| mv != self.mv),
        }
    }
}

/// Men plus [`KING_MEN`] per king of `side`, minus the other side's.
fn material(pos: &International, side: Side) -> i32 {
    let kings = pos.kings();
    let worth = |pieces: u64| {
        (pieces & !kings).count_ones() as i32 + KING_MEN * (pieces & kings).count_ones() as i32
    };
    let (own, other) = match side {
        Side::White => (pos.white(), pos.black()),
        Side::Black => (pos.black(), pos.white()),
    };
    worth(own) - worth(other)
}

/// Every position of `line`, from its start to after its last move.
fn positions(line: &Opening<International>) -> Vec<International> {
    let mut positions = vec![line.start];
    for &mv in &line.moves {
        let mut next = *positions.last().unwrap_or(&line.start);
        next.play(mv);
        positions.push(next);
    }
    positions
}

/// Whether the side to move has a capture (and so must capture).
fn must_capture(pos: &International) -> bool {
    let mut list = <International as Game>::MoveList::default();
    pos.generate_tactical(&mut list);
    !list.is_empty()
}

/// Whether `mv`, quiet, hands the opponent a capture.
fn is_tempo_sacrifice(pos: &International, mv: <International as Game>::Move) -> bool {
    if mv.is_capture() {
        return false;
    }
    let mut after = *pos;
    after.play(mv);
    must_capture(&after)
}

/// The candidate shots of one game, by the opponent of `loser` (ply
/// indices into `positions`, each followed by the move played there).
fn candidates(
    positions: &[International],
    moves: &[<International as Game>::Move],
    loser: Side,
) -> Vec<usize> {
    let mut found = Vec::new();
    for i in 0..moves.len() {
        let pos = &positions[i];
        if pos.side_to_move() == loser || !is_tempo_sacrifice(pos, moves[i]) {
            continue;
        }
        let shooter = loser.flip();
        let mut multiple = false;
        let end = (i + SETTLE_PLIES).min(moves.len());
        for j in i + 1..=end {
            if j > i + 1 && !must_capture(&positions[j]) {
                if multiple && material(&positions[j], shooter) - material(pos, shooter) >= 1 {
                    found.push(i);
                }
                break;
            }
            if j < moves.len()
                && positions[j].side_to_move() == shooter
                && moves[j].captured.count_ones() >= 2
            {
                multiple = true;
            }
        }
    }
    found
}

/// Collects the confirmed shots of the games in PDN `text` that `loser`
/// lost; `origin` names the file in each entry's source. Returns the shots
/// and how many candidates the search did not confirm.
pub fn find(text: &str, origin: &str, loser: &str, nodes: u64) -> (Vec<Shot>, usize) {
    let mut shots: Vec<Shot> = Vec::new();
    let mut unconfirmed = 0;
    for (number, game) in PgnReader::new(BufReader::new(text.as_bytes())).enumerate() {
        let Ok(game) = game else { continue };
        let lost = match game.tag("Result") {
            Some("2-0" | "1-0") => Side::Black,
            Some("0-2" | "0-1") => Side::White,
            _ => continue,
        };
        let name = match lost {
            Side::White => game.tag("White"),
            Side::Black => game.tag("Black"),
        };
        if name != Some(loser) {
            continue;
        }
        let text = OpeningText {
            fen: game.tag("FEN").map(str::to_string),
            moves: game.moves.iter().map(|(mv, _)| mv.clone()).collect(),
        };
        let Ok(line) = realise::<International>(&text, Variant::International, None) else {
            continue;
        };
        let positions = positions(&line);
        for i in candidates(&positions, &line.moves, lost) {
            let pos = positions[i];
            if shots.iter().any(|s| s.position.key() == pos.key()) {
                continue;
            }
            let limits = Limits { nodes: Some(nodes), ..Limits::default() };
            let shot = line.moves[i];
            let allowed = i.checked_sub(1).map(|j| (positions[j], line.moves[j]));
            let shooter = lost.flip();
            let confirmed = material(&pos, shooter) <= 0
                && search_once(&pos, &limits, TABLE_MB)
                    .is_some_and(|f| f.pv.first() == Some(&shot) && f.score >= CONFIRM_SCORE);
            match allowed {
                Some((before, mistake)) if confirmed => {
                    let avoidable = search_once(&before, &limits, TABLE_MB).is_some_and(|f| {
                        f.score >= HOLDABLE_SCORE && f.pv.first() != Some(&mistake)
                    });
                    if avoidable {
                        shots.push(Shot {
                            position: before,
                            task: Task::Avoid,
                            mv: mistake,
                            source: format!("{origin} game {} ply {}", number + 1, i),
                        });
                    }
                    let source = format!("{origin} game {} ply {}", number + 1, i + 1);
                    shots.push(Shot { position: pos, task: Task::Best, mv: shot, source });
                }
                _ => unconfirmed += 1,
            }
        }
    }
    (shots, unconfirmed)
}

/// Reads a suite; every entry must be a position, `bm` and a legal quiet
/// move that leaves the opponent a capture or `am` and a legal move, and a
/// source.
pub fn parse_suite(text: &str) -> Result<Vec<Shot>, String> {
    let mut shots = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| format!("line {}: {what}: {line}", n + 1);
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [fen, task_mv, source] = fields[..] else {
            return Err(bad("expected FEN | bm|am MOVE | source"));
        };
        let (task, mv) = match task_mv.split_once(' ') {
            Some(("bm", mv)) => (Task::Best, mv.trim()),
            Some(("am", mv)) => (Task::Avoid, mv.trim()),
            _ => return Err(bad("expected bm MOVE or am MOVE")),
        };
        let position = International::from_fen(fen, Variant::International)
            .map_err(|e| bad(&format!("bad FEN ({e:?})")))?;
        let mv = position.parse_move(mv).map_err(|e| bad(&format!("illegal move ({e:?})")))?;
        if task == Task::Best && !is_tempo_sacrifice(&position, mv) {
            return Err(bad("the shot is not a quiet move that leaves a capture"));
        }
        shots.push(Shot { position, task, mv, source: source.to_string() });
    }
    Ok(shots)
}

/// Runs `crown-tune shots`.
pub fn run(args: Args) -> Result<(), String> {
    match args.command {
        ShotsCommand::Find { loser, nodes, pdn } => {
            println!(
                "# shots that decided games {loser} lost (crown-tune shots find, {nodes} nodes)"
            );
            let mut total = 0;
            for path in &pdn {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let origin =
                    path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                let (shots, unconfirmed) = find(&text, &origin, &loser, nodes);
                for shot in &shots {
                    println!("{}", shot.line());
                }
                eprintln!(
                    "{}: {} shots, {unconfirmed} candidates not confirmed",
                    path.display(),
                    shots.len()
                );
                total += shots.len();
            }
            eprintln!("{total} shots");
            Ok(())
        }
        ShotsCommand::Solve { suite, nodes, verbose } => {
            let text = std::fs::read_to_string(&suite)
                .map_err(|e| format!("cannot read {}: {e}", suite.display()))?;
            let shots = parse_suite(&text)?;
            if shots.is_empty() || nodes.contains(&0) {
                return Err("an empty suite or a zero node budget".into());
            }
            for &budget in &nodes {
                let mut solved = [0usize; 2];
                let mut total = [0usize; 2];
                for shot in &shots {
                    let ok = shot.solved(budget);
                    let k = usize::from(shot.task == Task::Avoid);
                    solved[k] += usize::from(ok);
                    total[k] += 1;
                    if verbose {
                        let what = if ok { "solved" } else { "failed" };
                        println!("{budget:>9} {what} {}", shot.line());
                    }
                }
                println!(
                    "{budget} nodes: {} of {} shots found (bm), {} of {} allowing moves avoided (am)",
                    solved[0], total[0], solved[1], total[1]
                );
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scan 2.0 (White) against Crown, 75/60 over DXP, session 11: White's
    /// 44. 38-32 gives a man, and 37x28 33x2 crowns through three.
    const GAME: &str = "1. 31-26 16-21 2. 35-30 11-16 3. 30-25 18-23 4. 37-31 12-18 \
        5. 41-37 19-24 6. 33-29 24x33 7. 39x19 14x23 8. 25x14 10x19 9. 31-27 15-20 \
        10. 38-33 5-10 11. 46-41 19-24 12. 42-38 10-15 13. 36-31 9-14 14. 44-39 24-29 \
        15. 33x24 20x29 16. 38-33 29x38 17. 49-44 38x49 18. 48-43 49x38 19. 32x43 21x32 \
        20. 37x10 7-12 21. 34-29 4-9 22. 10-5 9-14 23. 5x11 6x17 24. 39-33 1-7 \
        25. 44-39 16-21 26. 40-34 18-22 27. 41-36 13-19 28. 45-40 21-27 29. 29-24 19x30 \
        30. 34x25 8-13 31. 50-44 7-11 32. 33-28 22x33 33. 39x28 12-18 34. 31x22 18x27 \
        35. 44-39 3-9 36. 43-38 11-16 37. 47-42 13-19 38. 38-33 19-24 39. 42-38 9-14 \
        40. 40-35 2-8 41. 26-21 17x26 42. 28-22 27x18 43. 36-31 26x37 44. 38-32 37x28 \
        45. 33x2 16-21 2-0";

    fn line() -> (Vec<International>, Vec<<International as Game>::Move>) {
        let opening = crown::tournament::openings::parse_games(GAME).into_iter().next().unwrap();
        let line = realise::<International>(&opening, Variant::International, None).unwrap();
        (positions(&line), line.moves)
    }

    #[test]
    fn the_shot_of_a_lost_game_is_a_candidate() {
        let (positions, moves) = line();
        let found = candidates(&positions, &moves, Side::Black);
        // Ply 87 (index 86) is 44. 38-32; the loser's own moves never count.
        assert!(found.contains(&86), "{found:?}");
        assert!(found.iter().all(|&i| positions[i].side_to_move() == Side::White));
        // Read from the winner's side there is no shot by the loser here.
        assert!(!candidates(&positions, &moves, Side::White).contains(&86));
    }

    #[test]
    fn suite_lines_are_checked() {
        let (positions, moves) = line();
        let shot = Shot {
            position: positions[86],
            task: Task::Best,
            mv: moves[86],
            source: "test".into(),
        };
        let allowed =
            Shot { position: positions[85], task: Task::Avoid, mv: moves[85], source: "t".into() };
        let text = format!("# comment\n\n{}\n{}\n", allowed.line(), shot.line());
        let parsed = parse_suite(&text).unwrap();
        assert_eq!(parsed.len(), 2);
        assert_eq!((parsed[0].task, parsed[0].mv), (Task::Avoid, allowed.mv));
        assert_eq!((parsed[1].task, parsed[1].mv), (Task::Best, shot.mv));
        assert_eq!(parsed[1].position.key(), shot.position.key());
        let fen = shot.position.to_fen();
        for bad in [
            format!("{fen} | bm 38-32"),
            format!("{fen} | 38-32 | x"),
            format!("{fen} | xm 38-32 | x"),
            "W:W99:B1 | bm 38-32 | x".to_string(),
            format!("{fen} | bm 38-33 | x"),
            // Legal and quiet, but it gives nothing away.
            format!("{fen} | bm {} | x", shot.position.move_text(quiet_safe_move(&shot.position))),
        ] {
            assert!(parse_suite(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_shipped_suite_reads() {
        let shots = parse_suite(include_str!("../../tests/data/shots_international.txt")).unwrap();
        assert!(shots.len() >= 30, "{}", shots.len());
        assert!(shots.iter().any(|s| s.task == Task::Avoid));
        // Every line round-trips through the writer.
        for shot in &shots {
            let again = parse_suite(&shot.line()).unwrap();
            assert_eq!((again[0].task, again[0].mv), (shot.task, shot.mv));
        }
    }

    fn quiet_safe_move(pos: &International) -> <International as Game>::Move {
        let mut list = <International as Game>::MoveList::default();
        pos.generate(&mut list);
        list.iter().copied().find(|&mv| !is_tempo_sacrifice(pos, mv)).unwrap()
    }
}
