//! The float network the trainer fits, its forward and backward passes,
//! and its quantisation into the engine's format
//! ([`crown::eval::nnue::network`]).
//!
//! Forward pass (must match the engine's integer inference, tested):
//! `acc_p = b1 + sum(w1[f] for f in features(p))` for each perspective
//! `p`; `a = act(acc)` with `act(x) = clamp(x, 0, 1)` or its square;
//! `out = w2[b][..H] . a_us + w2[b][H..] . a_them + b2[b]` with `b` the
//! output bucket of the board's piece count ([`bucket`]); the score in
//! centipawns is `out * SCALE`.
//!
//! Invariant: after every optimiser step the weights lie in
//! `[-WEIGHT_CLIP, WEIGHT_CLIP]`, which keeps the quantised net within the
//! engine's overflow checks (QA = 181: `181 * 1.98 * 32` fits `i16`, and
//! `181^2` does, which the squared activation needs). The output dot
//! product of one perspective fits `i32` while the sum of its |weights|
//! stays under `2^31 / (181^2 * QB)` = 256 (trained nets: about 50 for H =
//! 256); a net beyond it is refused at export with the engine's message.

use crown::chess::{Color, Piece, Square};
use crown::eval::nnue::network::{bucket, feature, Activation, NetError, Network, Parts, INPUTS};
use crown::game::Side;

/// The accumulator's unit.
pub const QA: u16 = 181;
/// The output weights' unit. 256 since session 24 (64 before, which
/// added about 9 cp of rounding to every score: 9.8 cp mean against 4.6 at
/// 256 for the generation-7 candidate, tuning/README.md); nets of either
/// unit load, since every net file carries its own.
pub const QB: u16 = 256;
/// Centipawns per unit of output.
pub const SCALE: u16 = 400;
/// Every weight stays within this magnitude.
pub const WEIGHT_CLIP: f32 = 1.98;

/// A training position's features: White-perspective indices (the Black
/// perspective's are derived by [`mirror`]).
#[derive(Clone, Debug)]
pub struct Sample {
    /// Feature indices from White's perspective, `count` of them.
    pub features: [u16; 32],
    /// Active features.
    pub count: u8,
    /// Side to move.
    pub side: Side,
    /// Search score, centipawns, side to move's view.
    pub score: i16,
    /// Game result for the side to move: 0, 1 (draw), 2 (win).
    pub result: u8,
    /// From a Chess960 game (where a king may castle from any square of
    /// its back rank).
    pub chess960: bool,
}

impl Sample {
    /// The sample of a board (pieces by square), side to move, score and
    /// result from the side to move's view; `None` beyond 32 pieces.
    pub fn new(
        pieces: impl Iterator<Item = (Square, Piece)>,
        side: Side,
        score: i16,
        result: u8,
    ) -> Option<Sample> {
        let mut s = Sample { features: [0; 32], count: 0, side, score, result, chess960: false };
        for (sq, piece) in pieces {
            let slot = s.features.get_mut(usize::from(s.count))?;
            *slot = feature(Color::White, piece.color, piece.kind, sq) as u16;
            s.count += 1;
        }
        Some(s)
    }

    /// The active features seen from `perspective`.
    pub fn active(&self, perspective: Side) -> impl Iterator<Item = usize> + '_ {
        self.features[..usize::from(self.count)].iter().map(move |&f| {
            if perspective == Side::White {
                usize::from(f)
            } else {
                mirror(usize::from(f))
            }
        })
    }

    /// The same position with the files mirrored (a <-> h), when that is
    /// the same game: the records carry no castling rights, so only when
    /// neither king stands where it might still castle: its start square
    /// (e1, e8) in standard chess, anywhere on its back rank in Chess960
    /// (where the mirror of a castling is no castling). `None` otherwise.
    pub fn mirrored(&self) -> Option<Sample> {
        use crown::chess::PieceKind;
        let active = &self.features[..usize::from(self.count)];
        let files: &[u32] = if self.chess960 { &[0, 1, 2, 3, 4, 5, 6, 7] } else { &[4] };
        for &file in files {
            let (white, black) = (Square::from_index(file), Square::from_index(56 + file));
            let white_home = feature(Color::White, Color::White, PieceKind::King, white) as u16;
            let black_home = feature(Color::White, Color::Black, PieceKind::King, black) as u16;
            if active.contains(&white_home) || active.contains(&black_home) {
                return None;
            }
        }
        let mut m = self.clone();
        // A feature ends in the square index (`network::feature`), whose low
        // three bits are the file.
        for f in &mut m.features[..usize::from(self.count)] {
            *f ^= 7;
        }
        Some(m)
    }
}

