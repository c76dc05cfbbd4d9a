//! Lazy SMP: every worker searches the same root on its own thread and they
//! share only the transposition table and the stop signal.
//!
//! Workers are lent to the threads by `&mut` inside [`std::thread::scope`] and
//! so come back to the caller when the search ends: no `Arc<Mutex<_>>` per
//! thread, no lifetime tricks. Thread 0 (the caller's thread) is the main
//! thread: it owns the clock and the reporter and raises the stop signal when
//! it is done; the move played is chosen across all threads.

use crate::eval::Playable;
use crate::search::{choose, Limits, Reporter, Signals, Silent, Worker};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Stack for each search thread: a ply holds a position copy, a move list
/// and its ordering scores, for up to `MAX_PLY` plies.
pub const STACK_SIZE: usize = 64 << 20;

/// Searches `root` with every worker and reports the chosen move.
/// Returns once the search is over and the best move has been reported.
pub fn search<G: Playable, R: Reporter<G>>(
    workers: &mut [Worker<G>],
    root: &G,
    history: &[u64],
    limits: &Limits<G::Move>,
    reporter: &R,
    signals: &Signals,
    start: Instant,
) {
    let Some((main, helpers)) = workers.split_first_mut() else {
        reporter.best_move(root, None, None);
        return;
    };
    let outcomes = std::thread::scope(|scope| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .filter_map(|worker| {
                std::thread::Builder::new()
                    .name(format!("crown-search-{}", worker.id))
                    .stack_size(STACK_SIZE)
                    .spawn_scoped(scope, move || {
                        worker.think(root, history, limits, &Silent, start)
                    })
                    .ok()
            })
            .collect();
        let first = main.think(root, history, limits, reporter, start);
        // An infinite or pondering search reports only when told to, even
        // when the main thread has finished every depth (a mate, a dead
        // draw): the helpers may go on until then.
        while (limits.infinite || signals.pondering.load(Ordering::Relaxed)) && !signals.stopped() {
            std::thread::sleep(Duration::from_micros(500));
        }
        signals.stop.store(true, Ordering::Relaxed);
        let mut outcomes = vec![first];
        outcomes.extend(handles.into_iter().filter_map(|h| h.join().ok()));
        outcomes
    });
    let best = choose(&outcomes);
    let best_move = best.and_then(|o| o.pv.first().copied());
    let ponder = best.and_then(|o| o.pv.get(1).copied()).or_else(|| {
        // No reply in the PV (stopped early): ask the table.
        let mv = best_move?;
        let mut after = root.clone();
        after.play(mv);
        let key = workers[0].tt.probe(after.hash(), 1)?.mv;
        (key != 0).then(|| after.find_move(key)).flatten()
    });
    reporter.best_move(root, best_move, ponder);
}
