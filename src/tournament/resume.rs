//! Resuming a match from its own game file (`--resume` with `--pgnout`).
//!
//! A long match (an SPRT at 10+0.1 on a 2-core machine runs for hours)
//! may be stopped at any moment and started again with the same command
//! plus `--resume`: the games already in the file count again, in the live
//! statistics, the pentanomial pairs and the SPRT, and are not replayed;
//! the rest of the schedule is played and appended to the file.
//!
//! Invariants:
//! * A game in the file is matched to the first unplayed game of the
//!   schedule with its round, White and Black, and its opening (the `FEN`
//!   tag, absent for the standard start, and the book moves, marked
//!   `{book}`) must be that game's; a file of
//!   another match (other engines, seed, book, variant or schedule) is
//!   refused as a whole, never mixed in.
//! * The file is written a whole game at a time; a game cut off by the
//!   stop (no result token after its moves) is dropped from the file and
//!   played again, so the file stays a valid PGN/PDN.

use super::schedule::Job;
use crate::game::GameResult;

/// The PGN `Termination` values the runner writes.
const TERMINATIONS: [&str; 5] =
    ["normal", "adjudication", "time forfeit", "abandoned", "rules infraction"];

/// A game's opening as its record shows it: the `FEN` tag (`None` for
/// the standard start) and the book moves' text.
pub type OpeningKey = (Option<String>, Vec<String>);

/// A game of the file, matched to the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resumed {
    /// Index of its game in the schedule.
    pub job: usize,
    /// Its result.
    pub result: GameResult,
    /// Its `Termination` tag.
    pub termination: &'static str,
}

/// What a game file holds: the games to count again, and the length of
/// its complete games (where appending resumes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    /// The games, in file order.
    pub games: Vec<Resumed>,
    /// Bytes of the file up to the end of its last complete game.
    pub keep: usize,
}

/// The tags of one game, with whether its movetext is complete.
#[derive(Debug, Default)]
struct Tags {
    round: Option<u32>,
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
    fen: Option<String>,
    termination: Option<String>,
}

fn tag(line: &str) -> Option<(&str, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name, value.replace("\\\"", "\"").replace("\\\\", "\\")))
}

fn result_of(text: &str) -> Option<GameResult> {
    match text {
        "1-0" | "2-0" => Some(GameResult::WhiteWins),
        "0-1" | "0-2" => Some(GameResult::BlackWins),
        "1/2-1/2" | "1-1" => Some(GameResult::Draw),
        _ => None,
    }
}