/// A White-perspective feature seen from Black: colours swapped, board
/// flipped vertically.
#[inline]
pub fn mirror(f: usize) -> usize {
    ((f + 384) % 768) ^ 56
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Hidden size.
    pub hidden: usize,
    /// Hidden activation.
    pub activation: Activation,
    /// Output buckets B.
    pub buckets: usize,
    /// Every parameter in one vector: `w1 [768][H]`, `b1 [H]`, `w2 [B][2H]`,
    /// `b2 [B]`.
    pub params: Vec<f32>,
}

/// Offsets of the parameter blocks.
#[derive(Clone, Copy)]
struct Layout {
    h: usize,
    b1: usize,
    w2: usize,
    b2: usize,
    end: usize,
}

impl Layout {
    fn of(h: usize, buckets: usize) -> Layout {
        let b1 = INPUTS * h;
        let w2 = b1 + h;
        let b2 = w2 + 2 * h * buckets;
        Layout { h, b1, w2, b2, end: b2 + buckets }
    }

    /// The offsets of bucket `b`'s output weights and bias.
    fn output(&self, b: usize) -> (usize, usize) {
        (self.w2 + 2 * self.h * b, self.b2 + b)
    }
}

/// The number of parameters of a model.
pub fn parameter_count(hidden: usize, buckets: usize) -> usize {
    Layout::of(hidden, buckets).end
}

/// Per-sample scratch of the forward pass.
pub struct Scratch {
    acc: Vec<f32>,
}

