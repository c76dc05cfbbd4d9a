//! The loss picture: training and validation loss per epoch as an SVG,
//! redrawn beside the checkpoints after every epoch.
//!
//! Drawn with `plotters` (SVG backend only): a maintained plotting crate
//! whose SVG backend writes text as SVG `<text>` elements, so it needs no
//! font files or system libraries on a headless machine.

use plotters::prelude::*;
use std::path::Path;

/// Writes the curves of `history`, under `title`, (`(training, validation)` loss per epoch,
/// validation `NaN` when there is none) to `path`.
pub fn draw(path: &Path, title: &str, history: &[(f64, f64)]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let finite = || history.iter().flat_map(|&(t, v)| [t, v]).filter(|x| x.is_finite());
    let (low, high) = finite().fold((f64::MAX, f64::MIN), |(l, h), x| (l.min(x), h.max(x)));
    if history.is_empty() || low > high {
        return Ok(());
    }
    let pad = ((high - low) * 0.05).max(1e-6);
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(1f64..(history.len().max(2) as f64), (low - pad)..(high + pad))
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("epoch")
        .y_desc("loss (MSE of win probability)")
        .y_label_formatter(&|y| format!("{y:.5}"))
        .draw()
        .map_err(|e| err(&e))?;
    let series = |k: usize| {
        history
            .iter()
            .enumerate()
            .map(move |(i, &(t, v))| ((i + 1) as f64, if k == 0 { t } else { v }))
            .filter(|(_, y)| y.is_finite())
    };
    for (k, name, color) in [(0, "training", BLUE), (1, "validation", RED)] {
        if series(k).next().is_none() {
            continue;
        }
        chart
            .draw_series(LineSeries::new(series(k), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart
            .draw_series(series(k).map(|p| Circle::new(p, 3, color.filled())))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}