/// Reads the game file `text` of a match whose schedule is `jobs`, engine
/// names `names`; `opening_of(job)` is the opening that job's game record
/// starts with.
pub fn read(
    text: &str,
    jobs: &[Job],
    names: &[String],
    opening_of: impl Fn(&Job) -> OpeningKey,
) -> Result<Resume, String> {
    let mut games = Vec::new();
    let mut done = vec![false; jobs.len()];
    let mut keep = 0;
    // Games start at their `[Event` line.
    let starts: Vec<usize> = text.match_indices("[Event ").map(|(i, _)| i).collect();
    if text.trim().is_empty() {
        return Ok(Resume { games, keep: 0 });
    }
    if starts.first() != Some(&0) {
        return Err("the file does not start with a game's [Event] tag".into());
    }
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let chunk = &text[start..end];
        let mut t = Tags::default();
        let mut lines = chunk.lines();
        for line in lines.by_ref() {
            if line.trim().is_empty() {
                break;
            }
            let Some((name, value)) = tag(line) else { break };
            match name {
                "Round" => t.round = value.parse().ok(),
                "White" => t.white = Some(value),
                "Black" => t.black = Some(value),
                "Result" => t.result = Some(value),
                "FEN" => t.fen = Some(value),
                "Termination" => t.termination = Some(value),
                _ => {}
            }
        }
        let number = k + 1;
        let result_text = t.result.clone().unwrap_or_default();
        let movetext: String = lines.collect::<Vec<_>>().join(" ");
        let tokens: Vec<&str> = movetext.split_whitespace().collect();
        let book: Vec<String> =
            tokens.windows(2).filter(|w| w[1] == "{book}").map(|w| w[0].to_string()).collect();
        let complete = chunk.ends_with("\n\n")
            && movetext.split_whitespace().last() == Some(result_text.as_str());
        if !complete {
            if k + 1 == starts.len() {
                break; // the game the stop cut off: played again
            }
            return Err(format!("game {number} of the file is incomplete"));
        }
        let bad = |what: &str| format!("game {number} of the file: {what}");
        let result = result_of(&result_text).ok_or_else(|| bad("no result"))?;
        let round = t.round.ok_or_else(|| bad("no round"))?;
        let index = |name: &Option<String>| {
            let name = name.as_deref().unwrap_or("");
            names.iter().position(|n| n == name).ok_or_else(|| {
                bad(&format!("'{name}' is not an engine of this match; not resuming"))
            })
        };
        let (white, black) = (index(&t.white)?, index(&t.black)?);
        let termination = t.termination.as_deref().unwrap_or("");
        let termination = TERMINATIONS
            .iter()
            .find(|&&known| known == termination)
            .ok_or_else(|| bad(&format!("unknown termination '{termination}'")))?;
        let job = (0..jobs.len())
            .find(|&j| {
                let job = &jobs[j];
                !done[j] && job.round == round && job.white == white && job.black == black
            })
            .ok_or_else(|| bad("not in this match's schedule (another match's file?)"))?;
        if opening_of(&jobs[job]) != (t.fen, book) {
            return Err(bad("its opening is not this match's (other seed or book?)"));
        }
        done[job] = true;
        games.push(Resumed { job, result, termination });
        keep = end;
    }
    Ok(Resume { games, keep })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs() -> Vec<Job> {
        // Two rounds of a colour-swapped pair between engines 0 and 1.
        (0..4)
            .map(|i| Job {
                number: i as u64 + 1,
                round: i / 2 + 1,
                white: (i % 2) as usize,
                black: 1 - (i % 2) as usize,
                opening: (i / 2) as usize,
                pair: Some(u64::from(i / 2)),
            })
            .collect()
    }

    fn game(round: u32, white: &str, black: &str, result: &str, fen: Option<&str>) -> String {
        let fen = fen.map(|f| format!("[FEN \"{f}\"]\n")).unwrap_or_default();
        format!(
            "[Event \"crown match\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
             [Black \"{black}\"]\n[Result \"{result}\"]\n{fen}[Termination \"normal\"]\n\n\
             1. e4 {{book}} e5 {{+0.20/9 0.1s}} {{adjudication}} {result}\n\n"
        )
    }

    fn fen_of(job: &Job) -> OpeningKey {
        let fen = (job.opening == 1).then(|| "8/8/8/8/8/8/8/K1k5 w - - 0 1".to_string());
        (fen, vec!["e4".to_string()])
    }

    #[test]
    fn games_are_matched_to_the_schedule_and_a_cut_game_dropped() {
        let names = ["a".to_string(), "b".to_string()];
        let fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1";
        let mut text = game(1, "b", "a", "0-1", None) + &game(1, "a", "b", "1/2-1/2", None);
        text += &game(2, "a", "b", "1-0", Some(fen));
        let whole = text.len();
        // The stop cut the fourth game off in its moves.
        text += &game(2, "b", "a", "1-0", Some(fen))[..60];
        let r = read(&text, &jobs(), &names, fen_of).unwrap();
        let got: Vec<(usize, GameResult)> = r.games.iter().map(|g| (g.job, g.result)).collect();
        assert_eq!(
            got,
            [(1, GameResult::BlackWins), (0, GameResult::Draw), (2, GameResult::WhiteWins)]
        );
        assert_eq!(r.keep, whole);
        assert_eq!(read("", &jobs(), &names, fen_of).unwrap().games, []);
    }

    #[test]
    fn another_matchs_file_is_refused() {
        let names = ["a".to_string(), "b".to_string()];
        // Another engine.
        let other = game(1, "a", "stockfish", "1-0", None);
        assert!(read(&other, &jobs(), &names, fen_of).unwrap_err().contains("not an engine"));
        // Another opening (another seed or book).
        let moved = game(2, "a", "b", "1-0", Some("8/8/8/8/8/8/8/K2k4 w - - 0 1"));
        assert!(read(&moved, &jobs(), &names, fen_of).unwrap_err().contains("opening"));
        // More games of a round than the schedule has.
        let twice = game(1, "a", "b", "1-0", None).repeat(2);
        assert!(read(&twice, &jobs(), &names, fen_of).unwrap_err().contains("schedule"));
        // Another book move (random openings of another seed).
        let other = |job: &Job| (fen_of(job).0, vec!["d4".to_string()]);
        let game1 = game(1, "a", "b", "1-0", None);
        assert!(read(&game1, &jobs(), &names, other).unwrap_err().contains("opening"));
        // Not a game file.
        assert!(read("hello\n", &jobs(), &names, fen_of).is_err());
        // A damaged game before the last one.
        let broken =
            game(1, "a", "b", "1-0", None)[..70].to_string() + &game(1, "b", "a", "1-0", None);
        assert!(read(&broken, &jobs(), &names, fen_of).unwrap_err().contains("incomplete"));
    }
}