impl Model {
    /// A model with small random weights (deterministic for `seed`).
    pub fn new(hidden: usize, buckets: usize, activation: Activation, seed: u64) -> Model {
        let l = Layout::of(hidden, buckets);
        let mut s = seed | 1;
        let mut uniform = |range: f32| {
            crown::rng::xorshift64(&mut s);
            ((s >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0) * range
        };
        let mut params = vec![0.0; l.end];
        // Feature weights: 32 active inputs should give pre-activations of
        // order 1; output weights like a Glorot draw over 2H inputs.
        for p in &mut params[..l.b1] {
            *p = uniform(0.1);
        }
        let out_range = (6.0 / (2 * hidden + 1) as f32).sqrt();
        for p in &mut params[l.w2..l.b2] {
            *p = uniform(out_range);
        }
        Model { hidden, activation, buckets, params }
    }

    /// The float model of a quantised net (each weight divided by the
    /// unit the file gives), with `buckets` output buckets: a net with one
    /// bucket starts every bucket from its output layer; otherwise the
    /// counts must match. Training from it goes on where the net's
    /// training stopped, up to the quantisation's rounding.
    pub fn from_network(net: &Network, buckets: usize) -> Result<Model, String> {
        let p = net.parts();
        if p.buckets != 1 && p.buckets != buckets {
            return Err(format!("the net has {} output buckets, not 1 or {buckets}", p.buckets));
        }
        if p.scale != SCALE {
            return Err(format!("the net's SCALE {} differs from the trainer's {SCALE}", p.scale));
        }
        let (qa, qb) = (f32::from(p.qa), f32::from(p.qb));
        let l = Layout::of(p.hidden, buckets);
        let mut params = Vec::with_capacity(l.end);
        params.extend(p.feature_weights.iter().chain(&p.feature_bias).map(|&w| f32::from(w) / qa));
        let output = |b: usize| b % p.buckets;
        for b in 0..buckets {
            let w = &p.output_weights[2 * p.hidden * output(b)..2 * p.hidden * (output(b) + 1)];
            params.extend(w.iter().map(|&w| f32::from(w) / qb));
        }
        params.extend((0..buckets).map(|b| p.output_bias[output(b)] as f32 / (qa * qb)));
        debug_assert_eq!(params.len(), l.end);
        Ok(Model { hidden: p.hidden, activation: p.activation, buckets, params })
    }

    /// This model with `hidden` units (at least its own): the new units get
    /// small random feature weights (deterministic for `seed`, as in
    /// [`Model::new`]), a zero bias and zero output weights, so the wider
    /// model computes exactly what this one does until training moves the
    /// new output weights (their gradient is not zero wherever a new
    /// unit is active). How a generation grows its net without starting
    /// from scratch.
    pub fn widened(&self, hidden: usize, seed: u64) -> Result<Model, String> {
        if hidden < self.hidden || hidden % 16 != 0 {
            return Err(format!(
                "cannot widen {} hidden units to {hidden} (at least as many, a multiple of 16)",
                self.hidden
            ));
        }
        let (old, new) = (self.layout(), Layout::of(hidden, self.buckets));
        let fresh = Model::new(hidden, self.buckets, self.activation, seed);
        let h = self.hidden;
        let mut params = Vec::with_capacity(new.end);
        for f in 0..INPUTS {
            params.extend_from_slice(&self.params[f * h..(f + 1) * h]);
            params.extend_from_slice(&fresh.params[f * hidden + h..(f + 1) * hidden]);
        }
        params.extend_from_slice(&self.params[old.b1..old.w2]);
        params.resize(new.w2, 0.0);
        for b in 0..self.buckets {
            let (w2, _) = old.output(b);
            for k in 0..2 {
                params.extend_from_slice(&self.params[w2 + k * h..w2 + (k + 1) * h]);
                params.resize(params.len() + hidden - h, 0.0);
            }
        }
        params.extend_from_slice(&self.params[old.b2..old.end]);
        debug_assert_eq!(params.len(), new.end);
        Ok(Model { hidden, activation: self.activation, buckets: self.buckets, params })
    }

    fn layout(&self) -> Layout {
        Layout::of(self.hidden, self.buckets)
    }

    /// The output bucket of `s`.
    fn bucket_of(&self, s: &Sample) -> usize {
        bucket(u32::from(s.count), self.buckets)
    }

    /// Number of parameters.
    pub fn len(&self) -> usize {
        self.params.len()
    }

    /// Whether the model has no parameters (never, for a built model).
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }

    /// Scratch for [`Model::forward`].
    pub fn scratch(&self) -> Scratch {
        Scratch { acc: vec![0.0; 2 * self.hidden] }
    }

    fn act(&self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self.activation {
            Activation::Clipped => c,
            Activation::SquaredClipped => c * c,
        }
    }

    fn act_grad(&self, x: f32) -> f32 {
        if x <= 0.0 || x >= 1.0 {
            0.0
        } else {
            match self.activation {
                Activation::Clipped => 1.0,
                Activation::SquaredClipped => 2.0 * x,
            }
        }
    }

    /// The raw output (centipawns / SCALE) of `s`, side to move's view;
    /// leaves the accumulators (us, then them) in `scratch`.
    pub fn forward(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        let l = self.layout();
        let h = l.h;
        let p = &self.params;
        let (w2, b2) = l.output(self.bucket_of(s));
        let mut out = p[b2];
        for (k, perspective) in [s.side, s.side.flip()].into_iter().enumerate() {
            let acc = &mut scratch.acc[k * h..(k + 1) * h];
            acc.copy_from_slice(&p[l.b1..l.b1 + h]);
            for f in s.active(perspective) {
                for (a, w) in acc.iter_mut().zip(&p[f * h..(f + 1) * h]) {
                    *a += w;
                }
            }
            let w2 = &p[w2 + k * h..w2 + (k + 1) * h];
            out += acc.iter().zip(w2).map(|(&a, &w)| self.act(a) * w).sum::<f32>();
        }
        out
    }

    /// Adds the gradient of the loss to `grad` given `d_out`, the loss's
    /// derivative by the output, after [`Model::forward`] on `s` filled
    /// `scratch`.
    pub fn backward(&self, s: &Sample, scratch: &Scratch, d_out: f32, grad: &mut [f32]) {
        let l = self.layout();
        let h = l.h;
        let (w2_at, b2) = l.output(self.bucket_of(s));
        grad[b2] += d_out;
        let mut d_acc = vec![0.0f32; h];
        for (k, perspective) in [s.side, s.side.flip()].into_iter().enumerate() {
            let acc = &scratch.acc[k * h..(k + 1) * h];
            let w2 = w2_at + k * h;
            for i in 0..h {
                grad[w2 + i] += d_out * self.act(acc[i]);
                d_acc[i] = d_out * self.params[w2 + i] * self.act_grad(acc[i]);
            }
            for (g, d) in grad[l.b1..l.b1 + h].iter_mut().zip(&d_acc) {
                *g += d;
            }
            for f in s.active(perspective) {
                for (g, d) in grad[f * h..(f + 1) * h].iter_mut().zip(&d_acc) {
                    *g += d;
                }
            }
        }
    }

    /// The quantised network in the engine's format.
    pub fn quantise(&self) -> Result<Network, NetError> {
        let l = self.layout();
        let q = |x: f32, unit: u16| (x * f32::from(unit)).round() as i16;
        let p = &self.params;
        Network::new(Parts {
            activation: self.activation,
            hidden: self.hidden,
            buckets: self.buckets,
            qa: QA,
            qb: QB,
            scale: SCALE,
            feature_weights: p[..l.b1].iter().map(|&w| q(w, QA)).collect(),
            feature_bias: p[l.b1..l.w2].iter().map(|&w| q(w, QA)).collect(),
            output_weights: p[l.w2..l.b2].iter().map(|&w| q(w, QB)).collect(),
            output_bias: p[l.b2..l.end]
                .iter()
                .map(|&b| (b * f32::from(QA) * f32::from(QB)).round() as i32)
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirroring_matches_the_engine() {
        use crown::chess::PieceKind;
        for sq in 0..64 {
            let sq = Square::from_index(sq);
            for color in Side::BOTH {
                for kind in PieceKind::ALL {
                    let white = feature(Side::White, color, kind, sq);
                    assert_eq!(mirror(white), feature(Side::Black, color, kind, sq));
                }
            }
        }
    }

    #[test]
    fn mirroring_files_keeps_the_position_and_skips_castling_kings() {
        use crown::chess::{Color, PieceKind};
        let piece = |color, kind| Piece { color, kind };
        let board = |white_king: &str| {
            [
                (white_king, piece(Color::White, PieceKind::King)),
                ("g8", piece(Color::Black, PieceKind::King)),
                ("b2", piece(Color::White, PieceKind::Pawn)),
                ("c6", piece(Color::Black, PieceKind::Knight)),
            ]
            .map(|(name, p)| (Square::parse(name).unwrap(), p))
        };
        let s = Sample::new(board("d1").into_iter(), Side::Black, -35, 0).unwrap();
        let m = s.mirrored().expect("no king on e1 or e8");
        // The mirror of d1, b2, c6, g8 is e1, g2, f6, b8.
        let want = Sample::new(
            [
                ("e1", piece(Color::White, PieceKind::King)),
                ("b8", piece(Color::Black, PieceKind::King)),
                ("g2", piece(Color::White, PieceKind::Pawn)),
                ("f6", piece(Color::Black, PieceKind::Knight)),
            ]
            .map(|(name, p)| (Square::parse(name).unwrap(), p))
            .into_iter(),
            Side::Black,
            -35,
            0,
        )
        .unwrap();
        assert_eq!(m.features, want.features);
        assert_eq!((m.side, m.score, m.result), (Side::Black, -35, 0));
        // A king on its castling square might still castle: no mirror.
        assert!(Sample::new(board("e1").into_iter(), Side::White, 0, 1)
            .unwrap()
            .mirrored()
            .is_none());
        let black_home = [
            (Square::parse("a1").unwrap(), piece(Color::White, PieceKind::King)),
            (Square::parse("e8").unwrap(), piece(Color::Black, PieceKind::King)),
        ];
        assert!(Sample::new(black_home.into_iter(), Side::White, 0, 1)
            .unwrap()
            .mirrored()
            .is_none());
        // In Chess960 a king anywhere on its back rank might still castle.
        let mut s960 = Sample::new(board("d1").into_iter(), Side::Black, -35, 0).unwrap();
        s960.chess960 = true;
        assert!(s960.mirrored().is_none());
        let off_home = [
            (Square::parse("d2").unwrap(), piece(Color::White, PieceKind::King)),
            (Square::parse("g7").unwrap(), piece(Color::Black, PieceKind::King)),
        ];
        let mut s960 = Sample::new(off_home.into_iter(), Side::Black, -35, 0).unwrap();
        s960.chess960 = true;
        assert!(s960.mirrored().is_some_and(|m| m.chess960));
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        for activation in [Activation::Clipped, Activation::SquaredClipped] {
            let mut model = Model::new(16, 8, activation, 3);
            for (i, p) in model.params.iter_mut().enumerate() {
                *p += (i % 7) as f32 * 0.03;
            }
            let pos = <crown::chess::Position as crown::game::Game>::from_fen(
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                crown::game::Variant::Chess,
            )
            .unwrap();
            let s = sample_of(&pos);
            let mut scratch = model.scratch();
            model.forward(&s, &mut scratch);
            let mut grad = vec![0.0; model.len()];
            model.backward(&s, &scratch, 1.0, &mut grad);
            let l = Layout::of(16, 8);
            // 32 pieces: the last bucket; the others get no gradient.
            let (w2, b2) = l.output(7);
            assert_eq!((w2, b2), (l.w2 + 7 * 32, l.end - 1));
            assert!(grad[l.w2..w2].iter().chain(&grad[l.b2..b2]).all(|&g| g == 0.0));
            let probes = [b2, w2 + 3, w2 + 20, l.b1 + 5, 16 * 8 + 2, mirror(8) * 16 + 9];
            for &i in &probes {
                let eps = 1e-3;
                let mut up = model.clone();
                up.params[i] += eps;
                let mut down = model.clone();
                down.params[i] -= eps;
                let numeric =
                    (up.forward(&s, &mut scratch) - down.forward(&s, &mut scratch)) / (2.0 * eps);
                assert!(
                    (numeric - grad[i]).abs() < 2e-2,
                    "{activation:?} param {i}: {numeric} vs {}",
                    grad[i]
                );
            }
        }
    }

    /// Positions of random games from the start position: `plies` each,
    /// one game per seed.
    fn playouts(seeds: std::ops::RangeInclusive<u64>, plies: usize) -> Vec<crown::chess::Position> {
        use crown::game::{random_playout, Game, Variant};
        let start = crown::chess::Position::start(Variant::Chess);
        seeds.flat_map(|seed| random_playout(start.clone(), plies, seed)).collect()
    }

    /// The training sample of `pos` (score and result unused).
    fn sample_of(pos: &crown::chess::Position) -> Sample {
        Sample::new(
            Square::all().filter_map(|sq| pos.piece_on(sq).map(|p| (sq, p))),
            crown::game::Game::side_to_move(pos),
            0,
            1,
        )
        .unwrap()
    }

    /// A model with weights of the size training gives (the first net:
    /// feature weights up to 0.35, output weights up to 0.3), biases
    /// putting many lanes inside the clipping range.
    fn trained_like(activation: Activation, buckets: usize, seed: u64) -> Model {
        let mut model = Model::new(256, buckets, activation, seed);
        let l = Layout::of(256, buckets);
        let mut rng = crown::rng::Rng::new(seed);
        for (i, p) in model.params.iter_mut().enumerate() {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0;
            *p = if i < l.b1 {
                u * 0.3
            } else if i < l.w2 {
                0.5 + u * 0.5
            } else {
                u * 0.5
            };
        }
        model
    }

    /// `model` with every weight rounded to the grid it is quantised to.
    fn on_grid(model: &Model) -> Model {
        let l = model.layout();
        let mut m = model.clone();
        let unit = |i: usize| {
            if i < l.w2 {
                f32::from(QA)
            } else if i < l.b2 {
                f32::from(QB)
            } else {
                f32::from(QA) * f32::from(QB)
            }
        };
        for (i, p) in m.params.iter_mut().enumerate() {
            *p = (*p * unit(i)).round() / unit(i);
        }
        m
    }

    /// The nets kept in `tuning/nets/` (candidates under test, see
    /// tuning/nets/README.md) are valid net files the trainer can start from,
    /// and exported again in the trainer's units (QB 256 where they have
    /// 64: every weight lands on the new grid) they score every position as
    /// before, up to the final division's truncation (1 cp).
    #[test]
    fn the_kept_nets_load() {
        use crown::eval::nnue::NetworkEvaluator;
        use crown::eval::Evaluator;
        use std::sync::Arc;
        let positions = playouts(1..=3, 60);
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
        let mut count = 0;
        for entry in std::fs::read_dir(&dir).expect("tuning/nets") {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "nnue") {
                let net = Network::from_bytes(&std::fs::read(&path).unwrap())
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let model = Model::from_network(&net, net.buckets()).unwrap();
                let again = model.quantise().unwrap();
                assert_eq!(again.parts().qb, QB);
                let mut old = NetworkEvaluator::new(Some(Arc::new(net)));
                let mut new = NetworkEvaluator::new(Some(Arc::new(again)));
                for pos in &positions {
                    let (a, b) = (old.evaluate(pos), new.evaluate(pos));
                    assert!((a - b).abs() <= 1, "{}: {a} against {b}", path.display());
                }
                count += 1;
            }
        }
        assert!(count > 0, "no net in {}", dir.display());
    }

    #[test]
    fn a_model_from_a_net_quantises_back_to_it() {
        for (from, to) in [(1, 1), (1, 8), (8, 8)] {
            let model = on_grid(&trained_like(Activation::SquaredClipped, from, 4));
            let net = model.quantise().unwrap();
            let back = Model::from_network(&net, to).unwrap();
            assert_eq!(back.buckets, to);
            if from == to {
                assert_eq!(back.quantise().unwrap().to_bytes(), net.to_bytes());
            } else {
                // One bucket grown to 8: every bucket starts as the one.
                let l = Layout::of(256, to);
                let (w0, b0) = l.output(0);
                for b in 1..to {
                    let (w, bias) = l.output(b);
                    assert_eq!(back.params[w..w + 512], back.params[w0..w0 + 512]);
                    assert_eq!(back.params[bias], back.params[b0]);
                }
                assert_eq!(back.params[..l.w2], model.params[..l.w2]);
            }
        }
        let eight = trained_like(Activation::Clipped, 8, 4).quantise().unwrap();
        assert!(Model::from_network(&eight, 4).is_err());
    }

    #[test]
    fn a_widened_model_computes_the_same_and_its_new_units_learn() {
        let model = trained_like(Activation::SquaredClipped, 8, 5);
        let wide = model.widened(384, 9).unwrap();
        assert_eq!((wide.hidden, wide.buckets, wide.len()), (384, 8, parameter_count(384, 8)));
        let (mut narrow_scratch, mut wide_scratch) = (model.scratch(), wide.scratch());
        let l = Layout::of(384, 8);
        let mut new_unit_gradient = 0.0f32;
        for pos in playouts(3..=3, 60) {
            let s = sample_of(&pos);
            let (a, b) =
                (model.forward(&s, &mut narrow_scratch), wide.forward(&s, &mut wide_scratch));
            assert!((a - b).abs() <= 1e-5 * a.abs().max(1.0), "{a} vs {b}");
            let mut grad = vec![0.0; wide.len()];
            wide.backward(&s, &wide_scratch, 1.0, &mut grad);
            let (w2, _) = l.output(model.bucket_of(&s));
            new_unit_gradient += grad[w2 + 256..w2 + 384].iter().map(|g| g.abs()).sum::<f32>();
        }
        assert!(new_unit_gradient > 0.0, "the new units' output weights never move");
        // The old units keep their weights; the new ones start silent.
        assert_eq!(wide.params[..256], model.params[..256]);
        assert_eq!(wide.params[384..384 + 256], model.params[256..512]);
        let (w2, _) = l.output(3);
        assert!(wide.params[w2 + 256..w2 + 384].iter().all(|&w| w == 0.0));
        assert!(wide.params[256..384].iter().any(|&w| w != 0.0));
        assert!(model.widened(128, 1).is_err());
        assert!(model.widened(300, 1).is_err());
    }

    #[test]
    fn integer_inference_matches_the_float_forward_pass() {
        // Two checks on 1,000 positions of random games, for both
        // activations, with one output bucket and with 8. (1) With weights on the quantisation grid the
        // integer inference computes the float forward pass up to its
        // truncating divisions: within 2 centipawns (measured: 1.0 at
        // worst). (2) With weights off the grid, quantisation adds its
        // error; for these random weights (scores up to 3,600 cp, every
        // lane partly active) it was measured at 10 to 13 cp mean, 41 to 63
        // cp worst with QB 256 (33 to 38 and 105 to 116 with QB 64), so the
        // bounds are 20 cp mean and 80 cp worst. A trained net's
        // error is measured separately (tuning/README.md).
        use crown::eval::nnue::NetworkEvaluator;
        use crown::eval::Evaluator;
        use std::sync::Arc;
        let positions: Vec<_> = playouts(1..=10, 99).into_iter().take(1000).collect();
        assert_eq!(positions.len(), 1000);
        let buckets: std::collections::BTreeSet<usize> =
            positions.iter().map(|p| bucket(p.occupancy().count(), 8)).collect();
        assert!(buckets.len() >= 3, "positions in buckets {buckets:?}");
        let kinds = [Activation::Clipped, Activation::SquaredClipped];
        for (activation, buckets) in kinds.into_iter().flat_map(|a| [(a, 1), (a, 8)]) {
            let rough = trained_like(activation, buckets, 11);
            for (model, exact) in [(on_grid(&rough), true), (rough, false)] {
                let net = Arc::new(model.quantise().expect("in range"));
                let mut eval = NetworkEvaluator::new(Some(net));
                let mut scratch = model.scratch();
                let (mut worst, mut total, mut spread) = (0.0f64, 0.0, 0.0f64);
                for pos in &positions {
                    let s = sample_of(pos);
                    let float = f64::from(model.forward(&s, &mut scratch)) * f64::from(SCALE);
                    let int = f64::from(eval.evaluate(pos));
                    let error = (int - float).abs();
                    let tolerance = if exact { 2.01 } else { 80.0 };
                    assert!(
                        error <= tolerance,
                        "{activation:?} {buckets} exact {exact}: {int} vs {float}"
                    );
                    worst = worst.max(error);
                    total += error;
                    spread = spread.max(float.abs());
                }
                // Scores must not be trivially small for the check to mean anything.
                assert!(spread > 300.0, "{activation:?}: scores up to {spread}");
                let mean = total / positions.len() as f64;
                assert!(exact || mean < 20.0, "{activation:?}: mean error {mean}");
                println!("{activation:?}, {buckets} buckets, on grid {exact}: worst {worst:.2} cp, mean {mean:.2} cp, scores up to {spread:.0} cp");
            }
        }
    }
}
